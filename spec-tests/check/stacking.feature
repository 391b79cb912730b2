@check
Feature: Stacked specials and the sealed discard pile
  "Game Rules & Mechanics (Authoritative Overview)", sections "7. Matching/Stacking Opportunity" and
  "8. Special Card Abilities"; deckspec rulings "Check: Abilities": a King, Queen or Jack matched on
  its rank stacks two abilities, resolved last in, first out: the matcher's first, then the original
  discarder's. A match seals the discard pile until the next turn begins.

  Background:
    Given a check game with players ann, bob, cat
    And ann holds 7S, KH, 3D, QC
    And bob holds 4H, KS, 2S, 8H
    And cat holds 5S, 9D, JH, AC
    And it is ann's turn

  Rule: the matcher resolves first, then the discarder

    @rule:CHK-STACK-1 @rule:CHK-SEAL-1
    Scenario: bob matches ann's King with his own; bob's King comes first
      Given the draw pile is KD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      When bob does attempt_match KS
      Then everyone sees player_match_success with user bob and card KS
      And everyone sees game_ability with user bob and ability king and source stack
      And the discard pile is KS, KD
      And bob holds 4H, _, 2S, 8H
      And the phase is ability_peek
      And it is ann's turn
      And the discard pile sealed is true

    @rule:CHK-STACK-1 @rule:CHK-SEAL-1
    Scenario: when bob is done, ann's King follows, the pile still sealed
      Given the draw pile is KD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And bob did attempt_match KS
      When bob does ability_skip
      And bob does ability_skip
      Then everyone sees game_ability with user ann and ability king and source stackSecondOfPair
      And the phase is ability_peek
      And it is ann's turn
      And the discard pile sealed is true

    @rule:CHK-STACK-2
    Scenario: ann cannot act while bob resolves the first King
      Given the draw pile is KD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And bob did attempt_match KS
      When ann does ability_peek cat's slot 0
      Then the action is rejected with "it is not your ability"
      When ann does ability_skip
      Then the action is rejected with "it is not your ability"
      And ann does not know 5S
      And the phase is ability_peek

    @rule:CHK-STACK-1 @rule:CHK-ABIL-10 @rule:CHK-SEAL-2
    Scenario: after both Kings the turn ends and the seal is lifted
      Given the draw pile is KD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And bob did attempt_match KS
      And bob did ability_skip
      And bob did ability_skip
      And ann did ability_skip
      When ann does ability_skip
      Then it is bob's turn
      And the phase is awaiting_draw
      And the discard pile sealed is false
      And everyone sees game_player_turn with user bob

    @rule:CHK-STACK-4 @rule:CHK-ABIL-6
    Scenario: bob's King peeks and swaps first, then ann's King sees the result
      Given the draw pile is KD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And bob did attempt_match KS
      And bob did ability_peek cat's slot 0
      And bob did ability_swap cat's slot 0 and ann's slot 2
      Then bob knows 5S
      And ann holds 7S, KH, 5S, QC
      And cat holds 3D, 9D, JH, AC
      And ann knows cat's slot 0
      And ann does not know ann's slot 2
      And bob knows ann's slot 2
      And ann does not know 5S
      And the phase is ability_peek
      When ann does ability_peek ann's slot 2
      Then only ann sees private_ability_peek with cards.0 5S
      And ann knows 5S

    @rule:CHK-STACK-1
    Scenario: two Jacks: cat's Jack swaps first, then ann's
      Given the draw pile is JD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      When cat does attempt_match JH
      Then everyone sees game_ability with user cat and ability jack and source stack
      And the phase is ability_swap
      When cat does ability_swap cat's slot 0 and bob's slot 0
      Then cat holds 4H, 9D, _, AC
      And bob holds 5S, KS, 2S, 8H
      And everyone sees game_ability with user ann and ability jack and source stackSecondOfPair
      And the phase is ability_swap
      When ann does ability_swap bob's slot 0 and cat's slot 0
      Then bob holds 4H, KS, 2S, 8H
      And cat holds 5S, 9D, _, AC
      And it is bob's turn

    @rule:CHK-STACK-3
    Scenario: ann matches her own Queen; both Queens are hers
      Given the draw pile is QD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      When ann does attempt_match QC
      Then everyone sees player_match_success with user ann and card QC
      And everyone sees game_ability with user ann and ability queen and source stack
      And ann holds 7S, KH, 3D, _
      And the phase is ability_peek
      When ann does ability_skip
      And ann does ability_skip
      Then everyone sees game_ability with user ann and ability queen and source stackSecondOfPair
      And the phase is ability_peek
      And it is ann's turn

  Rule: the sealed pile

    @rule:CHK-SEAL-1 @rule:CHK-DRAW-3
    Scenario: nothing can be taken from the sealed pile while the stack resolves
      Given the draw pile is KD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And bob did attempt_match KS
      When ann does draw_from_discard
      Then the action is rejected
      And the discard pile is KS, KD
      And the discard pile sealed is true

    @rule:CHK-SEAL-2 @rule:CHK-DISC-3
    Scenario: a 2 matched on a 2 seals the pile only until bob's turn begins
      Given the draw pile is 2D, 6C
      And ann did draw_from_deck
      And ann did discard_drawn_card
      When bob does attempt_match 2S
      Then everyone sees player_match_success with user bob and card 2S
      And it is bob's turn
      And the discard pile sealed is false
      When bob does draw_from_deck
      And bob does discard_drawn_card
      Then the discard pile sealed is false
      And the discard pile is 6C, 2S, 2D
