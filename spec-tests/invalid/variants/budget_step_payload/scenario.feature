# a hook sends many medium payloads: the step's total is bounded.
Feature: budget_step_payload

  Scenario: the hostile hook fails at its line
    Given a budget_step_payload game with players ann, bob
    When ann does draw
    Then ann holds 5 cards
