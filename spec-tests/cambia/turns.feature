@cambia
Feature: Turns
  deckspec rulings "Conventions" and "Cambia: Turn"; "Socket command actions", section "Turn Timer
  and Current Turn Broadcast": seat order, a turn starts by drawing (or calling Cambia), and every
  change of turn is announced.

  @rule:CAM-TURN-2
  Scenario: a turn starts waiting for the current player to draw
    Given a cambia game with players ann, bob
    And it is ann's turn
    Then it is ann's turn
    And the phase is awaiting_draw

  @rule:CAM-TURN-1 @rule:CAM-DISC-2
  Scenario: after ann's turn it is bob's turn
    Given a cambia game with players ann, bob
    And the draw pile is 5C
    And it is ann's turn
    And ann did draw_stockpile
    When ann does discard
    Then it is bob's turn
    And the phase is awaiting_draw

  @rule:CAM-TURN-1
  Scenario: with three players the turn goes ann, bob, cat
    Given a cambia game with players ann, bob, cat
    And the draw pile is 5C, 6C
    And it is ann's turn
    And ann did draw_stockpile
    And ann did discard
    When bob does draw_stockpile
    And bob does discard
    Then it is cat's turn

  @rule:CAM-TURN-1
  Scenario: the turn passes from the last seat back to the first
    Given a cambia game with players ann, bob, cat, dan
    And the draw pile is 5C
    And it is dan's turn
    And dan did draw_stockpile
    When dan does discard
    Then it is ann's turn

  @rule:CAM-TURN-4
  Scenario: every player is told whose turn it is now
    Given a cambia game with players ann, bob, cat
    And the draw pile is 5C
    And it is ann's turn
    And ann did draw_stockpile
    When ann does discard
    Then everyone sees game_player_turn with user bob

  @rule:CAM-TURN-4 @rule:CAM-EVT-1
  Scenario: game_player_turn names the new current player by id
    Given a cambia game with players ann, bob
    And the draw pile is 5C
    And it is ann's turn
    And ann did draw_stockpile
    When ann does discard
    Then ann receives:
      """
      {"type": "game_player_turn", "user": {"id": "bob"}}
      """

  @rule:CAM-TURN-4
  Scenario: the turn is not announced again while it has not changed
    Given a cambia game with players ann, bob
    And the draw pile is 5C
    And it is ann's turn
    When ann does draw_stockpile
    Then ann does not see game_player_turn
    And bob does not see game_player_turn
    And it is ann's turn
