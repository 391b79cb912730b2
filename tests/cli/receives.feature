# Used by tests/program/cli.rs: a `receives:` step that does not hold shows what differs, by path.
@cambia
Feature: CLI fixture, receives

  Scenario: bob expects the wrong card
    Given a cambia game with players ann, bob
    And ann holds 7S, KH, 3D, QD
    And the draw pile is 5C
    And it is ann's turn
    And ann did draw_stockpile
    When ann does discard
    Then bob receives:
      """
      {
        "type": "player_discard",
        "user": {"id": "ann"},
        "card": {"rank": "K", "suit": "Clubs", "colour": "black"}
      }
      """
