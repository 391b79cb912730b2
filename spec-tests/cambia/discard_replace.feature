@cambia
Feature: Discarding and replacing
  "Socket command actions", section "Draw Action"; deckspec rulings "Cambia: Turn" and "Cambia:
  Specials": the drawn card is discarded face up, or goes face down into a slot whose card is
  discarded face up instead.

  Background:
    Given a cambia game with players ann, bob
    And ann holds 7S, KH, 3D, QD
    And bob holds 4H, 6D, 2S, 8H

  @rule:CAM-DISC-1
  Scenario: discarding puts the drawn card face up on the discard pile
    Given the draw pile is 5C
    And the discard pile is 4S
    And it is ann's turn
    And ann did draw_stockpile
    When ann does discard
    Then the discard pile is 5C, 4S
    And ann holds 7S, KH, 3D, QD
    And everyone sees player_discard with user ann and card 5C and card.suit Clubs and card.value 5

  @rule:CAM-DISC-1 @rule:CAM-VIS-3
  Scenario: the discarded card is shown with its face to the other players
    Given the draw pile is 5C
    And it is ann's turn
    And ann did draw_stockpile
    When ann does discard
    Then bob receives:
      """
      {
        "type": "player_discard",
        "user": {"id": "ann"},
        "card": {"id": "{5C}", "rank": "5", "suit": "Clubs", "value": 5}
      }
      """
    And bob knows 5C

  @rule:CAM-DISC-2
  Scenario Outline: discarding a <card> offers no power and ends the turn
    Given the draw pile is <card>
    And it is ann's turn
    And ann did draw_stockpile
    When ann does discard
    Then ann does not see player_special_choice
    And it is bob's turn
    And the phase is awaiting_draw
    And the discard pile top is <card>

    Examples:
      | card |
      | JK   |
      | AC   |
      | 2C   |
      | 5C   |
      | 6C   |

  @rule:CAM-REPL-1
  Scenario: replacing puts the drawn card into the slot and discards the old card
    Given the draw pile is 5C
    And the discard pile is 4S
    And it is ann's turn
    And ann did draw_stockpile
    When ann does replace slot 2
    Then ann holds 7S, KH, 5C, QD
    And the discard pile is 3D, 4S
    And it is bob's turn

  @rule:CAM-REPL-1
  Scenario: the slot may be written as a bare number
    Given the draw pile is 5C
    And it is ann's turn
    And ann did draw_stockpile
    When ann does replace 0
    Then ann holds 5C, KH, 3D, QD
    And the discard pile top is 7S

  @rule:CAM-REPL-2
  Scenario: everyone is told which card was replaced, face up with its slot
    Given the draw pile is 5C
    And it is ann's turn
    And ann did draw_stockpile
    When ann does replace slot 2
    Then everyone sees player_replace with user ann and card 3D and card.idx 2
    And bob receives:
      """
      {
        "type": "player_replace",
        "user": {"id": "ann"},
        "card": {"id": "{3D}", "rank": "3", "suit": "Diamonds", "value": 3, "idx": 2}
      }
      """

  @rule:CAM-REPL-3 @rule:CAM-VIS-2 @rule:CAM-VIS-3
  Scenario: the new card stays hidden from bob while the old one is shown to all
    Given the draw pile is 5C
    And it is ann's turn
    And ann did draw_stockpile
    When ann does replace slot 2
    Then ann knows 5C
    And ann knows ann's slot 2
    And bob does not know 5C
    And bob does not know ann's slot 2
    And bob knows 3D

  @rule:CAM-REPL-4
  Scenario: by default a Queen discarded by replace offers no power
    Given the draw pile is 5C
    And it is ann's turn
    And ann did draw_stockpile
    When ann does replace slot 3
    Then ann does not see player_special_choice
    And the discard pile top is QD
    And it is bob's turn
    And the phase is awaiting_draw

  @rule:CAM-REPL-5
  Scenario: with allow_replace_abilities a Queen discarded by replace offers swap_blind
    Given the house rule allow_replace_abilities is true
    And the draw pile is 5C
    And it is ann's turn
    And ann did draw_stockpile
    When ann does replace slot 3
    Then everyone sees player_special_choice with user ann and card QD and special swap_blind
    And the phase is awaiting_special
    And it is ann's turn

  @rule:CAM-REPL-5 @rule:CAM-DISC-2
  Scenario: with allow_replace_abilities a 3 discarded by replace still ends the turn
    Given the house rule allow_replace_abilities is true
    And the draw pile is 5C
    And it is ann's turn
    And ann did draw_stockpile
    When ann does replace slot 2
    Then ann does not see player_special_choice
    And it is bob's turn

  @rule:CAM-REPL-1 @rule:CAM-DRAW-5
  Scenario: a card taken from the discard pile can replace a card of the hand
    Given the house rule allow_draw_from_discard_pile is true
    And the discard pile is 4S, 8D
    And it is ann's turn
    And ann did draw_discardpile
    When ann does replace slot 2
    Then ann holds 7S, KH, 4S, QD
    And the discard pile is 3D, 8D
    And it is bob's turn
