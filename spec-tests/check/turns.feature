@check
Feature: Turns, drawing and discarding
  "Game Rules & Mechanics (Authoritative Overview)", section "6. Gameplay - Player Turns"; deckspec
  rulings "Check: Turn": draw from the deck (seen by the drawer only) or take the discard pile's
  top, then swap it into the grid or discard it; the discard opens a matching stage, and the turn
  passes in seat order.

  Rule: a turn starts with a draw and passes in seat order

    Background:
      Given a check game with players ann, bob, cat
      And ann holds 7S, KH, 3D, QC
      And bob holds 4H, 6D, 2S, 8H
      And cat holds 5S, 9D, JH, AC

    @rule:CHK-TURN-2
    Scenario: a turn starts waiting for the current player to draw
      Given it is ann's turn
      Then it is ann's turn
      And the phase is awaiting_draw

    @rule:CHK-TURN-4 @rule:CHK-TURN-1 @rule:CHK-MATCH-7
    Scenario: after the draw, the discard and everyone's pass, it is bob's turn
      Given the draw pile is 5C
      And it is ann's turn
      And ann did draw_from_deck
      And ann did discard_drawn_card
      When ann does pass_match
      And bob does pass_match
      And cat does pass_match
      Then it is bob's turn
      And the phase is awaiting_draw
      And everyone sees game_player_turn with user bob
      And bob may do draw_from_deck
      And ann may not do draw_from_deck

    @rule:CHK-TURN-4
    Scenario: game_player_turn names the new current player by id
      Given the draw pile is 5C
      And it is ann's turn
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      When cat does pass_match
      Then ann receives:
        """
        {"type": "game_player_turn", "user": {"id": "bob"}}
        """

    @rule:CHK-TURN-1
    Scenario: the turn passes from the last seat back to the first
      Given the draw pile is 5C
      And it is cat's turn
      And cat did draw_from_deck
      And cat did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      When cat does pass_match
      Then it is ann's turn
      And everyone sees game_player_turn with user ann

    @rule:CHK-TURN-3 @rule:CHK-CHECK-4
    Scenario: bob cannot draw or call check during ann's turn
      Given it is ann's turn
      When bob does draw_from_deck
      Then the action is rejected
      When bob does call_check
      Then the action is rejected
      And it is ann's turn
      And the phase is awaiting_draw
      And the check_caller is none

    @rule:CHK-TURN-3
    Scenario: bob cannot discard ann's drawn card
      Given the draw pile is 5C
      And it is ann's turn
      And ann did draw_from_deck
      When bob does discard_drawn_card
      Then the action is rejected
      And the phase is awaiting_discard
      And the discard pile is empty

    @rule:CHK-TURN-5
    Scenario: ann cannot discard before drawing
      Given it is ann's turn
      When ann does discard_drawn_card
      Then the action is rejected with "you have not drawn a card"
      When ann does swap_and_discard slot 0
      Then the action is rejected with "you have not drawn a card"
      And ann holds 7S, KH, 3D, QC
      And the phase is awaiting_draw

    @rule:CHK-TURN-5
    Scenario: ann cannot draw a second card
      Given the draw pile is 5C, 9H
      And the discard pile is 4S
      And it is ann's turn
      And ann did draw_from_deck
      When ann does draw_from_deck
      Then the action is rejected with "you have already drawn a card"
      When ann does draw_from_discard
      Then the action is rejected with "you have already drawn a card"
      And the draw pile top is 9H
      And the discard pile is 4S
      And the phase is awaiting_discard

    @rule:CHK-TURN-7
    Scenario: ann cannot discard or draw again during the matching stage her discard opened
      Given the draw pile is 5C, 9H
      And it is ann's turn
      And ann did draw_from_deck
      And ann did discard_drawn_card
      When ann does discard_drawn_card
      Then the action is rejected with "finish the matching stage and abilities first"
      When ann does swap_and_discard slot 0
      Then the action is rejected with "finish the matching stage and abilities first"
      When ann does draw_from_deck
      Then the action is rejected with "finish the matching stage and abilities first"
      When ann does draw_from_discard
      Then the action is rejected with "finish the matching stage and abilities first"
      And ann holds 7S, KH, 3D, QC
      And the discard pile is 5C
      And the draw pile top is 9H
      And the phase is matching_stage
      And it is ann's turn

    @rule:CHK-TURN-7
    Scenario: ann cannot discard again while her King's ability is pending
      Given the draw pile is KD, 9H
      And it is ann's turn
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      And cat did pass_match
      Then the phase is ability_peek
      When ann does swap_and_discard slot 0
      Then the action is rejected with "finish the matching stage and abilities first"
      When ann does discard_drawn_card
      Then the action is rejected with "finish the matching stage and abilities first"
      When ann does ability_skip
      Then the phase is ability_swap
      When ann does swap_and_discard 3
      Then the action is rejected with "finish the matching stage and abilities first"
      And ann holds 7S, KH, 3D, QC
      And the discard pile is KD
      And the draw pile top is 9H
      And the phase is ability_swap
      And it is ann's turn

    @rule:CHK-TURN-6
    Scenario: actions without arguments refuse one
      Given the draw pile is 5C
      And the discard pile is 4S
      And it is ann's turn
      When ann does draw_from_deck slot 0
      Then the action is rejected with "draw_from_deck takes no arguments"
      When ann does draw_from_discard 4S
      Then the action is rejected with "draw_from_discard takes no arguments"
      When ann does call_check slot 1
      Then the action is rejected with "call_check takes no arguments"
      And the phase is awaiting_draw
      And the draw pile top is 5C
      And the discard pile is 4S
      And ann's locked is false
      When ann does draw_from_deck
      And ann does discard_drawn_card slot 0
      Then the action is rejected with "discard_drawn_card takes no arguments"
      And the phase is awaiting_discard
      And ann holds 7S, KH, 3D, QC
      When ann does discard_drawn_card
      And bob does pass_match 2S
      Then the action is rejected with "pass_match takes no arguments"
      And the phase is matching_stage

    @rule:CHK-TIME-1
    Scenario: there are no timers, time passing changes nothing
      Given it is ann's turn
      When 120 seconds pass
      Then it is ann's turn
      And the phase is awaiting_draw

  Rule: drawing from the deck

    Background:
      Given a check game with players ann, bob
      And ann holds 7S, KH, 3D, QC
      And bob holds 4H, 6D, 2S, 8H

    @rule:CHK-DRAW-1
    Scenario: ann draws the top card of the deck and holds it apart
      Given the draw pile is 5C, 9H
      And it is ann's turn
      When ann does draw_from_deck
      Then the phase is awaiting_discard
      And it is ann's turn
      And the draw pile top is 9H
      And the draw pile has 43 cards
      And ann holds 7S, KH, 3D, QC
      And ann knows 5C
      And bob does not know 5C

    @rule:CHK-DRAW-6 @rule:CHK-VIS-1
    Scenario: the draw is announced to everyone, its face only to ann
      Given the draw pile is 5C, 9H
      And it is ann's turn
      When ann does draw_from_deck
      Then only ann sees private_draw_deck with card 5C
      And everyone sees player_draw_deck with user ann and deckSize 43
      And ann receives:
        """
        {"type": "private_draw_deck", "card": {"id": "{5C}", "rank": "5", "suit": "Clubs", "value": 5}}
        """
      And bob receives:
        """
        {"type": "player_draw_deck", "user": {"id": "ann"}, "card": {"id": "{5C}"}, "deckSize": 43}
        """

    @rule:CHK-DISC-1 @rule:CHK-DISC-2
    Scenario: discarding the drawn card opens a matching stage
      Given the draw pile is 5C
      And it is ann's turn
      And ann did draw_from_deck
      When ann does discard_drawn_card
      Then the discard pile is 5C
      And ann holds 7S, KH, 3D, QC
      And the phase is matching_stage
      And everyone sees game_matching_stage with card 5C
      And it is ann's turn
      And bob knows 5C

    @rule:CHK-DISC-4 @rule:CHK-VIS-1
    Scenario: discarding the drawn card is announced to everyone
      Given the draw pile is 5C
      And it is ann's turn
      And ann did draw_from_deck
      When ann does discard_drawn_card
      Then everyone sees player_discard_drawn with user ann and card 5C
      And everyone sees game_matching_stage 1 time
      And bob receives:
        """
        {"type": "player_discard_drawn", "user": {"id": "ann"}, "card": {"id": "{5C}", "rank": "5", "suit": "Clubs", "value": 5}}
        """

    @rule:CHK-DISC-3
    Scenario: the discarded card is offered with the pile unsealed
      Given the draw pile is 5C
      And it is ann's turn
      And ann did draw_from_deck
      When ann does discard_drawn_card
      Then the discard pile sealed is false
      And the phase is matching_stage

  Rule: swapping the drawn card into the grid

    Background:
      Given a check game with players ann, bob
      And ann holds 7S, KH, 3D, QC
      And bob holds 4H, 6D, 2S, 8H

    @rule:CHK-SWAP-1 @rule:CHK-DISC-2
    Scenario: the drawn card goes face down into slot 0 and the old card onto the discard pile
      Given the draw pile is 5C
      And it is ann's turn
      And ann did draw_from_deck
      When ann does swap_and_discard slot 0
      Then ann holds 5C, KH, 3D, QC
      And the discard pile is 7S
      And the phase is matching_stage
      And everyone sees game_matching_stage with card 7S
      And ann knows 5C
      And ann knows slot 0
      And bob knows 7S
      And bob does not know 5C
      And bob does not know ann's slot 0

    @rule:CHK-DISC-4 @rule:CHK-VIS-1
    Scenario: the swap is announced to everyone with the discarded card and its slot
      Given the draw pile is 5C
      And it is ann's turn
      And ann did draw_from_deck
      When ann does swap_and_discard slot 0
      Then everyone sees player_swap_and_discard with user ann and card 7S and card.idx 0
      And ann does not see player_discard_drawn
      And bob receives:
        """
        {"type": "player_swap_and_discard", "user": {"id": "ann"}, "card": {"id": "{7S}", "rank": "7", "idx": 0, "user": {"id": "ann"}}}
        """

    @rule:CHK-SWAP-5
    Scenario: swap_and_discard takes exactly one slot
      Given the draw pile is 5C
      And it is ann's turn
      And ann did draw_from_deck
      When ann does swap_and_discard slot 0 and slot 1
      Then the action is rejected with "swap_and_discard takes one slot"
      When ann does swap_and_discard
      Then the action is rejected with "swap_and_discard takes one slot"
      And ann holds 7S, KH, 3D, QC
      And the discard pile is empty
      And the phase is awaiting_discard

    @rule:CHK-SWAP-6 @rule:CHK-MATCH-9
    Scenario: ann cannot swap her drawn card with a card of bob
      Given the draw pile is 5C
      And it is ann's turn
      And ann did draw_from_deck
      When ann does swap_and_discard bob's slot 1
      Then the action is rejected with "that card is not in your hand"
      And ann holds 7S, KH, 3D, QC
      And bob holds 4H, 6D, 2S, 8H
      And the discard pile is empty
      And the phase is awaiting_discard

    @rule:CHK-SWAP-1
    Scenario: the slot can be written as a bare number
      Given the draw pile is 5C
      And it is ann's turn
      And ann did draw_from_deck
      When ann does swap_and_discard 2
      Then ann holds 7S, KH, 5C, QC
      And the discard pile is 3D
      And everyone sees game_matching_stage with card 3D

    @rule:CHK-SWAP-3 @rule:CHK-MATCH-7
    Scenario: a King drawn and swapped into the grid triggers nothing
      Given the draw pile is KD
      And it is ann's turn
      And ann did draw_from_deck
      And ann did swap_and_discard slot 0
      And ann did pass_match
      When bob does pass_match
      Then ann holds KD, KH, 3D, QC
      And the discard pile is 7S
      And ann does not see game_ability
      And bob does not see game_ability
      And it is bob's turn
      And the phase is awaiting_draw

    @rule:CHK-SWAP-4 @rule:CHK-ABIL-1
    Scenario: a King pushed out of the grid by a swap triggers its ability
      Given the draw pile is 5C
      And it is ann's turn
      And ann did draw_from_deck
      And ann did swap_and_discard slot 1
      And ann did pass_match
      When bob does pass_match
      Then ann holds 7S, 5C, 3D, QC
      And the discard pile is KH
      And everyone sees game_ability with user ann and ability king and source discard
      And the phase is ability_peek
      And it is ann's turn

  Rule: taking the top of the discard pile

    Background:
      Given a check game with players ann, bob
      And ann holds 7S, KH, 3D, QC
      And bob holds 4H, 6D, 2S, 8H

    @rule:CHK-DRAW-2 @rule:CHK-SWAP-1
    Scenario: ann takes the 4 from the discard pile and swaps it for her slot 0
      Given the discard pile is 4S, 9C
      And it is ann's turn
      When ann does draw_from_discard
      Then the phase is awaiting_discard
      And the discard pile is 9C
      When ann does swap_and_discard slot 0
      Then ann holds 4S, KH, 3D, QC
      And the discard pile is 7S, 9C
      And the phase is matching_stage
      And everyone sees game_matching_stage with card 7S

    @rule:CHK-DRAW-7 @rule:CHK-VIS-1
    Scenario: taking the discard pile's top is announced, and the draw pile is untouched
      Given the discard pile is 4S, 9C
      And the draw pile is 5C, 9H
      And it is ann's turn
      When ann does draw_from_discard
      Then everyone sees player_draw_discard with user ann and card 4S
      And ann does not see player_swap_and_discard
      And the draw pile top is 5C
      And the draw pile has 42 cards
      And ann holds 7S, KH, 3D, QC
      And the discard pile is 9C

    @rule:CHK-DRAW-2 @rule:CHK-TURN-4
    Scenario: after a card taken from the discard pile the turn goes on as usual
      Given the discard pile is 4S
      And it is ann's turn
      And ann did draw_from_discard
      And ann did swap_and_discard slot 0
      And ann did pass_match
      When bob does pass_match
      Then it is bob's turn
      And the phase is awaiting_draw
      And the final_turns is false
      When bob does call_check
      Then everyone sees player_call_check with user bob
      And it is ann's turn

    @rule:CHK-VIS-4
    Scenario: everyone still knows the card taken from the discard pile
      Given the discard pile is 4S
      And it is ann's turn
      And ann did draw_from_discard
      When ann does swap_and_discard slot 0
      Then ann holds 4S, KH, 3D, QC
      And bob knows ann's slot 0
      And ann knows ann's slot 0

    @rule:CHK-SWAP-2
    Scenario: a card taken from the discard pile cannot be discarded again
      Given the discard pile is 4S
      And it is ann's turn
      And ann did draw_from_discard
      When ann does discard_drawn_card
      Then the action is rejected with "a card taken from the discard pile must be swapped into your hand"
      And the phase is awaiting_discard
      And the discard pile is empty
      And ann holds 7S, KH, 3D, QC

    @rule:CHK-DRAW-4
    Scenario Outline: a <card> cannot be taken from the discard pile
      Given the discard pile is <card>, 4S
      And it is ann's turn
      When ann does draw_from_discard
      Then the action is rejected with "a K, Q or J cannot be taken from the discard pile"
      And the discard pile is <card>, 4S
      And the phase is awaiting_draw

      Examples:
        | card |
        | KD   |
        | QD   |
        | JD   |

    @rule:CHK-DRAW-5
    Scenario: nothing can be taken from an empty discard pile
      Given the discard pile is empty
      And it is ann's turn
      When ann does draw_from_discard
      Then the action is rejected with "the discard pile is empty"
      And the phase is awaiting_draw
