@golf
Feature: Turns, and the actions each phase allows
  deckspec rulings "Golf (six-card)" and this rulebook: every turn is announced, passes in seat
  order, and only its player acts, each action in its own phase.

  Rule: turns

    Background:
      Given a golf game with players ann, bob, cat
      And ann holds 5S, 7H, KD, 6C, 9D, 2S
      And bob holds 4H, 6D, 3S, 8H, QC, AC
      And cat holds 3C, 4D, 5D, 7C, 8C, 9S
      And the discard pile is 8D
      And the draw pile is 10C, 4C, JH, QH

    @rule:GOLF-TURN-1
    Scenario: a turn starts waiting for a draw and is announced to everyone
      Given it is bob's turn
      Then the phase is awaiting_draw
      And it is bob's turn
      And everyone sees game_player_turn with user bob
      And cat receives:
        """
        {"type": "game_player_turn", "user": {"id": "bob"}}
        """

    @rule:GOLF-TURN-1
    Scenario: a turn has no timer: it waits for its player
      Given it is bob's turn
      When 600 seconds pass
      Then it is bob's turn
      And the phase is awaiting_draw
      And bob does not see game_player_turn
      Given bob did draw_stock
      When 600 seconds pass
      Then the phase is awaiting_decision
      And it is bob's turn

    @rule:GOLF-TURN-2
    Scenario: the turn passes in seat order and comes round again
      Given it is ann's turn
      And ann did draw_stock
      And ann did swap slot 2
      Then it is bob's turn
      When bob does draw_stock
      And bob does swap slot 2
      Then it is cat's turn
      And everyone sees game_player_turn with user cat
      When cat does draw_stock
      And cat does discard_drawn
      And cat does flip slot 5
      Then it is ann's turn
      And everyone sees game_player_turn with user ann

  Rule: who may act, and when

    Background:
      Given a golf game with players ann, bob
      And ann holds 5S, 7H, KD, 6C, 9D, 2S
      And bob holds 4H, 6D, 3S, 8H, QC, AC
      And the discard pile is 8D
      And the draw pile is 10C, 4C
      And it is ann's turn

    @rule:GOLF-TURN-3
    Scenario Outline: only the current player acts
      When bob does <action>
      Then the action is rejected with "not your turn"
      And it is ann's turn
      And the phase is awaiting_draw

      Examples:
        | action        |
        | draw_stock    |
        | draw_discard  |
        | swap slot 2   |
        | discard_drawn |
        | flip slot 2   |

    @rule:GOLF-TURN-3
    Scenario: another player cannot act while ann holds the drawn card
      Given ann did draw_stock
      When bob does swap slot 3
      Then the action is rejected with "not your turn"
      When bob does discard_drawn
      Then the action is rejected with "not your turn"
      And the phase is awaiting_decision

    @rule:GOLF-TURN-3
    Scenario Outline: nothing but a draw before drawing
      When ann does <action>
      Then the action is rejected with "draw a card first"
      And the phase is awaiting_draw
      And ann holds 5S, 7H, KD, 6C, 9D, 2S

      Examples:
        | action        |
        | swap slot 2   |
        | discard_drawn |
        | flip slot 2   |

    @rule:GOLF-TURN-3
    Scenario Outline: no second draw, and no flip, while holding the drawn card
      Given ann did draw_stock
      When ann does <action>
      Then the action is rejected with "you have drawn a card: swap it into your layout or discard it"
      And the phase is awaiting_decision
      And the draw pile top is 4C

      Examples:
        | action       |
        | draw_stock   |
        | draw_discard |
        | flip slot 2  |

    @rule:GOLF-TURN-3 @rule:GOLF-DISC-3
    Scenario Outline: after discarding the drawn card only the flip is left
      Given ann did draw_stock
      And ann did discard_drawn
      When ann does <action>
      Then the action is rejected with "turn up one of your face-down cards first"
      And the phase is awaiting_flip
      And it is ann's turn

      Examples:
        | action        |
        | draw_stock    |
        | draw_discard  |
        | swap slot 2   |
        | discard_drawn |

  Rule: an empty discard pile

    @rule:GOLF-DRAW-4
    Scenario: an empty discard pile cannot be drawn from
      Given a golf game with players ann, bob
      And the discard pile is empty
      And it is ann's turn
      When ann does draw_discard
      Then the action is rejected with "the discard pile is empty"
      And the phase is awaiting_draw

    @rule:GOLF-DRAW-5
    Scenario: with no card for a stock, draw_stock is refused and the discard pile is drawn from
      Given a golf game with players ann, bob
      And the house rule columns is 2
      And the deck is AS, 2S, 5S, QS, KS, AH, 5H, 3D, JK
      And ann holds AS, 3D, QS, 5H
      And bob holds KS, AH, 2S, JK
      And it is ann's turn
      Then the draw pile has 0 cards
      When ann does draw_stock
      Then the action is rejected with "the stock is empty: draw from the discard pile"
      And the phase is awaiting_draw
      And the discard pile is 5S
      When ann does draw_discard
      Then the phase is awaiting_decision

    @rule:GOLF-DRAW-3
    Scenario: only the top card of the discard pile is taken
      Given a golf game with players ann, bob
      And the discard pile is 8D, 3H, QS
      And it is ann's turn
      When ann does draw_discard
      Then the discard pile is 3H, QS
      And everyone sees player_draw_discard with card 8D
