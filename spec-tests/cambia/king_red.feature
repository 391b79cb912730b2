@cambia
Feature: The red King
  deckspec rulings "Cambia: Values" and "Cambia: Specials": a red King is worth -1 yet offers the
  same swap_peek power as a black King.

  Background:
    Given a cambia game with players ann, bob
    And ann holds 7S, KH, 3D, QD
    And bob holds 4H, 6D, 2S, 8H
    And the draw pile is KD
    And it is ann's turn
    And ann did draw_stockpile

  @rule:CAM-SPEC-2 @rule:CAM-VAL-3 @rule:CAM-VAL-5
  Scenario: the red King is discarded face up worth -1 and offers swap_peek
    When ann does discard
    Then everyone sees player_discard with user ann and card.rank King and card.suit Diamonds and card.value -1
    And everyone sees player_special_choice with user ann and special swap_peek
    And the phase is awaiting_special

  @rule:CAM-KING-2
  Scenario: the red King's swap works like the black King's
    Given ann did discard
    And ann did special swap_peek ann's slot 0 and bob's slot 3
    When ann does special swap_peek_swap
    Then ann holds 8H, KH, 3D, QD
    And bob holds 4H, 6D, 2S, 7S
    And it is bob's turn
