@recall
Feature: Refused actions
  Each action has its player and its moment; out of place it is refused with a reason, and nothing
  changes.

  Background:
    Given a recall game with players ann, bob
    And ann holds 7S, KH, _, QC
    And bob holds 4H, 6D, 2S, 8H
    And it is ann's turn

  @rule:REC-PLAY-5
  Scenario: ann cannot play her empty slot
    Given the draw pile is 5C
    And ann did draw
    When ann does play slot 2
    Then the action is rejected
    And ann holds 7S, KH, _, QC
    And the discard pile is empty
    And the phase is playing_card

  @rule:REC-PLAY-7
  Scenario: ann cannot play a card of bob's hand or of the draw pile
    Given the draw pile is 5C, 9H
    And ann did draw
    When ann does play bob's slot 0
    Then the action is rejected with "that card is not in your hand"
    When ann does play 9H
    Then the action is rejected with "that card is not in your hand"
    And bob holds 4H, 6D, 2S, 8H
    And ann holds 7S, KH, _, QC
    And the discard pile is empty
    And the draw pile top is 9H
    And the phase is playing_card

  @rule:REC-PLAY-8
  Scenario: play names one card
    Given the draw pile is 5C
    And ann did draw
    When ann does play
    Then the action is rejected with "play drawn, or play a slot of your hand"
    When ann does play drawn and slot 0
    Then the action is rejected with "play drawn, or play a slot of your hand"
    And ann holds 7S, KH, _, QC
    And the discard pile is empty
    And the phase is playing_card

  @rule:REC-PLAY-5 @rule:REC-DRAW-7
  Scenario: nothing more can be drawn or played in the same rank window
    Given the draw pile is 5C, 9H
    And ann did draw
    And ann did play drawn
    When ann does play slot 0
    Then the action is rejected
    When ann does draw
    Then the action is rejected
    And ann holds 7S, KH, _, QC
    And the discard pile is 5C
    And the draw pile top is 9H
    And the phase is same_rank_window

  @rule:REC-SPEC-4 @rule:REC-SPEC-7 @rule:REC-SPEC-9
  Scenario: there is no special play to make without a Jack or Queen
    When ann does jack_swap bob's slot 0 and bob's slot 1
    Then the action is rejected with "there is no special play to make"
    When ann does queen_peek bob's slot 2
    Then the action is rejected with "there is no special play to make"
    When ann does skip
    Then the action is rejected with "there is no special play to make"
    And bob holds 4H, 6D, 2S, 8H
    And ann does not know 2S
    And the phase is drawing_card

  @rule:REC-JACK-1 @rule:REC-QUEEN-1
  Scenario: a Queen cannot swap and a Jack cannot peek
    Given the draw pile is QD, JD
    And ann did draw
    And ann did play drawn
    When 5 seconds pass
    And ann does jack_swap bob's slot 0 and bob's slot 1
    Then the action is rejected
    And bob holds 4H, 6D, 2S, 8H
    When ann does skip
    And bob does draw
    And bob does play drawn
    And 5 seconds pass
    And bob does queen_peek ann's slot 3
    Then the action is rejected
    And bob does not know QC
    And the phase is special_play_window

  @rule:REC-SAME-10
  Scenario: a card of the draw pile cannot be thrown
    Given the draw pile is 5C, 5H
    And ann did draw
    And ann did play drawn
    When bob does same_rank 5H
    Then the action is rejected with "that card is not in your hand"
    And the draw pile top is 5H
    And the discard pile is 5C

  @rule:REC-SAME-11
  Scenario: no card can be thrown while the special plays are resolved
    Given the draw pile is QD
    And ann did draw
    And ann did play drawn
    When 5 seconds pass
    And bob does same_rank 4H
    Then the action is rejected with "there is no same rank window"
    And bob holds 4H, 6D, 2S, 8H
    And the phase is special_play_window
