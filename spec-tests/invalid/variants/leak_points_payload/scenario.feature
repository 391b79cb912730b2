# a hook puts a hidden card's points in a private event to another player.
Feature: leak_points_payload

  Scenario: the hostile hook fails at its line
    Given a leak_points_payload game with players ann, bob
    When ann does draw
    Then ann holds 5 cards
