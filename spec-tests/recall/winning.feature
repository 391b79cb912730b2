@recall
Feature: Winning: an empty hand, or the lowest points after Recall
  "Recall Card Game Rules", sections "Game Objective", "Winning Conditions" and "Game End
  Conditions"; "Recall Card Game - Game Play and Rules", section "Winning Conditions"; deckspec
  rulings "Recall: End": a player with no cards wins at once; after Recall the lowest points win, a
  tie goes to fewer cards, then to the caller if tied, else it is a draw.

  Rule: a player with no cards left wins at once

    @rule:REC-END-1 @rule:REC-END-6
    Scenario: bob throws his last card during ann's turn and wins
      Given a recall game with players ann, bob
      And ann holds 7S, KH, 3D, QC
      And bob holds 9C
      And the draw pile is 9H
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      When bob does same_rank 9C
      Then bob wins
      And the game is over
      And the phase is finished
      And bob holds 0 cards
      And everyone sees game_end with reason empty_hand and caller none

    @rule:REC-END-1 @rule:REC-END-6
    Scenario: the end is announced with winners, scores and reason
      Given a recall game with players ann, bob
      And ann holds 7S, KH, 3D, QC
      And bob holds 9C
      And the draw pile is 9H
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      When bob does same_rank 9C
      Then ann receives:
        """
        {
          "type": "game_end",
          "winners": [{"id": "bob"}],
          "scores": {"ann": 20, "bob": 0},
          "reason": "empty_hand"
        }
        """

    @rule:REC-END-1
    Scenario: ann empties her own hand in her same rank window
      Given a recall game with players ann, bob
      And ann holds 5H
      And bob holds 4H, 6D, 2S, 8H
      And the draw pile is 5C
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      When ann does same_rank 5H
      Then ann wins
      And ann holds 0 cards

    @rule:REC-END-1 @rule:REC-END-6
    Scenario: an empty hand wins at once in the final round, before the window closes
      Given a recall game with players ann, bob
      And ann holds KH, KD, JK
      And bob holds 9C
      And the draw pile is 5C, 9H
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      And ann did call_recall
      When 5 seconds pass
      And bob does draw
      And bob does play drawn
      And bob does same_rank 9C
      Then the game is over
      And bob wins
      And everyone sees game_end with reason empty_hand and caller ann

    @rule:REC-END-8
    Scenario: when the game ends every hand is shown to every player
      Given a recall game with players ann, bob, cat
      And ann holds 7S, KH, 3D, QC
      And bob holds 9C
      And cat holds 4H, 6D, 2S, 8H
      And the draw pile is 9H
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      Then bob does not know ann's slot 2
      And ann does not know 3D
      When bob does same_rank 9C
      Then bob wins
      And bob knows ann's slot 2
      And bob knows QC
      And cat knows 7S
      And ann knows 3D
      And ann knows 2S
      And cat knows 8H

    @rule:REC-END-7
    Scenario: once the game is over every action is refused
      Given a recall game with players ann, bob
      And ann holds 7S, KH, 3D, QC
      And bob holds 9C
      And the draw pile is 9H
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      And bob did same_rank slot 0
      When ann does same_rank 7S
      Then the action is rejected with "the game is over"
      When ann does call_recall
      Then the action is rejected with "the game is over"
      When bob does draw
      Then the action is rejected with "the game is over"
      And ann holds 7S, KH, 3D, QC

  Rule: after Recall, the lowest points win

    @rule:REC-END-2 @rule:REC-END-6
    Scenario: ann calls with the lowest points and wins
      Given a recall game with players ann, bob
      And ann holds AS, 2D, 3C, 4H
      And bob holds 5S, 6H, 7C, 8D
      And the draw pile is 9S, 10H
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      And ann did call_recall
      When 5 seconds pass
      And bob does draw
      And bob does play drawn
      And 5 seconds pass
      Then ann wins
      And ann's score is 10
      And bob's score is 26
      And bob receives:
        """
        {
          "type": "game_end",
          "winners": [{"id": "ann"}],
          "scores": {"ann": 10, "bob": 26},
          "reason": "recall",
          "caller": {"id": "ann"}
        }
        """

    @rule:REC-END-2
    Scenario: the caller loses to a lower hand
      Given a recall game with players ann, bob
      And ann holds 5S, 6H, 7C, 8D
      And bob holds AS, 2D, 3C, 4H
      And the draw pile is 9S, 10H
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      And ann did call_recall
      When 5 seconds pass
      And bob does draw
      And bob does play drawn
      And 5 seconds pass
      Then bob wins
      And everyone sees game_end with reason recall and caller ann and winners.0 bob

    @rule:REC-END-3
    Scenario: on equal points the player with fewer cards wins, even against the caller
      Given a recall game with players ann, bob
      And ann holds AS, 2D, 3C, 4H
      And bob holds 5S, 3H, 2C
      And the draw pile is 9S, 10H
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      And ann did call_recall
      When 5 seconds pass
      And bob does draw
      And bob does play drawn
      And 5 seconds pass
      Then bob wins
      And ann's score is 10
      And bob's score is 10

    @rule:REC-END-3
    Scenario: two players tied on points below the caller: the one with fewer cards wins
      Given a recall game with players ann, bob, cat
      And ann holds KS, QS, JS, 10S
      And bob holds AS, 2D, 3C, 4H
      And cat holds 5S, 3H, 2C
      And the draw pile is 9S, 10H, 8C
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      And ann did call_recall
      When 5 seconds pass
      And bob does draw
      And bob does play drawn
      And 5 seconds pass
      And cat does draw
      And cat does play drawn
      And 5 seconds pass
      Then cat wins

    @rule:REC-END-4
    Scenario: on equal points and cards the caller wins
      Given a recall game with players ann, bob
      And ann holds AS, 2D, 3C, 4H
      And bob holds 5S, 3H, 2C, JK
      And the draw pile is 9S, 10H
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      And ann did call_recall
      When 5 seconds pass
      And bob does draw
      And bob does play drawn
      And 5 seconds pass
      Then ann wins
      And ann's score is 10
      And bob's score is 10

    @rule:REC-END-4 @rule:REC-CALL-4
    Scenario: a caller in the second seat also wins the tie after ann's last turn
      Given a recall game with players ann, bob
      And ann holds AS, 2D, 3C, 4H
      And bob holds 5S, 3H, 2C, JK
      And the draw pile is 9S, 10H, 8C
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      And bob does draw
      And bob does play drawn
      And bob does call_recall
      And 5 seconds pass
      Then it is ann's turn
      When ann does draw
      And ann does play drawn
      And 5 seconds pass
      Then bob wins

    @rule:REC-END-5
    Scenario: a tie that does not involve the caller is a draw
      Given a recall game with players ann, bob, cat
      And ann holds KS, QS, JS, 10S
      And bob holds AS, 2D, 3C, 4H
      And cat holds 5S, 3H, 2C, JK
      And the draw pile is 9S, 10H, 8C
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      And ann did call_recall
      When 5 seconds pass
      And bob does draw
      And bob does play drawn
      And 5 seconds pass
      And cat does draw
      And cat does play drawn
      And 5 seconds pass
      Then the game is a draw
      And the game is over
      And everyone sees game_end with reason recall

    @rule:REC-END-2 @rule:REC-PTS-5
    Scenario: a penalty card taken in the final round counts against its holder
      Given a recall game with players ann, bob
      And ann holds AS, 2D, 3C, 4H
      And bob holds 5S, 3H, 2C
      And the draw pile is 9S, 10H, 6C
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      And ann did call_recall
      When 5 seconds pass
      And bob does draw
      And bob does play drawn
      And bob does same_rank 5S
      And 5 seconds pass
      Then bob holds 5S, 3H, 2C, 6C
      And bob's score is 16
      And ann wins
