# Every scenario starts by naming its game.
Feature: the game step comes first

  Scenario: no game step
    Given it is ann's turn
    Then the game is not over
