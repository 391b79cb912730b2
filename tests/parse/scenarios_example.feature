@cambia
Feature: Snapping
  Rule: a wrong snap costs two penalty cards (CAM-PEN-1)

    Background:
      Given a cambia game with players ann, bob
      And it is ann's turn

    @rule:CAM-SNAP-3
    Scenario: bob snaps a card of the wrong rank
      Given bob holds 3D, 9C, 4H, 2S
      And the discard pile is 7H
      And the draw pile is QS, 5D
      When bob does snap 9C
      Then everyone sees player_snap_fail with user bob
      And only bob sees private_snap_penalty 2 times
      And everyone sees player_snap_penalty 2 times
      And bob holds 3D, 9C, 4H, 2S, QS, 5D
      And ann does not know QS
      And it is ann's turn
