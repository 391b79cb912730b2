@cambia
Feature: The table's public state
  deckspec rulings, this rulebook: the game variables are in every player's view (a client shows
  them, bots read them): the card held after a draw, where it came from, the power on offer and
  the King's two cards. Each is cleared as soon as it no longer applies.

  Background:
    Given a cambia game with players ann, bob
    And ann holds 7S, KH, 3D, QD
    And bob holds 4H, 6D, 2S, 8H

  Rule: drawn is the card held after a draw, null otherwise

    @rule:CAM-STATE-1 @rule:CAM-STATE-2
    Scenario: a draw from the stockpile shows the held card and where it came from
      Given the draw pile is 5C
      And it is ann's turn
      Then the drawn is null
      And the drawn from stockpile is false
      When ann does draw_stockpile
      Then the drawn is 5C
      And the drawn from stockpile is true

    @rule:CAM-STATE-1
    Scenario: a turn starts with nothing held
      Given the draw pile is 5C
      And it is ann's turn
      And ann did draw_stockpile
      And it is bob's turn
      Then the drawn is null
      And the phase is awaiting_draw

    @rule:CAM-STATE-1 @rule:CAM-SPEC-1
    Scenario: a discarded 7 is no longer held while its power is on offer
      Given the draw pile is 7C
      And it is ann's turn
      And ann did draw_stockpile
      When ann does discard
      Then the drawn is null
      And the phase is awaiting_special

    @rule:CAM-STATE-1 @rule:CAM-REPL-5
    Scenario: the replacing card is no longer held while the replaced card's power is on offer
      Given the house rule allow_replace_abilities is true
      And the draw pile is 5C
      And it is ann's turn
      And ann did draw_stockpile
      When ann does replace slot 0
      Then the drawn is null
      And the phase is awaiting_special

    @rule:CAM-STATE-1 @rule:CAM-TIME-4 @rule:CAM-END-2
    Scenario: a card discarded by the timer at the last turn is no longer held
      Given the draw pile is 5C
      And it is ann's turn
      And ann did cambia
      And bob did draw_stockpile
      When time runs out
      Then the game is over
      And the drawn is null
      And the discard pile top is 5C

  Rule: drawn_from_stockpile says where this turn's card came from

    @rule:CAM-STATE-2
    Scenario: the next turn starts with no draw from the stockpile
      Given the draw pile is 5C
      And it is ann's turn
      And ann did draw_stockpile
      When ann does discard
      Then it is bob's turn
      And the drawn from stockpile is false

    @rule:CAM-STATE-2 @rule:CAM-STATE-4
    Scenario: a draw from the discard pile is not from the stockpile
      Given the house rule allow_draw_from_discard_pile is true
      And the discard pile is 4S, 8D
      And it is ann's turn
      When ann does draw_discardpile
      Then the drawn is 4S
      And the drawn from stockpile is false
      And the king first is null
      And the king second is null

  Rule: special names the power on offer and the King keeps its two cards until the decision

    @rule:CAM-STATE-3 @rule:CAM-STATE-4
    Scenario: the King's power shows its kind, then its two cards
      Given the draw pile is KC
      And it is ann's turn
      Then the special is ""
      When ann does draw_stockpile
      And ann does discard
      Then the special is swap_peek
      When ann does special swap_peek ann's slot 2 and bob's slot 2
      Then the special is swap_peek_swap
      And the king first is 3D
      And the king second is 2S

    @rule:CAM-STATE-3 @rule:CAM-STATE-4 @rule:CAM-STATE-2
    Scenario: a turn starts with no power on offer and no King's cards
      Given the draw pile is KC
      And it is ann's turn
      And ann did draw_stockpile
      And ann did discard
      And ann did special swap_peek ann's slot 2 and bob's slot 2
      And it is bob's turn
      Then the special is ""
      And the king first is null
      And the king second is null
      And the drawn from stockpile is false
      And the phase is awaiting_draw

    @rule:CAM-STATE-3 @rule:CAM-STATE-4 @rule:CAM-END-1
    Scenario: a King swapped at the last turn leaves nothing on offer at the end
      Given the draw pile is KC
      And it is ann's turn
      And ann did cambia
      And bob did draw_stockpile
      And bob did discard
      And bob did special swap_peek bob's slot 2 and bob's slot 3
      When bob does special swap_peek_swap
      Then the game is over
      And the special is ""
      And the king first is null
      And the king second is null
