# a hook broadcasts a huge array: one event's payload is bounded.
Feature: budget_payload

  Scenario: the hostile hook fails at its line
    Given a budget_payload game with players ann, bob
    When ann does draw
    Then ann holds 5 cards
