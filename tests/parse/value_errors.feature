Feature: values that are not right

  Scenario: cards
    Given a cambia game with players ann, bob
    And ann holds 1S, 7s, 11H, joker, TS, 7X
    And the draw pile is 5C, _, ?
    And the discard pile is 4S, 0D
    When ann does snap 1C
    And ann does look a.b
    And 5.0001 seconds pass
    And -1 seconds pass
    Then ann's slot 9999999999 is KH
    And the draw pile top is KK
    And ann knows 13D
    And the house rule use_jokers is 1S
    And ann does not see x 2 times
    And ann sees x with card 1H
    And the seed is 99999999999999999999999
