# slot 64 is one past the default largest hand (64 slots).
Feature: slot_beyond_hand

  Scenario: the hostile hook fails at its line
    Given a slot_beyond_hand game with players ann, bob
    When ann does draw
    Then ann holds 5 cards
