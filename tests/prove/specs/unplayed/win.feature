# The scenarios of the must-fail fixture tests/prove/rules/unplayed.
@unplayed
Feature: winning

  @rule:FIX-WIN-1
  Scenario: ann wins at once
    Given a unplayed game with players ann, bob
    When ann does win
    Then ann wins

  @rule:FIX-WIN-2
  Scenario: nobody wins while the draw pile is empty
    Given a unplayed game with players ann, bob
    And the draw pile has 0 cards
    When ann does win
    Then the action is rejected with "the draw pile is empty"
