@check
Feature: Deck, deal and the first turn
  "Game Rules & Mechanics (Authoritative Overview)", sections "2. The Deck", "4. Setup" and "5. Card
  Layout and Hand Expansion"; deckspec rulings "Check: Deck" and "Check: Deal": 52 cards without
  jokers, four face down each in a 2x2 grid, the bottom row seen privately, an empty discard pile
  and a seeded first player.

  @rule:CHK-DECK-1 @rule:CHK-DEAL-1 @rule:CHK-DEAL-4
  Scenario: two players leave 44 of the 52 cards in the draw pile
    Given a check game with players ann, bob
    Then ann holds ?, ?, ?, ?
    And bob holds ?, ?, ?, ?
    And the draw pile has 44 cards
    And the discard pile is empty

  @rule:CHK-DECK-1 @rule:CHK-DEAL-1
  Scenario: four players leave 36 cards in the draw pile
    Given a check game with players ann, bob, cat, dan
    Then ann holds 4 cards
    And bob holds 4 cards
    And cat holds 4 cards
    And dan holds 4 cards
    And the draw pile has 36 cards

  @rule:CHK-DEAL-7
  Scenario: with hand_size 3 each player is dealt three cards, into slots 0 to 2
    Given a check game with players ann, bob
    And the house rule hand_size is 3
    Then ann holds ?, ?, ?
    And bob holds 3 cards
    And the draw pile has 46 cards
    And ann knows ann's slot 2

  @rule:CHK-DEAL-7
  Scenario: a reduced deck deals only its own cards
    Given a check game with players ann, bob
    And the house rule hand_size is 2
    And the deck is AH, 5C, 9D, QS, KC, 2D
    And ann holds AH, 5C
    Then the draw pile has 2 cards
    And ann's score is 4

  @rule:CHK-DEAL-2
  Scenario: each player knows the bottom row of their own grid and nothing else
    Given a check game with players ann, bob
    And ann holds 7S, KH, 3D, QC
    And bob holds 4H, 6D, 2S, 8H
    Then ann knows 3D
    And ann knows QC
    And ann knows slot 2
    And ann does not know 7S
    And ann does not know KH
    And bob knows 2S
    And bob knows 8H
    And bob does not know 4H
    And bob does not know 6D
    And bob does not know 3D
    And bob does not know QC
    And ann does not know 2S
    And ann does not know bob's slot 3

  @rule:CHK-DEAL-2 @rule:CHK-VIS-1
  Scenario: the bottom row is shown privately in private_initial_peek
    Given a check game with players ann, bob
    And ann holds 7S, KH, 3D, QC
    And bob holds 4H, 6D, 2S, 8H
    Then only ann sees private_initial_peek with cards.0 3D and cards.1 QC
    And only bob sees private_initial_peek with cards.0 2S and cards.1 8H
    And ann sees private_initial_peek 1 time
    And bob sees private_initial_peek 1 time

  @rule:CHK-DEAL-2
  Scenario: the initial peek shows ann her cards with their faces
    Given a check game with players ann, bob
    And ann holds 7S, KH, 3D, QC
    Then ann receives:
      """
      {
        "type": "private_initial_peek",
        "cards": [
          {"id": "{3D}", "rank": "3", "suit": "Diamonds", "value": 3},
          {"id": "{QC}", "rank": "Queen", "suit": "Clubs", "value": 12}
        ]
      }
      """

  @rule:CHK-DEAL-3
  Scenario: house rule initial_peek_slots shows the top row instead
    Given a check game with players ann, bob
    And the house rule initial_peek_slots is [0, 1]
    And ann holds 7S, KH, 3D, QC
    Then ann knows 7S
    And ann knows KH
    And ann does not know 3D
    And ann does not know QC
    And bob does not know 7S

  @rule:CHK-DEAL-6
  Scenario: house rule initial_peek_slots naming slot 5 shows only the card in slot 3
    Given a check game with players ann, bob
    And the house rule initial_peek_slots is [5, 3]
    And ann holds 7S, KH, 3D, QC
    Then ann knows QC
    And ann does not know 7S
    And ann does not know KH
    And ann does not know 3D
    And ann holds 4 cards
    And the draw pile has 44 cards
    And ann receives:
      """
      {
        "type": "private_initial_peek",
        "cards": [
          {"id": "{QC}", "rank": "Queen", "suit": "Clubs", "value": 12}
        ]
      }
      """
    And the phase is awaiting_draw

  @rule:CHK-DEAL-5 @rule:CHK-TURN-2
  Scenario: the seeded first turn starts waiting for a draw
    Given a check game with players ann, bob, cat
    And the seed is 7
    Then the phase is awaiting_draw
    And the game is not over
    And the final_turns is false
