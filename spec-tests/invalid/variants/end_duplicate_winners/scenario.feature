# end() names one winner three times.
Feature: end_duplicate_winners

  Scenario: the hostile hook fails at its line
    Given a end_duplicate_winners game with players ann, bob
    When ann does draw
    Then ann holds 5 cards
