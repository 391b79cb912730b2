# Player names are lower-case ASCII words: anything else is named as a bad name, not an unknown step.
@cambia
Feature: player names

  Scenario: names with capitals and other letters
    Given a cambia game with players ann, bøb
    And it is Ann's turn
    When ann does swap slot 0 and Bob's slot 1
    Then _cat wins
