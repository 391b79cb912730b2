@golf
Feature: mistakes in the face-up steps

  Scenario: each line has one mistake
    Given a golf game with players ann, bob
    And ann's slot 1 is face sideways
    And ann's slots 0 and are face up
    When ann does flip 4
    Then everyone knows slot 1
    And ann's slot 99999999999 is face up
    Then everyone knows ann's slot 4
    When everyone knows KH
