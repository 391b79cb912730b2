@golf
Feature: Computer players
  deckspec rulings "Golf (six-card)": bots in four levels decide from what they know: the cards
  lying face up, the discard pile and the card they drew.

  Background:
    Given a golf game with players ann, bob
    And ann holds 5S, 7H, KD, 6C, 9D, 2S
    And bob holds 4H, 6D, 3S, 8H, QC, AC
    And bob is an expert bot

  @rule:GOLF-BOT-1 @rule:GOLF-SETUP-1
  Scenario: a bot turns up its initial cards, then waits for the others
    When bob's bot acts
    Then bob's bot chose flip_initial bob's slot 0
    When bob's bot acts
    Then bob's bot chose flip_initial bob's slot 2
    When bob's bot acts
    Then bob's bot waited
    And the phase is initial_flip

  @rule:GOLF-BOT-1
  Scenario: a bot waits while it is not its turn
    Given it is ann's turn
    When bob's bot acts
    Then bob's bot waited

  @rule:GOLF-BOT-1 @rule:GOLF-SCORE-2
  Scenario: the expert takes the discard that pairs a card it shows, and swaps it into the column
    Given the discard pile is 4S
    And it is bob's turn
    When bob's bot acts
    Then bob's bot chose draw_discard
    When bob's bot acts
    Then bob's bot chose swap bob's slot 3
    And bob holds 4H, 6D, 3S, 4S, QC, AC

  @rule:GOLF-BOT-1
  Scenario: the expert leaves a high discard and draws from the stock
    Given the discard pile is QS
    And it is bob's turn
    When bob's bot acts
    Then bob's bot chose draw_stock

  @rule:GOLF-BOT-1 @rule:GOLF-DISC-3
  Scenario: the expert discards a high card from the stock and turns up a card of a hidden column
    Given the discard pile is 8D
    And the draw pile is QS
    And it is bob's turn
    When bob's bot acts
    Then bob's bot chose draw_stock
    When bob's bot acts
    Then bob's bot chose discard_drawn
    When bob's bot acts
    Then bob's bot chose flip bob's slot 2

  @rule:GOLF-BOT-1
  Scenario: the expert keeps a King from the stock in place of its worst card
    Given the discard pile is 8D
    And the draw pile is KC
    And it is bob's turn
    When bob's bot acts
    Then bob's bot chose draw_stock
    When bob's bot acts
    Then bob's bot chose swap bob's slot 1

  @rule:GOLF-BOT-1
  Scenario Outline: every level turns up its initial cards, then keeps a King in place of a face-up 9
    Given ann is a<n> <level> bot
    And the discard pile is QS
    And the draw pile is KC
    When ann's bot acts
    And ann's bot acts
    And ann's bot acts
    Then ann's bot waited
    Given it is ann's turn
    When ann's bot acts
    Then ann's bot chose draw_stock
    When ann's bot acts
    Then ann's bot chose swap <slot>
    And it is bob's turn

    Examples:
      | n | level  | slot |
      |   | medium | 9D   |
      |   | hard   | 9D   |
      | n | expert | 9D   |
