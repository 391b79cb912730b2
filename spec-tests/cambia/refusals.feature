@cambia
Feature: Refused actions
  Out of turn, in the wrong phase, at a bad target or from a locked hand: the action is refused
  with a reason and nothing changes.

  Background:
    Given a cambia game with players ann, bob
    And ann holds 7S, KH, 3D, QD
    And bob holds 4H, 6D, 2S, 8H
    And it is ann's turn

  Rule: only the current player plays their turn

    @rule:CAM-TURN-3
    Scenario: bob cannot draw during ann's turn
      Given the draw pile is 5C
      When bob does draw_stockpile
      Then the action is rejected with "not your turn"
      And the draw pile top is 5C
      And it is ann's turn
      And the phase is awaiting_draw

    @rule:CAM-TURN-3
    Scenario: bob cannot discard the card ann drew
      Given the draw pile is 5C
      And ann did draw_stockpile
      When bob does discard
      Then the action is rejected with "not your turn"
      And the phase is awaiting_discard
      And it is ann's turn

    @rule:CAM-TURN-3
    Scenario: bob cannot replace with the card ann drew
      Given the draw pile is 5C
      And ann did draw_stockpile
      When bob does replace slot 0
      Then the action is rejected with "not your turn"
      And bob holds 4H, 6D, 2S, 8H
      And the phase is awaiting_discard

    @rule:CAM-TURN-3
    Scenario: bob cannot use the power ann was offered
      Given the draw pile is 9C
      And ann did draw_stockpile
      And ann did discard
      When bob does special peek_other ann's slot 2
      Then the action is rejected with "not your turn"
      And bob does not know 3D
      And the phase is awaiting_special
      And it is ann's turn

    @rule:CAM-TURN-3 @rule:CAM-CALL-1
    Scenario: bob cannot call Cambia during ann's turn
      When bob does cambia
      Then the action is rejected with "not your turn"
      And bob's locked is false
      And it is ann's turn

  Rule: each action has its moment in the turn

    @rule:CAM-DRAW-7
    Scenario: ann cannot draw a second card
      Given the draw pile is 5C, 9H
      And ann did draw_stockpile
      When ann does draw_stockpile
      Then the action is rejected with "you have already drawn a card"
      And the draw pile top is 9H
      And the phase is awaiting_discard

    @rule:CAM-DRAW-7 @rule:CAM-DRAW-4
    Scenario: ann cannot take the discard pile's top after drawing from the stockpile
      Given the house rule allow_draw_from_discard_pile is true
      And the draw pile is 5C
      And the discard pile is 4S
      And ann did draw_stockpile
      When ann does draw_discardpile
      Then the action is rejected with "you have already drawn a card"
      And the discard pile is 4S

    @rule:CAM-DRAW-4
    Scenario: drawing from the discard pile needs the house rule
      Given the discard pile is 4S
      When ann does draw_discardpile
      Then the action is rejected with "house rule allow_draw_from_discard_pile"
      And the discard pile is 4S
      And the phase is awaiting_draw

    @rule:CAM-DRAW-6
    Scenario: there is nothing to take from an empty discard pile
      Given the house rule allow_draw_from_discard_pile is true
      When ann does draw_discardpile
      Then the action is rejected with "the discard pile is empty"
      And the phase is awaiting_draw

    @rule:CAM-DISC-3
    Scenario: ann cannot discard before drawing
      When ann does discard
      Then the action is rejected with "you have not drawn a card"
      And the discard pile is empty
      And ann holds 7S, KH, 3D, QD

    @rule:CAM-DISC-3
    Scenario: ann cannot replace before drawing
      When ann does replace slot 1
      Then the action is rejected with "you have not drawn a card"
      And ann holds 7S, KH, 3D, QD

    @rule:CAM-SPEC-13
    Scenario: no power is on offer before drawing
      When ann does special peek_self slot 0
      Then the action is rejected with "no special action is pending"
      And the phase is awaiting_draw

    @rule:CAM-SPEC-13
    Scenario: a held 7 offers no power until it is discarded
      Given the draw pile is 7C
      And ann did draw_stockpile
      When ann does special peek_self slot 2
      Then the action is rejected with "no special action is pending"
      And ann does not know 3D
      And the phase is awaiting_discard

    @rule:CAM-SPEC-13
    Scenario: there is nothing to skip before drawing
      When ann does special skip
      Then the action is rejected with "no special action is pending"

    @rule:CAM-SPEC-14
    Scenario: ann cannot draw again while her power is on offer
      Given the draw pile is 8C, 9H
      And ann did draw_stockpile
      And ann did discard
      When ann does draw_stockpile
      Then the action is rejected
      And the draw pile top is 9H
      And the phase is awaiting_special

    @rule:CAM-SPEC-14
    Scenario: ann cannot call Cambia while her power is on offer
      Given the draw pile is 8C
      And ann did draw_stockpile
      And ann did discard
      When ann does cambia
      Then the action is rejected
      And ann's locked is false
      And the phase is awaiting_special

    @rule:CAM-SPEC-14 @rule:CAM-KING-1
    Scenario: ann cannot replace while the King's swap decision is pending
      Given the draw pile is KC
      And ann did draw_stockpile
      And ann did discard
      And ann did special swap_peek ann's slot 2 and bob's slot 2
      When ann does replace slot 0
      Then the action is rejected
      And ann holds 7S, KH, 3D, QD
      And the phase is awaiting_swap_decision

    @rule:CAM-KING-5
    Scenario: the King cannot swap before the reveal
      Given the draw pile is KC
      And ann did draw_stockpile
      And ann did discard
      When ann does special swap_peek_swap
      Then the action is rejected
      And ann holds 7S, KH, 3D, QD
      And bob holds 4H, 6D, 2S, 8H
      And the phase is awaiting_special

    @rule:CAM-CALL-2
    Scenario: Cambia cannot be called after drawing
      Given the draw pile is 5C
      And ann did draw_stockpile
      When ann does cambia
      Then the action is rejected with "you have already drawn a card"
      And ann's locked is false
      And the phase is awaiting_discard

  Rule: a power only takes the targets it allows

    @rule:CAM-SPEC-12
    Scenario: a 7 cannot be used to peek at bob's card
      Given the draw pile is 7C
      And ann did draw_stockpile
      And ann did discard
      When ann does special peek_other bob's slot 2
      Then the action is rejected with "the special on offer is peek_self"
      And ann does not know 2S
      And the phase is awaiting_special

    @rule:CAM-SPEC-12
    Scenario: a Jack cannot be used to peek
      Given the draw pile is JC
      And ann did draw_stockpile
      And ann did discard
      When ann does special peek_self slot 2
      Then the action is rejected with "the special on offer is swap_blind"
      And ann does not know 3D

    @rule:CAM-SPEC-12
    Scenario: a King cannot be used for a blind swap
      Given the draw pile is KC
      And ann did draw_stockpile
      And ann did discard
      When ann does special swap_blind ann's slot 2 and bob's slot 2
      Then the action is rejected with "the special on offer is swap_peek"
      And ann holds 7S, KH, 3D, QD
      And bob holds 4H, 6D, 2S, 8H

    @rule:CAM-SPEC-6
    Scenario: peek_self cannot look at bob's card
      Given the draw pile is 8C
      And ann did draw_stockpile
      And ann did discard
      When ann does special peek_self bob's slot 2
      Then the action is rejected with "must target your own card"
      And ann does not know 2S
      And the phase is awaiting_special

    @rule:CAM-SPEC-8
    Scenario: peek_other cannot look at ann's own card
      Given the draw pile is 10C
      And ann did draw_stockpile
      And ann did discard
      When ann does special peek_other ann's slot 2
      Then the action is rejected with "must target another player's card"
      And ann does not know 3D
      And the phase is awaiting_special

    @rule:CAM-SPEC-11
    Scenario: a blind swap needs two different cards
      Given the draw pile is QC
      And ann did draw_stockpile
      And ann did discard
      When ann does special swap_blind ann's slot 0 and ann's slot 0
      Then the action is rejected with "the two cards must differ"
      And ann holds 7S, KH, 3D, QD
      And the phase is awaiting_special

    @rule:CAM-SPEC-11
    Scenario: the King needs two different cards
      Given the draw pile is KC
      And ann did draw_stockpile
      And ann did discard
      When ann does special swap_peek bob's slot 2 and bob's slot 2
      Then the action is rejected with "the two cards must differ"
      And ann does not know 2S
      And the phase is awaiting_special

  Rule: a slot must hold a card

    @rule:CAM-TURN-5
    Scenario: ann cannot replace a slot beyond her hand
      Given the draw pile is 5C
      And ann did draw_stockpile
      When ann does replace slot 4
      Then the action is rejected with "no card in slot"
      And ann holds 7S, KH, 3D, QD
      And the phase is awaiting_discard

    @rule:CAM-TURN-5
    Scenario: ann cannot peek at a slot beyond bob's hand
      Given the draw pile is 9C
      And ann did draw_stockpile
      And ann did discard
      When ann does special peek_other bob's slot 4
      Then the action is rejected with "no card in slot"
      And the phase is awaiting_special

    @rule:CAM-TURN-5
    Scenario: bob cannot snap from a slot beyond his hand
      Given the discard pile is 4S
      When bob does snap slot 4
      Then the action is rejected with "no card in slot"
      And bob holds 4H, 6D, 2S, 8H
      And the discard pile is 4S

    @rule:CAM-TURN-5
    Scenario: a slot number below 0 is refused, as a client's mistake, not a fault
      Given the discard pile is 4S
      When bob does snap -1
      Then the action is rejected with "slot -1 is negative"
      And bob holds 4H, 6D, 2S, 8H
      And the discard pile is 4S

  Rule: a snap needs a top card and a card of the snapper's own hand

    @rule:CAM-SNAP-7
    Scenario: nobody can snap on an empty discard pile
      When bob does snap 4H
      Then the action is rejected with "the discard pile is empty"
      And bob holds 4H, 6D, 2S, 8H
      And the discard pile is empty

    @rule:CAM-SNAP-8
    Scenario: bob cannot snap a card of ann's hand
      Given the discard pile is 7H
      When bob does snap 7S
      Then the action is rejected with "that card is not in your hand"
      And ann holds 7S, KH, 3D, QD
      And bob holds 4H, 6D, 2S, 8H
      And the discard pile is 7H

    @rule:CAM-SNAP-8
    Scenario: bob cannot snap a card from the draw pile
      Given the discard pile is 7H
      And the draw pile is 7C
      When bob does snap 7C
      Then the action is rejected with "that card is not in your hand"
      And the draw pile top is 7C
      And the discard pile is 7H

  Rule: each action takes only the cards it names

    @rule:CAM-TURN-6
    Scenario: drawing takes no card or slot
      Given the draw pile is 5C
      When ann does draw_stockpile slot 0
      Then the action is rejected with "draw_stockpile takes no arguments"
      And the draw pile top is 5C
      And the phase is awaiting_draw

    @rule:CAM-TURN-6 @rule:CAM-SPEC-4
    Scenario: skipping a power takes no card or slot
      Given the draw pile is 7C
      And ann did draw_stockpile
      And ann did discard
      When ann does special skip slot 2
      Then the action is rejected with "special skip takes no arguments"
      And the phase is awaiting_special
      And it is ann's turn

    @rule:CAM-DISC-4
    Scenario Outline: discard only names the drawn card: <args>
      Given the draw pile is 5C
      And ann did draw_stockpile
      When ann does discard <args>
      Then the action is rejected with "you can only discard the card you drew"
      And ann holds 7S, KH, 3D, QD
      And the discard pile is empty
      And the phase is awaiting_discard

      Examples:
        | args             |
        | slot 0           |
        | 3D               |
        | drawn and slot 0 |
        | 5C and 5C        |

    @rule:CAM-DISC-4 @rule:CAM-DISC-1
    Scenario Outline: discard may name the drawn card: <args>
      Given the draw pile is 5C
      And ann did draw_stockpile
      When ann does discard <args>
      Then the discard pile top is 5C
      And ann holds 7S, KH, 3D, QD
      And it is bob's turn

      Examples:
        | args  |
        | drawn |
        | 5C    |

    @rule:CAM-REPL-6
    Scenario: replace needs a slot
      Given the draw pile is 5C
      And ann did draw_stockpile
      When ann does replace
      Then the action is rejected with "replace takes one slot"
      And ann holds 7S, KH, 3D, QD
      And the phase is awaiting_discard

    @rule:CAM-REPL-6
    Scenario: replace takes only one slot
      Given the draw pile is 5C
      And ann did draw_stockpile
      When ann does replace slot 0 and slot 1
      Then the action is rejected with "replace takes one slot"
      And ann holds 7S, KH, 3D, QD

    @rule:CAM-REPL-6
    Scenario: ann cannot replace a card of bob's hand
      Given the draw pile is 5C
      And ann did draw_stockpile
      When ann does replace bob's slot 0
      Then the action is rejected with "that card is not in your hand"
      And ann holds 7S, KH, 3D, QD
      And bob holds 4H, 6D, 2S, 8H
      And the discard pile is empty
      And the phase is awaiting_discard

    @rule:CAM-SPEC-15
    Scenario: special must name the power
      Given the draw pile is 7C
      And ann did draw_stockpile
      And ann did discard
      When ann does special
      Then the action is rejected with "name the special"
      And the phase is awaiting_special

    @rule:CAM-SPEC-15
    Scenario: a peek takes one card, not two
      Given the draw pile is 7C
      And ann did draw_stockpile
      And ann did discard
      When ann does special peek_self slot 2 and slot 3
      Then the action is rejected with "peek_self takes one card"
      And ann does not know 3D
      And ann does not know QD
      And the phase is awaiting_special

    @rule:CAM-SPEC-15
    Scenario: a peek needs a card
      Given the draw pile is 9C
      And ann did draw_stockpile
      And ann did discard
      When ann does special peek_other
      Then the action is rejected with "peek_other takes one card"
      And the phase is awaiting_special

    @rule:CAM-SPEC-15
    Scenario: a blind swap takes two cards, not one
      Given the draw pile is JC
      And ann did draw_stockpile
      And ann did discard
      When ann does special swap_blind slot 2
      Then the action is rejected with "swap_blind takes two cards"
      And ann holds 7S, KH, 3D, QD
      And the phase is awaiting_special

    @rule:CAM-SPEC-15
    Scenario: the King's reveal takes two cards, not three
      Given the draw pile is KC
      And ann did draw_stockpile
      And ann did discard
      When ann does special swap_peek slot 2 and bob's slot 2 and bob's slot 3
      Then the action is rejected with "swap_peek takes two cards"
      And ann does not know 2S
      And the phase is awaiting_special

    @rule:CAM-SPEC-16
    Scenario: a peek cannot look at a card of the draw pile
      Given the draw pile is 10C, 9H
      And ann did draw_stockpile
      And ann did discard
      When ann does special peek_other 9H
      Then the action is rejected with "that card is not in a hand"
      And ann does not know 9H
      And the phase is awaiting_special

    @rule:CAM-SPEC-16
    Scenario: a blind swap cannot take the top of the discard pile
      Given the draw pile is QC
      And ann did draw_stockpile
      And ann did discard
      When ann does special swap_blind slot 2 and QC
      Then the action is rejected with "that card is not in a hand"
      And ann holds 7S, KH, 3D, QD
      And the discard pile top is QC
      And the phase is awaiting_special

    @rule:CAM-SNAP-10
    Scenario: a snap needs a card
      Given the discard pile is 4S
      When bob does snap
      Then the action is rejected with "snap takes one card"
      And bob holds 4H, 6D, 2S, 8H
      And the discard pile is 4S

    @rule:CAM-SNAP-10
    Scenario: a snap takes one card at a time
      Given the discard pile is 4S
      When bob does snap 4H and 6D
      Then the action is rejected with "snap takes one card"
      And bob holds 4H, 6D, 2S, 8H
      And the discard pile is 4S
