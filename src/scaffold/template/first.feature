# The first scenarios of {{name}}, made by `deckspec new`: one or more for each rule of
# rules/{{name}}/rulebook.yaml, tagged with its id. Run them with
# `deckspec test spec-tests/{{name}}`; grammar/README.md in the deckspec repository lists every
# step.
@{{name}}
Feature: A game of {{name}}
  Four face-down cards each; draw, then swap or discard; knock to end the game; the lowest hand
  wins.

  Background:
    Given a {{name}} game with players ann, bob

  @rule:{{ID}}-DEAL-1 @rule:{{ID}}-DEAL-2
  Scenario: four cards each, and each player sees their own first two
    Then the phase is memorize
    And ann holds 4 cards
    And bob holds 4 cards
    And the draw pile has 44 cards
    And ann knows slot 0
    And ann knows slot 1
    And ann does not know slot 2
    And ann does not know slot 3
    And ann does not know bob's slot 0

  @rule:{{ID}}-DEAL-2
  Scenario: the memorize phase lasts memorize_seconds, then a turn starts
    When 9 seconds pass
    Then the phase is memorize
    When 1 second passes
    Then the phase is drawing
    And everyone sees game_turn

  @rule:{{ID}}-DEAL-2
  Scenario: a turn started while memorizing ends the memorize phase
    Given it is ann's turn
    When 10 seconds pass
    Then it is ann's turn
    And the phase is drawing
    And ann does not see game_turn

  Rule: a turn
    With these hands ann has 18 points (K is worth 0) and bob 20.

    Background:
      Given ann holds 9C, 2D, KS, 7H
      And bob holds 4H, 6D, 2S, 8H

    @rule:{{ID}}-DEAL-2
    Scenario: ann is shown her own first two cards by their faces
      Then only ann sees private_peek with cards.0 9C and cards.1 2D
      And ann knows 9C
      And bob does not know 9C
      And bob knows 4H

    @rule:{{ID}}-TURN-1 @rule:{{ID}}-TURN-2
    Scenario: ann draws, then swaps the card into her hand
      Given it is ann's turn
      And the draw pile is 3S, 5C
      When ann does draw
      Then only ann sees private_draw with card 3S
      And everyone sees player_draw with user ann
      And bob does not know 3S
      And the phase is placing
      And the drawn is 3S
      And the draw pile top is 5C
      When ann does swap slot 2
      Then ann holds 9C, 2D, 3S, 7H
      And ann knows 3S
      And the discard pile top is KS
      And bob knows KS
      And everyone sees player_swap with user ann and card KS
      And the drawn is null
      And it is bob's turn
      And the phase is drawing

    @rule:{{ID}}-TURN-2
    Scenario: ann discards the card she drew
      Given it is ann's turn
      And the draw pile is QS
      And ann did draw
      When ann does discard
      Then the discard pile top is QS
      And bob knows QS
      And everyone sees player_discard with user ann and card QS
      And the drawn is null
      And ann holds 9C, 2D, KS, 7H
      And it is bob's turn

    @rule:{{ID}}-PEEK-1
    Scenario Outline: a drawn <card> lets ann look at one of her cards
      Given it is ann's turn
      And the draw pile is <card>
      And ann did draw
      When ann does peek slot 2
      Then ann knows KS
      And bob does not know KS
      And only ann sees private_peek with cards.0 KS
      And everyone sees player_discard with user ann and card <card>
      And the discard pile top is <card>
      And ann holds 9C, 2D, KS, 7H
      And the drawn is null
      And it is bob's turn

      Examples:
        | card |
        | 7S   |
        | 8D   |

    @rule:{{ID}}-PEEK-1
    Scenario: no other card lets ann peek
      Given it is ann's turn
      And the draw pile is 9D, 8C
      And ann did draw
      When ann does peek slot 2
      Then the action is rejected with "only a drawn 7 or 8 lets you peek"
      And ann does not know KS

    @rule:{{ID}}-PEEK-1
    Scenario: a peek names one of ann's own cards
      Given it is ann's turn
      And the draw pile is 8C
      And ann did draw
      When ann does peek
      Then the action is rejected with "peek takes one of your slots, as in `peek slot 2`"
      When ann does peek bob's slot 1
      Then the action is rejected with "that card is not in your hand"

    @rule:{{ID}}-TURN-3
    Scenario: only the player whose turn it is may draw, once
      Given it is ann's turn
      When bob does draw
      Then the action is rejected with "not your turn"
      When ann does swap slot 0
      Then the action is rejected with "draw a card first"
      When ann does draw 9C
      Then the action is rejected with "draw takes no arguments"
      When ann does draw
      And ann does draw
      Then the action is rejected with "you have already drawn a card"
      When ann does discard 9C
      Then the action is rejected with "discard takes no arguments"
      When ann does swap bob's slot 0
      Then the action is rejected with "that card is not in your hand"
      When ann does swap slot 0 and slot 1
      Then the action is rejected with "swap takes one of your slots, as in `swap slot 2`"

    @rule:{{ID}}-TURN-3
    Scenario: nobody draws from an empty deck
      Given it is ann's turn
      And the draw pile has 0 cards
      When ann does draw
      Then the action is rejected with "the deck is empty"

    @rule:{{ID}}-KNOCK-1 @rule:{{ID}}-END-2
    Scenario: ann knocks, bob has a last turn, and the lowest hand wins
      Given it is ann's turn
      And the draw pile is 5C
      When ann does knock
      Then everyone sees player_knock with user ann
      And the knocker is ann
      And it is bob's turn
      When bob does knock
      Then the action is rejected with "someone has already knocked"
      When bob does draw
      And bob does discard
      Then the game is over
      And the phase is over
      And ann's score is 18
      And bob's score is 20
      And ann wins
      And everyone sees game_end with reason knock and scores.ann 18 and scores.bob 20
      And bob knows KS

    @rule:{{ID}}-END-2
    Scenario: tied players all win
      Given it is ann's turn
      And the draw pile is 2C
      When ann does knock
      And bob does draw
      And bob does swap slot 0
      Then bob's score is 18
      And ann and bob win

    @rule:{{ID}}-END-1
    Scenario: the game ends when a turn ends with the deck empty
      Given it is ann's turn
      And the draw pile has 1 card
      When ann does draw
      And ann does discard
      Then the game is over
      And ann wins
      And everyone sees game_end with reason deck_out

    @rule:{{ID}}-TIME-1
    Scenario: a player who runs out of time loses the turn, and the card drawn
      Given it is ann's turn
      And the draw pile is 5C
      When 29 seconds pass
      Then it is ann's turn
      When ann does draw
      And 29 seconds pass
      Then it is ann's turn
      When 1 second passes
      Then everyone sees game_timeout with user ann
      And the discard pile top is 5C
      And the drawn is null
      And ann holds 9C, 2D, KS, 7H
      And it is bob's turn
