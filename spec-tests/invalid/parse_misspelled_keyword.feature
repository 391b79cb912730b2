# A misspelled keyword is reported with the keyword it most likely means.
@cambia
Feature: Drawing

  Scenaro: ann draws the top card of the stockpile
    Given a cambia game with players ann, bob
    And it is ann's turn
    And the draw pile is 5C, 9H
    When ann does draw_stockpile
    Then ann sees private_draw_stockpile with card 5C
