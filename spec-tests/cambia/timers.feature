@cambia
Feature: The turn timer
  deckspec rulings "Cambia: Timer"; "Socket command actions", section "Special Card Discard Actions"
  (steps 1, 4 and 5): each decision has turn_timer_seconds; on expiry a drawn card is discarded
  without its power, a pending power is skipped, and a player who has not drawn loses the turn.

  Background:
    Given a cambia game with players ann, bob
    And ann holds 7S, KH, 3D, QD
    And bob holds 4H, 6D, 2S, 8H
    And it is ann's turn

  @rule:CAM-TIME-1
  Scenario: nothing happens before the 15 seconds are up
    When 14 seconds pass
    Then it is ann's turn
    And the phase is awaiting_draw
    And ann does not see game_turn_timeout

  @rule:CAM-TIME-3 @rule:CAM-TURN-4
  Scenario: a player who does not draw in 15 seconds loses the turn
    Given the draw pile is 5C
    When 15 seconds pass
    Then everyone sees game_turn_timeout with user ann
    And everyone sees game_player_turn with user bob
    And it is bob's turn
    And the phase is awaiting_draw
    And ann holds 7S, KH, 3D, QD
    And the draw pile top is 5C

  @rule:CAM-TIME-3
  Scenario: time running out is the same as the 15 seconds passing
    When time runs out
    Then everyone sees game_turn_timeout with user ann
    And it is bob's turn

  @rule:CAM-TIME-3 @rule:CAM-TURN-1
  Scenario: the next player gets a fresh timer of their own
    When 15 seconds pass
    And 15 seconds pass
    Then everyone sees game_turn_timeout with user bob
    And it is ann's turn

  @rule:CAM-TIME-4
  Scenario: a drawn 9 still held at the deadline is discarded without its power
    Given the draw pile is 9C
    And ann did draw_stockpile
    When time runs out
    Then everyone sees player_discard with user ann and card 9C
    And everyone sees game_turn_timeout with user ann
    And ann does not see player_special_choice
    And the discard pile top is 9C
    And ann holds 7S, KH, 3D, QD
    And it is bob's turn

  @rule:CAM-TIME-4
  Scenario: a drawn King still held at the deadline is discarded without its power
    Given the draw pile is KC
    And ann did draw_stockpile
    When 15 seconds pass
    Then everyone sees player_discard with user ann and card KC
    And ann does not see player_special_choice
    And it is bob's turn
    And the phase is awaiting_draw

  @rule:CAM-TIME-2
  Scenario: drawing starts a fresh timer for the discard or replace
    Given the draw pile is 5C
    When 10 seconds pass
    And ann does draw_stockpile
    And 10 seconds pass
    Then the phase is awaiting_discard
    And it is ann's turn
    When 5 seconds pass
    Then everyone sees game_turn_timeout with user ann
    And the discard pile top is 5C
    And it is bob's turn

  @rule:CAM-TIME-5
  Scenario: a power still on offer at the deadline is skipped
    Given the draw pile is 8C
    And ann did draw_stockpile
    And ann did discard
    When time runs out
    Then everyone sees game_turn_timeout with user ann
    And it is bob's turn
    And the phase is awaiting_draw
    And ann does not know 3D
    And the discard pile top is 8C

  @rule:CAM-TIME-5
  Scenario: a power skipped by the timer is announced as a skip
    Given the draw pile is 9C
    And ann did draw_stockpile
    And ann did discard
    When time runs out
    Then everyone sees player_special_action with user ann and special skip
    And it is bob's turn

  @rule:CAM-TIME-2
  Scenario: the offer of a power starts a fresh timer
    Given the draw pile is 8C
    And ann did draw_stockpile
    When 10 seconds pass
    And ann does discard
    And 10 seconds pass
    Then the phase is awaiting_special
    When ann does special peek_self slot 2
    Then ann knows 3D
    And it is bob's turn

  @rule:CAM-TIME-6 @rule:CAM-TIME-2
  Scenario: the King's swap decision gets a fresh timer and swaps nothing when it runs out
    Given the draw pile is KC
    And ann did draw_stockpile
    And ann did discard
    When 10 seconds pass
    And ann does special swap_peek ann's slot 2 and bob's slot 2
    And 10 seconds pass
    Then the phase is awaiting_swap_decision
    When 5 seconds pass
    Then everyone sees game_turn_timeout with user ann
    And ann holds 7S, KH, 3D, QD
    And bob holds 4H, 6D, 2S, 8H
    And it is bob's turn

  @rule:CAM-TIME-1
  Scenario: house rule turn_timer_seconds sets the time for each decision
    Given the house rule turn_timer_seconds is 30
    When 20 seconds pass
    Then it is ann's turn
    When 10 seconds pass
    Then everyone sees game_turn_timeout with user ann
    And it is bob's turn
