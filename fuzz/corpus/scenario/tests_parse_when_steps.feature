Feature: When steps

  Scenario: actions with every kind of argument
    Given a cambia game with players ann, bob
    When ann does draw
    And ann does snap 9C
    And ann does swap slot 0 and bob's slot 1
    And ann does look slot 2, bob's slot 3
    And ann does replace drawn slot 1
    And ann does bet 5 -1 2.5 up
    And ann does call_cambia

  Scenario: time
    Given a cambia game with players ann, bob
    When 5 seconds pass
    And 1 second passes
    And 2.5 seconds pass
    And 0.25 seconds pass
    And time runs out
