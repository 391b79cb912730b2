@recall
Feature: Reshuffling the discard pile
  Neither "Recall Card Game Rules" nor "Recall Card Game - Game Play and Rules" says what happens
  when the draw pile runs out; the rulebook rules (REC-RESH-1) that a draw (or a penalty draw) that
  finds the draw pile empty first shuffles the discard pile, except its top card, face down into a
  new draw pile.

  @rule:REC-RESH-1
  Scenario: ann draws from an empty draw pile
    Given a recall game with players ann, bob
    And the discard pile is 4S, 8D
    And the draw pile has 0 cards
    And it is ann's turn
    When ann does draw
    Then everyone sees game_reshuffle with drawPileSize 45
    And the discard pile is 4S
    And the draw pile has 44 cards
    And the phase is playing_card
    And bob does not know 8D

  @rule:REC-RESH-1
  Scenario: the reshuffle is announced to bob with the new size
    Given a recall game with players ann, bob
    And the discard pile is 4S, 8D
    And the draw pile has 0 cards
    And it is ann's turn
    When ann does draw
    Then bob receives:
      """
      {"type": "game_reshuffle", "drawPileSize": 45}
      """

  @rule:REC-RESH-2
  Scenario: a penalty draw from an empty draw pile reshuffles first
    Given a recall game with players ann, bob
    And ann holds 7S, KH, 3D, QC
    And bob holds 4H, 6D, 2S, 8H
    And the discard pile is 4S, 8D
    And the draw pile has 1 card
    And the draw pile is 5C
    And it is ann's turn
    And ann did draw
    And ann did play drawn
    When bob does same_rank 2S
    Then everyone sees game_reshuffle with drawPileSize 45
    And bob holds 4H, 6D, 2S, 8H, ?
    And the discard pile is 5C
    And the draw pile has 44 cards
    And ann does not know 8D
