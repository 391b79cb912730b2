# Used by tests/program/cli.rs: a face may be placed as often as the deck has it (cambia has two jokers),
# and a later step naming it means the one in the place the step is about.
@cambia
Feature: CLI fixture, jokers

  Scenario: both jokers in one hand
    Given a cambia game with players ann, bob
    And ann holds JK, 3D, JK
    And bob holds 4S, 5S
    And the draw pile is 9H
    Then ann holds JK, 3D, JK
    And bob holds 4S, 5S
    And the draw pile top is 9H

  Scenario: a joker in bob's hand and one on the discard pile
    Given a cambia game with players ann, bob
    And bob holds 3D, JK, 4H, 2S
    And the discard pile is JK
    And bob knows JK
    Then bob holds 3D, JK, 4H, 2S
    And the discard pile top is JK
    And bob knows slot 1
    And bob knows JK

  Scenario: bob snaps his joker onto the other
    Given a cambia game with players ann, bob
    And ann holds 7S, KH, 3D, QD
    And bob holds 3H, JK, 4H, 2S
    And the discard pile is JK
    And it is ann's turn
    When bob does snap JK
    Then bob holds 3H, 4H, 2S
    And the discard pile top is JK

  Scenario: each player's joker is the one in their own hand
    Given a cambia game with players ann, bob
    And ann holds 7S, JK, 3D, QD
    And bob holds JK, 9C, 4H, 2S
    And ann knows JK
    And bob knows JK
    Then ann knows slot 1
    And ann does not know bob's slot 0
    And bob knows slot 0
    And bob does not know ann's slot 1
