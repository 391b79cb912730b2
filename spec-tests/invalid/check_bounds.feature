# Hands, slots, counts and players must fit the variant's bounds.
@cambia
Feature: steps beyond the game's bounds

  Scenario: a hand longer than a hand can be, and slots that do not exist
    Given a cambia game with players ann, bob
    And ann holds 3D, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, 7S
    And ann knows bob's slot 64
    When ann does special swap_blind slot 64 and bob's slot 0
    Then ann's slot 100 is empty
    And ann holds 65 cards
    And the draw pile has 60 cards

  Scenario: more players than a game can have
    Given a cambia game with players p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31, p32, p33
