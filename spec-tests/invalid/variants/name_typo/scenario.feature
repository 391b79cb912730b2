# a pile and a variable named by a misspelled literal: `check` finds both; the run fails at the first.
Feature: name_typo

  Scenario: the hostile hook fails at its line
    Given a name_typo game with players ann, bob
    When ann does draw
    Then ann holds 5 cards
