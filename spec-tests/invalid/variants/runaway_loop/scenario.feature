# an endless loop is stopped by the operation limit, at its line.
Feature: runaway_loop

  Scenario: the hostile hook fails at its line
    Given a runaway_loop game with players ann, bob
    When ann does draw
    Then ann holds 5 cards
