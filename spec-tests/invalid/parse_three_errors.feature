# Every problem of a file is reported, in file order, not only the first.
@cambia
Feature: Turns

  Scenario: the turn passes to bob
    Given a cambia game with players ann, bob
    And it is ann's turn
    Wen ann does draw_stockpile
    And ann does discard drawn
    Then it is bob turn
    And ann holds 4 cards, KH
