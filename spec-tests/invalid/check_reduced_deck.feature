# A reduced deck (`the deck is …`): a card named twice, a second deck step, and cards other
# steps name that the deck does not have are each an error at the card or step, before any game
# is made.
@cambia
Feature: a scenario's reduced deck is checked before it is dealt

  Scenario: a card named twice, and a second deck step
    Given a cambia game with players ann, bob
    And the deck is AS, 7H, AS, KD, JK, JK, 2C, 3C, 4C
    And the deck is AS, 7H
    Then the game is not over

  Scenario: a card the deck does not have, in a hand and in a pile
    Given a cambia game with players ann, bob
    And the house rule hand_size is 2
    And the deck is AS, 7H, 9C, JD, KS, KH
    And ann holds AS, 5D
    And the discard pile is QS
    Then the game is not over
