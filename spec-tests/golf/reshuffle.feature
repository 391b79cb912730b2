@golf
Feature: The stock runs out
  "Golf (six-card), as commonly played", section "Stock"; deckspec rulings "Golf (six-card)": as soon
  as a draw leaves the stock empty, the discard pile except its top is shuffled into a new stock,
  known to nobody.

  Background:
    Given a golf game with players ann, bob
    And ann holds 5S, 7H, KD, 6C, 9D, 2S
    And bob holds 4H, 6D, 3S, 8H, QC, AC

  @rule:GOLF-RESH-1
  Scenario: a draw that empties the stock reshuffles the discard pile into a new stock
    Given the discard pile is 8D, 3H
    And the draw pile has 1 card
    And the draw pile is 10C
    And it is ann's turn
    When ann does draw_stock
    Then everyone sees game_reshuffle with stockSize 38
    And bob receives:
      """
      {"type": "game_reshuffle", "stockSize": 38}
      """
    And ann sees player_draw_stock with card 10C
    And the draw pile has 38 cards
    And the discard pile is 8D
    And ann holds 5S, 7H, KD, 6C, 9D, 2S
    And the phase is awaiting_decision

  @rule:GOLF-RESH-1
  Scenario: the drawn card stays in the player's hand through the reshuffle
    Given the discard pile is 8D, 3H
    And the draw pile has 1 card
    And the draw pile is 10C
    And it is ann's turn
    And ann did draw_stock
    When ann does discard_drawn
    Then the discard pile is 10C, 8D
    And the draw pile has 38 cards
    And ann holds 6 cards
    And bob holds 6 cards

  @rule:GOLF-RESH-1
  Scenario: no reshuffle while a card is left in the stock
    Given the discard pile is 8D, 3H
    And the draw pile has 2 cards
    And the draw pile is 10C, 4C
    And it is ann's turn
    When ann does draw_stock
    Then ann does not see game_reshuffle
    And the draw pile has 1 card
    And the draw pile top is 4C
    And the discard pile top is 8D

  @rule:GOLF-RESH-1 @rule:GOLF-DRAW-1
  Scenario: the next draw takes from the new stock
    Given the discard pile is 8D, 3H
    And the draw pile has 1 card
    And the draw pile is 10C
    And it is ann's turn
    And ann did draw_stock
    And ann did swap slot 4
    When bob does draw_stock
    Then the draw pile has 37 cards
    And bob does not see game_reshuffle
    And the discard pile is 9D, 8D

  @rule:GOLF-RESH-2
  Scenario: the reshuffled cards are known to nobody
    Given the discard pile is 8D, 3H
    And the draw pile has 1 card
    And the draw pile is 10C
    And it is ann's turn
    When ann does draw_stock
    Then ann does not know 3H
    And bob does not know 3H
    And everyone knows 8D

  @rule:GOLF-RESH-3
  Scenario: a draw from an empty stock reshuffles first, then draws
    Given the discard pile is 8D, 3H
    And the draw pile has 0 cards
    And it is ann's turn
    When ann does draw_stock
    Then everyone sees game_reshuffle with stockSize 39
    And everyone sees player_draw_stock with user ann
    And the draw pile has 38 cards
    And the discard pile is 8D
    And the phase is awaiting_decision
