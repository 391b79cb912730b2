@recall
Feature: The initial peek
  "Recall Card Game Rules", section "Game Setup"; "Recall Card Game - Game Play and Rules", sections
  "Initial Peek Phase" and "Remaining Cards"; deckspec rulings "Recall: Deal": in the timed phase
  initial_peek each player may look once at any two of their own four cards; when the phase ends, a
  player who has not peeked is shown slots 0 and 1, and a random player starts.

  Background:
    Given a recall game with players ann, bob
    And ann holds 7S, KH, 3D, QC
    And bob holds 4H, 6D, 2S, 8H

  Rule: each player peeks at two of their own cards, once

    @rule:REC-PEEK-1
    Scenario: the game starts in the initial peek, with nobody's turn yet
      Then the phase is initial_peek
      And ann's peeked is false
      And bob's peeked is false
      And the game is not over
      When ann does draw
      Then the action is rejected
      And the draw pile has 46 cards

    @rule:REC-PEEK-2 @rule:REC-PEEK-3 @rule:REC-PEEK-4
    Scenario: ann peeks at slots 0 and 2
      When ann does initial_peek 0 and 2
      Then ann knows 7S
      And ann knows 3D
      And ann does not know KH
      And ann does not know QC
      And only ann sees private_initial_peek
      And ann sees private_initial_peek with cards.0 7S and cards.1 3D
      And everyone sees player_initial_peek with user ann
      And bob does not know 7S
      And bob does not know 3D
      And ann's peeked is true
      And bob's peeked is false
      And the phase is initial_peek

    @rule:REC-PEEK-2
    Scenario: the slots may be written as slot references, in any order
      When bob does initial_peek slot 3 and slot 1
      Then bob knows 8H
      And bob knows 6D
      And bob does not know 4H
      And bob does not know 2S
      And ann does not know 8H
      And ann does not know 6D

    @rule:REC-PEEK-3 @rule:REC-VIS-2
    Scenario: bob is told that ann peeked, but not at what
      When ann does initial_peek 1 and 3
      Then bob receives:
        """
        {"type": "player_initial_peek", "user": {"id": "ann"}}
        """
      And bob does not see private_initial_peek
      And bob does not know KH
      And bob does not know QC

    @rule:REC-PEEK-4
    Scenario: a second peek is refused
      Given ann did initial_peek 0 and 1
      When ann does initial_peek 2 and 3
      Then the action is rejected with "you have already peeked"
      And ann does not know 3D
      And ann does not know QC
      And ann knows 7S

    @rule:REC-PEEK-5
    Scenario: the same slot twice is refused
      When ann does initial_peek 1 and 1
      Then the action is rejected with "peek at two different cards of your own hand"
      And ann's peeked is false
      And ann does not know KH

    @rule:REC-PEEK-5
    Scenario: a card of another player's hand cannot be peeked at
      When ann does initial_peek slot 0 and bob's slot 0
      Then the action is rejected with "peek at two different cards of your own hand"
      And ann does not know 4H
      And ann does not know 7S
      And ann's peeked is false

    @rule:REC-PEEK-6
    Scenario: once the initial peek is over nobody may peek
      Given it is ann's turn
      When bob does initial_peek 2 and 3
      Then the action is rejected with "the initial peek is over"
      And bob does not know 2S
      And bob does not know 8H
      And it is ann's turn

    @rule:REC-PEEK-10
    Scenario: a peek at one card or at three is refused
      When ann does initial_peek 0
      Then the action is rejected with "peek at two different cards of your own hand"
      When ann does initial_peek 0 and 1 and 2
      Then the action is rejected with "peek at two different cards of your own hand"
      And ann's peeked is false
      And ann does not know 7S
      And ann does not know KH

    @rule:REC-PEEK-11
    Scenario: ann's peeked_cards are the cards she peeked at, in her order
      Then ann's peeked_cards is []
      When ann does initial_peek 2 and 0
      Then ann's peeked_cards is [3D, 7S]
      And bob's peeked_cards is []

  Rule: the phase ends on its timer or when everyone has peeked

    @rule:REC-PEEK-7 @rule:REC-PEEK-1 @rule:REC-PEEK-9
    Scenario: the initial peek lasts 10 seconds
      When 9 seconds pass
      Then the phase is initial_peek
      When 1 second passes
      Then the phase is drawing_card
      And everyone sees game_player_turn 1 time

    @rule:REC-PEEK-7
    Scenario: the initial peek ends at once when every player has peeked
      Given ann did initial_peek 0 and 1
      When bob does initial_peek 2 and 3
      Then the phase is drawing_card
      And everyone sees game_player_turn
      And ann does not see private_initial_peek
      And bob knows 2S
      And bob does not know 4H

    @rule:REC-PEEK-8
    Scenario: a player who did not peek is shown slots 0 and 1 when time runs out
      Given ann did initial_peek 2 and 3
      When time runs out
      Then bob knows 4H
      And bob knows 6D
      And bob does not know 2S
      And bob does not know 8H
      And only bob sees private_initial_peek
      And bob sees private_initial_peek with cards.0 4H and cards.1 6D
      And ann knows 3D
      And ann knows QC
      And ann does not know 7S
      And ann does not know KH
      And ann does not know 4H

    @rule:REC-PEEK-11 @rule:REC-PEEK-8
    Scenario: the slots 0 and 1 shown to bob at the end are his peeked_cards
      Given ann did initial_peek 3 and 2
      When time runs out
      Then bob's peeked_cards is [4H, 6D]
      And ann's peeked_cards is [QC, 3D]

    @rule:REC-PEEK-8
    Scenario: starting ann's turn ends the peek as the timer would
      Given ann did initial_peek 2 and 3
      And it is ann's turn
      Then it is ann's turn
      And the phase is drawing_card
      And ann knows QC
      And ann does not know 7S
      And ann does not know KH
      And bob knows 4H
      And bob knows 6D
      And bob does not know 2S
      And ann does not know 6D

    @rule:REC-PEEK-9 @rule:REC-TURN-2
    Scenario: a seeded player takes the first turn, announced to everyone
      Given the seed is 7
      When time runs out
      Then the phase is drawing_card
      And everyone sees game_player_turn 1 time
      And the game is not over

    @rule:REC-PEEK-1 @rule:REC-TIME-5
    Scenario: house rule initial_peek_seconds sets the length of the peek
      Given the house rule initial_peek_seconds is 20
      When 10 seconds pass
      Then the phase is initial_peek
      When 10 seconds pass
      Then the phase is drawing_card
