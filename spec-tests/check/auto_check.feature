@check
Feature: The automatic Check and fizzling abilities
  "Game Rules & Mechanics (Authoritative Overview)", sections "7. Matching/Stacking Opportunity",
  "8. Special Card Abilities" and "9. Calling Check and Ending the Round"; deckspec rulings "Check:
  Check and the end": a player who empties their hand by a match calls Check automatically and is
  locked; a locked player's pending ability fizzles.

  Rule: emptying your hand by a match is an automatic Check

    @rule:CHK-AUTO-1 @rule:CHK-AUTO-2
    Scenario: bob matches his last card during ann's turn and becomes the caller
      Given a check game with players ann, bob, cat
      And ann holds 7S, KH, 3D, QC
      And bob holds 7C
      And the draw pile is 7H
      And it is ann's turn
      And ann did draw_from_deck
      And ann did discard_drawn_card
      When bob does attempt_match 7C
      Then everyone sees player_match_success with user bob and card 7C
      And everyone sees player_call_check with user bob and automatic true
      And bob holds 0 cards
      And bob's locked is true
      And the check_caller is bob
      And the final_turns is true
      And ann's locked is false

    @rule:CHK-AUTO-2 @rule:CHK-FINAL-1
    Scenario: after an automatic Check by bob, cat and then ann get a final turn
      Given a check game with players ann, bob, cat
      And ann holds 7S, KH, 3D, QC
      And bob holds 7C
      And cat holds 5S, 9D, JH, 2C
      And the draw pile is 7H, 5C, 6C
      And it is ann's turn
      And ann did draw_from_deck
      And ann did discard_drawn_card
      When bob does attempt_match 7C
      Then it is cat's turn
      And the game is not over
      When cat does draw_from_deck
      And cat does discard_drawn_card
      And ann does pass_match
      And cat does pass_match
      Then it is ann's turn
      And the game is not over
      When ann does draw_from_deck
      And ann does discard_drawn_card
      And ann does pass_match
      And cat does pass_match
      Then the game is over
      And bob wins
      And everyone sees game_round_end with caller bob

    @rule:CHK-AUTO-2 @rule:CHK-AUTO-1
    Scenario: ann matches her own discard with her last card; bob gets the only final turn
      Given a check game with players ann, bob
      And ann holds 7S
      And bob holds 4H, 6D, 2S, 8H
      And the draw pile is 7H, 5C
      And it is ann's turn
      And ann did draw_from_deck
      And ann did discard_drawn_card
      When ann does attempt_match 7S
      Then everyone sees player_call_check with user ann and automatic true
      And ann's locked is true
      And the check_caller is ann
      And it is bob's turn
      When bob does draw_from_deck
      And bob does discard_drawn_card
      And bob does pass_match
      Then the game is over
      And ann wins
      And ann's score is 0

    @rule:CHK-AUTO-3
    Scenario: bob empties his hand in his final turn; ann stays the caller and gets no new turn
      Given a check game with players ann, bob
      And ann holds 7S, KH, 3D, QC
      And bob holds 7C
      And the draw pile is 7H
      And it is ann's turn
      And ann did call_check
      And bob did draw_from_deck
      And bob did discard_drawn_card
      When bob does attempt_match 7C
      Then everyone sees player_call_check with user bob and automatic true
      And bob's locked is true
      And the check_caller is ann
      And the game is over
      And bob wins

    @rule:CHK-AUTO-3
    Scenario: cat empties her hand in bob's final turn; ann stays the caller
      Given a check game with players ann, bob, cat
      And ann holds 7S, KH, 3D, QC
      And bob holds 4H, 6D, 2S, 8H
      And cat holds 7C
      And the draw pile is 7H
      And it is ann's turn
      And ann did call_check
      And bob did draw_from_deck
      And bob did discard_drawn_card
      When cat does attempt_match 7C
      Then everyone sees player_call_check with user cat and automatic true
      And cat's locked is true
      And the check_caller is ann
      And the final_turns is true

    @rule:CHK-LOCK-6 @rule:CHK-AUTO-3 @rule:CHK-FINAL-1
    Scenario: cat, locked with an empty hand, still plays her final turn but cannot swap
      Given a check game with players ann, bob, cat
      And ann holds 7S, KH, 3D, QC
      And bob holds 4H, 6D, 2S, 8H
      And cat holds 7C
      And the draw pile is 7H, 5C
      And it is ann's turn
      And ann did call_check
      And bob did draw_from_deck
      And bob did discard_drawn_card
      And cat did attempt_match 7C
      Then it is cat's turn
      When cat does draw_from_deck
      And cat does swap_and_discard slot 0
      Then the action is rejected with "your hand is locked"
      And cat holds 0 cards
      And the phase is awaiting_discard
      When cat does discard_drawn_card
      Then the discard pile top is 5C
      And the phase is matching_stage
      When bob does pass_match
      Then the game is over

    @rule:CHK-LOCK-7
    Scenario: cat, locked with an empty hand, cannot take the discard pile's top she could not swap in
      Given a check game with players ann, bob, cat
      And ann holds 7S, KH, 3D, QC
      And bob holds 4H, 6D, 2S, 8H
      And cat holds 7C
      And the draw pile is 7H, 5C
      And it is ann's turn
      And ann did call_check
      And bob did draw_from_deck
      And bob did discard_drawn_card
      And cat did attempt_match 7C
      Then it is cat's turn
      And cat may not do draw_from_discard
      When cat does draw_from_discard
      Then the action is rejected with "your hand is locked"
      And the discard pile top is 7C
      And the phase is awaiting_draw
      When cat does draw_from_deck
      Then the phase is awaiting_discard

  Rule: a locked player's ability fizzles and the next one follows

    @rule:CHK-LOCK-5 @rule:CHK-AUTO-2 @rule:CHK-STACK-1
    Scenario: bob matches ann's King with his last card; his King fizzles, ann's resolves
      Given a check game with players ann, bob, cat
      And ann holds 7S, KH, 3D, QC
      And bob holds KS
      And cat holds 5S, 9D, JH, AC
      And the draw pile is KD
      And it is ann's turn
      And ann did draw_from_deck
      And ann did discard_drawn_card
      When bob does attempt_match KS
      Then everyone sees player_call_check with user bob and automatic true
      And everyone sees player_ability_fizzle with user bob and ability king
      And everyone sees game_ability with user ann and ability king and source stackSecondOfPair
      And the phase is ability_peek
      And it is ann's turn
      And the check_caller is bob
      When ann does ability_peek cat's slot 0
      Then ann knows 5S
      When ann does ability_skip
      Then it is cat's turn

    @rule:CHK-LOCK-5 @rule:CHK-AUTO-1
    Scenario: ann matches her drawn King with her last card; both Kings fizzle
      Given a check game with players ann, bob
      And ann holds KC
      And bob holds 4H, 6D, 2S, 8H
      And the draw pile is KD
      And it is ann's turn
      And ann did draw_from_deck
      And ann did discard_drawn_card
      When ann does attempt_match KC
      Then everyone sees player_call_check with user ann and automatic true
      And everyone sees player_ability_fizzle with user ann and ability king 2 times
      And it is bob's turn
      And the phase is awaiting_draw
      And the check_caller is ann
      And bob does not know 4H
