# A hook left to the interpreter runs there, under either engine.
Feature: trying

  @rule:TRY-1
  Scenario: drawing runs the interpreted hook
    Given a trying game with players ann, bob
    When ann does draw
    Then ann holds 5 cards
