# Every Given form of the scenario language (grammar/README.md), and the sugar around them.
Feature: Given steps

  Scenario: the game, the seed and house rules
    Given a cambia game with players ann, bob, cat and dan
    And the seed is 42
    And the house rule use_jokers is false
    And the house rule initial_peek_slots is [0, 1]
    And the house rule penalty is 2
    And the house rule ratio is -0.5
    And the house rule mode is strict
    And the house rules:
      | name             | value  |
      | use_jokers       | true   |
      | initial_peek_slots | [2, 3] |
      | mode             | lenient |

  Scenario: a table of house rules without a header row
    Given an other-variant game with player solo
    And the house rules:
      | use_jokers | false |

  Scenario: cards in hands and piles
    Given a cambia game with players ann, bob
    And ann holds 7S, KH, 3D, QC
    And bob holds 10H, _, JK, A♠
    And the draw pile is 5C, 9H
    And the draw pile has 1 card
    And the draw pile has 30 cards
    And the discard pile is 4S, 8D
    And the discard pile is empty

  Scenario: turns, knowledge and past actions
    Given a cambia game with players ann, bob
    And ann did initial_peek slot 0 and slot 1
    And bob did initial_peek slot 0, slot 1
    And it is ann's turn
    And ann knows bob's slot 1
    And ann knows slot 2
    And ann knows KH
    And ann did draw
    But bob did snap drawn
