# built-in functions do much work per operation: the time limit stops the hook.
Feature: slow_builtins

  Scenario: the hostile hook fails at its line
    Given a slow_builtins game with players ann, bob
    When ann does draw
    Then ann holds 5 cards
