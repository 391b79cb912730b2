@recall
Feature: Calling Recall and the final round
  "Recall Card Game Rules", sections "Recall Phase" and "Game End Conditions"; "Recall Card Game -
  Game Play and Rules", section "Winning Conditions"; deckspec rulings "Recall: Recall": after
  playing, the current player may call Recall; every other player gets one last turn, then the game
  ends.

  Rule: the current player calls Recall after playing, once per game

    Background:
      Given a recall game with players ann, bob
      And ann holds 7S, KH, 3D, QC
      And bob holds 4H, 6D, 2S, 8H
      And it is ann's turn

    @rule:REC-CALL-1
    Scenario: nobody has called Recall at the start
      Then the recall_caller is none

    @rule:REC-CALL-1
    Scenario: ann calls Recall in her same rank window
      Given the draw pile is 5C
      And ann did draw
      And ann did play drawn
      When ann does call_recall
      Then everyone sees player_call_recall with user ann
      And the recall_caller is ann
      And the phase is same_rank_window
      And it is ann's turn
      And the game is not over

    @rule:REC-CALL-1 @rule:REC-VIS-1
    Scenario: bob is told of the call by ann's id
      Given the draw pile is 5C
      And ann did draw
      And ann did play drawn
      When ann does call_recall
      Then bob receives:
        """
        {"type": "player_call_recall", "user": {"id": "ann"}}
        """

    @rule:REC-CALL-1
    Scenario: ann calls Recall while her Queen is being resolved
      Given the draw pile is QD
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      And ann does call_recall
      Then the recall_caller is ann
      And the phase is special_play_window
      When ann does skip
      Then it is bob's turn
      And the game is not over

    @rule:REC-CALL-2
    Scenario: ann cannot call Recall before she has played
      Given the draw pile is 5C
      When ann does call_recall
      Then the action is rejected with "you can call recall only after playing"
      When ann does draw
      And ann does call_recall
      Then the action is rejected with "you can call recall only after playing"
      And the recall_caller is none
      And the phase is playing_card

    @rule:REC-TURN-3 @rule:REC-CALL-1
    Scenario: bob cannot call Recall during ann's turn
      Given the draw pile is 5C
      And ann did draw
      And ann did play drawn
      When bob does call_recall
      Then the action is rejected with "not your turn"
      And the recall_caller is none

    @rule:REC-CALL-3
    Scenario: Recall is called only once
      Given the draw pile is 5C, 9H
      And ann did draw
      And ann did play drawn
      And ann did call_recall
      When ann does call_recall
      Then the action is rejected with "recall has already been called"
      When 5 seconds pass
      And bob does draw
      And bob does play drawn
      And bob does call_recall
      Then the action is rejected with "recall has already been called"
      And the recall_caller is ann

  Rule: every other player gets one last turn, then the game ends

    @rule:REC-CALL-4 @rule:REC-CALL-5
    Scenario: with two players the game ends after bob's last turn
      Given a recall game with players ann, bob
      And the draw pile is 5C, 9H
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      And ann did call_recall
      When 5 seconds pass
      Then it is bob's turn
      And the game is not over
      When bob does draw
      And bob does play drawn
      Then the game is not over
      And the phase is same_rank_window
      When 5 seconds pass
      Then the game is over
      And the phase is finished
      And everyone sees game_end with reason recall and caller ann

    @rule:REC-CALL-4 @rule:REC-TURN-1
    Scenario: with three players bob and cat both play once more
      Given a recall game with players ann, bob, cat
      And the draw pile is 5C, 9H, 10C
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      And ann did call_recall
      When 5 seconds pass
      And bob does draw
      And bob does play drawn
      And 5 seconds pass
      Then it is cat's turn
      And the game is not over
      When cat does draw
      And cat does play drawn
      And 5 seconds pass
      Then the game is over
      And the phase is finished

    @rule:REC-CALL-4
    Scenario: a caller in the middle seat waits for the turn to come round
      Given a recall game with players ann, bob, cat
      And the draw pile is 5C, 9H, 10C
      And it is bob's turn
      And bob did draw
      And bob did play drawn
      And bob did call_recall
      When 5 seconds pass
      Then it is cat's turn
      When cat does draw
      And cat does play drawn
      And 5 seconds pass
      Then it is ann's turn
      And the game is not over
      When ann does draw
      And ann does play drawn
      And 5 seconds pass
      Then the game is over
      And everyone sees game_end with caller bob

    @rule:REC-CALL-4 @rule:REC-PLAY-2
    Scenario: a last turn that plays a card of the hand counts like any other
      Given a recall game with players ann, bob, cat
      And the draw pile is 5C, 9H, 10C
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      And ann did call_recall
      When 5 seconds pass
      And bob does draw
      And bob does play slot 0
      And 5 seconds pass
      Then it is cat's turn
      And the game is not over
      When cat does draw
      And cat does play slot 0
      And 5 seconds pass
      Then the game is over
      And the phase is finished

    @rule:REC-CALL-5 @rule:REC-SAME-1
    Scenario: the caller may still throw a card in the last same rank window
      Given a recall game with players ann, bob
      And ann holds 7S, KH, 3D, QC
      And bob holds 4H, 6D, 2S, 8H
      And the draw pile is 5C, 7D
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      And ann did call_recall
      When 5 seconds pass
      And bob does draw
      And bob does play drawn
      And ann does same_rank 7S
      Then ann holds _, KH, 3D, QC
      And the game is not over
      When 5 seconds pass
      Then the game is over
      And ann's score is 13
      And ann wins

    @rule:REC-CALL-5 @rule:REC-SPEC-1 @rule:REC-SPEC-10
    Scenario: a Jack played in the last turn is still resolved before the end
      Given a recall game with players ann, bob
      And ann holds 7S, KH, 3D, QC
      And bob holds 4H, 6D, 2S, 8H
      And the draw pile is 5C, JD
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      And ann did call_recall
      When 5 seconds pass
      And bob does draw
      And bob does play drawn
      And 5 seconds pass
      Then the phase is special_play_window
      And the game is not over
      When bob does jack_swap bob's slot 3 and ann's slot 1
      Then the game is over
      And ann holds 7S, 8H, 3D, QC
      And bob holds 4H, 6D, 2S, KH
      And bob wins
      And the special_player is none
      And the special is ""

    @rule:REC-CALL-5 @rule:REC-TIME-1
    Scenario: a last turn lost to the draw timer still ends the game
      Given a recall game with players ann, bob
      And ann holds AS, 2D, 3C, 4H
      And bob holds 5S, 6H, 7C, 8D
      And the draw pile is 9S
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      And ann did call_recall
      When 5 seconds pass
      Then it is bob's turn
      When time runs out
      Then everyone sees game_timeout with user bob and phase drawing_card
      And the game is over
      And ann wins
