# a timer of 0 seconds would fire in a loop.
Feature: timer_zero

  Scenario: the hostile hook fails at its line
    Given a timer_zero game with players ann, bob
    When ann does draw
    Then ann holds 5 cards
