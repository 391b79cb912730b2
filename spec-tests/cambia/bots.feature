@cambia @bots
Feature: Cambia's computer players act on what they remember
  rules/cambia/bots.yaml and bots.rhai: a bot snaps remembered cards of the discard's rank at any
  time, keeps a drawn card that beats its worst remembered card, and otherwise discards it. After
  the deal each player knows slots 0 and 1 (house rule initial_peek_slots).

  Background:
    Given a cambia game with players ann, bob
    And bob is an expert bot
    And ann holds 3D, 9C, 5H, 6H
    And bob holds 4H, 9S, 7D, 2S

  Scenario: out of turn, the bot snaps its remembered 4 on a 4
    Given the discard pile is 4C
    And it is ann's turn
    When bob's bot acts
    Then bob's bot chose snap bob's slot 0
    And everyone sees player_snap_success with user bob
    And bob holds 9S, 7D, 2S

  Scenario: the bot never snaps a card it has not seen
    Given the discard pile is 2D
    And it is ann's turn
    When bob's bot acts
    Then bob's bot waited

  Scenario: the bot keeps a drawn 3 in place of its remembered 9
    Given the draw pile is 3C
    And it is bob's turn
    When bob's bot acts
    Then bob's bot chose draw_stockpile
    When bob's bot acts
    Then bob's bot chose replace 9S
    And bob holds 4H, 3C, 7D, 2S

  Scenario: the bot discards a drawn card worse than all it remembers
    Given the draw pile is 10C
    And it is bob's turn
    When bob's bot acts
    And bob's bot acts
    Then bob's bot chose discard
