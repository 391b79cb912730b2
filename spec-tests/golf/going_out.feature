@golf
Feature: Going out, the final turns and the end of the round
  "Golf (six-card), as commonly played", section "Going out"; deckspec rulings "Golf (six-card)":
  the first player with all six cards face up goes out; everyone else has one more turn; then
  every card still face down turns up and the lowest total wins.

  Rule: two players

    Background:
      Given a golf game with players ann, bob
      And ann holds AS, KD, 3H, AC, KH, 2S
      And bob holds 4H, 6D, 3S, 8H, QC, 9C
      And the discard pile is 8D
      And the draw pile is 10C, 4C, JH
      And ann's slots 0, 1, 2, 3 and 4 are face up
      And it is ann's turn

    @rule:GOLF-OUT-1 @rule:GOLF-DISC-3
    Scenario: ann goes out by turning up her last card after a discard
      Given ann did draw_stock
      And ann did discard_drawn
      When ann does flip slot 5
      Then everyone sees player_out with user ann
      And bob receives:
        """
        {"type": "player_out", "user": {"id": "ann"}}
        """
      And it is bob's turn
      And the phase is awaiting_draw
      And the game is not over

    @rule:GOLF-OUT-1 @rule:GOLF-SWAP-1
    Scenario: ann goes out by swapping into her last face-down slot
      Given ann did draw_stock
      When ann does swap slot 5
      Then everyone sees player_out with user ann
      And ann holds AS, KD, 3H, AC, KH, 10C
      And it is bob's turn

    @rule:GOLF-OUT-1
    Scenario: a swap into a face-up slot leaves ann's last card face down: she is not out
      Given ann did draw_stock
      When ann does swap slot 2
      Then ann does not see player_out
      And ann's slot 5 is face down
      And it is bob's turn

    @rule:GOLF-OUT-2 @rule:GOLF-END-1 @rule:GOLF-END-2 @rule:GOLF-END-3
    Scenario: bob's last turn ends the round; his face-down cards turn up and ann wins
      Given ann did draw_stock
      And ann did discard_drawn
      And ann did flip slot 5
      And bob did draw_stock
      When bob does swap slot 4
      Then the game is over
      And ann wins
      And the phase is game_over
      And bob holds 4H, 6D, 3S, 8H, 4C, 9C
      And bob's slots 2, 3 and 5 are face up
      And everyone sees player_flip 3 times
      And everyone sees player_flip with user bob and card 8H and card.idx 3 and card.user bob
      And everyone sees player_flip with user bob and card 3S and card.idx 2
      And everyone sees player_flip with user bob and card 9C and card.idx 5
      And everyone knows 9C
      And ann's score is 1
      And bob's score is 34
      And bob receives:
        """
        {"type": "game_end", "scores": {"ann": 1, "bob": 34}, "winners": [{"id": "ann"}]}
        """
      And everyone sees game_end 1 time

    @rule:GOLF-OUT-2
    Scenario: the player who went out has no further turn
      Given ann did draw_stock
      And ann did swap slot 5
      And bob did draw_stock
      When bob does discard_drawn
      Then the phase is awaiting_flip
      When bob does flip slot 5
      Then the game is over
      And ann does not see game_player_turn with user ann

    @rule:GOLF-END-4
    Scenario: after the end every action is refused
      Given ann did draw_stock
      And ann did swap slot 5
      And bob did draw_stock
      And bob did swap slot 2
      When bob does draw_stock
      Then the action is rejected with "the game is over"
      When ann does draw_discard
      Then the action is rejected with "the game is over"
      When ann does flip_initial slot 0
      Then the action is rejected with "the game is over"

  Rule: three players

    Background:
      Given a golf game with players ann, bob, cat
      And ann holds AS, KD, 3H, AC, KH, 2S
      And bob holds 4H, 6D, 3S, 8H, QC, 9C
      And cat holds 5D, 7C, QD, 5C, 6H, 10D
      And the discard pile is 8D
      And the draw pile is 10C, 4C, JH, 7S
      And ann's slots 0, 1, 2, 3 and 4 are face up
      And bob's slots 0, 1, 2, 3 and 5 are face up
      And it is ann's turn
      And ann did draw_stock
      And ann did swap slot 5

    @rule:GOLF-OUT-2
    Scenario: every other player has one more turn, in seat order
      Then it is bob's turn
      When bob does draw_stock
      And bob does swap slot 0
      Then it is cat's turn
      And the game is not over
      When cat does draw_stock
      And cat does discard_drawn
      And cat does flip slot 2
      Then the game is over
      And ann does not see player_out

    @rule:GOLF-OUT-3
    Scenario: a second player going out adds no turns and no player_out
      When bob does draw_stock
      And bob does swap slot 4
      Then bob's slots 0, 1, 2, 3, 4 and 5 are face up
      And ann does not see player_out
      And bob does not see player_out with user bob
      And it is cat's turn
      When cat does draw_stock
      And cat does swap slot 3
      Then the game is over
      And cat does not see player_out with user bob

    @rule:GOLF-END-1 @rule:GOLF-END-2
    Scenario: at the end every face-down card turns up, every player's
      Given bob did draw_stock
      And bob did swap slot 4
      And cat did draw_stock
      When cat does swap slot 0
      Then everyone sees player_flip 4 times
      And everyone sees player_flip with user cat and card QD and card.idx 2
      And everyone sees player_flip with user cat and card 5C and card.idx 3
      And everyone sees player_flip with user cat and card 6H and card.idx 4
      And everyone sees player_flip with user cat and card 10D and card.idx 5
      And ann does not see player_flip with user ann
      And ann does not see player_flip with user bob
      And cat's slots 0, 1, 2, 3, 4 and 5 are face up
      And everyone knows 10D
      And the phase is game_over

    @rule:GOLF-END-3 @rule:GOLF-SCORE-1
    Scenario: the lowest total wins among three
      Given bob did draw_stock
      And bob did swap slot 4
      And cat did draw_stock
      When cat does swap slot 0
      Then ann wins
      And ann's score is 13
      And bob's score is 34
      And cat's score is 48
      And cat receives:
        """
        {"type": "game_end", "scores": {"ann": 13, "bob": 34, "cat": 48}, "winners": [{"id": "ann"}]}
        """

  Rule: ties

    @rule:GOLF-END-3
    Scenario: players tied for the lowest total all win
      Given a golf game with players ann, bob, cat
      And ann holds AS, KD, 3H, AC, KH, 2S
      And bob holds 2D, 5D, 3S, 2H, 5H, 2C
      And cat holds QS, JS, QH, JC, 10H, 9H
      And the discard pile is 8D
      And the draw pile is 7S, 7D, 6S
      And ann's slots 0, 1, 2, 3 and 4 are face up
      And it is ann's turn
      And ann did draw_stock
      And ann did discard_drawn
      And ann did flip slot 5
      And bob did draw_stock
      And bob did discard_drawn
      And bob did flip slot 4
      And cat did draw_stock
      When cat does discard_drawn
      And cat does flip slot 5
      Then ann and bob win
      And ann's score is 1
      And bob's score is 1
      And cat's score is 59
      And bob receives:
        """
        {"type": "game_end", "scores": {"ann": 1, "bob": 1, "cat": 59}, "winners": [{"id": "ann"}, {"id": "bob"}]}
        """
