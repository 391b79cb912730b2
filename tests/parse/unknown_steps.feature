Feature: steps that match no form

  Scenario: unknown steps
    Given a cambia game with ann, bob
    And ann hodls 7S, KH
    And teh seed is 4
    And the draw pile is 5C 9H
    When ann snaps 9C
    And time run out
    Then the game is lost
    And ann hold 5 cards
    And everyone see x
    And ann's slot two is KH
    And Ann wins
    And the phase is
    And ann does
    And xyzzy plugh
