# The scenarios of the fixture tests/balance/rules/seat_zero, which tell its rules' plays apart
# for `deckspec balance`'s count of how often each rule fires.
@seat_zero
Feature: seat zero
  Background:
    Given a seat_zero game with players ann, bob

  @rule:FIX-PASS-1
  Scenario: ann passes, then bob
    When ann does pass
    And bob does pass
    Then the passes is 2

  @rule:FIX-WIN-1
  Scenario: after four passes ann ends the game, and seat 0 wins
    Given ann did pass
    And bob did pass
    And ann did pass
    And bob did pass
    When ann does win
    Then ann wins
    And the counted is 4

  @rule:FIX-SKIP-1
  Scenario: nobody may skip
    When ann does skip
    Then the action is rejected with "nobody may skip"
