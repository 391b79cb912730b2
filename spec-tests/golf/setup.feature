@golf
Feature: Players, deck, deal and the initial flips
  "Golf (six-card), as commonly played", sections "Players", "Deck", "Deal" and "Setup"; deckspec
  rulings "Golf (six-card)": six cards face down each in two rows of three, one card turned up to
  start the discard pile, then every player turns up two of their cards before the first turn.

  Rule: the deal

    @rule:GOLF-PLAY-1 @rule:GOLF-DECK-1 @rule:GOLF-DEAL-1 @rule:GOLF-DEAL-3
    Scenario: two players are dealt six cards each; one card starts the discard pile
      Given a golf game with players ann, bob
      Then ann holds 6 cards
      And bob holds 6 cards
      And ann holds ?, ?, ?, ?, ?, ?
      And the draw pile has 39 cards

    @rule:GOLF-PLAY-1 @rule:GOLF-DEAL-1 @rule:GOLF-DEAL-3
    Scenario: six players leave fifteen cards in the stock
      Given a golf game with players ann, bob, cat, dan, eve, fay
      Then ann holds 6 cards
      And fay holds 6 cards
      And the draw pile has 15 cards

    @rule:GOLF-DEAL-4
    Scenario: with two columns each player is dealt four cards
      Given a golf game with players ann, bob
      And the house rule columns is 2
      Then ann holds ?, ?, ?, ?
      And bob holds 4 cards
      And the draw pile has 43 cards

    @rule:GOLF-DEAL-4
    Scenario: a reduced deck deals only its own cards
      Given a golf game with players ann, bob
      And the house rule columns is 1
      And the deck is AS, 2H, 5C, 5D, 9S, KH, QD
      And ann holds 5C, 9S
      And bob holds AS, KH
      Then the draw pile has 2 cards
      And the discard pile has 1 card

    @rule:GOLF-DECK-2
    Scenario: with jokers the stock holds two more cards
      Given a golf game with players ann, bob
      And the house rule use_jokers is true
      And ann holds JK, 5S, 7H, JK, 9D, 2S
      Then the draw pile has 41 cards
      And ann's slot 0 is JK
      And ann's slot 3 is JK

    @rule:GOLF-DEAL-3 @rule:GOLF-FACE-3
    Scenario: the card that starts the discard pile is known to everyone
      Given a golf game with players ann, bob, cat
      And the discard pile is 8D
      Then everyone knows 8D
      And the draw pile has 33 cards

    @rule:GOLF-FACE-1 @rule:GOLF-DEAL-1
    Scenario: every dealt card lies face down, unknown to all, its owner included
      Given a golf game with players ann, bob
      And ann holds 5S, 7H, KD, 5C, 9D, 2S
      Then ann's slot 0 is face down
      And ann's slot 5 is face down
      And ann does not know 5S
      And ann does not know ann's slot 3
      And bob does not know ann's slot 3
      And ann does not know bob's slot 0
      And the phase is initial_flip
      And the game is not over

  Rule: the initial flips

    @rule:GOLF-SETUP-1 @rule:GOLF-FACE-2
    Scenario: ann turns up one of her cards while the setup goes on
      Given a golf game with players ann, bob
      And ann holds 5S, 7H, KD, 5C, 9D, 2S
      When ann does flip_initial slot 2
      Then ann's slot 2 is face up
      And ann's slot 0 is face down
      And everyone knows KD
      And everyone knows ann's slot 2
      And ann does not know ann's slot 0
      And the phase is initial_flip

    @rule:GOLF-SETUP-1
    Scenario: the players flip in any order, all at once
      Given a golf game with players ann, bob, cat
      And ann holds 5S, 7H, KD, 5C, 9D, 2S
      And bob holds 4H, 6D, 3S, 8H, QC, AC
      When bob does flip_initial slot 5
      And ann does flip_initial slot 0
      And bob does flip_initial 3S
      And cat does flip_initial slot 4
      Then bob's slots 2 and 5 are face up
      And ann's slot 0 is face up
      And cat's slot 4 is face up
      And bob's slot 0 is face down
      And the phase is initial_flip

    @rule:GOLF-SETUP-3 @rule:GOLF-EVT-2
    Scenario: an initial flip is announced to everyone with the card's face and place
      Given a golf game with players ann, bob
      And ann holds 5S, 7H, KD, 5C, 9D, 2S
      When ann does flip_initial slot 5
      Then everyone sees player_flip_initial with user ann and card 2S and card.idx 5 and card.user ann
      And bob receives:
        """
        {
          "type": "player_flip_initial",
          "user": {"id": "ann"},
          "card": {"id": "{2S}", "rank": "2", "suit": "Spades", "value": -2, "idx": 5, "user": {"id": "ann"}}
        }
        """

    @rule:GOLF-SETUP-4 @rule:GOLF-TURN-1
    Scenario Outline: the last initial flip starts the turn of a player drawn from the seed
      Given a golf game with players ann, bob
      And the seed is <seed>
      And ann did flip_initial slot 0
      And ann did flip_initial slot 1
      And bob did flip_initial slot 4
      When bob does flip_initial slot 3
      Then the phase is awaiting_draw
      And everyone sees game_player_turn 1 time
      And everyone sees game_player_turn with user <first>
      And it is <first>'s turn

      Examples:
        | seed | first |
        | 3    | bob   |
        | 0    | ann   |

    @rule:GOLF-SETUP-4
    Scenario: the first turn waits until every player has flipped
      Given a golf game with players ann, bob
      And ann did flip_initial slot 0
      When ann does flip_initial slot 1
      Then the phase is initial_flip
      And ann does not see game_player_turn
      And bob does not see game_player_turn

    @rule:GOLF-SETUP-4 @rule:GOLF-TURN-1
    Scenario: with no initial flips the first turn begins at once
      Given a golf game with players ann, bob, cat
      And the house rule initial_flips is 0
      And ann holds 5S, 7H, KD, 5C, 9D, 2S
      Then the phase is awaiting_draw
      And everyone sees game_player_turn 1 time
      And ann's slot 0 is face down
      And ann's slot 1 is face down
      And bob does not know ann's slot 0

    @rule:GOLF-SETUP-1 @rule:GOLF-SETUP-7
    Scenario: with five initial flips each player turns up five cards
      Given a golf game with players ann, bob
      And the house rule initial_flips is 5
      And ann did flip_initial slot 0
      And ann did flip_initial slot 1
      And ann did flip_initial slot 2
      And ann did flip_initial slot 3
      When ann does flip_initial slot 5
      Then ann's slots 0, 1, 2, 3 and 5 are face up
      And ann's slot 4 is face down
      And the phase is initial_flip
      When ann does flip_initial slot 4
      Then the action is rejected with "you have turned up all your initial cards"

    @rule:GOLF-SETUP-8 @rule:GOLF-DEAL-4
    Scenario: a layout smaller than initial_flips is turned up whole, and the turns begin
      Given a golf game with players ann, bob
      And the house rule columns is 1
      And the house rule initial_flips is 3
      And ann did flip_initial slot 0
      And ann did flip_initial slot 1
      When bob does flip_initial slot 1
      Then the phase is initial_flip
      When bob does flip_initial slot 0
      Then the phase is awaiting_draw
      And everyone sees game_player_turn 1 time
      When ann does flip_initial slot 0
      Then the action is rejected with "the initial flips are over"

    @rule:GOLF-SETUP-2
    Scenario: a third initial flip is refused
      Given a golf game with players ann, bob
      And ann did flip_initial slot 0
      And ann did flip_initial slot 1
      When ann does flip_initial slot 2
      Then the action is rejected with "you have turned up all your initial cards"
      And ann's slot 2 is face down

    @rule:GOLF-SETUP-2
    Scenario: a card already face up cannot be flipped again
      Given a golf game with players ann, bob
      And ann did flip_initial slot 3
      When ann does flip_initial slot 3
      Then the action is rejected with "that card is already face up"

    @rule:GOLF-SETUP-2
    Scenario: only a card of your own layout can be flipped
      Given a golf game with players ann, bob
      And bob holds 4H, 6D, 3S, 8H, QC, AC
      And the discard pile is 9H
      When ann does flip_initial bob's slot 1
      Then the action is rejected with "that card is not in your layout"
      And bob's slot 1 is face down
      When ann does flip_initial 9H
      Then the action is rejected with "that card is not in your layout"

    @rule:GOLF-SETUP-2
    Scenario Outline: flip_initial takes exactly one slot
      Given a golf game with players ann, bob
      When ann does flip_initial <args>
      Then the action is rejected with "<reason>"

      Examples:
        | args         | reason                      |
        | slot 0 and 1 | flip_initial takes one slot |
        | up           | expected a card, not `up`   |

    @rule:GOLF-SETUP-2
    Scenario: flip_initial with no slot is refused
      Given a golf game with players ann, bob
      When ann does flip_initial
      Then the action is rejected with "flip_initial takes one slot of your layout"

    @rule:GOLF-SETUP-2 @rule:GOLF-SETUP-4
    Scenario: once the turns have begun there are no more initial flips
      Given a golf game with players ann, bob
      And ann holds 5S, 7H, KD, 5C, 9D, 2S
      And it is bob's turn
      When ann does flip_initial slot 4
      Then the action is rejected with "the initial flips are over"
      And ann's slot 4 is face down

    @rule:GOLF-SETUP-5
    Scenario: no turn action is accepted during the setup
      Given a golf game with players ann, bob
      And ann did flip_initial slot 0
      And ann did flip_initial slot 1
      When ann does draw_stock
      Then the action is rejected with "the initial flips are not over"
      When bob does draw_discard
      Then the action is rejected with "the initial flips are not over"
      When ann does swap slot 0
      Then the action is rejected with "the initial flips are not over"
      When ann does discard_drawn
      Then the action is rejected with "the initial flips are not over"
      When ann does flip slot 2
      Then the action is rejected with "the initial flips are not over"

    @rule:GOLF-SETUP-5
    Scenario: the setup has no timer: it waits for every player
      Given a golf game with players ann, bob
      And ann did flip_initial slot 0
      When 600 seconds pass
      Then the phase is initial_flip
      And ann's slot 1 is face down
      And bob's slot 0 is face down

  Rule: ending the setup early

    @rule:GOLF-SETUP-6
    Scenario: it is ann's turn: everyone's two lowest slots are turned up
      Given a golf game with players ann, bob
      And ann holds 5S, 7H, KD, 5C, 9D, 2S
      And bob holds 4H, 6D, 3S, 8H, QC, AC
      And it is ann's turn
      Then ann's slots 0 and 1 are face up
      And ann's slots 2, 3, 4 and 5 are face down
      And bob's slots 0 and 1 are face up
      And bob's slot 2 is face down
      And everyone knows 5S
      And everyone knows 6D
      And everyone sees player_flip_initial 4 times
      And everyone sees player_flip_initial with user bob and card 4H and card.idx 0
      And it is ann's turn
      And the phase is awaiting_draw

    @rule:GOLF-SETUP-6
    Scenario: a player who has flipped some cards has only the rest turned up
      Given a golf game with players ann, bob
      And ann did flip_initial slot 4
      And it is bob's turn
      Then ann's slots 0 and 4 are face up
      And ann's slots 1, 2, 3 and 5 are face down
      And everyone sees player_flip_initial with user ann and card.idx 0
      And bob does not see player_flip_initial with user ann and card.idx 1
      And it is bob's turn

    @rule:GOLF-SETUP-6
    Scenario: cards a Given laid face up count among the initial flips
      Given a golf game with players ann, bob
      And ann's slots 2 and 3 are face up
      And bob's slot 5 is face up
      And it is ann's turn
      Then ann's slots 2 and 3 are face up
      And ann's slots 0, 1, 4 and 5 are face down
      And bob's slots 0 and 5 are face up
      And bob's slot 1 is face down

    @rule:GOLF-SETUP-6 @rule:GOLF-SETUP-1
    Scenario: with three initial flips the three lowest slots are turned up
      Given a golf game with players ann, bob
      And the house rule initial_flips is 3
      And it is bob's turn
      Then ann's slots 0, 1 and 2 are face up
      And ann's slot 3 is face down
      And bob's slots 0, 1 and 2 are face up
