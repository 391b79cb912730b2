# an API function called with its arguments swapped says how to call it.
Feature: api_wrong_arguments

  Scenario: the hostile hook fails at its line
    Given a api_wrong_arguments game with players ann, bob
    When ann does draw
    Then ann holds 5 cards
