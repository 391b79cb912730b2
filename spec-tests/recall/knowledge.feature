@recall
Feature: Known cards and who sees what
  "Recall Card Game - Game Play and Rules", sections "Known Cards Updates", "Remaining Cards" and
  "Jack Swap Power"; deckspec rulings "Recall: Known cards": the game keeps, for every player, the
  cards they know: peeked, drawn, played face up, seen by a Queen; a Jack swap moves the knowledge
  with the cards. player_* and game_* events go to everyone, private_* only to their player, and no
  event shows a face-down card to a player who does not know it.

  Background:
    Given a recall game with players ann, bob, cat
    And ann holds 7S, KH, 3D, QC
    And bob holds 4H, 6D, 2S, 8H
    And cat holds 5S, 9D, JH, AC

  Rule: what each player knows

    @rule:REC-KNOW-1 @rule:REC-KNOW-3
    Scenario: ann still knows the cards she peeked at after a full round
      Given the draw pile is 5C, 9H, 10C
      And ann did initial_peek 2 and 3
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      And bob does draw
      And bob does play drawn
      And 5 seconds pass
      And cat does draw
      And cat does play drawn
      And 5 seconds pass
      Then it is ann's turn
      And ann knows 3D
      And ann knows QC
      And ann does not know 7S
      And ann does not know KH
      And ann knows 9H
      And ann knows 10C

    @rule:REC-KNOW-1
    Scenario: a drawn card put into the hand stays known to its drawer only
      Given the draw pile is 5C
      And it is ann's turn
      And ann did draw
      And ann did play slot 3
      When 5 seconds pass
      Then ann knows ann's slot 3
      And bob does not know ann's slot 3
      And cat does not know 5C
      And bob knows QC

    @rule:REC-KNOW-1 @rule:REC-QUEEN-1
    Scenario: what a Queen showed stays known after the special play
      Given the draw pile is QD, 10C
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      And ann does queen_peek cat's slot 2
      And bob does draw
      And bob does play drawn
      And 5 seconds pass
      Then ann knows JH
      And ann knows cat's slot 2
      And cat does not know JH
      And it is cat's turn

    @rule:REC-KNOW-2
    Scenario: cat's knowledge of her 5 follows it into bob's hand
      Given the draw pile is JD
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      And ann does jack_swap cat's slot 0 and bob's slot 3
      Then cat holds 8H, 9D, JH, AC
      And bob holds 4H, 6D, 2S, 5S
      And cat knows bob's slot 3
      And cat does not know cat's slot 0
      And bob does not know bob's slot 3
      And bob does not know 5S
      And ann does not know 5S
      And ann does not know 8H

    @rule:REC-KNOW-2
    Scenario: what ann learned of bob's card moves with it to cat's hand
      Given the draw pile is JD
      And ann knows bob's slot 2
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      And ann does jack_swap bob's slot 2 and cat's slot 3
      Then ann knows cat's slot 3
      And ann knows 2S
      And ann does not know bob's slot 2
      And cat does not know cat's slot 3

    @rule:REC-KNOW-2
    Scenario: ann swaps her known 7 away and does not learn what she gets
      Given the draw pile is JD
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      And ann does jack_swap slot 0 and bob's slot 3
      Then ann holds 8H, KH, 3D, QC
      And bob holds 4H, 6D, 2S, 7S
      And ann knows bob's slot 3
      And ann does not know ann's slot 0
      And bob does not know 7S

  Rule: who receives which event

    @rule:REC-VIS-1
    Scenario: the draw goes to everyone, the drawn card only to ann
      Given the draw pile is 5C
      And it is ann's turn
      When ann does draw
      Then only ann sees private_draw
      And everyone sees player_draw with user ann
      And bob does not see private_draw
      And cat does not see private_draw

    @rule:REC-VIS-1
    Scenario: game events go to every player
      Given the draw pile is 5C
      And it is ann's turn
      And ann did draw
      When ann does play drawn
      Then everyone sees game_same_rank_window
      And everyone sees player_play
      When 5 seconds pass
      Then everyone sees game_player_turn with user bob

    @rule:REC-VIS-1 @rule:REC-VIS-2
    Scenario: the penalty card goes to bob without its face and to the others without its face
      Given the draw pile is 7C, 5D
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      When bob does same_rank 2S
      Then only bob sees private_penalty with card 5D
      And everyone sees player_penalty with user bob and card 5D
      And ann receives:
        """
        {"type": "player_penalty", "user": {"id": "bob"}, "card": {"id": "{5D}"}}
        """
      And bob does not know 5D
      And ann does not know 5D
      And cat does not know 5D

    @rule:REC-VIS-2
    Scenario: a Jack swap shows no face to anyone who did not know the cards
      Given the draw pile is JD
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      And ann does jack_swap bob's slot 2 and cat's slot 3
      Then everyone sees player_jack_swap with user ann and card1 2S and card2 AC
      And ann does not know 2S
      And ann does not know AC
      And bob does not know 2S
      And cat does not know AC
      And bob does not know AC
      And cat does not know 2S
