@dutch
Feature: Card points and the score
  "Collection Cards Verification - Dutch Game", sections "Points Calculation Details" and "1.
  Collection Cards Points in Total Hand"; deckspec rulings "Dutch": Joker 0, Ace 1, 2-10 face value,
  Queen and Jack 10, black Kings and the King of diamonds 10, only the King of hearts 0. The score
  is the sum over the whole hand, collection cards included at their full points.

  Rule: each card is worth its points

    @rule:DUT-PTS-1
    Scenario: a joker is worth 0 and Aces 1 each
      Given a dutch game with players ann, bob
      And ann holds JK, AS, AD, AH
      Then ann's score is 3

    @rule:DUT-PTS-2
    Scenario: the cards 2 to 10 are worth their face value
      Given a dutch game with players ann, bob
      And ann holds 2S, 5D, 9C, 10H
      Then ann's score is 26

    @rule:DUT-PTS-3
    Scenario: Queens and Jacks are worth 10 each
      Given a dutch game with players ann, bob
      And ann holds QS, QD, JC, JH
      Then ann's score is 40

    @rule:DUT-PTS-4
    Scenario: of the four Kings only the King of hearts is worth 0
      Given a dutch game with players ann, bob
      And ann holds KH, KD, KS, KC
      Then ann's score is 30

    @rule:DUT-PTS-4
    Scenario: the King of diamonds is not a red King worth 0
      Given a dutch game with players ann, bob
      And ann holds KH, 2C, 3C, 4C
      And bob holds KD, 2D, 3D, 4D
      Then ann's score is 9
      And bob's score is 19

  Rule: the score is the sum of the hand

    @rule:DUT-PTS-5
    Scenario: an empty slot counts nothing
      Given a dutch game with players ann, bob
      And ann holds 7S, _, 3D, QC
      Then ann's score is 20
      And ann holds 3 cards

    @rule:DUT-PTS-5
    Scenario: the played card leaves the score and the drawn card joins it
      Given a dutch game with players ann, bob
      And ann holds 3D, 9C, 5H, 6H
      And bob holds 4H, 8H, 2S, 6D
      And the draw pile is 2C
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      And it is ann's turn
      And ann did draw
      When ann does play 1
      Then ann holds 3D, 2C, 5H, 6H
      And ann's score is 16

    @rule:DUT-COLL-3 @rule:DUT-PTS-5
    Scenario: ann's collection card counts in her score
      Given a dutch game with players ann, bob
      And ann holds 9C, 8D, 2S, 3S
      And bob holds 4H, 8H, 5S, 6D
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      Then ann's collection_rank is 8
      And ann's score is 22

    @rule:DUT-COLL-3
    Scenario: a collected 10 adds its full 10 points
      Given a dutch game with players ann, bob
      And ann holds 10S, JC, 2D, 4D
      And bob holds 4H, 8H, 5S, 6D
      And the draw pile is 10H
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      And it is ann's turn
      And ann did draw
      Then ann's collection_rank is 10
      And ann's score is 26
      When ann does collect
      Then ann holds 10S, JC, 2D, 4D, 10H
      And ann's score is 36
