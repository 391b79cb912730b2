# House-rule values and player counts the variant does not take: each is an error at its own
# step, before any game is made.
@cambia
Feature: house-rule values and player counts are checked against the variant

  Scenario: a word for a whole number, a number out of range, a word for a boolean
    Given a cambia game with players ann, bob
    And the house rule penalty_draw_count is "three"
    And the house rule turn_timer_seconds is 0
    And the house rules:
      | name          | value |
      | compact_hands | 2.5   |
    Then the game is not over

  Scenario: one player is too few for cambia
    Given a cambia game with players ann
    Then the game is not over

  Scenario: thirteen players are too many for cambia
    Given a cambia game with players a, b, c, d, e, f, g, h, i, j, k, l, m
    Then the game is not over
