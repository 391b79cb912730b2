@check
Feature: An empty deck
  deckspec rulings "Check: Check and the end": when a draw finds the deck empty, the discard pile
  except its top card is shuffled face down into a new deck; if nothing can be drawn, the round
  ends.

  @rule:CHK-RESH-1
  Scenario: a draw from the empty deck reshuffles the discard pile except its top
    Given a check game with players ann, bob
    And the discard pile is 4S, 8D
    And the draw pile has 0 cards
    And it is ann's turn
    When ann does draw_from_deck
    Then everyone sees game_deck_reshuffle with deckSize 43
    And the draw pile has 42 cards
    And the discard pile is 4S
    And the phase is awaiting_discard
    And it is ann's turn

  @rule:CHK-RESH-1 @rule:CHK-VIS-1
  Scenario: the reshuffle message carries the new deck's size
    Given a check game with players ann, bob
    And the discard pile is 4S, 8D
    And the draw pile has 0 cards
    And it is ann's turn
    When ann does draw_from_deck
    Then bob receives:
      """
      {"type": "game_deck_reshuffle", "deckSize": 43}
      """

  @rule:CHK-RESH-1
  Scenario: no reshuffle while the deck has a card
    Given a check game with players ann, bob
    And the discard pile is 4S, 8D
    And the draw pile has 1 card
    And the draw pile is 9H
    And it is ann's turn
    When ann does draw_from_deck
    Then ann does not see game_deck_reshuffle
    And ann knows 9H
    And the draw pile has 0 cards
    And the discard pile top is 4S

  @rule:CHK-RESH-2 @rule:CHK-PEN-2
  Scenario: a penalty draw from the empty deck reshuffles too
    Given a check game with players ann, bob
    And bob holds 3D, 9C, 4H, 2S
    And the discard pile is 8D
    And the draw pile has 1 card
    And the draw pile is 5C
    And it is ann's turn
    And ann did draw_from_deck
    And ann did discard_drawn_card
    When bob does attempt_match 9C
    Then everyone sees player_match_fail with user bob and card 9C
    And everyone sees game_deck_reshuffle with deckSize 43
    And bob holds 5 cards
    And the draw pile has 42 cards
    And the discard pile is 5C

  @rule:CHK-RESH-3 @rule:CHK-END-1
  Scenario: with nothing left to draw, drawing ends the round
    Given a check game with players ann, bob
    And ann holds AS, 2S, 3S, 4S, 5S, 6S, 7S, 8S, 9S, 10S, JS, QS, KS, AH, 2H, 3H, 4H, 5H, 6H, 7H, 8H, 9H, 10H, JH, QH, KH
    And bob holds AD, 2D, 3D, 4D, 5D, 6D, 7D, 8D, 9D, 10D, JD, QD, KD, AC, 2C, 3C, 5C, 6C, 7C, 8C, 9C, 10C, JC, QC, KC
    And the discard pile is 4C
    And the draw pile has 0 cards
    And it is ann's turn
    When ann does draw_from_deck
    Then the game is over
    And ann does not see game_deck_reshuffle
    And the phase is round_over
    And everyone sees game_round_end
    And ann's score is 178
    And bob's score is 174
    And bob wins

  @rule:CHK-RESH-1
  Scenario: a discard pile of two cards gives a new deck of one
    Given a check game with players ann, bob
    And ann holds AS, 2S, 3S, 4S, 5S, 6S, 7S, 8S, 9S, 10S, JS, QS, KS, AH, 2H, 3H, 4H, 5H, 6H, 7H, 8H, 9H, 10H, JH, QH, KH
    And bob holds AD, 2D, 3D, 4D, 5D, 6D, 7D, 8D, 9D, 10D, JD, QD, KD, AC, 2C, 3C, 5C, 6C, 7C, 8C, 10C, JC, QC, KC
    And the discard pile is 4C, 9C
    And the draw pile has 0 cards
    And it is ann's turn
    When ann does draw_from_deck
    Then everyone sees game_deck_reshuffle with deckSize 1
    And ann knows 9C
    And the draw pile has 0 cards
    And the discard pile is 4C
    And the phase is awaiting_discard
    And the game is not over

  @rule:CHK-RESH-4 @rule:CHK-PEN-5
  Scenario: a wrong attempt with nothing left to draw costs no card
    Given a check game with players ann, bob
    And ann holds AS, 2S, 3S, 4S, 5S, 6S, 7S, 8S, 9S, 10S, JS, QS, KS, AH, 2H, 3H, 4H, 5H, 6H, 7H, 8H, 9H, 10H, JH, QH, KH
    And bob holds AD, 2D, 3D, 4D, 5D, 6D, 7D, 8D, 9D, 10D, JD, QD, KD, AC, 2C, 3C, 5C, 6C, 7C, 8C, 9C, 10C, JC, QC, KC
    And the draw pile has 1 card
    And the draw pile is 4C
    And the discard pile is empty
    And it is ann's turn
    And ann did draw_from_deck
    And ann did discard_drawn_card
    When bob does attempt_match AD
    Then everyone sees player_match_fail with user bob and card AD
    And ann does not see player_penalty
    And bob does not see private_penalty
    And ann does not see game_deck_reshuffle
    And bob holds 25 cards
    And the discard pile is 4C
    And the draw pile has 0 cards
    And the phase is matching_stage
    When ann does pass_match
    Then it is bob's turn
    And the game is not over
