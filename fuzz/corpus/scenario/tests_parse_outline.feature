Feature: Scenario outlines

  @outline
  Scenario Outline: a snap of <card> by <player>
    Given a cambia game with players ann, bob
    And <player> holds <card>, 3D, 4H, 2S
    When <player> does snap <card>
    Then everyone sees player_snap_fail with user <player>
    And the game is not over
    And <player> receives:
      """
      {"type": "private_snap_penalty", "card": "{<card>}"}
      """

    @first
    Examples: first
      | player | card |
      | ann    | 9C   |
      | bob    | 10H  |

    @second @more
    Examples:
      | card | player | unused |
      | KD   | ann    | x      |
