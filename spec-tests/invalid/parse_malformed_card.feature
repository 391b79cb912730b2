# `1S` is not a card: an ace is written `A`.
@cambia
Feature: Snapping

  Scenario: bob snaps an ace on an ace
    Given a cambia game with players ann, bob
    And it is ann's turn
    And bob holds 3D, 1S, 4H, 2S
    And the discard pile is AH
    When bob does snap AS
    Then everyone sees player_snap_success with user bob
