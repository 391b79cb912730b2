@check
Feature: Who sees what
  "Game Rules & Mechanics (Authoritative Overview)", sections "4. Setup" and "6. Gameplay - Player
  Turns": cards are face down unless an action shows them. player_* and game_* events go to
  everyone, private_* only to the named player, and no event shows a face-down card to a player who
  does not know it.

  Background:
    Given a check game with players ann, bob, cat
    And ann holds 7S, KH, 3D, QC
    And bob holds 4H, 6D, 2S, 8H
    And cat holds 5S, 9D, JH, AC
    And it is ann's turn

  @rule:CHK-VIS-2 @rule:CHK-DRAW-1
  Scenario: only ann knows the card she drew
    Given the draw pile is 5C
    When ann does draw_from_deck
    Then ann knows 5C
    And bob does not know 5C
    And cat does not know 5C

  @rule:CHK-VIS-2 @rule:CHK-SWAP-1
  Scenario: a card swapped into ann's grid stays unknown to the others
    Given the draw pile is 5C
    And ann did draw_from_deck
    When ann does swap_and_discard slot 1
    Then ann holds 7S, 5C, 3D, QC
    And bob does not know 5C
    And cat does not know ann's slot 1
    And bob knows KH
    And cat knows KH

  @rule:CHK-VIS-3 @rule:CHK-DISC-1
  Scenario: a discarded card becomes known to everyone
    Given the draw pile is 5C
    And ann did draw_from_deck
    When ann does discard_drawn_card
    Then bob knows 5C
    And cat knows 5C
    And everyone sees game_matching_stage with card 5C and card.rank 5

  @rule:CHK-VIS-1 @rule:CHK-ABIL-6
  Scenario: a peek result goes privately to the peeker, the peek itself to everyone
    Given the draw pile is QD
    And ann did draw_from_deck
    And ann did discard_drawn_card
    And ann did pass_match
    And bob did pass_match
    And cat did pass_match
    When ann does ability_peek cat's slot 1
    Then only ann sees private_ability_peek
    And everyone sees player_ability_peek with user ann
    And ann knows 9D
    And bob does not know 9D
    And cat does not know 9D

  @rule:CHK-VIS-2 @rule:CHK-ABIL-7
  Scenario: a swap shows no card to anyone
    Given the draw pile is JD
    And ann did draw_from_deck
    And ann did discard_drawn_card
    And ann did pass_match
    And bob did pass_match
    And cat did pass_match
    When ann does ability_swap bob's slot 0 and cat's slot 1
    Then bob holds 9D, 6D, 2S, 8H
    And cat holds 5S, 4H, JH, AC
    And ann does not know 4H
    And ann does not know 9D
    And bob does not know 9D
    And cat does not know 4H
    And cat receives:
      """
      {"type": "player_ability_swap", "user": {"id": "ann"}, "card1": {"id": "{4H}"}, "card2": {"id": "{9D}"}}
      """

  @rule:CHK-VIS-1 @rule:CHK-PEN-3
  Scenario: the penalty card is announced to all, privately to cat, and shown to nobody
    Given the draw pile is 7H, QS
    And ann did draw_from_deck
    And ann did discard_drawn_card
    When cat does attempt_match 5S
    Then everyone sees player_penalty with user cat
    And only cat sees private_penalty
    And ann does not know QS
    And bob does not know QS
    And cat does not know QS
    And cat holds 5S, 9D, JH, AC, QS
