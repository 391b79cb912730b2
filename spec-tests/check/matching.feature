@check
Feature: The matching stage
  "Game Rules & Mechanics (Authoritative Overview)", section "7. Matching/Stacking Opportunity";
  deckspec rulings "Check: Matching stage": after every discard each unlocked player, the discarder
  included, may once match the discarded card's rank or pass. A match goes on the pile and seals it;
  a wrong card stays, is shown to all and costs a penalty card that nobody sees.

  Rule: a card of the discarded card's rank goes on the discard pile

    Background:
      Given a check game with players ann, bob, cat
      And ann holds 7S, KH, 3D, QC
      And bob holds 4H, 7C, 2S, 8H
      And cat holds 5S, 9D, JH, AC
      And the draw pile is 7H
      And it is ann's turn
      And ann did draw_from_deck
      And ann did discard_drawn_card

    @rule:CHK-MATCH-1 @rule:CHK-MATCH-2 @rule:CHK-HAND-1
    Scenario: bob matches ann's 7 by slot
      When bob does attempt_match slot 1
      Then everyone sees player_match_success with user bob and card 7C
      And the discard pile is 7C, 7H
      And bob holds 4H, _, 2S, 8H
      And bob's slot 1 is empty
      And bob holds 3 cards

    @rule:CHK-MATCH-1 @rule:CHK-MATCH-2
    Scenario: bob matches ann's 7 by naming the card
      When bob does attempt_match 7C
      Then everyone sees player_match_success with user bob and card 7C
      And the discard pile top is 7C
      And bob holds 4H, _, 2S, 8H

    @rule:CHK-MATCH-1
    Scenario: the discarder may match her own discard
      When ann does attempt_match 7S
      Then everyone sees player_match_success with user ann and card 7S
      And the discard pile is 7S, 7H
      And ann holds _, KH, 3D, QC

    @rule:CHK-MATCH-2 @rule:CHK-VIS-3
    Scenario: the matched card is shown to everyone
      When bob does attempt_match 7C
      Then ann knows 7C
      And cat knows 7C
      And cat receives:
        """
        {
          "type": "player_match_success",
          "user": {"id": "bob"},
          "card": {"id": "{7C}", "rank": "7", "suit": "Clubs", "value": 7}
        }
        """

    @rule:CHK-MATCH-2 @rule:CHK-MATCH-10 @rule:CHK-TURN-4
    Scenario: the first success ends the stage at once and the turn passes
      When bob does attempt_match 7C
      Then it is bob's turn
      And the phase is awaiting_draw
      And everyone sees game_player_turn with user bob
      And ann does not see game_ability

    @rule:CHK-MATCH-3
    Scenario: nobody can match or pass once a card has been matched
      Given bob did attempt_match 7C
      When ann does attempt_match 7S
      Then the action is rejected with "there is no matching stage"
      When cat does pass_match
      Then the action is rejected with "there is no matching stage"
      And ann holds 7S, KH, 3D, QC
      And the discard pile is 7C, 7H

  Rule: every eligible player passes or attempts once

    Background:
      Given a check game with players ann, bob, cat
      And ann holds 7S, KH, 3D, QC
      And bob holds 4H, 7C, 2S, 8H
      And cat holds 5S, 9D, JH, AC
      And the draw pile is 7H, 10S
      And it is ann's turn
      And ann did draw_from_deck
      And ann did discard_drawn_card

    @rule:CHK-MATCH-4 @rule:CHK-VIS-1
    Scenario: a pass is announced to everyone
      When bob does pass_match
      Then everyone sees player_pass_match with user bob
      And bob holds 4H, 7C, 2S, 8H
      And the discard pile is 7H

    @rule:CHK-MATCH-5
    Scenario: a player who passed cannot match any more
      Given bob did pass_match
      When bob does attempt_match 7C
      Then the action is rejected with "you have already had your chance to match"
      And bob holds 4H, 7C, 2S, 8H

    @rule:CHK-MATCH-5
    Scenario: a player cannot pass twice
      Given bob did pass_match
      When bob does pass_match
      Then the action is rejected with "you have already had your chance to match"

    @rule:CHK-MATCH-5 @rule:CHK-PEN-1
    Scenario: a wrong attempt uses the player's chance
      Given cat did attempt_match 9D
      When cat does attempt_match 5S
      Then the action is rejected with "you have already had your chance to match"
      And cat's slot 0 is 5S

    @rule:CHK-MATCH-6
    Scenario: the stage waits for the last player to answer
      When ann does pass_match
      And cat does pass_match
      Then the phase is matching_stage
      And it is ann's turn
      When ann does draw_from_deck
      Then the action is rejected
      When bob does draw_from_deck
      Then the action is rejected
      And the draw pile top is 10S
      When bob does pass_match
      Then it is bob's turn
      And the phase is awaiting_draw

    @rule:CHK-MATCH-6 @rule:CHK-MATCH-5
    Scenario: bob may still match after ann and cat passed
      Given ann did pass_match
      And cat did pass_match
      When bob does attempt_match 7C
      Then everyone sees player_match_success with user bob and card 7C
      And it is bob's turn

    @rule:CHK-MATCH-11
    Scenario: attempt_match takes exactly one card
      When bob does attempt_match 7C and 2S
      Then the action is rejected with "attempt_match takes one card of your hand"
      When bob does attempt_match
      Then the action is rejected with "attempt_match takes one card of your hand"
      And bob holds 4H, 7C, 2S, 8H
      And the discard pile is 7H
      When bob does attempt_match 7C
      Then everyone sees player_match_success with user bob and card 7C

    @rule:CHK-MATCH-9
    Scenario: bob cannot match with ann's card
      When bob does attempt_match 7S
      Then the action is rejected with "that card is not in your hand"
      And ann holds 7S, KH, 3D, QC
      And the discard pile is 7H
      And the phase is matching_stage

  Rule: outside a matching stage there is nothing to match

    Background:
      Given a check game with players ann, bob
      And ann holds 7S, KH, 3D, QC
      And bob holds 4H, 7C, 2S, 8H
      And the discard pile is 7H
      And it is ann's turn

    @rule:CHK-MATCH-8
    Scenario: bob cannot match the top of the discard pile before ann has discarded
      When bob does attempt_match 7C
      Then the action is rejected with "there is no matching stage"
      And bob holds 4H, 7C, 2S, 8H
      And the discard pile is 7H
      And the phase is awaiting_draw

    @rule:CHK-MATCH-8
    Scenario: nobody can pass outside a matching stage
      When ann does pass_match
      Then the action is rejected with "there is no matching stage"

    @rule:CHK-MATCH-8
    Scenario: nobody can match while ann holds her drawn card
      Given the draw pile is 5C
      And ann did draw_from_deck
      When bob does attempt_match 7C
      Then the action is rejected with "there is no matching stage"
      And the phase is awaiting_discard

  Rule: a wrong card stays, is shown to all and costs a penalty card

    Background:
      Given a check game with players ann, bob, cat
      And ann holds 7S, KH, 3D, QC
      And cat holds 5S, 9D, JH, AC
      And it is ann's turn

    @rule:CHK-PEN-1 @rule:CHK-PEN-2 @rule:CHK-HAND-3
    Scenario: bob tries a 2 on a 7 and takes a penalty card into a fifth slot
      Given bob holds 4H, 7C, 2S, 8H
      And the draw pile is 7H, QS, 6C
      And ann did draw_from_deck
      And ann did discard_drawn_card
      When bob does attempt_match 2S
      Then everyone sees player_match_fail with user bob and card 2S
      And bob holds 4H, 7C, 2S, 8H, QS
      And bob's slot 4 is QS
      And the discard pile is 7H
      And the draw pile top is 6C
      And the phase is matching_stage

    @rule:CHK-PEN-1 @rule:CHK-VIS-3
    Scenario: the wrong card is shown to everyone and stays known in its slot
      Given bob holds 4H, 7C, 2S, 8H
      And the draw pile is 7H, QS
      And ann did draw_from_deck
      And ann did discard_drawn_card
      When bob does attempt_match 4H
      Then ann knows 4H
      And cat knows 4H
      And cat knows bob's slot 0
      And bob knows 4H
      And cat receives:
        """
        {
          "type": "player_match_fail",
          "user": {"id": "bob"},
          "card": {"id": "{4H}", "rank": "4", "suit": "Hearts", "value": 4}
        }
        """

    @rule:CHK-PEN-3 @rule:CHK-VIS-1 @rule:CHK-VIS-2
    Scenario: nobody learns the penalty card, not even bob
      Given bob holds 4H, 7C, 2S, 8H
      And the draw pile is 7H, QS
      And ann did draw_from_deck
      And ann did discard_drawn_card
      When bob does attempt_match 2S
      Then everyone sees player_penalty with user bob and card QS
      And everyone sees player_penalty 1 time
      And only bob sees private_penalty with card QS
      And bob does not know QS
      And bob does not know bob's slot 4
      And ann does not know QS
      And cat does not know QS

    @rule:CHK-PEN-3
    Scenario: the penalty messages carry the card by id only
      Given bob holds 4H, 7C, 2S, 8H
      And the draw pile is 7H, QS
      And ann did draw_from_deck
      And ann did discard_drawn_card
      When bob does attempt_match 2S
      Then ann receives:
        """
        {"type": "player_penalty", "user": {"id": "bob"}, "card": {"id": "{QS}"}}
        """
      And bob receives:
        """
        {"type": "private_penalty", "card": {"id": "{QS}"}}
        """

    @rule:CHK-HAND-2
    Scenario: the penalty card fills bob's first empty slot
      Given bob holds 4H, _, 2S, 8H
      And the draw pile is 7H, QS
      And ann did draw_from_deck
      And ann did discard_drawn_card
      When bob does attempt_match 2S
      Then bob holds 4H, QS, 2S, 8H
      And bob's slot 1 is QS

    @rule:CHK-PEN-4
    Scenario: with penalty_draw_count 2 a wrong card costs two penalty cards
      Given the house rule penalty_draw_count is 2
      And bob holds 4H, 7C, 2S, 8H
      And the draw pile is 7H, QS, 5D, 6C
      And ann did draw_from_deck
      And ann did discard_drawn_card
      When bob does attempt_match 2S
      Then bob holds 4H, 7C, 2S, 8H, QS, 5D
      And everyone sees player_penalty 2 times
      And only bob sees private_penalty 2 times
      And the draw pile top is 6C

    @rule:CHK-PEN-5 @rule:CHK-MATCH-2
    Scenario: after bob's wrong card ann can still match
      Given bob holds 4H, 7C, 2S, 8H
      And the draw pile is 7H, QS
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And bob did attempt_match 2S
      When ann does attempt_match 7S
      Then everyone sees player_match_success with user ann and card 7S
      And the discard pile is 7S, 7H
      And it is bob's turn

    @rule:CHK-PEN-5 @rule:CHK-MATCH-6 @rule:CHK-MATCH-5
    Scenario: a wrong card from the last player to answer ends the stage
      Given bob holds 4H, 7C, 2S, 8H
      And the draw pile is 7H, QS
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And cat did pass_match
      When bob does attempt_match 2S
      Then everyone sees player_match_fail with user bob and card 2S
      And it is bob's turn
      And the phase is awaiting_draw
      And bob holds 4H, 7C, 2S, 8H, QS

    @rule:CHK-PEN-5 @rule:CHK-MATCH-6
    Scenario: after a wrong card the stage ends when the others have passed
      Given bob holds 4H, 7C, 2S, 8H
      And the draw pile is 7H, QS
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And bob did attempt_match 2S
      When ann does pass_match
      Then the phase is matching_stage
      When cat does pass_match
      Then it is bob's turn
      And bob holds 4H, 7C, 2S, 8H, QS
