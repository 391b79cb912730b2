# a hook broadcasts without end: the kernel stops it at the per-step event limit.
Feature: budget_events

  Scenario: the hostile hook fails at its line
    Given a budget_events game with players ann, bob
    When ann does draw
    Then ann holds 5 cards
