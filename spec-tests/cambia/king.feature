@cambia
Feature: The King's peek and swap
  "Socket command actions", section "Special Card Discard Actions" step 4: a King discarded from the
  stockpile lets its player look at any two cards first, then swap them (swap_peek_swap) or leave
  them (skip).

  Background:
    Given a cambia game with players ann, bob
    And ann holds 7S, KH, 3D, QD
    And bob holds 4H, 6D, 2S, 8H
    And the draw pile is KC
    And it is ann's turn
    And ann did draw_stockpile
    And ann did discard

  @rule:CAM-SPEC-2
  Scenario: a black King drawn from the stockpile and discarded offers swap_peek
    Then the phase is awaiting_special
    And the discard pile top is KC
    And it is ann's turn

  @rule:CAM-KING-1
  Scenario: the King first shows ann the two chosen cards and moves nothing
    When ann does special swap_peek ann's slot 2 and bob's slot 2
    Then only ann sees private_special_action_success with special swap_peek_reveal
    And everyone sees player_special_action with user ann and special swap_peek_reveal
    And the phase is awaiting_swap_decision
    And it is ann's turn
    And ann knows 3D
    And ann knows 2S
    And ann holds 7S, KH, 3D, QD
    And bob holds 4H, 6D, 2S, 8H

  @rule:CAM-KING-1 @rule:CAM-VAL-5
  Scenario: ann is shown both cards with their faces and slots
    When ann does special swap_peek ann's slot 2 and bob's slot 2
    Then ann receives:
      """
      {
        "type": "private_special_action_success",
        "special": "swap_peek_reveal",
        "card1": {"id": "{3D}", "rank": "3", "suit": "Diamonds", "value": 3, "idx": 2},
        "card2": {"id": "{2S}", "rank": "2", "suit": "Spades", "value": 2, "idx": 2}
      }
      """

  @rule:CAM-KING-1 @rule:CAM-VIS-2
  Scenario: bob is told which two cards were picked up, not what they are
    When ann does special swap_peek ann's slot 2 and bob's slot 2
    Then bob receives:
      """
      {
        "type": "player_special_action",
        "user": {"id": "ann"},
        "special": "swap_peek_reveal",
        "card1": {"id": "{3D}", "idx": 2, "user": {"id": "ann"}},
        "card2": {"id": "{2S}", "idx": 2, "user": {"id": "bob"}}
      }
      """
    And bob does not know 3D
    And bob does not know 2S

  @rule:CAM-KING-2
  Scenario: after the reveal ann swaps the two cards
    Given ann did special swap_peek ann's slot 2 and bob's slot 2
    When ann does special swap_peek_swap
    Then ann holds 7S, KH, 2S, QD
    And bob holds 4H, 6D, 3D, 8H
    And everyone sees player_special_action with user ann and special swap_peek_swap
    And it is bob's turn
    And the phase is awaiting_draw

  @rule:CAM-KING-2 @rule:CAM-SPEC-10
  Scenario: after the King's swap ann knows both new places and bob knows neither
    Given ann did special swap_peek ann's slot 2 and bob's slot 2
    When ann does special swap_peek_swap
    Then ann knows ann's slot 2
    And ann knows bob's slot 2
    And bob does not know bob's slot 2
    And bob does not know ann's slot 2

  @rule:CAM-KING-3
  Scenario: after the reveal ann may leave the cards where they are
    Given ann did special swap_peek ann's slot 2 and bob's slot 2
    When ann does special skip
    Then ann holds 7S, KH, 3D, QD
    And bob holds 4H, 6D, 2S, 8H
    And everyone sees player_special_action with user ann and special skip
    And ann knows 2S
    And it is bob's turn

  @rule:CAM-KING-4
  Scenario: the King may look at two cards of ann's own hand and swap them
    When ann does special swap_peek ann's slot 2 and ann's slot 3
    And ann does special swap_peek_swap
    Then ann holds 7S, KH, QD, 3D
    And ann knows 3D
    And ann knows QD
    And it is bob's turn

  @rule:CAM-SPEC-4
  Scenario: the King's power may be skipped before looking at anything
    When ann does special skip
    Then everyone sees player_special_action with user ann and special skip
    And ann does not know 3D
    And it is bob's turn

  @rule:CAM-KING-6 @rule:CAM-KING-2
  Scenario Outline: the swap may name the two revealed cards again: <cards>
    Given ann did special swap_peek ann's slot 2 and bob's slot 2
    When ann does special swap_peek_swap <cards>
    Then ann holds 7S, KH, 2S, QD
    And bob holds 4H, 6D, 3D, 8H
    And it is bob's turn

    Examples:
      | cards                         |
      | ann's slot 2 and bob's slot 2 |
      | bob's slot 2 and ann's slot 2 |

  @rule:CAM-KING-6
  Scenario Outline: the swap cannot name a card that was not revealed: <cards>
    Given ann did special swap_peek ann's slot 2 and bob's slot 2
    When ann does special swap_peek_swap <cards>
    Then the action is rejected with "swap_peek_swap swaps the two cards you peeked at"
    And ann holds 7S, KH, 3D, QD
    And bob holds 4H, 6D, 2S, 8H
    And the phase is awaiting_swap_decision

    Examples:
      | cards                         |
      | ann's slot 2 and bob's slot 3 |
      | bob's slot 2 and ann's slot 3 |
      | ann's slot 3 and bob's slot 2 |
      | bob's slot 3 and ann's slot 2 |

  @rule:CAM-KING-6
  Scenario: the swap cannot name only one of the revealed cards
    Given ann did special swap_peek ann's slot 2 and bob's slot 2
    When ann does special swap_peek_swap ann's slot 2
    Then the action is rejected with "swap_peek_swap takes no cards, or the two you peeked at"
    And ann holds 7S, KH, 3D, QD
    And bob holds 4H, 6D, 2S, 8H
    And the phase is awaiting_swap_decision
