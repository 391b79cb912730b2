# Must fail when run: a face the deck has twice (cambia's jokers) names the card in the place the
# step is about; when two of them are there, or none is and two are elsewhere, the step must say
# which by its slot.
@cambia
Feature: A face the deck has twice, named where it is ambiguous

  Scenario: ann holds both jokers
    Given a cambia game with players ann, bob
    And ann holds JK, 3D, JK
    Then ann knows JK

  Scenario: bob holds neither joker
    Given a cambia game with players ann, bob
    And ann holds 7S, JK
    And the discard pile is JK
    Then bob does not know JK

  Scenario: both jokers are still in the draw pile
    Given a cambia game with players ann, bob
    And ann holds 7S, 8S
    And bob holds 9S, 10S
    And the discard pile is 2S
    Then bob does not know JK

  Scenario: ann snaps with both jokers in her hand
    Given a cambia game with players ann, bob
    And ann holds JK, 3D, JK
    And the discard pile is 3C
    And it is bob's turn
    When ann does snap JK
