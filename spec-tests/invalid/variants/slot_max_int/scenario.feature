# a script puts a card in the largest slot an integer can name.
Feature: slot_max_int

  Scenario: the hostile hook fails at its line
    Given a slot_max_int game with players ann, bob
    When ann does draw
    Then ann holds 5 cards
