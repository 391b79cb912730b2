@golf
Feature: Games the rules refuse to set up, and what a player may do
  "Golf (six-card), as commonly played", sections "Players" and "Setup"; deckspec rulings "Golf
  (six-card)": two to six players; initial_flips is 0 to 5.

  Rule: a game outside the rules is not set up

    @rule:GOLF-PLAY-1
    Scenario: seven players are one too many
      Given a golf game with players ann, bob, cat, dan, eve, fay, gus
      Then the setup is rejected with "at most 6 players"

    @rule:GOLF-PLAY-1
    Scenario: one player is too few
      Given a golf game with player ann
      Then the setup is rejected with "at least 2 players"

    @rule:GOLF-SETUP-1
    Scenario: initial_flips is at most 5
      Given a golf game with players ann, bob
      And the house rule initial_flips is 6
      Then the setup is rejected with "initial_flips"

  Rule: only the player whose turn it is draws, and the discard pile grows by one

    @rule:GOLF-SETUP-1
    Scenario: ann may draw and bob may not; a discarded draw is the only event of its kind
      Given a golf game with players ann, bob
      And it is ann's turn
      Then ann may do draw_stock
      And ann may do draw_discard
      And bob may not do draw_stock
      And ann may not do discard_drawn
      When ann does draw_stock
      And ann does discard_drawn
      Then the discard pile has 2 cards
      And nobody sees player_swap
      When ann does flip 5
      Then everyone sees player_flip
      And bob sees, in order: player_flip, game_player_turn
      And nobody sees game_end
