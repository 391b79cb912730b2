@cambia
Feature: Reshuffling the discard pile into the stockpile
  "Socket command actions", section "Draw Action"; deckspec rulings "Cambia: Reshuffle": when the
  stockpile is down to one card, the discard pile except its top card is shuffled face down under
  it.

  Background:
    Given a cambia game with players ann, bob
    And it is ann's turn

  @rule:CAM-RESH-1 @rule:CAM-RESH-4
  Scenario: a draw that leaves one card reshuffles the discard pile under it
    Given the draw pile is 5C, 9H
    And the draw pile has 2 cards
    And the discard pile is 4S, 8D
    When ann does draw_stockpile
    Then everyone sees game_reshuffle_stockpile with stockpileSize 44
    And only ann sees private_draw_stockpile with card 5C
    And the draw pile has 44 cards
    And the draw pile top is 9H
    And the discard pile is 4S

  @rule:CAM-RESH-1 @rule:CAM-EVT-1
  Scenario: the reshuffle message carries only the new stockpile size
    Given the draw pile is 5C, 9H
    And the draw pile has 2 cards
    And the discard pile is 4S, 8D
    When ann does draw_stockpile
    Then bob receives:
      """
      {"type": "game_reshuffle_stockpile", "stockpileSize": 44}
      """

  @rule:CAM-RESH-1
  Scenario: no reshuffle while more than one card is left
    Given the draw pile is 5C, 9H, 6C
    And the draw pile has 3 cards
    And the discard pile is 4S, 8D
    When ann does draw_stockpile
    Then ann does not see game_reshuffle_stockpile
    And the draw pile has 2 cards
    And the discard pile top is 4S

  @rule:CAM-RESH-2
  Scenario: a draw that finds a single card reshuffles first and then draws that card
    Given the draw pile is 9H
    And the draw pile has 1 card
    And the discard pile is 4S, 8D
    When ann does draw_stockpile
    Then everyone sees game_reshuffle_stockpile with stockpileSize 45
    And only ann sees private_draw_stockpile with card 9H
    And the draw pile has 44 cards
    And the discard pile is 4S

  @rule:CAM-RESH-3 @rule:CAM-PEN-1
  Scenario: a penalty draw that leaves one card reshuffles too
    Given bob holds 3D, 9C, 4H, 2S
    And the draw pile is QS, 5D
    And the draw pile has 2 cards
    And the discard pile is 7H, 8D
    When bob does snap 9C
    Then everyone sees game_reshuffle_stockpile with stockpileSize 44
    And bob holds 3D, 9C, 4H, 2S, QS, 5D
    And the draw pile has 43 cards
    And the discard pile is 7H

  @rule:CAM-RESH-4 @rule:CAM-DECK-1
  Scenario: after a reshuffle every card is still somewhere
    Given the draw pile is 5C, 9H
    And the draw pile has 2 cards
    And the discard pile is 4S, 8D
    And ann did draw_stockpile
    When ann does discard
    Then the discard pile is 5C, 4S
    And the draw pile has 44 cards
    And ann holds 4 cards
    And bob holds 4 cards
    And it is bob's turn
    When bob does draw_stockpile
    Then only bob sees private_draw_stockpile with card 9H
    And the draw pile has 43 cards

  @rule:CAM-RESH-5
  Scenario: with only the top card on the discard pile there is nothing to reshuffle
    Given ann holds AS, 2S, 3S, 5S, 6S, 7S, 8S, 9S, 10S, JS, QS, KS, AH, 2H, 3H, 4H, 5H, 6H, 7H, 8H, 10H, JH, QH, KH, AD, 2D
    And bob holds 3D, 4D, 5D, 6D, 7D, 8D, 9D, 10D, JD, QD, KD, AC, 2C, 3C, 4C, 6C, 7C, 8C, 9C, 10C, JC, QC, KC, JK, JK
    And the draw pile is 5C, 9H
    And the discard pile is 4S
    When ann does draw_stockpile
    Then ann does not see game_reshuffle_stockpile
    And the draw pile has 1 card
    And the draw pile top is 9H
    And the discard pile is 4S

  @rule:CAM-RESH-1 @rule:CAM-RESH-4
  Scenario: a discard pile of two cards gives its lower card to the stockpile
    Given ann holds AS, 2S, 3S, 5S, 6S, 7S, 8S, 9S, 10S, JS, QS, KS, AH, 2H, 3H, 4H, 5H, 6H, 7H, 8H, 10H, JH, QH, KH, AD
    And bob holds 2D, 3D, 4D, 5D, 6D, 7D, 9D, 10D, JD, QD, KD, AC, 2C, 3C, 4C, 6C, 7C, 8C, 9C, 10C, JC, QC, KC, JK, JK
    And the draw pile is 5C, 9H
    And the discard pile is 4S, 8D
    When ann does draw_stockpile
    Then everyone sees game_reshuffle_stockpile with stockpileSize 2
    And the draw pile has 2 cards
    And the draw pile top is 9H
    And the discard pile is 4S

  @rule:CAM-DRAW-8
  Scenario: nothing can be drawn when every other card is in the hands
    Given ann holds AS, 2S, 3S, 5S, 6S, 7S, 8S, 9S, 10S, JS, QS, KS, AH, 2H, 3H, 4H, 5H, 6H, 7H, 8H, 9H, 10H, JH, QH, KH, AD, 2D
    And bob holds 3D, 4D, 5D, 6D, 7D, 8D, 9D, 10D, JD, QD, KD, AC, 2C, 3C, 4C, 5C, 6C, 7C, 8C, 9C, 10C, JC, QC, KC, JK, JK
    And the discard pile is 4S
    When ann does draw_stockpile
    Then the action is rejected with "the stockpile is empty"
    And the phase is awaiting_draw
    And ann holds 27 cards
    And the discard pile is 4S

  @rule:CAM-PEN-6 @rule:CAM-SNAP-5
  Scenario: a wrong snap with nothing left to draw costs no card
    Given ann holds AS, 2S, 3S, 5S, 6S, 7S, 8S, 9S, 10S, JS, QS, KS, AH, 2H, 3H, 4H, 5H, 6H, 7H, 8H, 9H, 10H, JH, QH, KH, AD, 2D
    And bob holds 3D, 4D, 5D, 6D, 7D, 8D, 9D, 10D, JD, QD, KD, AC, 2C, 3C, 4C, 5C, 6C, 7C, 8C, 9C, 10C, JC, QC, KC, JK, JK
    And the discard pile is 4S
    When bob does snap 9C
    Then everyone sees player_snap_fail with user bob
    And ann does not see player_snap_penalty
    And bob holds 26 cards
    And ann knows 9C
    And the discard pile is 4S
    And it is ann's turn
