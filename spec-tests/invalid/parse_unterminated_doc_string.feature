# A doc string without its closing quotes takes the rest of the file, so it is reported where it opens.
@cambia
Feature: Visibility

  Scenario: ann sees her drawn card privately
    Given a cambia game with players ann, bob
    And it is ann's turn
    And the draw pile is 5C, 9H
    When ann does draw_stockpile
    Then ann receives:
      """
      {"type": "private_draw", "card": {"id": "{5C}"}}
    And bob does not know 5C
