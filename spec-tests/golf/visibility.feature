@golf
Feature: Face up, face down, and who sees what
  deckspec rulings "Golf (six-card)": nobody knows a face-down card, its owner included; a card lying
  face up, or on the discard pile, is known to everyone; every event goes to every player, each
  card's face only to those who may see it.

  Background:
    Given a golf game with players ann, bob, cat
    And ann holds 5S, 7H, KD, 6C, 9D, 2S
    And bob holds 4H, 6D, 3S, 8H, QC, AC
    And cat holds 3C, 4D, 5D, 7C, 8C, 9S
    And the discard pile is 8D
    And the draw pile is 10C, 4C, JH
    And it is ann's turn

  @rule:GOLF-FACE-1
  Scenario: nobody knows a face-down card, its owner included
    Then ann does not know ann's slot 2
    And ann does not know KD
    And bob does not know KD
    And cat does not know ann's slot 5
    And bob does not know bob's slot 4

  @rule:GOLF-FACE-2
  Scenario: a card turned up is known to everyone and stays face up
    Then everyone knows ann's slot 0
    And everyone knows 7H
    And ann's slot 0 is face up
    When ann does draw_stock
    And ann does swap slot 4
    And bob does draw_stock
    And bob does swap slot 2
    Then ann's slots 0, 1 and 4 are face up
    And everyone knows 5S
    And everyone knows 10C

  @rule:GOLF-FACE-3
  Scenario: a card swapped out of a layout lies on the discard pile, known to everyone
    Given ann did draw_stock
    When ann does swap slot 2
    Then the discard pile top is KD
    And everyone knows KD
    And ann's slot 2 is 10C
    And ann's slot 2 is face up

  @rule:GOLF-FACE-3 @rule:GOLF-DRAW-3
  Scenario: a face-up card taken from the discard pile and swapped in lies face up
    Given ann did draw_stock
    And ann did swap slot 2
    And bob did draw_discard
    When bob does swap slot 4
    Then bob's slot 4 is KD
    And bob's slot 4 is face up
    And everyone knows bob's slot 4
    And the discard pile top is QC

  @rule:GOLF-DRAW-1 @rule:GOLF-EVT-2
  Scenario: a card drawn from the stock is the drawer's alone until it is placed
    When ann does draw_stock
    Then ann knows 10C
    And bob does not know 10C
    And cat does not know 10C
    When ann does swap slot 3
    Then everyone knows 10C
    And cat sees player_swap with card 10C and card.rank 10 and replaced 6C and replaced.rank 6

  @rule:GOLF-DRAW-2
  Scenario: a card drawn from the stock and discarded becomes known to everyone
    Given ann did draw_stock
    When ann does discard_drawn
    Then everyone knows 10C
    And cat sees player_discard with card 10C and card.suit Clubs

  @rule:GOLF-EVT-1
  Scenario: every event goes to every player
    When ann does draw_stock
    Then everyone sees player_draw_stock
    When ann does discard_drawn
    Then everyone sees player_discard
    When ann does flip slot 2
    Then everyone sees player_flip
    And everyone sees game_player_turn with user bob
    When bob does draw_discard
    Then everyone sees player_draw_discard
    When bob does swap slot 5
    Then everyone sees player_swap
    And cat receives:
      """
      {"type": "player_swap", "user": {"id": "bob"}, "card": {"id": "{10C}", "idx": 5, "user": {"id": "bob"}}, "replaced": {"id": "{AC}", "rank": "Ace", "idx": 5, "user": {"id": "bob"}}}
      """
