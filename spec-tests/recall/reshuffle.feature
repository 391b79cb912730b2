@recall
Feature: Reshuffling the discard pile
  Neither "Recall Card Game Rules" nor "Recall Card Game - Game Play and Rules" says what happens
  when the draw pile runs out; the rulebook rules (REC-RESH-1) that a draw (or a penalty draw) that
  finds the draw pile empty first shuffles the discard pile, except its top card, face down into a
  new draw pile; with only that top card left there is nothing to draw: a draw ends the game on
  points (REC-RESH-4) and a penalty draw draws nothing (REC-RESH-5).

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

  @rule:REC-RESH-1
  Scenario: a discard pile of two cards keeps its top and gives a draw pile of one
    Given a recall game with players ann, bob, cat, dan
    And ann holds AS, 2S, 3S, 5S, 6S, 7S, 8S, 9S, 10S, JS, QS, KS, JK
    And bob holds AH, 2H, 3H, 4H, 5H, 6H, 7H, 8H, 9H, 10H, JH, QH, KH
    And cat holds AC, 2C, 3C, 4C, 5C, 6C, 7C, 8C, 9C, 10C, JC, QC, KC
    And dan holds AD, 2D, 3D, 4D, 5D, 6D, 7D, 9D, 10D, JD, QD, KD, JK
    And the discard pile is 4S, 8D
    And the draw pile has 0 cards
    And it is ann's turn
    When ann does draw
    Then everyone sees game_reshuffle with drawPileSize 1
    And everyone sees player_draw with user ann and drawPileSize 0
    And the drawn is 8D
    And the discard pile is 4S
    And the draw pile has 0 cards
    And the phase is playing_card
    And bob does not know 8D

  @rule:REC-RESH-3 @rule:REC-RESH-4 @rule:REC-END-3 @rule:REC-END-6
  Scenario: with nothing left to draw, ann's draw ends the game on points
    Given a recall game with players ann, bob, cat, dan
    And ann holds AS, 2S, 3S, 5S, 6S, 7S, 8S, 9S, 10S, JS, QS, KS, JK
    And bob holds AH, 2H, 3H, 4H, 5H, 6H, 7H, 8H, 9H, 10H, JH, QH, KH, JK
    And cat holds AC, 2C, 3C, 4C, 5C, 6C, 7C, 8C, 9C, 10C, JC, QC, KC
    And dan holds AD, 2D, 3D, 4D, 5D, 6D, 7D, 8D, 9D, 10D, JD, QD, KD
    And the discard pile is 4S
    And the draw pile has 0 cards
    And it is ann's turn
    When ann does draw
    Then the game is over
    And dan wins
    And bob's score is 75
    And dan's score is 75
    And everyone sees game_end with reason deck_exhausted and caller none
    And ann does not see game_reshuffle
    And the discard pile is 4S
    And ann holds 13 cards

  @rule:REC-RESH-5 @rule:REC-RESH-3
  Scenario: a wrong same rank play with nothing left to draw costs no card
    Given a recall game with players ann, bob, cat, dan
    And ann holds AS, 2S, 3S, 4S, 5S, 6S, 7S, 8S, 9S, 10S, JS, QS, KS
    And bob holds AH, 2H, 3H, 4H, 5H, 6H, 7H, 8H, 9H, 10H, JH, QH, KH, JK
    And cat holds AC, 2C, 3C, 4C, 6C, 7C, 8C, 9C, 10C, JC, QC, KC, JK
    And dan holds AD, 2D, 3D, 4D, 5D, 6D, 7D, 8D, 9D, 10D, JD, QD, KD
    And the draw pile is 5C
    And the draw pile has 1 card
    And it is ann's turn
    And ann did draw
    And ann did play drawn
    When bob does same_rank 2H
    Then everyone sees player_same_rank_fail with user bob and card 2H
    And bob does not see player_penalty
    And bob does not see game_reshuffle
    And bob holds 14 cards
    And the discard pile is 5C
    And the draw pile has 0 cards
    And the phase is same_rank_window
    And the game is not over
