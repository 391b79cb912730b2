# a hook with more variables than a call may have fails, naming the hook.
Feature: too_many_variables

  Scenario: too many variables are refused
    Given a too_many_variables game with players ann, bob
    When ann does draw
    Then ann holds 5 cards
