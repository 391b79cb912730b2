# Used by tests/cli.rs: a face may be placed as often as the deck has it (cambia has two jokers).
@cambia
Feature: CLI fixture, jokers

  Scenario: both jokers in one hand
    Given a cambia game with players ann, bob
    And ann holds JK, 3D, JK
    And bob holds 4S, 5S
    And the draw pile is 9H
    Then ann holds JK, 3D, JK
    And bob holds 4S, 5S
    And the draw pile top is 9H
