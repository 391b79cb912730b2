# Problems in a Scenario Outline point at the step, or at the cell a bad value came from.
@cambia
Feature: outline problems are found at their step or cell

  Scenario Outline: <who> snaps <card>
    Given a cambia game with players ann, bob
    And <who> holds <card>, 9C, 4H, 2S
    When <who> does snapp <card>
    Then only <who> sees <event>

    Examples:
      | who | card | event            |
      | bob | 3D   | player_snap_fail |
      | dan | 2S   | player_snap_fial |
