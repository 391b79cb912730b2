# language: en
# A comment before the tags.
@cambia @suite:structure
Feature: Structure of a file
  Free description lines after the Feature line
  are kept, with their colons: like this one.

  Background:
    Given a cambia game with players ann, bob

  @fast
  Example: a scenario written with Example
    # a comment between steps
    When time runs out

    Then the game is not over

  @rule-level
  Rule: first rule
    The rule's own description.

    Background: the rule's background
      Given it is ann's turn

    Scenario: in the rule
      When ann does draw
      Then it is ann's turn

    @slow @rule:CAM-X-1
    Scenario Template: a template
      When <who> does draw
      Then it is <who>'s turn

      @examples-tag
      Scenarios: names
        | who |
        | ann |
        | bob |

  Rule: second rule

    Scenario Outline: table cells with escapes
      When ann does draw
      Then the action is rejected with "<reason>"

      Examples:
        | reason          |
        | not \| yours    |
        | back\\slash     |
        | two\nlines      |
        |                 |

    Scenario: doc strings keep their inner indentation
      Given the house rules:
        | name | value |
        | e    | ""    |
      Then ann receives:
          """
          {
            "quote": "a \" quote",
              "indented": true
          }
          """
