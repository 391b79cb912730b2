# a script puts a card in slot 1,000,000,000.
Feature: slot_huge

  Scenario: the hostile hook fails at its line
    Given a slot_huge game with players ann, bob
    When ann does draw
    Then ann holds 5 cards
