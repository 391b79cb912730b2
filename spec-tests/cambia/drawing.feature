@cambia
Feature: Drawing
  "Socket command actions", section "Draw Action"; deckspec rulings "Cambia: Turn": draw from the
  stockpile (the card is seen by the drawer only) or, under a house rule, from the discard pile.

  Background:
    Given a cambia game with players ann, bob
    And ann holds 7S, KH, 3D, QD
    And bob holds 4H, 6D, 2S, 8H

  @rule:CAM-DRAW-1 @rule:CAM-TURN-2
  Scenario: drawing from the stockpile takes its top card and waits for a discard or replace
    Given the draw pile is 5C, 9H
    And it is ann's turn
    When ann does draw_stockpile
    Then the phase is awaiting_discard
    And it is ann's turn
    And the draw pile top is 9H
    And the draw pile has 45 cards
    And ann holds 7S, KH, 3D, QD
    And ann knows 5C

  @rule:CAM-DRAW-2
  Scenario: everyone is told that ann drew and how many cards are left
    Given the draw pile is 5C
    And it is ann's turn
    When ann does draw_stockpile
    Then everyone sees player_draw_stockpile with user ann and card 5C and stockpileSize 45

  @rule:CAM-DRAW-2 @rule:CAM-VIS-2
  Scenario: bob sees the drawn card by id only
    Given the draw pile is 5C
    And the discard pile is 4S
    And it is ann's turn
    When ann does draw_stockpile
    Then bob receives:
      """
      {
        "type": "player_draw_stockpile",
        "user": {"id": "ann"},
        "card": {"id": "{5C}"},
        "stockpileSize": 44
      }
      """
    And bob does not know 5C

  @rule:CAM-DRAW-3 @rule:CAM-VIS-1
  Scenario: only the drawer is shown the drawn card
    Given the draw pile is 5C
    And it is ann's turn
    When ann does draw_stockpile
    Then only ann sees private_draw_stockpile with card 5C and card.suit Clubs and card.value 5
    And ann receives:
      """
      {
        "type": "private_draw_stockpile",
        "card": {"id": "{5C}", "rank": "5", "suit": "Clubs", "value": 5}
      }
      """
    And bob does not know 5C

  @rule:CAM-DRAW-5
  Scenario: with the house rule ann may take the top of the discard pile
    Given the house rule allow_draw_from_discard_pile is true
    And the discard pile is 4S, 8D
    And it is ann's turn
    When ann does draw_discardpile
    Then everyone sees player_draw_discardpile with user ann and card 4S and discardpileSize 1
    And only ann sees private_draw_discardpile with card 4S
    And the discard pile is 8D
    And the phase is awaiting_discard
    And it is ann's turn

  @rule:CAM-DRAW-5
  Scenario: the card taken from the discard pile is held apart, the rest of the pile counted
    Given the house rule allow_draw_from_discard_pile is true
    And the draw pile is 5C
    And the discard pile is 4S, 8D, 9C
    And it is ann's turn
    When ann does draw_discardpile
    Then everyone sees player_draw_discardpile with user ann and card 4S and discardpileSize 2
    And the discard pile is 8D, 9C
    And the draw pile top is 5C
    And ann holds 7S, KH, 3D, QD

  @rule:CAM-DRAW-5 @rule:CAM-VIS-3
  Scenario: a card taken from the discard pile is shown face up to everyone
    Given the house rule allow_draw_from_discard_pile is true
    And the discard pile is 4S, 8D
    And it is ann's turn
    When ann does draw_discardpile
    Then bob receives:
      """
      {
        "type": "player_draw_discardpile",
        "user": {"id": "ann"},
        "card": {"id": "{4S}", "rank": "4", "suit": "Spades", "value": 4},
        "discardpileSize": 1
      }
      """
    And bob knows 4S

  @rule:CAM-DRAW-1
  Scenario: the stockpile shrinks by one card per draw
    Given the draw pile is 5C, 9H
    And the discard pile is 4S
    And it is ann's turn
    And ann did draw_stockpile
    And ann did discard
    When bob does draw_stockpile
    Then everyone sees player_draw_stockpile with user bob and card 9H and stockpileSize 43
    And the draw pile has 43 cards
