@cambia
Feature: Special powers of 7 to Queen
  "Socket command actions", section "Special Card Discard Actions"; deckspec rulings "Cambia:
  Specials": a 7 to King drawn from the stockpile and discarded offers its power; peeks show one
  card to the actor only, and the blind swap exchanges two cards unseen.

  Rule: a 7 to King drawn from the stockpile and discarded offers its power

    Background:
      Given a cambia game with players ann, bob
      And ann holds 7S, KH, 3D, QD
      And bob holds 4H, 6D, 2S, 8H
      And it is ann's turn

    @rule:CAM-SPEC-1 @rule:CAM-SPEC-2
    Scenario Outline: a <card> drawn from the stockpile and discarded offers <special>
      Given the draw pile is <card>
      And ann did draw_stockpile
      When ann does discard
      Then everyone sees player_special_choice with user ann and card <card> and special <special>
      And the phase is awaiting_special
      And it is ann's turn
      And the discard pile top is <card>

      Examples:
        | card | special    |
        | 7C   | peek_self  |
        | 8C   | peek_self  |
        | 9C   | peek_other |
        | 10C  | peek_other |
        | JC   | swap_blind |
        | QC   | swap_blind |
        | KC   | swap_peek  |
        | KD   | swap_peek  |

    @rule:CAM-SPEC-1 @rule:CAM-EVT-1
    Scenario: the offer shows bob the discarded card and the power
      Given the draw pile is 9C
      And ann did draw_stockpile
      When ann does discard
      Then bob receives:
        """
        {
          "type": "player_special_choice",
          "user": {"id": "ann"},
          "card": {"id": "{9C}", "rank": "9"},
          "special": "peek_other"
        }
        """

    @rule:CAM-SPEC-3 @rule:CAM-DISC-2
    Scenario: a 9 taken from the discard pile and discarded again offers nothing
      Given the house rule allow_draw_from_discard_pile is true
      And the discard pile is 9C, 4S
      And ann did draw_discardpile
      When ann does discard
      Then ann does not see player_special_choice
      And the discard pile is 9C, 4S
      And it is bob's turn
      And the phase is awaiting_draw

    @rule:CAM-SPEC-4
    Scenario: skipping the power ends the turn without showing anything
      Given the draw pile is 8C
      And ann did draw_stockpile
      And ann did discard
      When ann does special skip
      Then everyone sees player_special_action with user ann and special skip
      And it is bob's turn
      And the phase is awaiting_draw
      And ann does not know 3D

  Rule: peek_self and peek_other show one card to the actor only

    Background:
      Given a cambia game with players ann, bob
      And ann holds 7S, KH, 3D, QD
      And bob holds 4H, 6D, 2S, 8H
      And it is ann's turn

    @rule:CAM-SPEC-5
    Scenario: an 8 lets ann look at her own slot 2
      Given the draw pile is 8C
      And ann did draw_stockpile
      And ann did discard
      When ann does special peek_self slot 2
      Then only ann sees private_special_action_success with special peek_self and card 3D and card.idx 2
      And everyone sees player_special_action with user ann and special peek_self and card 3D
      And ann knows 3D
      And it is bob's turn
      And the phase is awaiting_draw

    @rule:CAM-SPEC-5 @rule:CAM-VAL-5
    Scenario: ann is shown the peeked card with its face and slot
      Given the draw pile is 7C
      And ann did draw_stockpile
      And ann did discard
      When ann does special peek_self slot 3
      Then ann receives:
        """
        {
          "type": "private_special_action_success",
          "special": "peek_self",
          "card": {"id": "{QD}", "rank": "Queen", "suit": "Diamonds", "value": 12, "idx": 3}
        }
        """

    @rule:CAM-SPEC-5 @rule:CAM-VIS-2
    Scenario: bob only learns which of ann's cards was peeked at
      Given the draw pile is 8C
      And ann did draw_stockpile
      And ann did discard
      When ann does special peek_self slot 2
      Then bob receives:
        """
        {
          "type": "player_special_action",
          "user": {"id": "ann"},
          "special": "peek_self",
          "card": {"id": "{3D}", "idx": 2, "user": {"id": "ann"}}
        }
        """
      And bob does not know 3D

    @rule:CAM-SPEC-7
    Scenario: a 9 lets ann look at bob's slot 2, which bob himself has not seen
      Given the draw pile is 9C
      And ann did draw_stockpile
      And ann did discard
      When ann does special peek_other bob's slot 2
      Then only ann sees private_special_action_success with special peek_other and card 2S and card.idx 2
      And everyone sees player_special_action with user ann and special peek_other and card 2S and card.idx 2
      And ann knows 2S
      And ann knows bob's slot 2
      And bob does not know 2S
      And it is bob's turn

    @rule:CAM-SPEC-7 @rule:CAM-VIS-2
    Scenario: bob is told which of his cards ann looked at, not what it is
      Given the draw pile is 10C
      And ann did draw_stockpile
      And ann did discard
      When ann does special peek_other bob's slot 3
      Then bob receives:
        """
        {
          "type": "player_special_action",
          "user": {"id": "ann"},
          "special": "peek_other",
          "card": {"id": "{8H}", "idx": 3, "user": {"id": "bob"}}
        }
        """
      And bob does not know 8H
      And ann knows 8H

  Rule: swap_blind exchanges any two cards unseen

    Background:
      Given a cambia game with players ann, bob
      And ann holds 7S, KH, 3D, QD
      And bob holds 4H, 6D, 2S, 8H
      And it is ann's turn

    @rule:CAM-SPEC-9
    Scenario: a Jack swaps ann's slot 2 with bob's slot 2
      Given the draw pile is JC
      And ann did draw_stockpile
      And ann did discard
      When ann does special swap_blind ann's slot 2 and bob's slot 2
      Then ann holds 7S, KH, 2S, QD
      And bob holds 4H, 6D, 3D, 8H
      And everyone sees player_special_action with user ann and special swap_blind
      And it is bob's turn

    @rule:CAM-SPEC-9
    Scenario: a Queen swaps two cards of ann's own hand
      Given the draw pile is QC
      And ann did draw_stockpile
      And ann did discard
      When ann does special swap_blind ann's slot 0 and ann's slot 3
      Then ann holds QD, KH, 3D, 7S
      And bob holds 4H, 6D, 2S, 8H
      And it is bob's turn

    @rule:CAM-SPEC-9 @rule:CAM-VIS-2
    Scenario: bob is told which two cards were swapped, by id and slot only
      Given the draw pile is JC
      And ann did draw_stockpile
      And ann did discard
      When ann does special swap_blind ann's slot 0 and bob's slot 0
      Then bob receives:
        """
        {
          "type": "player_special_action",
          "user": {"id": "ann"},
          "special": "swap_blind",
          "card1": {"id": "{7S}", "idx": 0},
          "card2": {"id": "{4H}", "idx": 0}
        }
        """

    @rule:CAM-SPEC-10
    Scenario: what each player knew moves with the swapped cards
      Given the draw pile is JC
      And ann did draw_stockpile
      And ann did discard
      When ann does special swap_blind ann's slot 0 and bob's slot 0
      Then ann holds 4H, KH, 3D, QD
      And bob holds 7S, 6D, 2S, 8H
      And ann knows bob's slot 0
      And ann does not know ann's slot 0
      And ann does not know 4H
      And bob knows ann's slot 0
      And bob does not know bob's slot 0
      And bob does not know 7S

  Rule: with three players a power can reach any of them

    Background:
      Given a cambia game with players ann, bob, cat
      And ann holds 7S, KH, 3D, QD
      And bob holds 4H, 6D, 2S, 8H
      And cat holds 5S, 9D, JH, AC
      And it is ann's turn

    @rule:CAM-SPEC-7
    Scenario: a 10 lets ann look at cat's slot 3 and nobody else learns it
      Given the draw pile is 10C
      And ann did draw_stockpile
      And ann did discard
      When ann does special peek_other cat's slot 3
      Then ann knows AC
      And bob does not know AC
      And cat does not know AC
      And it is bob's turn

    @rule:CAM-SPEC-9
    Scenario: a Jack swaps a card of bob with a card of cat
      Given the draw pile is JC
      And ann did draw_stockpile
      And ann did discard
      When ann does special swap_blind bob's slot 0 and cat's slot 1
      Then bob holds 9D, 6D, 2S, 8H
      And cat holds 5S, 4H, JH, AC
      And ann holds 7S, KH, 3D, QD
      And it is bob's turn
