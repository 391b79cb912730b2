# Used by tests/program/cli.rs: two passing scenarios with different tags.
@cambia
Feature: CLI fixture, passing

  @fast
  Scenario: the game starts
    Given a cambia game with players ann, bob
    Then the game is not over

  @slow
  Scenario: ann draws
    Given a cambia game with players ann, bob
    And it is ann's turn
    When ann does draw_stockpile
    Then the phase is awaiting_discard
