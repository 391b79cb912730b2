@golf
Feature: the face-up steps and "everyone knows"

  Scenario: Givens turn cards up and down; Thens check them
    Given a golf game with players ann, bob
    And ann's slot 1 is face up
    And ann's slots 0 and 3 are face up
    And bob's slots 0, 2 and 5 are face up
    And bob's slot 2 is face down
    When ann does flip 4
    Then ann's slot 4 is face up
    And ann's slot 2 is face down
    And bob’s slots 1 and 3 are face down
    And everyone knows ann's slot 4
    And everyone knows KH
