@dutch
Feature: Collection cards stay in the hand, face up, and cannot be played
  "Recall Card Game - Game Play and Rules", sections "Option A: Play a Card" and "Collection Rank
  Cards"; "Collection Cards Verification - Dutch Game", section "2. Collection Cards Playability
  During Same Rank Window"; deckspec rulings "Dutch": collection cards are hand cards, always face
  up, and can never be played, in turn or in the same rank window; the refusal says "This card is in
  your collection and cannot be played for same rank." Every other card plays as in Recall,
  including an uncollected card of the collection rank.

  Rule: a collection card cannot be played in turn

    Background:
      Given a dutch game with players ann, bob
      And ann holds 3D, 9C, 5H, 6H
      And bob holds 4H, 8H, 2S, 6D
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1

    @rule:DUT-PLAY-1
    Scenario: ann cannot play her collection 3 from her slot 0
      Given the draw pile is 7D
      And it is ann's turn
      And ann did draw
      When ann does play 0
      Then the action is rejected with "This card is in your collection and cannot be played for same rank."
      And ann holds 3D, 9C, 5H, 6H
      And the discard pile is empty
      And the phase is playing_card
      And it is ann's turn

    @rule:DUT-PLAY-1
    Scenario: written play slot 0, it is refused all the same
      Given the draw pile is 7D
      And it is ann's turn
      And ann did draw
      When ann does play slot 0
      Then the action is rejected with "This card is in your collection and cannot be played for same rank."
      And ann's slot 0 is 3D
      And the discard pile is empty

    @rule:DUT-PLAY-1 @rule:DUT-DISC-1
    Scenario: a 3 collected from the discard pile cannot be played either
      Given the discard pile is 3S
      And the draw pile is 7D
      And it is ann's turn
      And ann did collect_discard
      And ann did draw
      When ann does play 4
      Then the action is rejected with "This card is in your collection and cannot be played for same rank."
      And ann holds 3D, 9C, 5H, 6H, 3S
      And the discard pile is empty

    @rule:DUT-PLAY-1 @rule:DUT-DRAW-1
    Scenario: a 3 collected from the draw cannot be played in a later turn
      Given the draw pile is 3S, 7D
      And it is ann's turn
      And ann did draw
      And ann did collect
      And it is ann's turn
      And ann did draw
      When ann does play 4
      Then the action is rejected with "This card is in your collection and cannot be played for same rank."
      And ann holds 3D, 9C, 5H, 6H, 3S
      And the phase is playing_card

  Rule: a collection card cannot be played in the same rank window

    Background:
      Given a dutch game with players ann, bob
      And ann holds 3D, 9C, 5H, 6H
      And bob holds 4H, 8H, 2S, 6D
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1

    @rule:DUT-PLAY-2
    Scenario: ann cannot throw her collection 3 on bob's 3
      Given the draw pile is 3C
      And it is bob's turn
      And bob did draw
      And bob did play drawn
      When ann does same_rank slot 0
      Then the action is rejected with "This card is in your collection and cannot be played for same rank."
      And ann holds 3D, 9C, 5H, 6H
      And the discard pile is 3C
      And the phase is same_rank_window

    @rule:DUT-PLAY-2
    Scenario: named by its face, the collection card is refused and costs no penalty
      Given the draw pile is 3C, 10C
      And it is bob's turn
      And bob did draw
      And bob did play drawn
      When ann does same_rank 3D
      Then the action is rejected with "This card is in your collection and cannot be played for same rank."
      And ann holds 4 cards
      And ann does not see player_penalty
      And the draw pile top is 10C

    @rule:DUT-PLAY-2
    Scenario: bob cannot throw his collection 4 on ann's 4 either
      Given the draw pile is 4S
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      When bob does same_rank slot 0
      Then the action is rejected with "This card is in your collection and cannot be played for same rank."
      And bob holds 4H, 8H, 2S, 6D
      And the discard pile is 4S

  Rule: every other card can be played

    Background:
      Given a dutch game with players ann, bob
      And ann holds 3D, 9C, 3S, 6H
      And bob holds 4H, 8H, 2S, 6D
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1

    @rule:DUT-PLAY-3
    Scenario: ann plays her 9, which is not a collection card
      Given the draw pile is 7D
      And it is ann's turn
      And ann did draw
      When ann does play 1
      Then ann holds 3D, 7D, 3S, 6H
      And the discard pile is 9C
      And the phase is same_rank_window

    @rule:DUT-PLAY-3
    Scenario: ann plays the card she drew
      Given the draw pile is 7D
      And it is ann's turn
      And ann did draw
      When ann does play drawn
      Then ann holds 3D, 9C, 3S, 6H
      And the discard pile is 7D

    @rule:DUT-COLL-4
    Scenario: ann's uncollected 3 stays face down
      Given it is ann's turn
      Then ann's collection_rank is 3
      And bob knows ann's slot 0
      And bob does not know ann's slot 2
      And bob does not know 3S
      And ann does not know 3S

    @rule:DUT-COLL-4 @rule:DUT-PLAY-3
    Scenario: ann throws her uncollected 3 on bob's 3 in the same rank window
      Given the draw pile is 3C
      And it is bob's turn
      And bob did draw
      And bob did play drawn
      When ann does same_rank slot 2
      Then ann holds 3D, 9C, _, 6H
      And the discard pile top is 3S
      And everyone sees player_same_rank with user ann and card 3S

    @rule:DUT-COLL-4 @rule:DUT-PLAY-3
    Scenario: ann plays her uncollected 3 in turn
      Given the draw pile is 7D
      And it is ann's turn
      And ann did draw
      When ann does play 2
      Then ann holds 3D, 9C, 7D, 6H
      And the discard pile is 3S

  Rule: collection cards are hand cards, always face up

    @rule:DUT-COLL-1 @rule:DUT-END-4
    Scenario: ann throws her last other card and still holds her collection card
      Given a dutch game with players ann, bob
      And ann holds 3D, 9C
      And bob holds 4H, 8H, 2S, 6D
      And the draw pile is 9H
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      And it is bob's turn
      And bob did draw
      And bob did play drawn
      When ann does same_rank slot 1
      Then ann holds 3D, _
      And ann holds 1 card
      And the game is not over
      And the phase is same_rank_window

    @rule:DUT-COLL-2
    Scenario: cat knows ann's collection cards, the first one and one she collected from the draw
      Given a dutch game with players ann, bob, cat
      And ann holds 3D, 9C, 5H, 6H
      And bob holds 4H, 8H, 2S, 6D
      And cat holds 7C, JD, AH, 2H
      And the draw pile is 3S
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      And cat did initial_peek 0 and 1
      And it is ann's turn
      And ann did draw
      Then cat does not know 3S
      When ann does collect
      Then cat knows 3D
      And cat knows 3S
      And bob knows 3S
      And cat knows ann's slot 4
      And cat does not know 9C
      And it is bob's turn

  Rule: collection cards are never swapped

    Background:
      Given a dutch game with players ann, bob
      And ann holds 3D, 9C, 5H, 6H
      And bob holds 4H, 8H, 2S, 6D
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      And the draw pile is JD, QD
      And it is ann's turn
      And ann did draw
      And ann did play drawn

    @rule:DUT-COLL-7
    Scenario: ann's Jack cannot take bob's collection 4
      When 5 seconds pass
      And ann does jack_swap ann's slot 2 and bob's slot 0
      Then the action is rejected with "That card is in a collection and cannot be swapped."
      And ann holds 3D, 9C, 5H, 6H
      And bob holds 4H, 8H, 2S, 6D
      And bob's collection_rank_cards is [4H]
      And the phase is special_play_window

    @rule:DUT-COLL-7
    Scenario: ann's Jack cannot give away her own collection 3
      When 5 seconds pass
      And ann does jack_swap ann's slot 0 and bob's slot 3
      Then the action is rejected with "That card is in a collection and cannot be swapped."
      And ann holds 3D, 9C, 5H, 6H

    @rule:DUT-COLL-7
    Scenario: the refused swap leaves ann her special; she swaps two other cards
      When 5 seconds pass
      And ann does jack_swap ann's slot 0 and bob's slot 3
      Then the action is rejected with "That card is in a collection and cannot be swapped."
      When ann does jack_swap ann's slot 2 and bob's slot 3
      Then ann holds 3D, 9C, 6D, 6H
      And bob holds 4H, 8H, 2S, 5H
      And it is bob's turn

    @rule:DUT-COLL-7
    Scenario: a Queen may still peek at a collection card
      When 5 seconds pass
      And ann does skip
      And bob does draw
      And bob does play drawn
      Then the discard pile top is QD
      And the phase is same_rank_window
      When 5 seconds pass
      Then the phase is special_play_window
      When bob does queen_peek ann's slot 0
      Then bob knows 3D
      And it is ann's turn
