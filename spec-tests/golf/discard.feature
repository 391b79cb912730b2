@golf
Feature: Discarding the drawn card, and the flip that follows
  "Golf (six-card), as commonly played", section "Turn"; deckspec rulings "Golf (six-card)": a card
  drawn from the stock may be discarded instead of swapped; then the player turns up one of their
  face-down cards (house rule flip_after_discard). A card taken from the discard pile must be
  swapped.

  Background:
    Given a golf game with players ann, bob
    And ann holds 5S, 7H, KD, 6C, 9D, 2S
    And bob holds 4H, 6D, 3S, 8H, QC, AC
    And the discard pile is 8D
    And the draw pile is 10C, 4C

  Rule: discard_drawn

    @rule:GOLF-DISC-1 @rule:GOLF-FACE-3
    Scenario: a card drawn from the stock is discarded face up
      Given it is ann's turn
      And ann did draw_stock
      When ann does discard_drawn
      Then the discard pile is 10C, 8D
      And everyone sees player_discard with user ann and card 10C and card.value 10
      And bob receives:
        """
        {
          "type": "player_discard",
          "user": {"id": "ann"},
          "card": {"id": "{10C}", "rank": "10", "suit": "Clubs", "value": 10}
        }
        """
      And everyone knows 10C
      And ann holds 5S, 7H, KD, 6C, 9D, 2S

    @rule:GOLF-DISC-2
    Scenario: a card taken from the discard pile must be swapped
      Given it is ann's turn
      And ann did draw_discard
      When ann does discard_drawn
      Then the action is rejected with "a card taken from the discard pile must be swapped"
      And the phase is awaiting_decision
      And the discard pile is empty
      And it is ann's turn

    @rule:GOLF-DISC-1
    Scenario Outline: discard_drawn may name the drawn card
      Given it is ann's turn
      And ann did draw_stock
      When ann does discard_drawn <args>
      Then the discard pile is 10C, 8D
      And the phase is awaiting_flip

      Examples:
        | args  |
        | drawn |
        | 10C   |

    @rule:GOLF-DISC-1
    Scenario Outline: discard_drawn cannot name another card
      Given it is ann's turn
      And ann did draw_stock
      When ann does discard_drawn <args>
      Then the action is rejected with "<reason>"
      And the phase is awaiting_decision
      And the discard pile is 8D

      Examples:
        | args          | reason                                              |
        | 8D            | discard_drawn discards the card you drew            |
        | slot 0        | discard_drawn discards the card you drew            |
        | up            | discard_drawn discards the card you drew            |
        | drawn and 10C | discard_drawn takes no arguments, or the drawn card |
        | drawn, drawn  | discard_drawn takes no arguments, or the drawn card |

  Rule: the flip after a discard

    @rule:GOLF-DISC-3
    Scenario: after the discard ann must turn up a face-down card, then the turn passes
      Given it is ann's turn
      And ann did draw_stock
      When ann does discard_drawn
      Then the phase is awaiting_flip
      And it is ann's turn
      When ann does flip slot 3
      Then ann's slot 3 is face up
      And everyone knows 6C
      And everyone sees player_flip with user ann and card 6C and card.idx 3 and card.user ann
      And bob receives:
        """
        {
          "type": "player_flip",
          "user": {"id": "ann"},
          "card": {"id": "{6C}", "rank": "6", "suit": "Clubs", "value": 6, "idx": 3, "user": {"id": "ann"}}
        }
        """
      And it is bob's turn
      And the phase is awaiting_draw
      And everyone sees game_player_turn with user bob

    @rule:GOLF-DISC-3
    Scenario: the flip may name the card by its face
      Given it is ann's turn
      And ann did draw_stock
      And ann did discard_drawn
      When ann does flip 2S
      Then ann's slot 5 is face up

    @rule:GOLF-DISC-3
    Scenario: a card already face up cannot be the flip
      Given it is ann's turn
      And ann did draw_stock
      And ann did discard_drawn
      When ann does flip slot 0
      Then the action is rejected with "that card is already face up"
      And the phase is awaiting_flip

    @rule:GOLF-DISC-3
    Scenario Outline: the flip turns one card of the player's own layout
      Given it is ann's turn
      And ann did draw_stock
      And ann did discard_drawn
      When ann does flip <args>
      Then the action is rejected with "<reason>"
      And bob's slot 3 is face down
      And the phase is awaiting_flip

      Examples:
        | args         | reason                          |
        | bob's slot 3 | that card is not in your layout |
        | 10C          | that card is not in your layout |
        | slot 2 and 3 | flip takes one slot             |
        | 7            | no card in slot 7 of ann's hand |

    @rule:GOLF-DISC-3
    Scenario: flip with no slot is refused
      Given it is ann's turn
      And ann did draw_stock
      And ann did discard_drawn
      When ann does flip
      Then the action is rejected with "flip takes one slot of your layout, as in: flip slot 2"

    @rule:GOLF-DISC-4
    Scenario: without flip_after_discard the discard ends the turn
      Given the house rule flip_after_discard is false
      And it is ann's turn
      And ann did draw_stock
      When ann does discard_drawn
      Then it is bob's turn
      And the phase is awaiting_draw
      And ann's slots 2, 3, 4 and 5 are face down
      And ann does not see player_flip
      And bob does not see player_flip

    @rule:GOLF-DISC-4 @rule:GOLF-CHOICE-2 @rule:GOLF-OUT-1
    Scenario: with no face-down card left the discard ends the turn
      Given it is ann's turn
      And ann's slots 2, 3, 4 and 5 are face up
      And ann did draw_stock
      When ann does discard_drawn
      Then it is bob's turn
      And everyone sees player_out with user ann
      And ann does not see player_flip
