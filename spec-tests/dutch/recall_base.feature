@dutch
Feature: The Recall base in a Dutch game
  deckspec rulings "Recall"; "Recall Card Game - Game Play and Rules", section "Turn Structure";
  "Recall Card Game Rules", section "Gameplay Rules": Dutch reuses Recall's rules for drawing,
  playing, the same rank window, the Jack and Queen specials, turn order and timers. One example of
  each, in a Dutch game.

  Background:
    Given a dutch game with players ann, bob
    And ann holds 3D, 9C, 5H, 6H
    And bob holds 4H, 7S, 8H, 2S
    And ann did initial_peek 0 and 1
    And bob did initial_peek 0 and 1

  Rule: draw and play

    @rule:DUT-BASE-3
    Scenario: ann draws the top card of the draw pile, seen by her only
      Given the draw pile is 8C, 7D
      And it is ann's turn
      Then the phase is drawing_card
      When ann does draw
      Then the phase is playing_card
      And only ann sees private_draw with card 8C
      And everyone sees player_draw with user ann and drawPileSize 45
      And ann knows 8C
      And bob does not know 8C
      And the draw pile top is 7D
      And ann holds 3D, 9C, 5H, 6H

    @rule:DUT-BASE-4
    Scenario: ann plays her slot 2 and the drawn card takes its place face down
      Given the draw pile is 8C
      And it is ann's turn
      And ann did draw
      When ann does play 2
      Then ann holds 3D, 9C, 8C, 6H
      And the discard pile is 5H
      And everyone sees player_play with user ann and card 5H and source hand
      And the phase is same_rank_window
      And everyone sees game_same_rank_window with card 5H
      And bob knows 5H
      And bob does not know 8C
      And ann knows ann's slot 2

    @rule:DUT-BASE-4
    Scenario: ann plays the drawn card
      Given the draw pile is 8C
      And it is ann's turn
      And ann did draw
      When ann does play drawn
      Then ann holds 3D, 9C, 5H, 6H
      And the discard pile is 8C
      And everyone sees player_play with user ann and card 8C and source drawn
      And the phase is same_rank_window

  Rule: the same rank window

    @rule:DUT-BASE-5
    Scenario: bob throws his 8 on ann's 8 and leaves an empty slot
      Given the draw pile is 8C
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      When bob does same_rank slot 2
      Then bob holds 4H, 7S, _, 2S
      And the discard pile is 8H, 8C
      And everyone sees player_same_rank with user bob and card 8H
      And the phase is same_rank_window

    @rule:DUT-BASE-5
    Scenario: a wrong card costs bob a face-down penalty card
      Given the draw pile is 8C, 10D
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      When bob does same_rank slot 3
      Then bob holds 4H, 7S, 8H, 2S, 10D
      And everyone sees player_same_rank_fail with user bob and card 2S
      And everyone sees player_penalty with user bob
      And bob does not know 10D
      And ann does not know 10D
      And the discard pile is 8C
      And bob's score is 31

    @rule:DUT-BASE-5
    Scenario: after his wrong card bob takes no further part in the window
      Given the draw pile is 8C, 10D
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      And bob did same_rank slot 3
      When bob does same_rank slot 2
      Then the action is rejected with "you already played a wrong card in this window"
      And bob holds 4H, 7S, 8H, 2S, 10D
      And the discard pile is 8C

  Rule: Jacks and Queens give special plays after the window

    @rule:DUT-BASE-6
    Scenario: ann's Queen lets her peek at bob's card when the window ends
      Given the draw pile is QS
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      Then the phase is special_play_window
      And everyone sees game_special_play with user ann and special queen_peek
      When ann does queen_peek bob's slot 2
      Then ann knows 8H
      And only ann sees private_queen_peek with card 8H
      And it is bob's turn

    @rule:DUT-BASE-6
    Scenario: ann's Jack swaps a card of hers with a card of bob's
      Given the draw pile is JD
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      Then everyone sees game_special_play with user ann and special jack_swap
      When ann does jack_swap ann's slot 2 and bob's slot 3
      Then ann holds 3D, 9C, 2S, 6H
      And bob holds 4H, 7S, 8H, 5H
      And it is bob's turn

  Rule: turns and timers

    @rule:DUT-BASE-7 @rule:DUT-BASE-9
    Scenario: after the window bob's turn starts with a draw
      Given the draw pile is 8C
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      Then it is bob's turn
      And the phase is drawing_card
      And everyone sees game_player_turn with user bob

    @rule:DUT-BASE-7
    Scenario: from the last seat the turn goes back to the first
      Given the draw pile is 8C
      And it is bob's turn
      And bob did draw
      And bob did play drawn
      When 5 seconds pass
      Then it is ann's turn
      And everyone sees game_player_turn with user ann

    @rule:DUT-BASE-8
    Scenario: ann does not draw in time and loses her turn
      Given it is ann's turn
      When 10 seconds pass
      Then everyone sees game_timeout with user ann
      And it is bob's turn
      And the phase is drawing_card
      And ann holds 3D, 9C, 5H, 6H
