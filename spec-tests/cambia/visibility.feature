@cambia
Feature: Who sees what
  "Socket command actions", section "Game/Turns"; deckspec rulings "Cambia: Visibility": player_*
  and game_* messages go to everyone, private_* only to the named player, and no broadcast shows a
  face-down card.

  Background:
    Given a cambia game with players ann, bob, cat
    And ann holds 7S, KH, 3D, QD
    And bob holds 4H, 6D, 2S, 8H
    And cat holds 5S, 9D, JH, AC
    And it is ann's turn

  @rule:CAM-VIS-1 @rule:CAM-DRAW-3
  Scenario: the drawn card goes privately to ann, the draw itself to everyone
    Given the draw pile is 5C
    When ann does draw_stockpile
    Then only ann sees private_draw_stockpile with card 5C
    And bob does not see private_draw_stockpile
    And cat does not see private_draw_stockpile
    And everyone sees player_draw_stockpile with user ann and card 5C
    And bob does not know 5C
    And cat does not know 5C

  @rule:CAM-VIS-1
  Scenario: a peek result goes privately to the peeker, the peek itself to everyone
    Given the draw pile is 9C
    And ann did draw_stockpile
    And ann did discard
    When ann does special peek_other cat's slot 2
    Then only ann sees private_special_action_success with card JH
    And everyone sees player_special_action with user ann and special peek_other and card JH
    And ann knows JH
    And bob does not know JH
    And cat does not know JH

  @rule:CAM-VIS-2
  Scenario: bob sees ann's drawn card without its face
    Given the draw pile is 5C
    When ann does draw_stockpile
    Then bob receives:
      """
      {"type": "player_draw_stockpile", "user": {"id": "ann"}, "card": {"id": "{5C}"}}
      """
    And bob does not know 5C

  @rule:CAM-VIS-2 @rule:CAM-REPL-3
  Scenario: a card replaced into ann's hand stays unknown to the others
    Given the draw pile is 5C
    And ann did draw_stockpile
    When ann does replace slot 0
    Then ann holds 5C, KH, 3D, QD
    And bob does not know 5C
    And cat does not know 5C
    And bob does not know ann's slot 0
    And bob knows 7S
    And cat knows 7S

  @rule:CAM-VIS-3 @rule:CAM-DISC-1
  Scenario: a discarded card becomes known to everyone
    Given the draw pile is 5C
    And ann did draw_stockpile
    When ann does discard
    Then bob knows 5C
    And cat knows 5C
    And everyone sees player_discard with user ann and card 5C and card.suit Clubs

  @rule:CAM-VIS-3 @rule:CAM-SNAP-5
  Scenario: a failed snap shows the card to every player
    Given the discard pile is 4S
    When cat does snap 9D
    Then everyone sees player_snap_fail with user cat and card 9D
    And ann knows 9D
    And bob knows 9D
    And ann knows cat's slot 1

  @rule:CAM-EVT-3 @rule:CAM-SPEC-2
  Scenario: a Jack's power is spelled swap_blind in the offer and in the action
    Given the draw pile is JC
    And ann did draw_stockpile
    When ann does discard
    Then everyone sees player_special_choice with user ann and special swap_blind
    When ann does special swap_blind bob's slot 3 and cat's slot 3
    Then everyone sees player_special_action with user ann and special swap_blind
    And bob holds 4H, 6D, 2S, AC
    And cat holds 5S, 9D, JH, 8H

  @rule:CAM-EVT-3 @rule:CAM-KING-1
  Scenario: a King's power is spelled swap_peek, then swap_peek_reveal and swap_peek_swap
    Given the draw pile is KC
    And ann did draw_stockpile
    When ann does discard
    Then everyone sees player_special_choice with user ann and special swap_peek
    When ann does special swap_peek bob's slot 3 and cat's slot 3
    Then everyone sees player_special_action with user ann and special swap_peek_reveal
    When ann does special swap_peek_swap
    Then everyone sees player_special_action with user ann and special swap_peek_swap
    And bob holds 4H, 6D, 2S, AC
    And cat holds 5S, 9D, JH, 8H
    And ann knows AC
    And ann knows 8H

  @rule:CAM-EVT-2 @rule:CAM-VIS-1
  Scenario: every player is told who took the penalty cards, in the field player
    Given the discard pile is 4S
    And the draw pile is QS, 5D
    When cat does snap 9D
    Then everyone sees player_snap_penalty 2 times
    And everyone sees player_snap_penalty with player cat
    And only cat sees private_snap_penalty 2 times
    And bob receives:
      """
      {"type": "player_snap_penalty", "player": {"id": "cat"}, "card": {"id": "{QS}"}}
      """
