Feature: a doc string that is never closed

  Scenario: unclosed
    Given a cambia game with players ann, bob
    Then ann receives:
      """
      {"type": "x"}
    And ann holds 7S
    And this line is swallowed by the doc string
