# arrays of arrays count against the size limit as a whole.
Feature: nested_arrays

  Scenario: the hostile hook fails at its line
    Given a nested_arrays game with players ann, bob
    When ann does draw
    Then ann holds 5 cards
