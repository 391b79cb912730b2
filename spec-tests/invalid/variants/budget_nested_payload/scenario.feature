# a payload nested far too deep.
Feature: budget_nested_payload

  Scenario: the hostile hook fails at its line
    Given a budget_nested_payload game with players ann, bob
    When ann does draw
    Then ann holds 5 cards
