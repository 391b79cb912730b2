@dutch
Feature: Four of a kind, calling Dutch and the end of the game
  "Recall Card Game - Game Play and Rules", section "Winning Conditions"; "Recall Card Game Rules",
  sections "Recall Phase" and "Winning Conditions"; deckspec rulings "Recall" and "Dutch": a player
  with all four cards of their collection rank wins at once; call_dutch (Dutch's call_recall) gives
  every other player one last turn, then the lowest points win (collection cards counted), then
  fewer cards, then the caller; otherwise a draw.

  Rule: all four cards of the collection rank win at once

    @rule:DUT-END-1
    Scenario: ann collects two 3s from the discard pile and her fourth 3 from the draw, and wins
      Given a dutch game with players ann, bob
      And ann holds 3D, 9C, 5H, 6H
      And bob holds 4H, 8H, 2S, 6D
      And the discard pile is 3S, 3H
      And the draw pile is 3C
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      And it is ann's turn
      And ann did collect_discard
      And ann did collect_discard
      And ann did draw
      Then the game is not over
      When ann does collect
      Then ann wins
      And everyone sees game_end with reason four_of_a_kind
      And the phase is finished
      And ann holds 3D, 9C, 5H, 6H, 3S, 3H, 3C

    @rule:DUT-END-1 @rule:DUT-DRAW-7
    Scenario: the fourth 3 ends the game and no drawn card is left waiting
      Given a dutch game with players ann, bob
      And ann holds 3D, 9C, 5H, 6H
      And bob holds 4H, 8H, 2S, 6D
      And the discard pile is 3S, 3H
      And the draw pile is 3C
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      And it is ann's turn
      And ann did collect_discard
      And ann did collect_discard
      And ann did draw
      When ann does collect
      Then ann wins
      And the drawn is none

    @rule:DUT-END-1
    Scenario: after four of a kind nobody can play on
      Given a dutch game with players ann, bob
      And ann holds 3D, 9C, 5H, 6H
      And bob holds 4H, 8H, 2S, 6D
      And the discard pile is 3S, 3H
      And the draw pile is 3C
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      And it is ann's turn
      And ann did collect_discard
      And ann did collect_discard
      And ann did draw
      And ann did collect
      When bob does draw
      Then the action is rejected with "the game is over"
      And the game is over

    @rule:DUT-END-2 @rule:DUT-DISC-2
    Scenario: ann collects her fourth King from the discard pile in bob's turn, and wins
      Given a dutch game with players ann, bob
      And ann holds KH, 9C, 5H, 6H
      And bob holds 4H, 8H, 2S, 6D
      And the discard pile is KS, KD, KC
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      And it is bob's turn
      And ann did collect_discard
      And ann did collect_discard
      Then ann's collection_rank is K
      And the game is not over
      When ann does collect_discard
      Then ann wins
      And everyone sees game_end with reason four_of_a_kind
      And the phase is finished

    @rule:DUT-END-3
    Scenario: three Kings are not enough
      Given a dutch game with players ann, bob
      And ann holds KH, 9C, 5H, 6H
      And bob holds 4H, 8H, 2S, 6D
      And the discard pile is KS, KD
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      And it is bob's turn
      And ann did collect_discard
      When ann does collect_discard
      Then ann holds KH, 9C, 5H, 6H, KS, KD
      And the game is not over
      And it is bob's turn
      And the phase is drawing_card

  Rule: calling Dutch

    Background:
      Given a dutch game with players ann, bob
      And ann holds AS, 2S, 3S, 4S
      And bob holds 5H, 6H, 7H, 8H
      And the draw pile is 9D, 8C
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1

    @rule:DUT-CALL-1
    Scenario: ann calls Dutch after playing
      Given it is ann's turn
      And ann did draw
      And ann did play drawn
      When ann does call_dutch
      Then everyone sees player_call_dutch with user ann
      And the dutch_caller is ann
      And the phase is same_rank_window
      And the game is not over

    @rule:DUT-CALL-2
    Scenario: ann cannot call Dutch before playing
      Given it is ann's turn
      When ann does call_dutch
      Then the action is rejected
      When ann does draw
      And ann does call_dutch
      Then the action is rejected
      And the dutch_caller is none
      And the phase is playing_card

    @rule:DUT-CALL-2
    Scenario: bob cannot call Dutch in ann's turn
      Given it is ann's turn
      And ann did draw
      And ann did play drawn
      When bob does call_dutch
      Then the action is rejected
      And the dutch_caller is none

    @rule:DUT-CALL-3 @rule:DUT-CALL-4
    Scenario: bob gets one last turn, then ann's lower score wins
      Given it is ann's turn
      And ann did draw
      And ann did play drawn
      And ann did call_dutch
      When 5 seconds pass
      Then it is bob's turn
      And the game is not over
      When bob does draw
      And bob does play drawn
      Then the game is not over
      When 5 seconds pass
      Then the game is over
      And ann wins
      And ann's score is 10
      And bob's score is 26
      And the phase is finished
      And everyone sees game_end with winners.0 ann

    @rule:DUT-CALL-7
    Scenario: Dutch is called only once
      Given it is ann's turn
      And ann did draw
      And ann did play drawn
      And ann did call_dutch
      When 5 seconds pass
      And bob does draw
      And bob does play drawn
      And bob does call_dutch
      Then the action is rejected
      And the dutch_caller is ann

  Rule: the scores at the end count collection cards, then cards, then the caller

    @rule:DUT-CALL-4 @rule:DUT-COLL-3
    Scenario: ann's collection 10 counts against her, and bob wins
      Given a dutch game with players ann, bob
      And ann holds 10S, JC, AD, 2D
      And bob holds 5H, 6H, 7H, 4C
      And the draw pile is 9D, 8C
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      And ann did call_dutch
      When 5 seconds pass
      And bob does draw
      And bob does play drawn
      And 5 seconds pass
      Then bob wins
      And ann's collection_rank is 10
      And ann's score is 23
      And bob's score is 22

    @rule:DUT-CALL-5
    Scenario: on equal points bob, with fewer cards, wins
      Given a dutch game with players ann, bob
      And ann holds AS, 2S, 3S, 4S
      And bob holds 2H, 3H, 5H
      And the draw pile is 9D, 8C
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      And ann did call_dutch
      When 5 seconds pass
      And bob does draw
      And bob does play drawn
      And 5 seconds pass
      Then bob wins
      And ann's score is 10
      And bob's score is 10

    @rule:DUT-CALL-6
    Scenario: on equal points and cards ann, the caller, wins
      Given a dutch game with players ann, bob
      And ann holds AS, 2S, 3S, 4S
      And bob holds AH, 2H, 3H, 4H
      And the draw pile is 9D, 8C
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      And ann did call_dutch
      When 5 seconds pass
      And bob does draw
      And bob does play drawn
      And 5 seconds pass
      Then ann wins
      And ann's score is 10
      And bob's score is 10

    @rule:DUT-CALL-6 @rule:DUT-CALL-3
    Scenario: ann and bob tie and cat, the caller, is not among them: a draw
      Given a dutch game with players ann, bob, cat
      And ann holds AS, 2S, 3S, 4S
      And bob holds AH, 2H, 3H, 4H
      And cat holds 9C, 9D, 8S, 8D
      And the draw pile is 5C, 6C, 7C
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      And cat did initial_peek 0 and 1
      And it is cat's turn
      And cat did draw
      And cat did play drawn
      And cat did call_dutch
      When 5 seconds pass
      Then it is ann's turn
      When ann does draw
      And ann does play drawn
      And 5 seconds pass
      Then it is bob's turn
      And the game is not over
      When bob does draw
      And bob does play drawn
      And 5 seconds pass
      Then the game is a draw
      And ann's score is 10
      And bob's score is 10
      And cat's score is 34

    @rule:DUT-CALL-3 @rule:DUT-DRAW-2 @rule:DUT-COLL-3
    Scenario: bob collects in his last turn, the game ends and his collected 5 counts
      Given a dutch game with players ann, bob
      And ann holds AS, 2S, 3S, 4S
      And bob holds 5H, 6H, 7H, 8H
      And the draw pile is 9D, 5C
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      And ann did call_dutch
      When 5 seconds pass
      Then it is bob's turn
      And bob's collection_rank is 5
      When bob does draw
      And bob does collect
      Then the game is over
      And ann wins
      And the dutch_caller is ann
      And the drawn is none
      And bob holds 5H, 6H, 7H, 8H, 5C
      And bob's score is 31
      And ann's score is 10
