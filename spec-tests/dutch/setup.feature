@dutch
Feature: Deck, deal, initial peek and collection mode
  deckspec rulings "Recall" and "Dutch"; "Recall Card Game Rules", section "Game Setup"; "Recall
  Card Game - Game Play and Rules", section "Initial Peek Phase": as in Recall, 54 cards, four face
  down each, an initial peek at two of your own cards; Dutch is Recall with house rule
  clear_and_collect on, so the end of the peek gives every player a collection rank.

  Rule: the Recall deal and initial peek

    @rule:DUT-BASE-1
    Scenario: two players leave 46 of the 54 cards in the draw pile
      Given a dutch game with players ann, bob
      Then ann holds ?, ?, ?, ?
      And bob holds ?, ?, ?, ?
      And the draw pile has 46 cards
      And the discard pile is empty
      And the phase is initial_peek

    @rule:DUT-BASE-1
    Scenario: with hand_size 3, as in Recall, each player is dealt three cards
      Given a dutch game with players ann, bob
      And the house rule hand_size is 3
      Then ann holds ?, ?, ?
      And bob holds 3 cards
      And the draw pile has 48 cards

    @rule:DUT-BASE-1
    Scenario: three players leave 42 cards in the draw pile
      Given a dutch game with players ann, bob, cat
      Then ann holds 4 cards
      And bob holds 4 cards
      And cat holds 4 cards
      And the draw pile has 42 cards
      And the phase is initial_peek

    @rule:DUT-BASE-2
    Scenario: ann peeks at two of her own cards, privately
      Given a dutch game with players ann, bob
      And ann holds 7S, KH, 3D, QC
      And bob holds 4H, 8H, 2S, 6D
      When ann does initial_peek 0 and 2
      Then only ann sees private_initial_peek with cards.0 7S and cards.1 3D
      And everyone sees player_initial_peek with user ann
      And ann knows 7S
      And ann knows 3D
      And ann does not know KH
      And bob does not know 7S
      And bob does not know 3D
      And ann's peeked is true
      And the phase is initial_peek

    @rule:DUT-BASE-2
    Scenario: ann cannot peek a second time
      Given a dutch game with players ann, bob
      And ann holds 7S, KH, 3D, QC
      And ann did initial_peek slot 0 and slot 1
      When ann does initial_peek 2 and 3
      Then the action is rejected with "you have already peeked"
      And ann does not know 3D
      And ann does not know QC

    @rule:DUT-BASE-2 @rule:DUT-SEL-1
    Scenario: the initial peek ends at once when both players have peeked
      Given a dutch game with players ann, bob
      And ann holds 7S, KH, 3D, QC
      And bob holds 4H, 8H, 2S, 6D
      And ann did initial_peek 0 and 1
      When bob does initial_peek 0 and 1
      Then the phase is drawing_card
      And everyone sees player_collection_rank with user ann
      And everyone sees player_collection_rank with user bob

    @rule:DUT-BASE-2 @rule:DUT-SEL-2
    Scenario: when the peek's time runs out bob, who did not peek, is shown slots 0 and 1
      Given a dutch game with players ann, bob
      And ann holds 7S, KH, 3D, QC
      And bob holds 4H, 8H, 2S, 6D
      And ann did initial_peek 2 and 3
      When time runs out
      Then only bob sees private_initial_peek with cards.0 4H and cards.1 8H
      And bob knows 4H
      And bob knows 8H
      And bob does not know 2S
      And the phase is drawing_card
      And ann's collection_rank is 3
      And bob's collection_rank is 4

  Rule: Dutch is Recall with clear_and_collect on

    @rule:DUT-MODE-1 @rule:DUT-SEL-8
    Scenario: with the default house rules ann and bob get collection ranks
      Given a dutch game with players ann, bob
      And ann holds 7S, 3D, 9C, QC
      And bob holds 4H, 8H, 2S, 6D
      And it is ann's turn
      Then ann's collection_rank is 3
      And bob's collection_rank is 4

    @rule:DUT-SEL-10
    Scenario: nobody has a collection rank during the initial peek
      Given a dutch game with players ann, bob
      And ann holds 7S, 3D, 9C, QC
      And bob holds 4H, 8H, 2S, 6D
      And ann did initial_peek 0 and 1
      Then the phase is initial_peek
      And ann's collection_rank is none
      And bob's collection_rank is none
      And ann does not see player_collection_rank

    @rule:DUT-MODE-2
    Scenario: with clear_and_collect false nobody gets a collection rank
      Given a dutch game with players ann, bob
      And the house rule clear_and_collect is false
      And ann holds 3D, 9C, 5H, 6H
      And bob holds 4H, 8H, 2S, 6D
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      Then ann's collection_rank is none
      And bob's collection_rank is none
      And ann does not see player_collection_rank
      And bob does not know 3D

    @rule:DUT-MODE-2
    Scenario: with clear_and_collect false ann may play the card that would be her collection card
      Given a dutch game with players ann, bob
      And the house rule clear_and_collect is false
      And ann holds 3D, 9C, 5H, 6H
      And bob holds 4H, 8H, 2S, 6D
      And the draw pile is 8C
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      And it is ann's turn
      And ann did draw
      When ann does play 0
      Then the discard pile is 3D
      And ann holds 8C, 9C, 5H, 6H
      And the phase is same_rank_window

    @rule:DUT-MODE-3
    Scenario: with clear_and_collect false ann cannot collect from the discard pile, in the peek or in her turn
      Given a dutch game with players ann, bob
      And the house rule clear_and_collect is false
      And ann holds 3D, 9C, 5H, 6H
      And bob holds 4H, 8H, 2S, 6D
      And the discard pile is 3S
      When ann does collect_discard
      Then the action is rejected with "collecting needs house rule clear_and_collect"
      When ann does initial_peek 0 and 1
      And bob does initial_peek 0 and 1
      Then the phase is drawing_card
      When ann does collect_discard
      Then the action is rejected with "collecting needs house rule clear_and_collect"
      And the discard pile is 3S
      And ann holds 3D, 9C, 5H, 6H

    @rule:DUT-MODE-3
    Scenario: with clear_and_collect false ann cannot collect the card she drew
      Given a dutch game with players ann, bob
      And the house rule clear_and_collect is false
      And ann holds 3D, 9C, 5H, 6H
      And bob holds 4H, 8H, 2S, 6D
      And the draw pile is 3S
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      And it is ann's turn
      And ann did draw
      When ann does collect
      Then the action is rejected with "collecting needs house rule clear_and_collect"
      And ann holds 3D, 9C, 5H, 6H
      And the phase is playing_card
