# A Given position that cannot be built fails at the step that cannot hold, instead of being
# silently changed.
@cambia
Feature: Given positions that cannot be placed

  Scenario: an empty discard pile and an empty draw pile
    Given a cambia game with players ann, bob
    And the discard pile is empty
    And the draw pile has 0 cards
    Then the game is not over

  Scenario: the same hand given twice
    Given a cambia game with players ann, bob
    And ann holds 7S, KH
    And ann holds 9C
    Then the game is not over

  Scenario: more cards in the draw pile than are left
    Given a cambia game with players ann, bob
    And the discard pile is 4S, 8D
    And the draw pile has 50 cards
    Then the game is not over
