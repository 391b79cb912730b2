Given a step before the feature
@orphan
Feature: structural problems
  Then a step in the description area

  @tagged
  Background:
    And it is ann's turn

  Background:
    Given the seed is 1

  Scenario: plain
    Given a cambia game with players ann, bob
    | a | b |
    When ann does draw
      """
      {}
      """
      """
      {}
      """

    Examples:
      | x |

  Scenario: rows
    Given the house rules:
      | name | value |
      | a    | 1     | 2 |
      | b    | 2
  | stray | row |

  Feature: again
  @a @b extra words
  @ empty
  Scenario: after bad tags
    When time runs out
    ann holds 7S

  something odd here
@lonely
