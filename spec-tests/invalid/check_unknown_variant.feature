# A variant that does not exist.
Feature: the game step names a variant

  Scenario: a typo in the variant
    Given a cambai game with players ann, bob
    Then the game is not over
