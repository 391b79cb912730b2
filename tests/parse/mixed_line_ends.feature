Feature: mixed line ends

  Scenario: all three    Given a cambia game with players ann, bob
    And ann hodls 7S
    When 0 seconds pass