# a timer of 1e300 seconds would wrap the clock.
Feature: timer_huge

  Scenario: the hostile hook fails at its line
    Given a timer_huge game with players ann, bob
    When ann does draw
    Then ann holds 5 cards
