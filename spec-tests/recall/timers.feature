@recall
Feature: Timers
  "Recall Card Game - Game Play and Rules", sections "Timer Durations", "3. Same Rank Window" and
  "4. Special Cards Window"; deckspec rulings "Recall: Turn", "Recall: Same rank window" and
  "Recall: Special window": 10 seconds to draw (a timeout passes the turn), 10 to play (a timeout
  plays the drawn card), a 5-second same rank window, 10 seconds for each special play (a timeout
  skips it); every timer is a house rule.

  Background:
    Given a recall game with players ann, bob
    And ann holds 7S, KH, 3D, QC
    And bob holds 4H, 6D, 2S, 8H

  Rule: the draw and play timers

    @rule:REC-TIME-1
    Scenario: ann has 10 seconds to draw, then the turn passes without a play
      Given the draw pile is 5C
      And it is ann's turn
      When 9 seconds pass
      Then it is ann's turn
      And the phase is drawing_card
      And ann does not see game_timeout
      When 1 second passes
      Then everyone sees game_timeout with user ann and phase drawing_card
      And everyone sees game_player_turn with user bob
      And it is bob's turn
      And the phase is drawing_card
      And ann holds 7S, KH, 3D, QC
      And the draw pile top is 5C
      And the discard pile is empty

    @rule:REC-TIME-1
    Scenario: time running out is the same as the 10 seconds passing
      Given it is ann's turn
      When time runs out
      Then everyone sees game_timeout with user ann and phase drawing_card
      And it is bob's turn

    @rule:REC-TIME-2 @rule:REC-PLAY-6
    Scenario: a drawn card still held after 10 seconds is played
      Given the draw pile is 5C
      And it is ann's turn
      And ann did draw
      When 10 seconds pass
      Then everyone sees game_timeout with user ann and phase playing_card
      And everyone sees player_play with user ann and card 5C and source drawn
      And the discard pile is 5C
      And ann holds 7S, KH, 3D, QC
      And the phase is same_rank_window
      And it is ann's turn
      When 5 seconds pass
      Then it is bob's turn

    @rule:REC-TIME-2
    Scenario: the play timer starts afresh at the draw
      Given the draw pile is 5C
      And it is ann's turn
      When 8 seconds pass
      And ann does draw
      And 8 seconds pass
      Then the phase is playing_card
      And it is ann's turn
      When 2 seconds pass
      Then everyone sees game_timeout with user ann and phase playing_card
      And the discard pile is 5C

    @rule:REC-TIME-2 @rule:REC-SPEC-1
    Scenario: a Queen played by the timer is still resolved
      Given the draw pile is QD
      And it is ann's turn
      And ann did draw
      When time runs out
      Then the discard pile is QD
      When time runs out
      Then the phase is special_play_window
      And everyone sees game_special_play with user ann and special queen_peek and card QD

  Rule: the same rank window and the special plays are timed

    Background:
      Given it is ann's turn

    @rule:REC-TIME-3
    Scenario: the same rank window lasts 5 seconds
      Given the draw pile is 5C
      And ann did draw
      And ann did play drawn
      When 4 seconds pass
      Then the phase is same_rank_window
      And it is ann's turn
      When 1 second passes
      Then it is bob's turn
      And the phase is drawing_card

    @rule:REC-TIME-3 @rule:REC-SAME-5
    Scenario: a same rank play does not restart the window
      Given the draw pile is 6C
      And ann did draw
      And ann did play drawn
      When 3 seconds pass
      And bob does same_rank 6D
      And 2 seconds pass
      Then it is bob's turn
      And the phase is drawing_card
      And bob holds 4H, _, 2S, 8H

    @rule:REC-TIME-4
    Scenario: ann's Queen times out after 10 seconds and is skipped
      Given the draw pile is QD
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      And 9 seconds pass
      Then the phase is special_play_window
      And it is ann's turn
      When 1 second passes
      Then it is bob's turn
      And the phase is drawing_card
      And ann does not see private_queen_peek

    @rule:REC-TIME-6 @rule:REC-TIME-4
    Scenario: a special play that runs out of time is announced as a timeout and a skip
      Given the draw pile is QD
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      And 10 seconds pass
      Then everyone sees game_timeout with user ann and phase special_play_window
      And everyone sees player_skip with user ann and special queen_peek
      And it is bob's turn

    @rule:REC-TIME-4 @rule:REC-SPEC-2
    Scenario: each of two Queens gets its own 10 seconds
      Given the draw pile is QD
      And ann did draw
      And ann did play drawn
      And ann did same_rank slot 3
      When 5 seconds pass
      And 10 seconds pass
      Then the phase is special_play_window
      And everyone sees game_special_play with card QC
      When 9 seconds pass
      Then the phase is special_play_window
      When 1 second passes
      Then it is bob's turn

    @rule:REC-TIME-4
    Scenario: a Jack's swap decision runs out with time and swaps nothing
      Given the draw pile is JD
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      And time runs out
      Then it is bob's turn
      And ann holds 7S, KH, 3D, QC
      And bob holds 4H, 6D, 2S, 8H

  Rule: every timer is a house rule

    @rule:REC-TIME-5 @rule:REC-TIME-1
    Scenario: house rule draw_seconds gives 20 seconds to draw
      Given the house rule draw_seconds is 20
      And it is ann's turn
      When 10 seconds pass
      Then it is ann's turn
      When 10 seconds pass
      Then it is bob's turn

    @rule:REC-TIME-5 @rule:REC-TIME-2
    Scenario: house rule play_seconds gives 3 seconds to play
      Given the house rule play_seconds is 3
      And the draw pile is 5C
      And it is ann's turn
      And ann did draw
      When 3 seconds pass
      Then the discard pile is 5C
      And the phase is same_rank_window

    @rule:REC-TIME-5 @rule:REC-TIME-3
    Scenario: house rule same_rank_seconds shortens the window to 2 seconds
      Given the house rule same_rank_seconds is 2
      And the draw pile is 5C
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      When 2 seconds pass
      Then it is bob's turn

    @rule:REC-TIME-5 @rule:REC-TIME-4
    Scenario: house rule special_seconds gives 30 seconds for a special play
      Given the house rules:
        | name            | value |
        | special_seconds | 30    |
      And the draw pile is QD
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      And 20 seconds pass
      Then the phase is special_play_window
      When 10 seconds pass
      Then it is bob's turn
