@a @b # tags may end with a comment
Feature: things in the wrong order
  Rules: a description line that looks like a misspelled keyword is reported

  Examples:
    | a |

  Scenario: first
    Given a cambia game with players ann, bob

  Background:
    Given the seed is 1

  Scenario Outline: steps after examples
    Given a cambia game with players ann, <p>

    Examples:
      | p   |
      | bob |

    When time runs out

  Scenario: tags on a step
    Given a cambia game with players ann, bob
    @tag
    When time runs out
    Then the action is rejected with "unclosed
