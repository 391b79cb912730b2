# an array past the size limit fails at its line.
Feature: big_array

  Scenario: the hostile hook fails at its line
    Given a big_array game with players ann, bob
    When ann does draw
    Then ann holds 5 cards
