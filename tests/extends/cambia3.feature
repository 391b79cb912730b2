# Scenarios for tests/extends/cambia3 (a variant extending Cambia), run by tests/program/cli.rs.
@cambia3
Feature: a variant extending Cambia keeps Cambia's rules but the ones it changes

  Background:
    Given a cambia3 game with players ann, bob
    And bob holds 4H, 6D, 2S, 8H
    And it is ann's turn

  @rule:CAM-SNAP-5
  Scenario: a wrong snap costs three cards, cambia3's house rule
    Given the discard pile is 7H
    And the draw pile is QS, 5D, 6C, 8C
    When bob does snap 6D
    Then everyone sees player_snap_fail with user bob
    And bob holds 4H, 6D, 2S, 8H, QS, 5D, 6C

  Scenario: the overridden hook refuses a call with a high hand
    Given ann holds 7S, KH, 3D, QD
    When ann does cambia
    Then the action is rejected with "cambia3: call Cambia only with a hand worth 10 or less"

  Scenario: a low hand may call, and the inherited turn order goes on
    Given ann holds AS, KH, 2D, 3C
    When ann does cambia
    Then ann's locked is true
    And it is bob's turn
