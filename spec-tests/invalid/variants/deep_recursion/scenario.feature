# recursion past the call-depth limit fails at its line.
Feature: deep_recursion

  Scenario: deep recursion is stopped
    Given a deep_recursion game with players ann, bob
    When ann does draw
    Then ann holds 5 cards
