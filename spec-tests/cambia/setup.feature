@cambia
Feature: Deck, deal and the first turn
  "Socket command actions"; deckspec rulings "Cambia: Deck" and "Cambia: Deal": 54 cards, four face
  down each, slots 0 and 1 seen privately, an empty discard pile and a seeded first player.

  @rule:CAM-DECK-1 @rule:CAM-DEAL-1
  Scenario: two players leave 46 of the 54 cards in the stockpile
    Given a cambia game with players ann, bob
    Then ann holds 4 cards
    And bob holds 4 cards
    And the draw pile has 46 cards

  @rule:CAM-DECK-1 @rule:CAM-DEAL-1
  Scenario: four players leave 38 of the 54 cards in the stockpile
    Given a cambia game with players ann, bob, cat, dan
    Then ann holds 4 cards
    And bob holds 4 cards
    And cat holds 4 cards
    And dan holds 4 cards
    And the draw pile has 38 cards

  @rule:CAM-DECK-1 @rule:CAM-VAL-1
  Scenario: a joker can be dealt by default
    Given a cambia game with players ann, bob
    And ann holds JK, 7S, KH, 3D
    Then ann's slot 0 is JK
    And ann's score is 9

  @rule:CAM-DECK-2
  Scenario: without jokers the stockpile holds 44 cards after the deal
    Given a cambia game with players ann, bob
    And the house rule use_jokers is false
    Then the draw pile has 44 cards
    And ann holds 4 cards

  @rule:CAM-DEAL-1
  Scenario: the dealt cards fill slots 0 to 3 of every hand
    Given a cambia game with players ann, bob, cat
    Then ann holds ?, ?, ?, ?
    And bob holds ?, ?, ?, ?
    And cat holds ?, ?, ?, ?
    And the draw pile has 42 cards

  @rule:CAM-DEAL-9
  Scenario: twelve players are dealt four cards each and leave a stockpile
    Given a cambia game with players a, b, c, d, e, f, g, h, i, j, k, l
    And the house rule use_jokers is false
    Then a holds 4 cards
    And l holds 4 cards
    And the draw pile has 4 cards

  @rule:CAM-DEAL-9
  Scenario: thirteen players are too many
    Given a cambia game with players a, b, c, d, e, f, g, h, i, j, k, l, m
    Then the setup is rejected with "at most 12 players"

  @rule:CAM-DEAL-8
  Scenario: with hand_size 2 each player is dealt two cards, into slots 0 and 1
    Given a cambia game with players ann, bob
    And the house rule hand_size is 2
    Then ann holds ?, ?
    And bob holds 2 cards
    And the draw pile has 50 cards
    And ann knows ann's slot 1

  @rule:CAM-DEAL-8 @rule:CAM-VAL-3
  Scenario: a reduced deck deals only its own cards
    Given a cambia game with players ann, bob
    And the house rule hand_size is 2
    And the deck is AS, 7H, 9C, JD, KS, KH
    And ann holds KH, 7H
    Then the draw pile has 2 cards
    And ann's score is 6
    And bob holds 2 cards

  @rule:CAM-DEAL-2
  Scenario: each player knows slots 0 and 1 of their own hand and nothing else
    Given a cambia game with players ann, bob
    And ann holds 7S, KH, 3D, QD
    And bob holds 4H, 6D, 2S, 8H
    Then ann knows 7S
    And ann knows KH
    And ann does not know 3D
    And ann does not know QD
    And bob knows 4H
    And bob knows 6D
    And bob does not know 2S
    And bob does not know 8H
    And bob does not know 7S
    And bob does not know KH
    And ann does not know 4H
    And ann does not know bob's slot 1

  @rule:CAM-DEAL-3
  Scenario: house rule initial_peek_slots shows the last two slots instead
    Given a cambia game with players ann, bob
    And the house rule initial_peek_slots is [2, 3]
    And ann holds 7S, KH, 3D, QD
    Then ann knows 3D
    And ann knows QD
    And ann does not know 7S
    And ann does not know KH

  @rule:CAM-DEAL-7
  Scenario: house rule initial_peek_slots naming slot 4 shows only the card in slot 0
    Given a cambia game with players ann, bob
    And the house rule initial_peek_slots is [0, 4]
    And ann holds 7S, KH, 3D, QD
    Then ann knows 7S
    And ann does not know KH
    And ann does not know 3D
    And ann does not know QD
    And ann holds 4 cards
    And the draw pile has 46 cards
    And ann receives:
      """
      {
        "type": "private_initial_cards",
        "cards": [
          {"id": "{7S}", "rank": "7", "suit": "Spades", "value": 7, "idx": 0}
        ]
      }
      """
    And the phase is awaiting_draw

  @rule:CAM-DEAL-4 @rule:CAM-VIS-1
  Scenario: the initial cards arrive privately in private_initial_cards
    Given a cambia game with players ann, bob
    And ann holds 7S, KH, 3D, QD
    Then ann receives:
      """
      {
        "type": "private_initial_cards",
        "cards": [
          {"id": "{7S}", "rank": "7", "suit": "Spades", "value": 7, "idx": 0},
          {"id": "{KH}", "rank": "King", "suit": "Hearts", "value": -1, "idx": 1}
        ]
      }
      """
    And bob does not know 7S
    And bob does not know KH

  @rule:CAM-DEAL-5
  Scenario: no card is turned face up at the start
    Given a cambia game with players ann, bob
    Then the discard pile is empty

  @rule:CAM-DEAL-6 @rule:CAM-TURN-4
  Scenario: the seeded first turn starts waiting for a draw and is announced to all
    Given a cambia game with players ann, bob, cat
    And the seed is 7
    Then the phase is awaiting_draw
    And the game is not over
    And everyone sees game_player_turn
