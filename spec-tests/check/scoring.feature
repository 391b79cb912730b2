@check
Feature: Card values, scoring and the end of the round
  "Game Rules & Mechanics (Authoritative Overview)", sections "1. Object of the Game", "3. Card
  Values for Scoring" and "10. Scoring Phase"; deckspec rulings "Check: Values" and "Check:
  Scoring": A -1, 2-10 face value, J 11, Q 12, K 13; at the end all hands are revealed and the
  lowest total wins, all tied players together.

  Rule: each card is worth its value

    @rule:CHK-VAL-1
    Scenario: Aces are worth -1 each
      Given a check game with players ann, bob
      And ann holds AS, AC, AD, AH
      Then ann's score is -4

    @rule:CHK-VAL-2
    Scenario: the cards 2 to 10 are worth their face value
      Given a check game with players ann, bob
      And ann holds 2S, 5D, 9C, 10H
      Then ann's score is 26

    @rule:CHK-VAL-3
    Scenario: a Jack is worth 11, a Queen 12 and Kings 13, red or black
      Given a check game with players ann, bob
      And ann holds JS, QD, KC, KH
      Then ann's score is 49

  Rule: the score is the hand's total

    @rule:CHK-SCORE-1
    Scenario: the score is the sum of the hand
      Given a check game with players ann, bob
      And ann holds 7S, KH, 3D, QC
      And bob holds AH, 6D, 2S, 8H
      Then ann's score is 35
      And bob's score is 15

    @rule:CHK-SCORE-1 @rule:CHK-PEN-2
    Scenario: a penalty card counts in the score
      Given a check game with players ann, bob
      And ann holds 7S, KH, 3D, QC
      And bob holds 4H, 6D, 2S, 8H
      And the draw pile is 7H, QS
      And it is ann's turn
      And ann did draw_from_deck
      And ann did discard_drawn_card
      When bob does attempt_match 2S
      Then bob's score is 32

    @rule:CHK-SCORE-1 @rule:CHK-HAND-1
    Scenario: a matched card no longer counts and its empty slot counts nothing
      Given a check game with players ann, bob
      And ann holds 7S, KH, 3D, QC
      And bob holds 4H, 7C, 2S, 8H
      And the draw pile is 7H
      And it is ann's turn
      And ann did draw_from_deck
      And ann did discard_drawn_card
      When bob does attempt_match 7C
      Then bob holds 4H, _, 2S, 8H
      And bob's score is 14

  Rule: the lowest total wins, all tied players together

    @rule:CHK-SCORE-2 @rule:CHK-END-1
    Scenario: the caller with the lowest total wins
      Given a check game with players ann, bob
      And ann holds AS, 2S, 3S, 4S
      And bob holds 5H, 6H, 7H, 8H
      And the draw pile is 5C
      And it is ann's turn
      And ann did call_check
      And bob did draw_from_deck
      And bob did discard_drawn_card
      When bob does pass_match
      Then ann wins
      And ann's score is 8
      And bob's score is 26
      And the phase is round_over
      And everyone sees game_round_end with caller ann and winners.0 ann

    @rule:CHK-SCORE-2
    Scenario: a player lower than the caller wins
      Given a check game with players ann, bob
      And ann holds 10S, 10H, 5S, 5H
      And bob holds AS, 2S, 3S, 4S
      And the draw pile is 5C
      And it is ann's turn
      And ann did call_check
      And bob did draw_from_deck
      And bob did discard_drawn_card
      When bob does pass_match
      Then bob wins
      And everyone sees game_round_end with caller ann and winners.0 bob

    @rule:CHK-SCORE-3
    Scenario: a tie with the caller is shared
      Given a check game with players ann, bob
      And ann holds AS, 2S, 3S, 4S
      And bob holds AH, 2H, 3H, 4H
      And the draw pile is 5C
      And it is ann's turn
      And ann did call_check
      And bob did draw_from_deck
      And bob did discard_drawn_card
      When bob does pass_match
      Then ann and bob win
      And ann's score is 8
      And bob's score is 8

    @rule:CHK-SCORE-3
    Scenario: two players tied below the caller both win
      Given a check game with players ann, bob, cat
      And ann holds 10S, 10H, 5S, 5H
      And bob holds AS, 2S, 3S, 4S
      And cat holds AH, 2H, 3H, 4H
      And the draw pile is 5C, 6C
      And it is ann's turn
      And ann did call_check
      And bob did draw_from_deck
      And bob did discard_drawn_card
      And bob did pass_match
      And cat did pass_match
      And cat did draw_from_deck
      And cat did discard_drawn_card
      And bob did pass_match
      When cat does pass_match
      Then bob and cat win
      And the game is over

    @rule:CHK-SCORE-1 @rule:CHK-FINAL-2
    Scenario: the final scores count the swaps of the final turns
      Given a check game with players ann, bob
      And ann holds AS, 2S, 3S, 4S
      And bob holds 5H, 6H, 7H, 8H
      And the draw pile is AC
      And it is ann's turn
      And ann did call_check
      And bob did draw_from_deck
      And bob did swap_and_discard slot 3
      When bob does pass_match
      Then bob holds 5H, 6H, 7H, AC
      And bob's score is 17
      And ann wins

  Rule: at the end all hands are revealed and nothing more can be done

    Background:
      Given a check game with players ann, bob
      And ann holds AS, 2S, 3S, 4S
      And bob holds 5H, 6H, 7H, 8H
      And the draw pile is 5C
      And it is ann's turn
      And ann did call_check
      And bob did draw_from_deck
      And bob did discard_drawn_card
      And bob did pass_match

    @rule:CHK-END-2
    Scenario: every player knows every card at the end
      Then bob knows ann's slot 0
      And bob knows ann's slot 1
      And bob knows AS
      And ann knows bob's slot 0
      And ann knows 6H
      And ann knows ann's slot 0
      And bob knows bob's slot 1

    @rule:CHK-END-1
    Scenario: the round end is announced to everyone with the winners
      Then everyone sees game_round_end with caller ann and winners.0 ann
      And the game is over
      And the phase is round_over

    @rule:CHK-END-1 @rule:CHK-SCORE-1
    Scenario: the round end carries winners, scores and caller
      Then bob receives:
        """
        {
          "type": "game_round_end",
          "winners": [{"id": "ann"}],
          "scores": {"ann": 8, "bob": 26},
          "caller": {"id": "ann"}
        }
        """

    @rule:CHK-END-3
    Scenario: nobody can draw or call Check once the round is over
      When ann does draw_from_deck
      Then the action is rejected
      When bob does call_check
      Then the action is rejected
      And the phase is round_over
