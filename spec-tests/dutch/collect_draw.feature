@dutch
Feature: Collecting the drawn card, and no drawing from the discard pile
  "Recall Card Game - Game Play and Rules", section "Option B: Collect a Card (If Applicable)";
  deckspec rulings "Dutch": a drawn card of the player's collection rank may be collected instead of
  played; it joins the hand face up as a collection card and the turn passes. Dutch does not let a
  player draw from the discard pile.

  Rule: a drawn card of the collection rank can be collected instead of played

    Background:
      Given a dutch game with players ann, bob
      And ann holds 3D, 9C, 5H, 6H
      And bob holds 4H, 8H, 2S, 6D
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1

    @rule:DUT-DRAW-1 @rule:DUT-COLL-6
    Scenario: ann draws a 3 and collects it face up
      Given the draw pile is 3S
      And it is ann's turn
      And ann did draw
      When ann does collect
      Then ann holds 3D, 9C, 5H, 6H, 3S
      And everyone sees player_collect with user ann and card 3S and source draw
      And bob knows 3S
      And bob knows ann's slot 4
      And ann's slot 4 is face up
      And everyone knows ann's slot 4
      And ann's slot 1 is face down
      And ann's collection_rank is 3

    @rule:DUT-DRAW-2
    Scenario: collecting ends ann's turn without a same rank window
      Given the draw pile is 3S
      And it is ann's turn
      And ann did draw
      When ann does collect
      Then the discard pile is empty
      And it is bob's turn
      And the phase is drawing_card
      And everyone sees game_player_turn with user bob
      And ann does not see game_same_rank_window
      And ann does not see player_play

    @rule:DUT-DRAW-7
    Scenario: after collecting ann holds no drawn card
      Given the draw pile is 3S
      And it is ann's turn
      And ann did draw
      Then the drawn is 3S
      When ann does collect
      Then the drawn is none
      And it is bob's turn

    @rule:DUT-DRAW-1
    Scenario: with her collection rank set to 7, ann collects a drawn 7
      Given the draw pile is 7S
      And it is ann's turn
      And ann's collection_rank is 7
      And ann did draw
      Then ann may do collect
      When ann does collect
      Then ann holds 3D, 9C, 5H, 6H, 7S
      And ann sees, in order: player_collect, game_player_turn
      And nobody sees player_play

    @rule:DUT-DRAW-3
    Scenario: a drawn 7 cannot be collected, and ann still has to play it
      Given the draw pile is 7S
      And it is ann's turn
      And ann did draw
      When ann does collect
      Then the action is rejected with "that card does not match your collection rank"
      And ann holds 3D, 9C, 5H, 6H
      And the phase is playing_card
      And it is ann's turn
      When ann does play drawn
      Then the discard pile is 7S
      And the phase is same_rank_window

    @rule:DUT-DRAW-4
    Scenario: ann cannot collect before drawing
      Given the draw pile is 3S
      And it is ann's turn
      When ann does collect
      Then the action is rejected with "you have not drawn a card"
      And the phase is drawing_card
      And ann holds 3D, 9C, 5H, 6H
      And the draw pile top is 3S

    @rule:DUT-DRAW-4
    Scenario: bob cannot collect the 4 ann drew
      Given the draw pile is 4S
      And it is ann's turn
      And ann did draw
      When bob does collect
      Then the action is rejected
      And bob holds 4H, 8H, 2S, 6D
      And the phase is playing_card
      And it is ann's turn
      And bob does not know 4S

    @rule:DUT-DRAW-8
    Scenario: ann cannot collect the 3 she has already played
      Given the draw pile is 3S
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      Then the phase is same_rank_window
      When ann does collect
      Then the action is rejected with "you can collect the drawn card only instead of playing it"
      And ann holds 3D, 9C, 5H, 6H
      And the discard pile is 3S
      And the phase is same_rank_window
      And it is ann's turn

    @rule:DUT-DRAW-8
    Scenario: ann cannot collect during the special play of the Queen she played
      Given the draw pile is QS
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      When time runs out
      Then the phase is special_play_window
      When ann does collect
      Then the action is rejected with "you can collect the drawn card only instead of playing it"
      And ann holds 3D, 9C, 5H, 6H
      And the discard pile is QS
      And the phase is special_play_window
      And it is ann's turn

    @rule:DUT-COLL-5 @rule:DUT-END-3
    Scenario: ann collects a 3 from the discard pile, then the 3 she draws: three 3s, and the game goes on
      Given the discard pile is 3H
      And the draw pile is 3S
      And it is ann's turn
      And ann did collect_discard
      And ann did draw
      When ann does collect
      Then ann holds 3D, 9C, 5H, 6H, 3H, 3S
      And ann's collection_rank is 3
      And the game is not over
      And it is bob's turn

  Rule: a collected card fills the first empty slot

    @rule:DUT-COLL-6
    Scenario: ann's collected 3 goes into her empty slot 2
      Given a dutch game with players ann, bob
      And ann holds 3D, 9C, _, 6H
      And bob holds 4H, 8H, 2S, 6D
      And the draw pile is 3S
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      And it is ann's turn
      And ann did draw
      When ann does collect
      Then ann holds 3D, 9C, 3S, 6H
      And bob knows ann's slot 2

  Rule: no drawing from the discard pile unless the house rule allows it

    Background:
      Given a dutch game with players ann, bob
      And ann holds 3D, 9C, 5H, 6H
      And bob holds 4H, 8H, 2S, 6D
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1

    @rule:DUT-DRAW-5
    Scenario: ann cannot take the top of the discard pile
      Given the discard pile is 5C
      And it is ann's turn
      When ann does draw_discard
      Then the action is rejected with "drawing from the discard pile is not allowed"
      And the discard pile is 5C
      And the phase is drawing_card
      And it is ann's turn

    @rule:DUT-DRAW-6
    Scenario: with allow_draw_from_discard true ann takes the top of the discard pile
      Given the house rule allow_draw_from_discard is true
      And the discard pile is 5C, 7C
      And it is ann's turn
      When ann does draw_discard
      Then everyone sees player_draw_discard with user ann and card 5C
      And the discard pile is 7C
      And the phase is playing_card
