# Names that parse but do not exist: each gets a "did you mean".
@cambia
Feature: misspelled names are caught before anything runs

  @rule:CAM-SNAP-3
  Scenario: an action, a player and a house rule with typos
    Given a cambia game with players ann, bob
    And the house rule penalty_draw_cuont is 3
    And it is ann's turn
    When bbo does snapp 9C
    Then the phase is awaiting_drow
    And everyone sees player_snap_fial
    And ann's lockd is true

  @rule:CAM-SNAP-99
  Scenario: a rule id that is not in the rulebook
    Given a cambia game with players ann, bob
    Then the game is not over
