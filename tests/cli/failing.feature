# Used by tests/program/cli.rs: one scenario that fails at line 10.
@cambia
Feature: CLI fixture, failing

  Scenario: ann expects the wrong phase
    Given a cambia game with players ann, bob
    And it is ann's turn
    When ann does draw_stockpile
    Then the game is not over
    And the phase is awaiting_draw
