# Every card a scenario names must be in this game's deck, and placed no more often than the deck has it.
Feature: cards that are not in the deck

  Scenario: jokers when the house rules leave them out
    Given a cambia game with players ann, bob
    And the house rule use_jokers is false
    And ann holds JK, 3D
    When bob does snap JK

  Scenario: jokers in a game that has none
    Given a check game with players ann, bob
    And the discard pile is JK

  Scenario: a card placed twice, and a third joker
    Given a cambia game with players ann, bob
    And ann holds 7S, JK, JK
    And bob holds 7S, JK
