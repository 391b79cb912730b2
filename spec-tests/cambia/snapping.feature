@cambia
Feature: Snapping
  "Socket command actions", section "Snap Action"; deckspec rulings "Cambia: Snap": at any time, any
  player may throw a card of the discard pile's top rank from their hand; a wrong card stays, is
  shown to all, and costs penalty cards that nobody sees.

  Background:
    Given a cambia game with players ann, bob
    And it is ann's turn

  Rule: a card of the top's rank goes on the discard pile

    @rule:CAM-SNAP-1
    Scenario: bob may snap during ann's turn, though he may not draw
      Given bob holds 3D, 9C, 4H, 2S
      And the discard pile is 3H
      Then bob may do snap 3D
      And bob may not do draw_stockpile
      And ann may do draw_stockpile

    @rule:CAM-SNAP-2 @rule:CAM-SNAP-1
    Scenario: bob snaps a 7 on a 7 during ann's turn
      Given bob holds 3D, 7C, 4H, 2S
      And the discard pile is 7H
      When bob does snap 7C
      Then everyone sees player_snap_success with user bob and card 7C and card.idx 1
      And the discard pile is 7C, 7H
      And bob holds 3D, 4H, 2S

    @rule:CAM-SNAP-2 @rule:CAM-VIS-3
    Scenario: the snapped card is shown to everyone with its face and former slot
      Given bob holds 3D, 7C, 4H, 2S
      And the discard pile is 7H
      When bob does snap 7C
      Then ann receives:
        """
        {
          "type": "player_snap_success",
          "user": {"id": "bob"},
          "card": {"id": "{7C}", "rank": "7", "suit": "Clubs", "value": 7, "idx": 1}
        }
        """
      And ann knows 7C

    @rule:CAM-SNAP-1
    Scenario: a card may be snapped by its slot
      Given bob holds 3D, 7C, 4H, 2S
      And the discard pile is 7H
      When bob does snap slot 1
      Then everyone sees player_snap_success with user bob and card 7C
      And the discard pile is 7C, 7H
      And bob holds 3D, 4H, 2S

    @rule:CAM-SNAP-2
    Scenario: the suit does not matter, a red King matches a black King
      Given bob holds 3D, KD, 4H, 2S
      And the discard pile is KS
      When bob does snap KD
      Then everyone sees player_snap_success with user bob and card KD
      And the discard pile is KD, KS

    @rule:CAM-SNAP-2
    Scenario: a snapped card becomes the top, so another card of its rank can follow
      Given ann holds 7S, KH, 3D, QD
      And bob holds 3C, 7C, 4H, 2S
      And the discard pile is 7H
      When bob does snap 7C
      And ann does snap 7S
      Then everyone sees player_snap_success with user ann and card 7S
      And the discard pile is 7S, 7C, 7H
      And ann holds KH, 3D, QD
      And bob holds 3C, 4H, 2S

    @rule:CAM-SNAP-1 @rule:CAM-SNAP-6
    Scenario: the current player may snap before drawing and still has to draw
      Given ann holds 7S, KH, 3D, QD
      And the discard pile is 7H
      When ann does snap 7S
      Then everyone sees player_snap_success with user ann and card 7S
      And ann holds KH, 3D, QD
      And it is ann's turn
      And the phase is awaiting_draw

    @rule:CAM-SNAP-1 @rule:CAM-SNAP-6
    Scenario: bob may snap while ann holds a drawn card
      Given ann holds 7S, KH, 3D, QD
      And bob holds 3C, 7C, 4H, 2S
      And the discard pile is 7H
      And the draw pile is 5C
      And ann did draw_stockpile
      When bob does snap 7C
      Then everyone sees player_snap_success with user bob and card 7C
      And the phase is awaiting_discard
      And it is ann's turn
      When ann does discard
      Then the discard pile is 5C, 7C, 7H

    @rule:CAM-SNAP-1 @rule:CAM-SNAP-6
    Scenario: bob may snap on the card ann just discarded while her power is on offer
      Given ann holds 7S, KH, 3D, QD
      And bob holds 4H, 6D, 2S, 8H
      And the draw pile is 8C
      And ann did draw_stockpile
      And ann did discard
      When bob does snap 8H
      Then everyone sees player_snap_success with user bob and card 8H
      And the discard pile top is 8H
      And bob holds 4H, 6D, 2S
      And the phase is awaiting_special
      And it is ann's turn

    @rule:CAM-SNAP-6
    Scenario: a successful snap does not pass the turn
      Given bob holds 3D, 7C, 4H, 2S
      And the discard pile is 7H
      When bob does snap 7C
      Then it is ann's turn
      And the phase is awaiting_draw
      And ann does not see game_player_turn

    @rule:CAM-SNAP-9
    Scenario: a snapped 7 offers no power
      Given bob holds 3D, 7C, 4H, 2S
      And the discard pile is 7H
      When bob does snap 7C
      Then ann does not see player_special_choice
      And bob does not see player_special_choice
      And the phase is awaiting_draw

  Rule: a card leaving a hand leaves no hole unless compact_hands is off

    @rule:CAM-SNAP-3
    Scenario: after a snap the later slots shift down
      Given bob holds 3D, 7C, 4H, 2S
      And the discard pile is 7H
      When bob does snap 7C
      Then bob holds 3 cards
      And bob's slot 1 is 4H
      And bob's slot 2 is 2S

    @rule:CAM-SNAP-4
    Scenario: with compact_hands off the snapped card's slot stays empty
      Given the house rule compact_hands is false
      And bob holds 3D, 7C, 4H, 2S
      And the discard pile is 7H
      When bob does snap 7C
      Then bob holds 3D, _, 4H, 2S
      And bob's slot 1 is empty
      And bob holds 3 cards

  Rule: a wrong card stays, is shown to all and costs penalty cards

    @rule:CAM-SNAP-5 @rule:CAM-PEN-1 @rule:CAM-PEN-4
    Scenario: bob snaps a card of the wrong rank
      Given bob holds 3D, 9C, 4H, 2S
      And the discard pile is 7H
      And the draw pile is QS, 5D, 6C
      When bob does snap 9C
      Then everyone sees player_snap_fail with user bob and card 9C and card.idx 1
      And the discard pile is 7H
      And bob holds 3D, 9C, 4H, 2S, QS, 5D
      And the draw pile top is 6C

    @rule:CAM-SNAP-5 @rule:CAM-VIS-3
    Scenario: the wrong card is shown to everyone
      Given bob holds 3D, 9C, 4H, 2S
      And the discard pile is 7H
      When bob does snap 9C
      Then ann receives:
        """
        {
          "type": "player_snap_fail",
          "user": {"id": "bob"},
          "card": {"id": "{9C}", "rank": "9", "suit": "Clubs", "value": 9, "idx": 1}
        }
        """
      And ann knows 9C
      And ann knows bob's slot 1

    @rule:CAM-SNAP-6 @rule:CAM-PEN-1
    Scenario: a wrong snap by the current player costs cards but not the turn
      Given ann holds 7S, KH, 3D, QD
      And the discard pile is 7H
      And the draw pile is QS, 5D, 6C
      When ann does snap 3D
      Then everyone sees player_snap_fail with user ann and card 3D
      And ann holds 7S, KH, 3D, QD, QS, 5D
      And it is ann's turn
      And the phase is awaiting_draw
      When ann does draw_stockpile
      Then only ann sees private_draw_stockpile with card 6C

    @rule:CAM-PEN-2 @rule:CAM-VIS-1
    Scenario: each penalty card is announced to all and sent privately to bob
      Given bob holds 3D, 9C, 4H, 2S
      And the discard pile is 7H
      And the draw pile is QS, 5D
      When bob does snap 9C
      Then everyone sees player_snap_penalty 2 times
      And only bob sees private_snap_penalty 2 times
      And everyone sees player_snap_penalty with player bob and card QS
      And everyone sees player_snap_penalty with player bob and card 5D

    @rule:CAM-PEN-2 @rule:CAM-EVT-2
    Scenario: penalty messages carry the card id, and the slot for bob
      Given bob holds 3D, 9C, 4H, 2S
      And the discard pile is 7H
      And the draw pile is QS, 5D
      When bob does snap 9C
      Then ann receives:
        """
        {"type": "player_snap_penalty", "player": {"id": "bob"}, "card": {"id": "{QS}"}}
        """
      And bob receives:
        """
        {"type": "private_snap_penalty", "card": {"id": "{QS}", "idx": 4}}
        """
      And bob receives:
        """
        {"type": "private_snap_penalty", "card": {"id": "{5D}", "idx": 5}}
        """

    @rule:CAM-PEN-3 @rule:CAM-VIS-2
    Scenario: nobody learns the penalty cards, not even bob
      Given bob holds 3D, 9C, 4H, 2S
      And the discard pile is 7H
      And the draw pile is QS, 5D
      When bob does snap 9C
      Then bob does not know QS
      And bob does not know 5D
      And bob does not know bob's slot 4
      And ann does not know QS
      And ann does not know 5D

    @rule:CAM-PEN-5
    Scenario: with penalty_draw_count 1 a wrong snap costs one card
      Given the house rule penalty_draw_count is 1
      And bob holds 3D, 9C, 4H, 2S
      And the discard pile is 7H
      And the draw pile is QS, 5D
      When bob does snap 9C
      Then bob holds 3D, 9C, 4H, 2S, QS
      And bob holds 5 cards
      And the draw pile top is 5D
      And everyone sees player_snap_penalty with player bob and card QS

    @rule:CAM-PEN-5
    Scenario: with penalty_draw_count 3 a wrong snap costs three cards
      Given the house rule penalty_draw_count is 3
      And bob holds 3D, 9C, 4H, 2S
      And the discard pile is 7H
      And the draw pile is QS, 5D, 6C
      When bob does snap 9C
      Then bob holds 3D, 9C, 4H, 2S, QS, 5D, 6C
      And everyone sees player_snap_penalty 3 times
