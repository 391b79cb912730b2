# Must fail: a file's parse problems do not hide its check problems. Every cause is reported once:
# the scenario with a step that does not parse is still checked for names, and a misspelled cell
# is reported by the parser only (not again when the outline is expanded).
Feature: parse and check problems together

  Scenario: a misspelled step
    Given a cambia game with players ann, bob
    And ann hodls 7S, KH
    When ann does snpa slot 0
    Then it is bobs turn

  Scenario: only check problems
    Given a cambia game with players ann, bob
    And the house rule use_jokerz is true
    When cat does draw_stockpile
    Then the phase is awaiting_drawz

  Scenario Outline: an outline with a bad cell
    Given a cambia game with players ann, bob
    And ann holds <card>, 3D
    When ann does snpa slot 0

    Examples:
      | card |
      | 1S   |
      | 4H   |

  Scenario: a house rule that does not parse leaves the deck unknown
    Given a cambia game with players ann, bob
    And the house rule use_jokers iz true
    And ann holds JK, JK, JK
