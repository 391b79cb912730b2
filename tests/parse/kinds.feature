Feature: steps written with the wrong keyword

  Scenario: wrong kinds
    Given ann does snap 9C
    When ann did draw
    When ann holds 7S
    Then a cambia game with players ann, bob
    Then the seed is 3
    Given ann holds 5 cards
    Given the game is over
    When it is ann's turn
    Given ann holds 7S, ?, _
    Then ann holds 7S, ?, _
    And time runs out
    But the draw pile is 5C
    When 5 seconds pass
    Given
