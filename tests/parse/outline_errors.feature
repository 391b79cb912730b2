Feature: outline problems

  Scenario Outline: placeholders without columns
    Given a cambia game with players ann, bob
    And <player> holds <cards>
    When <player> does snap <crad>
    Then ann receives:
      """
      {"card": "<missing>"}
      """
    And the house rules:
      | name | value |
      | x    | <v>   |

    Examples:
      | player | card |
      | ann    | 9C   |

    Examples:
      | player | cards |
      | bob    | 7S    |

  Scenario Outline: no examples
    Given a cambia game with players ann, <p>

  Scenario Outline: examples without a table
    Given a cambia game with players ann, <p>

    Examples: empty

  Scenario: a placeholder in a plain scenario
    Given a cambia game with players ann, <p>

  Scenario Outline: rows that do not work
    Given a cambia game with players ann, bob
    And ann holds <card>
    When ann does <action>
    Then ann receives:
      """
      {"value": <value>}
      """

    Examples:
      | card | action | value |
      | 7S   | draw   | 1     |
      | 1S   | draw   | 2     |
      | 7S   | 7x     | x     |
      | 7S   | draw   | }     |

  Scenario Outline: problems that every row has are reported once, at the step
    Given a cambia game with players ann, bob
    Then <who> does draw
    And <who> holds <card>, KH

    Examples:
      | who | card |
      | ann | 1S   |
      | bob | 1S   |

  Scenario Outline: with one row, a problem is reported at the row
    Given a cambia game with players ann, bob
    When ann does snap <card>

    Examples:
      | card |
      | 0H   |
