# a game variable may not grow without bound.
Feature: budget_variable

  Scenario: the hostile hook fails at its line
    Given a budget_variable game with players ann, bob
    When ann does draw
    Then ann holds 5 cards
