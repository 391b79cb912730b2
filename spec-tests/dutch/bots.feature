@dutch @bots
Feature: Dutch's computer players collect their rank
  rules/dutch/bots.yaml and bots.rhai: Dutch bots are Recall's (module `recall`) plus collecting:
  a card of the bot's collection rank on the discard pile is taken whenever collecting is allowed,
  and a collection card is never played or swapped.

  Background:
    Given a dutch game with players ann, bob
    And bob is an expert bot
    And ann holds 3D, 9C, 5H, 6H
    And bob holds 4H, 8H, 2S, 6D
    And ann did initial_peek 0 and 1
    And bob did initial_peek 0 and 1

  Scenario: the bot takes a 4 from the discard pile into its collection
    Given the draw pile is 4C, 7D
    And it is ann's turn
    And ann did draw
    And ann did play drawn
    When 5 seconds pass
    Then the phase is drawing_card
    When bob's bot acts
    Then bob's bot chose collect_discard
    And bob's collection_rank_cards is [4H, 4C]

  Scenario: the bot collects a drawn 4 instead of playing it
    Given the draw pile is 4C
    And it is bob's turn
    When bob's bot acts
    Then bob's bot chose draw
    When bob's bot acts
    Then bob's bot chose collect
    And bob holds 4H, 8H, 2S, 6D, 4C

  Scenario: the bot never throws its collection 4 on a 4
    Given the draw pile is 4C
    And it is ann's turn
    And ann did draw
    And ann did play drawn
    When bob's bot acts
    Then bob's bot waited
