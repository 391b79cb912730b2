Feature: tables and doc strings in the wrong place

  Scenario: attachments
    Given a cambia game with players ann, bob
      | a | b |
    And the house rules:
    And the house rules:
      | name       | value |
      | 1bad       | 1     |
      | use_jokers | 1S    |
      | ok         | "t"   |
      | list       | [1,   |
    And the house rules:
      | a | b | c |
    And ann holds 7S
      """
      not for this step
      """
    Then ann receives:
    And ann receives:
      """
      {"type": "x",
       "broken": [1, 2,,
      }
      """
    And bob receives:
      """
      [1, 2]
      """
    And bob receives:
      """
      {"a": 1} trailing
      """
