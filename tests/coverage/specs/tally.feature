@tally
Feature: Drawing in tally
  Background:
    Given a tally game with players ann, bob

  @rule:TAL-1
  Scenario: ann draws a pip card
    Given the draw pile is 5D, 9C
    When ann does draw
    Then everyone sees card_drawn with user ann and kind pip
    And the draws is 1

  @rule:TAL-1 @rule:TAL-2
  Scenario: ann draws a king
    Given the draw pile is KS, 9C
    When ann does draw
    Then everyone sees card_drawn with user ann and kind face
    And the faces is 1

  @rule:TAL-2
  Scenario: ann draws a queen, then an ace
    Given the draw pile is QH, AC, 2D
    When ann does draw
    And ann does draw
    Then the faces is 1
    And the draws is 2

  @rule:TAL-3
  Scenario: the last card is drawn, then the deck is empty
    Given the house rule hand_size is 25
    And the draw pile is 3C, 4C
    When ann does draw
    And ann does draw
    And ann does draw
    Then the game is over

  Scenario: a draw takes no cards
    When ann does draw 5D
    Then the action is rejected with "draw takes no cards"
