@recall
Feature: The same rank window
  "Recall Card Game Rules", section "Special Rules"; "Recall Card Game - Game Play and Rules",
  sections "3. Same Rank Window" and "Penalties Summary"; deckspec rulings "Recall: Same rank
  window": for 5 seconds after a play any player may throw a card of the same rank onto the discard
  pile, leaving an empty slot, and may go again; a card of another rank stays in the hand, shown to
  all, and costs one face-down penalty card.

  Background:
    Given a recall game with players ann, bob, cat
    And ann holds 7S, KH, 3D, QC
    And bob holds 4H, 6D, 2S, 8H
    And cat holds 5S, 9D, 6H, 9C
    And it is ann's turn

  Rule: a card of the top's rank goes onto the pile, from anyone

    @rule:REC-SAME-1 @rule:REC-SAME-2 @rule:REC-SAME-3 @rule:REC-SAME-4
    Scenario: bob throws his red 6 on ann's black 6 out of turn
      Given the draw pile is 6C
      And ann did draw
      And ann did play drawn
      When bob does same_rank 6D
      Then everyone sees player_same_rank with user bob and card 6D
      And the discard pile is 6D, 6C
      And the discard pile has 2 cards
      And nobody sees player_same_rank_fail
      And bob holds 4H, _, 2S, 8H
      And bob holds 3 cards
      And ann knows 6D
      And cat knows 6D
      And it is ann's turn
      And the phase is same_rank_window

    @rule:REC-SAME-1
    Scenario: the card may be named by its slot
      Given the draw pile is 6C
      And ann did draw
      And ann did play drawn
      When bob does same_rank slot 1
      Then bob holds 4H, _, 2S, 8H
      And the discard pile top is 6D

    @rule:REC-SAME-1 @rule:REC-SAME-4
    Scenario: the current player may throw a card of her own
      Given the draw pile is 3S
      And ann did draw
      And ann did play drawn
      When ann does same_rank slot 2
      Then everyone sees player_same_rank with user ann and card 3D
      And ann holds 7S, KH, _, QC
      And the discard pile is 3D, 3S

    @rule:REC-SAME-5
    Scenario: cat throws both her 9s, one after the other
      Given the draw pile is 9H
      And ann did draw
      And ann did play drawn
      When cat does same_rank 9D
      And cat does same_rank 9C
      Then cat holds 5S, _, 6H, _
      And the discard pile is 9C, 9D, 9H
      And everyone sees player_same_rank with user cat and card 9C

    @rule:REC-SAME-5
    Scenario: bob and cat both throw a 6
      Given the draw pile is 6C
      And ann did draw
      And ann did play drawn
      When bob does same_rank 6D
      And cat does same_rank 6H
      Then bob holds 4H, _, 2S, 8H
      And cat holds 5S, 9D, _, 9C
      And the discard pile is 6H, 6D, 6C

  Rule: a card of another rank stays and costs a penalty card

    @rule:REC-SAME-6 @rule:REC-SAME-7 @rule:REC-SAME-9
    Scenario: bob offers a 2 on a 7: the 2 stays and he draws a penalty card
      Given the draw pile is 7C, 5D
      And ann did draw
      And ann did play drawn
      When bob does same_rank 2S
      Then everyone sees player_same_rank_fail with user bob and card 2S
      And everyone sees player_penalty with user bob
      And only bob sees private_penalty
      And bob holds 4H, 6D, 2S, 8H, 5D
      And the discard pile is 7C
      And the draw pile has 40 cards
      And it is ann's turn
      And the phase is same_rank_window

    @rule:REC-SAME-6 @rule:REC-KNOW-1
    Scenario: the wrong card is shown to everyone
      Given the draw pile is 7C, 5D
      And ann did draw
      And ann did play drawn
      When bob does same_rank slot 2
      Then ann knows 2S
      And cat knows 2S
      And bob knows 2S
      And ann knows bob's slot 2
      And everyone sees player_same_rank_fail with card 2S and card.rank 2

    @rule:REC-SAME-8 @rule:REC-VIS-2
    Scenario: nobody sees the penalty card, not even bob
      Given the draw pile is 7C, 5D
      And ann did draw
      And ann did play drawn
      When bob does same_rank 2S
      Then bob does not know 5D
      And ann does not know 5D
      And cat does not know 5D
      And bob does not know bob's slot 4

    @rule:REC-PTS-5 @rule:REC-SAME-7
    Scenario: the penalty card counts its real points
      Given the draw pile is 7C, 5D
      And ann did draw
      And ann did play drawn
      When bob does same_rank 2S
      Then bob's score is 25

    @rule:REC-SAME-9 @rule:REC-SAME-4
    Scenario: the penalty card fills the slot bob emptied
      Given the draw pile is 6C, 5D
      And ann did draw
      And ann did play drawn
      And bob did same_rank slot 1
      When bob does same_rank 2S
      Then bob holds 4H, 5D, 2S, 8H
      And the discard pile is 6D, 6C

    @rule:REC-SAME-7
    Scenario: house rule penalty_draw_count 2 costs two penalty cards
      Given the house rule penalty_draw_count is 2
      And the draw pile is 7C, 5D, 10D
      And ann did draw
      And ann did play drawn
      When bob does same_rank 2S
      Then bob holds 4H, 6D, 2S, 8H, 5D, 10D
      And everyone sees player_penalty 2 times
      And only bob sees private_penalty 2 times

    @rule:REC-SAME-13 @rule:REC-SAME-12
    Scenario: a Queen offered on a 7 stays in the hand and opens no special play
      Given the draw pile is 7C, 5D
      And ann did draw
      And ann did play drawn
      And ann did same_rank slot 3
      When 5 seconds pass
      Then it is bob's turn
      And the phase is drawing_card
      And ann holds 7S, KH, 3D, QC, 5D
      And ann does not see game_special_play
      And bob does not see game_special_play

  Rule: one wrong play a window: its player takes no further part in that window

    @rule:REC-SAME-15
    Scenario: after a wrong 2 bob may not offer another card in the same window
      Given the draw pile is 7C, 5D, 10D
      And ann did draw
      And ann did play drawn
      And bob did same_rank 2S
      When bob does same_rank 4H
      Then the action is rejected with "you already played a wrong card in this window"
      And bob holds 4H, 6D, 2S, 8H, 5D
      And the draw pile has 40 cards
      And the discard pile is 7C
      And nobody sees player_penalty

    @rule:REC-SAME-15
    Scenario: not even a card of the right rank
      Given the draw pile is 6C, 5D
      And ann did draw
      And ann did play drawn
      And bob did same_rank 2S
      When bob does same_rank 6D
      Then the action is rejected with "you already played a wrong card in this window"
      And bob holds 4H, 6D, 2S, 8H, 5D
      And the discard pile is 6C

    @rule:REC-SAME-15 @rule:REC-SAME-1
    Scenario: the other players still may throw a card in that window
      Given the draw pile is 6C, 5D
      And ann did draw
      And ann did play drawn
      And bob did same_rank 2S
      When cat does same_rank 6H
      Then everyone sees player_same_rank with user cat and card 6H
      And the discard pile is 6H, 6C

    @rule:REC-SAME-15
    Scenario: the next window is open to bob again
      Given the draw pile is 7C, 5D, 8D
      And ann did draw
      And ann did play drawn
      And bob did same_rank 2S
      When 5 seconds pass
      And bob does draw
      And bob does play drawn
      And bob does same_rank 8H
      Then everyone sees player_same_rank with user bob and card 8H
      And the discard pile is 8H, 8D, 7C

  Rule: same rank plays only while the window is open

    @rule:REC-SAME-10
    Scenario: bob cannot throw a card of cat's hand
      Given the draw pile is 9H
      And ann did draw
      And ann did play drawn
      When bob does same_rank 9D
      Then the action is rejected with "that card is not in your hand"
      And cat holds 5S, 9D, 6H, 9C
      And bob holds 4H, 6D, 2S, 8H
      And the discard pile is 9H

    @rule:REC-SAME-14
    Scenario: same_rank names one card
      Given the draw pile is 9H
      And ann did draw
      And ann did play drawn
      When cat does same_rank 9D and 9C
      Then the action is rejected with "same_rank takes one card of your hand"
      And cat holds 5S, 9D, 6H, 9C
      And the discard pile is 9H

    @rule:REC-SAME-11
    Scenario: there is no same rank window before ann has played
      When bob does same_rank 6D
      Then the action is rejected with "there is no same rank window"
      And bob holds 4H, 6D, 2S, 8H

    @rule:REC-SAME-11 @rule:REC-TIME-3
    Scenario: once the window has closed it is too late to throw a card
      Given the draw pile is 6C
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      And cat does same_rank 6H
      Then the action is rejected with "there is no same rank window"
      And cat holds 5S, 9D, 6H, 9C
      And the discard pile is 6C
      And it is bob's turn
