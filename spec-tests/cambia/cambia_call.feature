@cambia
Feature: Calling Cambia, locked hands and the end of the game
  "Socket command actions", section "Calling Cambia Action"; deckspec rulings "Cambia: Cambia": the
  caller's turn ends and their hand is locked (unmovable, still visible to peeks); every other
  player gets one more turn, and the game ends when the turn would come back to the caller.

  Rule: calling Cambia ends the caller's turn and locks their hand

    Background:
      Given a cambia game with players ann, bob
      And ann holds 7S, KH, 3D, QD
      And bob holds 4H, 6D, 2S, 8H
      And the draw pile is 5C
      And it is ann's turn

    @rule:CAM-CALL-1 @rule:CAM-EVT-4
    Scenario: ann calls Cambia instead of drawing
      When ann does cambia
      Then everyone sees player_cambia with user ann
      And everyone sees game_player_turn with user bob
      And it is bob's turn
      And the phase is awaiting_draw
      And the cambia_caller is ann
      And the game is not over
      And the draw pile top is 5C
      And ann holds 7S, KH, 3D, QD

    @rule:CAM-CALL-1 @rule:CAM-EVT-1
    Scenario: the call is announced to bob by ann's id
      When ann does cambia
      Then bob receives:
        """
        {"type": "player_cambia", "user": {"id": "ann"}}
        """

    @rule:CAM-LOCK-1
    Scenario: the caller's hand is locked and nobody else's
      When ann does cambia
      Then ann's locked is true
      And bob's locked is false

    @rule:CAM-CALL-3
    Scenario: Cambia can be called only once per game
      Given ann did cambia
      When bob does cambia
      Then the action is rejected with "cambia has already been called"
      And the cambia_caller is ann
      And bob's locked is false
      And it is bob's turn
      And the phase is awaiting_draw

  Rule: every other player gets one more turn, then the game ends

    @rule:CAM-END-1 @rule:CAM-END-3
    Scenario: with two players the game ends after bob's last turn
      Given a cambia game with players ann, bob
      And the draw pile is 5C
      And it is ann's turn
      And ann did cambia
      And bob did draw_stockpile
      When bob does discard
      Then the game is over
      And the phase is game_over
      And everyone sees game_end with caller ann

    @rule:CAM-END-1
    Scenario: with three players both bob and cat play once more
      Given a cambia game with players ann, bob, cat
      And the draw pile is 5C, 6C
      And it is ann's turn
      And ann did cambia
      When bob does draw_stockpile
      And bob does discard
      Then the game is not over
      And it is cat's turn
      When cat does draw_stockpile
      And cat does discard
      Then the game is over
      And the phase is game_over

    @rule:CAM-END-1 @rule:CAM-TURN-1
    Scenario: a caller in the middle seat waits for the turn to wrap around
      Given a cambia game with players ann, bob, cat
      And the draw pile is 5C, 6C
      And it is bob's turn
      And bob did cambia
      And cat did draw_stockpile
      And cat did discard
      Then it is ann's turn
      And the game is not over
      When ann does draw_stockpile
      And ann does discard
      Then the game is over

    @rule:CAM-END-3 @rule:CAM-SCORE-3
    Scenario: the end is announced with winners, scores and caller
      Given a cambia game with players ann, bob
      And ann holds AS, 2S, 3S, 4S
      And bob holds 5H, 6H, 7H, 8H
      And the draw pile is 5C
      And it is ann's turn
      And ann did cambia
      And bob did draw_stockpile
      When bob does discard
      Then bob receives:
        """
        {
          "type": "game_end",
          "winners": [{"id": "ann"}],
          "scores": {"ann": 10, "bob": 26},
          "caller": {"id": "ann"}
        }
        """

    @rule:CAM-END-2 @rule:CAM-TIME-3
    Scenario: a last turn lost to the timer still counts
      Given a cambia game with players ann, bob
      And it is ann's turn
      And ann did cambia
      When time runs out
      Then everyone sees game_turn_timeout with user bob
      And the game is over

    @rule:CAM-END-2 @rule:CAM-LOCK-4
    Scenario: bob may peek at the caller's cards in his last turn
      Given a cambia game with players ann, bob
      And ann holds 7S, KH, 3D, QD
      And the draw pile is 9C
      And it is ann's turn
      And ann did cambia
      And bob did draw_stockpile
      And bob did discard
      When bob does special peek_other ann's slot 2
      Then only bob sees private_special_action_success with special peek_other and card 3D
      And bob knows 3D
      And the game is over

  Rule: a locked hand cannot be moved, only looked at

    Background:
      Given a cambia game with players ann, bob, cat
      And ann holds 7S, KH, 3D, QD
      And bob holds 4H, 6D, 2S, 8H
      And it is ann's turn
      And ann did cambia

    @rule:CAM-LOCK-2
    Scenario: a blind swap fails when the locked hand's card is named first
      Given the draw pile is JC
      And bob did draw_stockpile
      And bob did discard
      When bob does special swap_blind ann's slot 1 and bob's slot 0
      Then only bob sees private_special_action_fail with special swap_blind
      And ann holds 7S, KH, 3D, QD
      And bob holds 4H, 6D, 2S, 8H
      And the phase is awaiting_special

    @rule:CAM-LOCK-3
    Scenario: a King fails when the locked hand's card is named first
      Given the draw pile is KS
      And bob did draw_stockpile
      And bob did discard
      When bob does special swap_peek ann's slot 2 and bob's slot 2
      Then only bob sees private_special_action_fail with special swap_peek
      And bob knows 3D
      And ann holds 7S, KH, 3D, QD
      And bob holds 4H, 6D, 2S, 8H
      And it is cat's turn

    @rule:CAM-LOCK-2
    Scenario: a blind swap touching the locked hand fails and moves nothing
      Given the draw pile is JC
      And bob did draw_stockpile
      And bob did discard
      When bob does special swap_blind bob's slot 0 and ann's slot 1
      Then only bob sees private_special_action_fail with special swap_blind
      And ann holds 7S, KH, 3D, QD
      And bob holds 4H, 6D, 2S, 8H
      And the phase is awaiting_special
      And it is bob's turn

    @rule:CAM-LOCK-2
    Scenario: the failure names the two cards to bob
      Given the draw pile is QC
      And bob did draw_stockpile
      And bob did discard
      When bob does special swap_blind bob's slot 0 and ann's slot 1
      Then bob receives:
        """
        {
          "type": "private_special_action_fail",
          "special": "swap_blind",
          "card1": {"id": "{4H}", "idx": 0},
          "card2": {"id": "{KH}", "idx": 1}
        }
        """

    @rule:CAM-LOCK-2 @rule:CAM-SPEC-9
    Scenario: after a failed blind swap bob may choose two other cards
      Given the draw pile is JC
      And bob did draw_stockpile
      And bob did discard
      When bob does special swap_blind bob's slot 0 and ann's slot 1
      And bob does special swap_blind bob's slot 0 and bob's slot 1
      Then bob holds 6D, 4H, 2S, 8H
      And ann holds 7S, KH, 3D, QD
      And it is cat's turn

    @rule:CAM-LOCK-3
    Scenario: a King touching the locked hand shows both cards, then swaps nothing and ends the turn
      Given the draw pile is KS
      And bob did draw_stockpile
      And bob did discard
      When bob does special swap_peek bob's slot 2 and ann's slot 2
      Then only bob sees private_special_action_success with special swap_peek_reveal
      And only bob sees private_special_action_fail
      And bob knows 3D
      And bob knows 2S
      And ann holds 7S, KH, 3D, QD
      And bob holds 4H, 6D, 2S, 8H
      And it is cat's turn
      And the phase is awaiting_draw

    @rule:CAM-LOCK-4
    Scenario: a 10 may look at a card of the locked hand
      Given the draw pile is 10C
      And bob did draw_stockpile
      And bob did discard
      When bob does special peek_other ann's slot 3
      Then only bob sees private_special_action_success with special peek_other and card QD
      And bob knows QD
      And cat does not know QD
      And it is cat's turn

    @rule:CAM-LOCK-5
    Scenario: the caller cannot snap, even on a matching card
      Given the draw pile is 3C
      And bob did draw_stockpile
      And bob did discard
      When ann does snap 3D
      Then the action is rejected with "your hand is locked"
      And ann holds 7S, KH, 3D, QD
      And the discard pile top is 3C
      And it is cat's turn

  Rule: nothing can be done once the game is over

    Background:
      Given a cambia game with players ann, bob
      And ann holds 7S, KH, 3D, QD
      And bob holds 4H, 6D, 5H, 8H
      And the draw pile is 5C
      And it is ann's turn
      And ann did cambia
      And bob did draw_stockpile
      And bob did discard

    @rule:CAM-END-4
    Scenario: the caller gets no further turn
      When ann does draw_stockpile
      Then the action is rejected with "the game is over"
      And the phase is game_over

    @rule:CAM-END-4
    Scenario: nobody can snap after the end
      When bob does snap 5H
      Then the action is rejected with "the game is over"
      And bob holds 4H, 6D, 5H, 8H
      And the discard pile top is 5C

    @rule:CAM-END-5
    Scenario: at the end every hand is shown to everyone
      Then bob knows 3D
      And bob knows QD
      And ann knows 8H
      And ann knows 6D
      And bob receives:
        """
        {"type": "game_end", "scores": {"ann": 21, "bob": 23}}
        """

    @rule:CAM-END-6
    Scenario: no timer runs once the game is over
      When 60 seconds pass
      Then ann does not see game_turn_timeout
      And the game is over
      And the phase is game_over

    @rule:CAM-END-4
    Scenario: nobody can call Cambia after the end
      When bob does cambia
      Then the action is rejected with "the game is over"
