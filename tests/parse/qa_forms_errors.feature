@cambia
Feature: mistakes in the forms QA asked for

  Scenario: each line has one mistake
    Given a cambia game with players ann, bob
    When ann may do snap slot 2
    Then nobody sees player_snap_fail 2 times
    And ann sees in order: player_discard
    And the setup was rejected
    And the discard pile has many cards
