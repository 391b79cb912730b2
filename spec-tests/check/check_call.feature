@check
Feature: Calling Check, locked hands and the final turns
  "Game Rules & Mechanics (Authoritative Overview)", section "9. Calling Check and Ending the
  Round"; deckspec rulings "Check: Check and the end": at the start of a turn a player may call
  Check instead of drawing; their hand is locked, every other player gets one final turn, and the
  round ends. Emptying your hand by a match is an automatic Check.

  Rule: calling Check locks the caller and ends the turn

    Background:
      Given a check game with players ann, bob, cat
      And ann holds 7S, KH, 3D, QC
      And bob holds 4H, 6D, 2S, 8H
      And cat holds 5S, 9D, JH, AC
      And it is ann's turn

    @rule:CHK-CHECK-1 @rule:CHK-LOCK-1
    Scenario: ann calls Check instead of drawing
      Given the draw pile is 5C
      When ann does call_check
      Then everyone sees player_call_check with user ann and automatic false
      And ann's locked is true
      And bob's locked is false
      And cat's locked is false
      And the check_caller is ann
      And the final_turns is true
      And it is bob's turn
      And the phase is awaiting_draw
      And everyone sees game_player_turn with user bob
      And ann holds 7S, KH, 3D, QC
      And the draw pile top is 5C
      And the game is not over

    @rule:CHK-CHECK-1 @rule:CHK-VIS-1
    Scenario: the call is announced to bob by ann's id
      When ann does call_check
      Then bob receives:
        """
        {"type": "player_call_check", "user": {"id": "ann"}, "automatic": false}
        """

    @rule:CHK-CHECK-2
    Scenario: Check cannot be called after drawing
      Given the draw pile is 5C
      And ann did draw_from_deck
      When ann does call_check
      Then the action is rejected
      And ann's locked is false
      And the final_turns is false
      And the phase is awaiting_discard

    @rule:CHK-CHECK-2
    Scenario: Check cannot be called during the matching stage
      Given the draw pile is 5C
      And ann did draw_from_deck
      And ann did discard_drawn_card
      When ann does call_check
      Then the action is rejected
      And the phase is matching_stage
      And the check_caller is none

    @rule:CHK-CHECK-3
    Scenario: Check can be called only once
      Given ann did call_check
      When bob does call_check
      Then the action is rejected with "check has already been called"
      And the check_caller is ann
      And bob's locked is false
      And it is bob's turn
      And the phase is awaiting_draw

  Rule: every other player gets one final turn, then the round ends

    @rule:CHK-FINAL-1 @rule:CHK-END-1
    Scenario: with two players the round ends after bob's final turn
      Given a check game with players ann, bob
      And the draw pile is 5C
      And it is ann's turn
      And ann did call_check
      And bob did draw_from_deck
      And bob did discard_drawn_card
      When bob does pass_match
      Then the game is over
      And the phase is round_over
      And everyone sees game_round_end with caller ann

    @rule:CHK-FINAL-1
    Scenario: with three players bob and cat both play a final turn
      Given a check game with players ann, bob, cat
      And the draw pile is 5C, 6C
      And it is ann's turn
      And ann did call_check
      And bob did draw_from_deck
      And bob did discard_drawn_card
      And bob did pass_match
      When cat does pass_match
      Then the game is not over
      And it is cat's turn
      When cat does draw_from_deck
      And cat does discard_drawn_card
      And bob does pass_match
      And cat does pass_match
      Then the game is over
      And the phase is round_over

    @rule:CHK-FINAL-1 @rule:CHK-TURN-1
    Scenario: a caller in the middle seat waits for the turn to wrap around
      Given a check game with players ann, bob, cat
      And the draw pile is 5C, 6C
      And it is bob's turn
      And bob did call_check
      And cat did draw_from_deck
      And cat did discard_drawn_card
      And ann did pass_match
      And cat did pass_match
      Then it is ann's turn
      And the game is not over
      When ann does draw_from_deck
      And ann does discard_drawn_card
      And ann does pass_match
      And cat does pass_match
      Then the game is over

    @rule:CHK-FINAL-1
    Scenario: with four players and cat calling, dan, ann and bob play once more
      Given a check game with players ann, bob, cat, dan
      And the draw pile is 5C, 6C, 8C
      And it is cat's turn
      And cat did call_check
      And dan did draw_from_deck
      And dan did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      And dan did pass_match
      Then it is ann's turn
      When ann does draw_from_deck
      And ann does discard_drawn_card
      And ann does pass_match
      And bob does pass_match
      And dan does pass_match
      Then it is bob's turn
      When bob does draw_from_deck
      And bob does discard_drawn_card
      And ann does pass_match
      And bob does pass_match
      Then the game is not over
      When dan does pass_match
      Then the game is over
      And everyone sees game_round_end with caller cat

    @rule:CHK-FINAL-2 @rule:CHK-ABIL-1
    Scenario: a Jack in a final turn works as usual
      Given a check game with players ann, bob, cat
      And bob holds 4H, 6D, 2S, 8H
      And cat holds 5S, 9D, JH, AC
      And the draw pile is JD
      And it is ann's turn
      And ann did call_check
      And bob did draw_from_deck
      And bob did discard_drawn_card
      And bob did pass_match
      When cat does pass_match
      Then everyone sees game_ability with user bob and ability jack and source discard
      When bob does ability_swap bob's slot 0 and cat's slot 0
      Then bob holds 5S, 6D, 2S, 8H
      And cat holds 4H, 9D, JH, AC
      And it is cat's turn
      And the game is not over

  Rule: a locked hand cannot match, be peeked at or be swapped

    Background:
      Given a check game with players ann, bob, cat
      And ann holds 7S, KH, 3D, QC
      And bob holds 4H, 6D, 2S, 8H
      And cat holds 5S, 9D, JH, AC
      And it is ann's turn
      And ann did call_check

    @rule:CHK-LOCK-2
    Scenario: the caller cannot match, even with a card of the right rank
      Given the draw pile is 7D
      And bob did draw_from_deck
      And bob did discard_drawn_card
      When ann does attempt_match 7S
      Then the action is rejected with "your hand is locked"
      And ann holds 7S, KH, 3D, QC
      And the discard pile is 7D

    @rule:CHK-LOCK-2
    Scenario: the caller cannot pass either
      Given the draw pile is 7D
      And bob did draw_from_deck
      And bob did discard_drawn_card
      When ann does pass_match
      Then the action is rejected with "your hand is locked"
      And the phase is matching_stage

    @rule:CHK-LOCK-2 @rule:CHK-MATCH-6
    Scenario: the matching stage does not wait for the locked caller
      Given the draw pile is 7D
      And bob did draw_from_deck
      And bob did discard_drawn_card
      And bob did pass_match
      When cat does pass_match
      Then it is cat's turn
      And the phase is awaiting_draw

    @rule:CHK-LOCK-3
    Scenario: a King cannot peek at the locked hand
      Given the draw pile is KD
      And bob did draw_from_deck
      And bob did discard_drawn_card
      And bob did pass_match
      And cat did pass_match
      When bob does ability_peek ann's slot 0
      Then the action is rejected with "that card is in a locked hand"
      And bob does not know 7S
      And the phase is ability_peek
      When bob does ability_peek ann's slot 1 and cat's slot 0
      Then the action is rejected with "that card is in a locked hand"
      And bob does not know 5S
      When bob does ability_peek cat's slot 0
      Then bob knows 5S

    @rule:CHK-LOCK-4
    Scenario: a Jack cannot swap a card of the locked hand
      Given the draw pile is JD
      And bob did draw_from_deck
      And bob did discard_drawn_card
      And bob did pass_match
      And cat did pass_match
      When bob does ability_swap bob's slot 0 and ann's slot 0
      Then the action is rejected with "that card is in a locked hand"
      And ann holds 7S, KH, 3D, QC
      And bob holds 4H, 6D, 2S, 8H
      And the phase is ability_swap
      When bob does ability_swap bob's slot 0 and cat's slot 1
      Then bob holds 9D, 6D, 2S, 8H
      And cat holds 5S, 4H, JH, AC
      And it is cat's turn
