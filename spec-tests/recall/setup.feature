@recall
Feature: Deck, points and the deal
  "Recall Card Game Rules", sections "Game Setup" and "Card Points System"; deckspec rulings
  "Recall: Deck", "Recall: Points" and "Recall: Deal": 54 cards, four face down each, an empty
  discard pile; a joker is worth 0, an Ace 1, 2 to 10 their face value, Queens, Jacks and black
  Kings 10, red Kings 0.

  Rule: the deck and the deal

    @rule:REC-DECK-1 @rule:REC-DEAL-1
    Scenario: two players leave 46 of the 54 cards in the draw pile
      Given a recall game with players ann, bob
      Then ann holds ?, ?, ?, ?
      And bob holds ?, ?, ?, ?
      And the draw pile has 46 cards

    @rule:REC-DECK-1 @rule:REC-DEAL-1
    Scenario: four players leave 38 of the 54 cards in the draw pile
      Given a recall game with players ann, bob, cat, dan
      Then ann holds 4 cards
      And bob holds 4 cards
      And cat holds 4 cards
      And dan holds 4 cards
      And the draw pile has 38 cards

    @rule:REC-DEAL-4
    Scenario: with hand_size 2 each player is dealt two cards, into slots 0 and 1
      Given a recall game with players ann, bob
      And the house rule hand_size is 2
      Then ann holds ?, ?
      And bob holds 2 cards
      And the draw pile has 50 cards
      And the phase is initial_peek

    @rule:REC-DEAL-4
    Scenario: a reduced deck deals only its own cards, and the peek looks at both
      Given a recall game with players ann, bob
      And the house rule hand_size is 2
      And the deck is AS, 7H, 9C, JD, KS, KH
      And ann holds KH, 7H
      When ann does initial_peek slot 0 and slot 1
      Then the draw pile has 2 cards
      And ann knows KH
      And ann knows 7H
      And ann's score is 7

    @rule:REC-DECK-1 @rule:REC-PTS-1
    Scenario: a joker can be dealt and is worth nothing
      Given a recall game with players ann, bob
      And ann holds JK, 7S, 2H, 3D
      Then ann's slot 0 is JK
      And ann's score is 12

    @rule:REC-DEAL-2 @rule:REC-PEEK-1
    Scenario: right after the deal nobody knows any card, their own included
      Given a recall game with players ann, bob
      And ann holds 7S, KH, 3D, QC
      And bob holds 4H, 6D, 2S, 8H
      Then the phase is initial_peek
      And ann does not know 7S
      And ann does not know KH
      And ann does not know 3D
      And ann does not know QC
      And bob does not know 4H
      And bob does not know 6D
      And bob does not know 7S
      And ann does not know bob's slot 0

    @rule:REC-DEAL-3
    Scenario: the discard pile starts empty and stays empty through the initial peek
      Given a recall game with players ann, bob
      Then the discard pile is empty
      When time runs out
      Then the discard pile is empty
      And the phase is drawing_card

  Rule: points

    @rule:REC-PTS-2
    Scenario: an Ace is worth 1 and the number cards their face value
      Given a recall game with players ann, bob
      And ann holds AS, 5H, 9C, 10D
      Then ann's score is 25

    @rule:REC-PTS-3
    Scenario: Queens and Jacks are worth 10 each
      Given a recall game with players ann, bob
      And ann holds QS, QH, JD, JC
      Then ann's score is 40

    @rule:REC-PTS-4
    Scenario: black Kings are worth 10, red Kings nothing
      Given a recall game with players ann, bob
      And ann holds KS, KC, KH, KD
      Then ann's score is 20

    @rule:REC-PTS-4 @rule:REC-PTS-1
    Scenario: two red Kings and a joker make a hand worth 1 with an Ace
      Given a recall game with players ann, bob
      And ann holds KH, JK, KD, AC
      Then ann's score is 1

    @rule:REC-PTS-5
    Scenario: an empty slot counts nothing
      Given a recall game with players ann, bob
      And ann holds 5S, _, 3H, _
      Then ann holds 2 cards
      And ann's score is 8
