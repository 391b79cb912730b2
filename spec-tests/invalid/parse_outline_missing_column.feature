# Every `<placeholder>` of an outline step must be a column of its Examples table.
@cambia
Feature: Snapping

  Scenario Outline: a wrong snap costs penalty cards
    Given a cambia game with players ann, bob
    And it is ann's turn
    And bob holds 3D, <card>, 4H, 2S
    And the discard pile is 7H
    When bob does snap <card>
    Then only bob sees private_snap_penalty <penalty> times

    Examples:
      | card |
      | 9C   |
      | QD   |
