@check @bots
Feature: Check's computer players act on what they remember
  rules/check/bots.yaml and bots.rhai: in the matching stage a bot matches a remembered card of
  the discarded rank, else passes; on its turn it keeps a drawn card that beats its worst
  remembered card. After the deal each player knows the bottom row (slots 2 and 3).

  Background:
    Given a check game with players ann, bob
    And bob is an expert bot
    And ann holds 5S, KH, 3D, QC
    And bob holds 4H, 8C, 7C, 9H

  Scenario: the bot matches ann's 7 with the 7 it remembers
    Given the draw pile is 7H
    And it is ann's turn
    And ann did draw_from_deck
    And ann did discard_drawn_card
    When bob's bot acts
    Then bob's bot chose attempt_match 7C
    And everyone sees player_match_success with user bob and card 7C

  Scenario: the bot passes on a rank it only holds unseen
    Given the draw pile is 8H
    And it is ann's turn
    And ann did draw_from_deck
    And ann did discard_drawn_card
    When bob's bot acts
    Then bob's bot chose pass_match
    And bob holds 4H, 8C, 7C, 9H

  Scenario: the bot swaps a drawn 2 for its remembered 9
    Given the draw pile is 2D
    And it is bob's turn
    When bob's bot acts
    Then bob's bot chose draw_from_deck
    When bob's bot acts
    Then bob's bot chose swap_and_discard 9H
    And bob holds 4H, 8C, 7C, 2D
