# A module function calling the loading script's function runs on either engine.
Feature: calling back

  @rule:BACK-1
  Scenario: drawing calls the script's function from the module
    Given a calling_back game with players ann, bob
    When ann does draw
    Then ann holds 5 cards
