# A step that matches no form names the closest form.
@cambia
Feature: Drawing

  Scenario: the draw pile shrinks by one
    Given a cambia game with players ann, bob
    And it is ann's turn
    And the draw pile has 10 cards
    When ann does draw_stockpile
    Then the draw pile contains 9 cards
