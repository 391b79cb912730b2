@golf
Feature: Drawing from the stock or the discard pile
  "Golf (six-card), as commonly played", section "Turn"; deckspec rulings "Golf (six-card)": a turn
  begins with a draw from the stock (only the drawer sees the card) or the top of the discard pile
  (everyone sees it).

  Background:
    Given a golf game with players ann, bob
    And ann holds 5S, 7H, KD, 6C, 9D, 2S
    And bob holds 4H, 6D, 3S, 8H, QC, AC
    And the discard pile is 8D
    And the draw pile is 10C, 4C
    And it is ann's turn

  @rule:GOLF-DRAW-1 @rule:GOLF-TURN-1
  Scenario: drawing from the stock takes its top card and waits for a decision
    When ann does draw_stock
    Then the phase is awaiting_decision
    And it is ann's turn
    And the draw pile top is 4C
    And the draw pile has 38 cards
    And ann holds 5S, 7H, KD, 6C, 9D, 2S
    And the discard pile is 8D
    And ann knows 10C
    And bob does not know 10C

  @rule:GOLF-DRAW-2 @rule:GOLF-EVT-1
  Scenario: everyone is told that ann drew from the stock
    When ann does draw_stock
    Then everyone sees player_draw_stock with user ann and card 10C
    And everyone sees player_draw_stock 1 time

  @rule:GOLF-DRAW-2 @rule:GOLF-EVT-2
  Scenario: only the drawer sees the face of a card drawn from the stock
    When ann does draw_stock
    Then ann receives:
      """
      {
        "type": "player_draw_stock",
        "user": {"id": "ann"},
        "card": {"id": "{10C}", "rank": "10", "suit": "Clubs", "value": 10}
      }
      """
    And bob receives:
      """
      {"type": "player_draw_stock", "user": {"id": "ann"}, "card": {"id": "{10C}"}}
      """
    And ann sees player_draw_stock with card.rank 10 and card.suit Clubs
    And bob does not see player_draw_stock with card.rank 10
    And bob does not know 10C

  @rule:GOLF-DRAW-3 @rule:GOLF-EVT-2
  Scenario: drawing from the discard pile takes its top card, shown to everyone
    When ann does draw_discard
    Then everyone sees player_draw_discard with user ann and card 8D and card.rank 8 and card.value 8
    And bob receives:
      """
      {
        "type": "player_draw_discard",
        "user": {"id": "ann"},
        "card": {"id": "{8D}", "rank": "8", "suit": "Diamonds", "value": 8}
      }
      """
    And the phase is awaiting_decision
    And it is ann's turn
    And the discard pile is empty
    And the draw pile top is 10C
    And the draw pile has 39 cards
    And everyone knows 8D

  @rule:GOLF-DRAW-4
  Scenario Outline: the draws take no arguments
    When ann does <action> <args>
    Then the action is rejected with "<action> takes no arguments"
    And the phase is awaiting_draw
    And the draw pile top is 10C
    And the discard pile is 8D

    Examples:
      | action       | args   |
      | draw_stock   | slot 0 |
      | draw_discard | 8D     |
