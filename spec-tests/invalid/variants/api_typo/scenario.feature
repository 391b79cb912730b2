# a misspelled game function gets did-you-mean and how to call the right one.
Feature: api_typo

  Scenario: the hostile hook fails at its line
    Given a api_typo game with players ann, bob
    When ann does draw
    Then ann holds 5 cards
