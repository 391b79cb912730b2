@recall
Feature: Turns: drawing and playing
  "Recall Card Game Rules", section "Turn Structure"; "Recall Card Game - Game Play and Rules",
  sections "1. Draw Phase", "2. Play or Collect Phase" and "Game Phases"; deckspec rulings "Recall:
  Turn": draw from the draw pile (or take the discard pile's top), then play the drawn card or a
  card of the hand, which the drawn card replaces face down; the play opens the same rank window,
  and the turn passes clockwise.

  Background:
    Given a recall game with players ann, bob, cat
    And ann holds 7S, KH, 3D, QC
    And bob holds 4H, 6D, 2S, 8H
    And cat holds 5S, 9D, JH, AC

  Rule: turns pass clockwise, each starting with a draw

    @rule:REC-TURN-2 @rule:REC-PHASE-1
    Scenario: a turn starts waiting for the current player to draw
      Given it is ann's turn
      Then it is ann's turn
      And the phase is drawing_card
      And everyone sees game_player_turn with user ann

    @rule:REC-TURN-1 @rule:REC-TURN-4 @rule:REC-PHASE-2 @rule:REC-SAME-12
    Scenario: after ann's play and the same rank window it is bob's turn
      Given the draw pile is 5C
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      Then it is bob's turn
      And the phase is drawing_card
      And everyone sees game_player_turn with user bob

    @rule:REC-TURN-1
    Scenario: the turn passes from the last seat back to the first
      Given the draw pile is 5C
      And it is cat's turn
      And cat did draw
      And cat did play drawn
      When 5 seconds pass
      Then it is ann's turn
      And everyone sees game_player_turn with user ann

    @rule:REC-TURN-3
    Scenario: bob cannot draw during ann's turn
      Given the draw pile is 5C
      And it is ann's turn
      When bob does draw
      Then the action is rejected with "not your turn"
      And the draw pile top is 5C
      And it is ann's turn
      And the phase is drawing_card

    @rule:REC-TURN-3
    Scenario: bob cannot play the card ann drew
      Given the draw pile is 5C
      And it is ann's turn
      And ann did draw
      When bob does play drawn
      Then the action is rejected with "not your turn"
      When bob does play slot 0
      Then the action is rejected with "not your turn"
      And bob holds 4H, 6D, 2S, 8H
      And the discard pile is empty
      And the phase is playing_card

  Rule: drawing

    Background:
      Given it is ann's turn

    @rule:REC-DRAW-1 @rule:REC-DRAW-2
    Scenario: ann draws the top of the draw pile and only she sees it
      Given the draw pile is 5C
      When ann does draw
      Then the phase is playing_card
      And it is ann's turn
      And ann knows 5C
      And bob does not know 5C
      And cat does not know 5C
      And only ann sees private_draw with card 5C
      And everyone sees player_draw with user ann and card 5C and drawPileSize 41
      And the draw pile has 41 cards
      And ann holds 7S, KH, 3D, QC

    @rule:REC-DRAW-2 @rule:REC-VIS-2
    Scenario: bob is told that ann drew, without the face of the card
      Given the draw pile is 5C
      When ann does draw
      Then bob receives:
        """
        {"type": "player_draw", "user": {"id": "ann"}, "card": {"id": "{5C}"}, "drawPileSize": 41}
        """
      And bob does not know 5C

    @rule:REC-DRAW-3 @rule:REC-DRAW-4
    Scenario: ann takes the top of the discard pile in sight of everyone
      Given the discard pile is 4S, 8D
      When ann does draw_discard
      Then everyone sees player_draw_discard with user ann and card 4S
      And the discard pile is 8D
      And the phase is playing_card
      And ann knows 4S
      And bob knows 4S
      And cat knows 4S

    @rule:REC-DRAW-4 @rule:REC-PLAY-2
    Scenario: the card taken from the discard pile stays known to all in ann's hand
      Given the discard pile is 4S, 8D
      And ann did draw_discard
      When ann does play slot 2
      Then ann holds 7S, KH, 4S, QC
      And bob knows ann's slot 2
      And cat knows ann's slot 2
      And the discard pile is 3D, 8D

    @rule:REC-DRAW-5
    Scenario: with house rule allow_draw_from_discard false the discard pile cannot be taken
      Given the house rule allow_draw_from_discard is false
      And the discard pile is 4S
      When ann does draw_discard
      Then the action is rejected with "drawing from the discard pile is not allowed"
      And the discard pile is 4S
      And the phase is drawing_card
      When ann does draw
      Then the phase is playing_card

    @rule:REC-DRAW-6
    Scenario: on the first turn the discard pile is empty and cannot be drawn from
      When ann does draw_discard
      Then the action is rejected with "the discard pile is empty"
      And the phase is drawing_card
      And it is ann's turn

    @rule:REC-DRAW-7
    Scenario: ann cannot draw a second card
      Given the draw pile is 5C, 9H
      And the discard pile is 4S
      And ann did draw
      When ann does draw
      Then the action is rejected with "you have already drawn a card"
      When ann does draw_discard
      Then the action is rejected with "you have already drawn a card"
      And the draw pile top is 9H
      And the discard pile is 4S
      And the phase is playing_card

    @rule:REC-DRAW-8
    Scenario: the drawn property is the card ann holds between her draw and her play
      Given the draw pile is 5C, 9H
      Then the drawn is none
      When ann does draw
      Then the drawn is 5C
      When ann does play drawn
      Then the drawn is none
      And the discard pile is 5C

  Rule: playing

    Background:
      Given it is ann's turn

    @rule:REC-PLAY-1 @rule:REC-PLAY-3 @rule:REC-PLAY-6
    Scenario: ann plays the card she drew
      Given the draw pile is 5C
      And ann did draw
      When ann does play drawn
      Then the discard pile is 5C
      And ann holds 7S, KH, 3D, QC
      And everyone sees player_play with user ann and card 5C and source drawn
      And the phase is same_rank_window
      And everyone sees game_same_rank_window with card 5C
      And it is ann's turn

    @rule:REC-PLAY-2 @rule:REC-PLAY-3 @rule:REC-PLAY-4
    Scenario: ann plays a card of her hand and the drawn card takes its slot face down
      Given the draw pile is 5C
      And ann did draw
      When ann does play slot 2
      Then ann holds 7S, KH, 5C, QC
      And the discard pile is 3D
      And everyone sees player_play with user ann and card 3D and source hand and card.idx 2
      And bob knows 3D
      And cat knows 3D
      And ann knows 5C
      And bob does not know 5C
      And bob does not know ann's slot 2
      And cat does not know ann's slot 2
      And the phase is same_rank_window

    @rule:REC-DRAW-8 @rule:REC-PLAY-2
    Scenario: once the drawn card has taken a slot it is no longer the drawn card
      Given the draw pile is 5C
      And ann did draw
      When ann does play slot 2
      Then the drawn is none
      And ann's slot 2 is 5C

    @rule:REC-PLAY-2
    Scenario: the slot may be written as a bare number
      Given the draw pile is 5C
      And ann did draw
      When ann does play 0
      Then ann holds 5C, KH, 3D, QC
      And the discard pile is 7S

    @rule:REC-PLAY-5
    Scenario: ann cannot play before drawing
      When ann does play slot 0
      Then the action is rejected with "you have not drawn a card"
      When ann does play drawn
      Then the action is rejected with "you have not drawn a card"
      And ann holds 7S, KH, 3D, QC
      And the discard pile is empty
      And the phase is drawing_card

    @rule:REC-PLAY-4 @rule:REC-VIS-2
    Scenario: bob sees the played card's face but not the card that replaced it
      Given the draw pile is 5C
      And ann did draw
      When ann does play slot 3
      Then bob sees player_play with card QC and card.rank Queen
      And bob does not know 5C
      And bob knows QC

  Rule: the phases of a turn

    @rule:REC-PHASE-1 @rule:REC-PHASE-2
    Scenario: a turn with a Queen goes through every phase and then straight to the next turn
      Given the draw pile is QD
      And it is ann's turn
      Then the phase is drawing_card
      When ann does draw
      Then the phase is playing_card
      When ann does play drawn
      Then the phase is same_rank_window
      When 5 seconds pass
      Then the phase is special_play_window
      When ann does skip
      Then the phase is drawing_card
      And it is bob's turn

  Rule: a turn starts afresh
    Whenever a turn starts, nothing of an earlier turn runs on into it: `Given it is bob's turn`
    written after ann's draw or play starts bob's turn there and then.

    @rule:REC-TURN-5 @rule:REC-TIME-1
    Scenario: ann's same rank window does not run on into bob's turn
      Given the draw pile is 5C
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      And it is bob's turn
      When 9 seconds pass
      Then it is bob's turn
      And the phase is drawing_card
      When 1 second passes
      Then everyone sees game_timeout with user bob and phase drawing_card
      And it is cat's turn

    @rule:REC-TURN-5
    Scenario: ann's play timer does not run on into bob's turn
      Given the house rule play_seconds is 5
      And the draw pile is 5C
      And it is ann's turn
      And ann did draw
      And it is bob's turn
      When 9 seconds pass
      Then it is bob's turn
      And the phase is drawing_card
      And bob does not see game_timeout
      And the discard pile is empty

    @rule:REC-TURN-5 @rule:REC-DRAW-8
    Scenario: the card ann drew is not bob's drawn card
      Given the draw pile is 5C
      And it is ann's turn
      And ann did draw
      And it is bob's turn
      Then the drawn is none
      And it is bob's turn
      And the phase is drawing_card

    @rule:REC-TURN-5 @rule:REC-SPEC-8
    Scenario: a Jack ann played is not resolved in bob's turn
      Given the draw pile is JD, 5C
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      And it is bob's turn
      When bob does draw
      And bob does play drawn
      And 5 seconds pass
      Then it is cat's turn
      And the phase is drawing_card
      And everyone sees game_special_play 0 times
