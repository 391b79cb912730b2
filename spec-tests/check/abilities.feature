@check
Feature: King, Queen and Jack abilities
  "Game Rules & Mechanics (Authoritative Overview)", section "8. Special Card Abilities"; deckspec
  rulings "Check: Abilities": a King, Queen or Jack discarded and not matched gives its discarder an
  ability. King: peek at up to two cards, then swap any two. Queen: peek at one, then swap. Jack:
  swap. Each stage can be skipped; peeks are private to the peeker, swaps show nothing.

  Background:
    Given a check game with players ann, bob, cat
    And ann holds 7S, KH, 3D, QC
    And bob holds 4H, 6D, 2S, 8H
    And cat holds 5S, 9D, JH, AC
    And it is ann's turn

  Rule: a King peeks at up to two cards, then swaps

    @rule:CHK-ABIL-1 @rule:CHK-KING-1
    Scenario: a discarded King nobody matches gives ann its ability
      Given the draw pile is KD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      When cat does pass_match
      Then everyone sees game_ability with user ann and ability king and source discard
      And the phase is ability_peek
      And it is ann's turn
      And the discard pile is KD

    @rule:CHK-KING-1 @rule:CHK-ABIL-6
    Scenario: ann peeks at a card of bob and a card of cat
      Given the draw pile is KD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      And cat did pass_match
      When ann does ability_peek bob's slot 0 and cat's slot 1
      Then only ann sees private_ability_peek with cards.0 4H and cards.1 9D
      And everyone sees player_ability_peek with user ann
      And ann knows 4H
      And ann knows 9D
      And bob does not know 4H
      And bob does not know 9D
      And cat does not know 9D
      And cat does not know 4H
      And the phase is ability_swap
      And it is ann's turn

    @rule:CHK-ABIL-6 @rule:CHK-VIS-2
    Scenario: bob is told which cards ann peeked at, not what they are
      Given the draw pile is KD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      And cat did pass_match
      When ann does ability_peek bob's slot 0 and cat's slot 1
      Then bob receives:
        """
        {
          "type": "player_ability_peek",
          "user": {"id": "ann"},
          "cards": [
            {"id": "{4H}", "idx": 0, "user": {"id": "bob"}},
            {"id": "{9D}", "idx": 1, "user": {"id": "cat"}}
          ]
        }
        """
      And everyone sees player_ability_peek with cards.0.idx 0 and cards.1.user cat
      And ann receives:
        """
        {"type": "private_ability_peek", "cards": [{"id": "{4H}", "rank": "4", "suit": "Hearts", "value": 4}, {"id": "{9D}", "rank": "9", "suit": "Diamonds", "value": 9}]}
        """

    @rule:CHK-KING-1
    Scenario: a King may peek at ann's own unknown card
      Given the draw pile is KD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      And cat did pass_match
      When ann does ability_peek ann's slot 0 and ann's slot 1
      Then only ann sees private_ability_peek with cards.0 7S and cards.1 KH
      And ann knows 7S
      And ann knows KH
      And bob does not know 7S
      And the phase is ability_swap

    @rule:CHK-KING-2
    Scenario: a King may peek at a single card
      Given the draw pile is KD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      And cat did pass_match
      When ann does ability_peek cat's slot 1
      Then only ann sees private_ability_peek with cards.0 9D
      And ann knows 9D
      And cat does not know 9D
      And bob does not know 9D
      And the phase is ability_swap

    @rule:CHK-KING-2
    Scenario: a King cannot peek at three cards
      Given the draw pile is KD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      And cat did pass_match
      When ann does ability_peek bob's slot 0 and bob's slot 1 and cat's slot 0
      Then the action is rejected
      And ann does not know 4H
      And ann does not know 6D
      And ann does not know 5S
      And the phase is ability_peek

    @rule:CHK-KING-2
    Scenario: a King cannot peek at no card
      Given the draw pile is KD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      And cat did pass_match
      When ann does ability_peek
      Then the action is rejected with "a king peeks at one or two cards"
      And the phase is ability_peek
      And ann does not see player_ability_peek

    @rule:CHK-KING-5
    Scenario: a King cannot peek at the same card twice
      Given the draw pile is KD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      And cat did pass_match
      When ann does ability_peek bob's slot 0 and bob's slot 0
      Then the action is rejected with "the two cards must differ"
      And ann does not know 4H
      And the phase is ability_peek

    @rule:CHK-ABIL-11
    Scenario: a King cannot peek at or swap the card on the discard pile
      Given the draw pile is KD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      And cat did pass_match
      When ann does ability_peek KD
      Then the action is rejected
      And the phase is ability_peek
      When ann does ability_skip
      And ann does ability_swap KD and bob's slot 0
      Then the action is rejected
      And the discard pile is KD
      And bob holds 4H, 6D, 2S, 8H
      And the phase is ability_swap

    @rule:CHK-KING-1 @rule:CHK-ABIL-7 @rule:CHK-ABIL-10
    Scenario: after the peek ann swaps her card with bob's and the turn ends
      Given the draw pile is KD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      And cat did pass_match
      And ann did ability_peek bob's slot 3
      When ann does ability_swap ann's slot 0 and bob's slot 3
      Then ann holds 8H, KH, 3D, QC
      And bob holds 4H, 6D, 2S, 7S
      And everyone sees player_ability_swap with user ann and card1 7S and card2 8H
      And it is bob's turn
      And the phase is awaiting_draw
      And everyone sees game_player_turn with user bob

    @rule:CHK-KING-3
    Scenario: a King cannot swap before peeking or skipping the peek
      Given the draw pile is KD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      And cat did pass_match
      When ann does ability_swap ann's slot 0 and bob's slot 0
      Then the action is rejected with "peek first, or skip the peek"
      And ann holds 7S, KH, 3D, QC
      And bob holds 4H, 6D, 2S, 8H
      And the phase is ability_peek

    @rule:CHK-KING-4 @rule:CHK-ABIL-5
    Scenario: ann skips the King's peek and still swaps
      Given the draw pile is KD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      And cat did pass_match
      When ann does ability_skip
      Then everyone sees player_ability_skip with user ann and stage peek
      And the phase is ability_swap
      And it is ann's turn
      When ann does ability_swap bob's slot 1 and cat's slot 1
      Then bob holds 4H, 9D, 2S, 8H
      And cat holds 5S, 6D, JH, AC
      And it is bob's turn

    @rule:CHK-KING-4 @rule:CHK-ABIL-5 @rule:CHK-ABIL-10
    Scenario: ann skips both stages of the King and nothing moves
      Given the draw pile is KD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      And cat did pass_match
      And ann did ability_skip
      When ann does ability_skip
      Then everyone sees player_ability_skip with user ann and stage swap
      And ann holds 7S, KH, 3D, QC
      And bob holds 4H, 6D, 2S, 8H
      And cat holds 5S, 9D, JH, AC
      And it is bob's turn
      And the phase is awaiting_draw

  Rule: a Queen peeks at one card, then swaps

    @rule:CHK-QUEEN-1 @rule:CHK-ABIL-1
    Scenario: a Queen peeks at one card of cat, then swaps two cards of bob
      Given the draw pile is QD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      And cat did pass_match
      Then everyone sees game_ability with user ann and ability queen and source discard
      And the phase is ability_peek
      When ann does ability_peek cat's slot 2
      Then only ann sees private_ability_peek with cards.0 JH
      And ann knows JH
      And the phase is ability_swap
      When ann does ability_swap bob's slot 0 and bob's slot 1
      Then bob holds 6D, 4H, 2S, 8H
      And everyone sees player_ability_swap with user ann
      And it is bob's turn

    @rule:CHK-QUEEN-2
    Scenario: a Queen cannot peek at two cards
      Given the draw pile is QD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      And cat did pass_match
      When ann does ability_peek bob's slot 0 and cat's slot 0
      Then the action is rejected with "a queen peeks at one card"
      And the phase is ability_peek
      And ann does not know 4H
      And ann does not know 5S

    @rule:CHK-KING-3 @rule:CHK-QUEEN-1
    Scenario: a Queen cannot swap before peeking or skipping the peek
      Given the draw pile is QD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      And cat did pass_match
      When ann does ability_swap bob's slot 0 and cat's slot 0
      Then the action is rejected with "peek first, or skip the peek"
      When ann does ability_skip
      Then everyone sees player_ability_skip with user ann and stage peek
      And the phase is ability_swap

  Rule: a Jack swaps without peeking

    @rule:CHK-JACK-1 @rule:CHK-ABIL-1 @rule:CHK-ABIL-7
    Scenario: a Jack goes straight to the swap, here between bob and cat
      Given the draw pile is JD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      When cat does pass_match
      Then everyone sees game_ability with user ann and ability jack and source discard
      And the phase is ability_swap
      When ann does ability_swap bob's slot 2 and cat's slot 3
      Then bob holds 4H, 6D, AC, 8H
      And cat holds 5S, 9D, JH, 2S
      And ann holds 7S, KH, 3D, QC
      And everyone sees player_ability_swap with user ann and card1 2S and card2 AC
      And it is bob's turn

    @rule:CHK-JACK-2
    Scenario: a Jack cannot peek
      Given the draw pile is JD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      And cat did pass_match
      When ann does ability_peek bob's slot 0
      Then the action is rejected
      And ann does not know 4H
      And the phase is ability_swap

    @rule:CHK-JACK-1 @rule:CHK-ABIL-5
    Scenario: skipping a Jack's swap ends the turn
      Given the draw pile is JD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      And cat did pass_match
      When ann does ability_skip
      Then everyone sees player_ability_skip with user ann and stage swap
      And ann holds 7S, KH, 3D, QC
      And it is bob's turn

    @rule:CHK-ABIL-7
    Scenario: a Jack may swap two cards of ann's own grid
      Given the draw pile is JD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      And cat did pass_match
      When ann does ability_swap ann's slot 0 and ann's slot 3
      Then ann holds QC, KH, 3D, 7S
      And it is bob's turn

  Rule: swaps move knowledge with the cards and need two different cards

    @rule:CHK-ABIL-8
    Scenario: a card ann peeked at stays known to her in her grid, and bob does not learn it
      Given the draw pile is KD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      And cat did pass_match
      And ann did ability_peek bob's slot 0
      When ann does ability_swap ann's slot 2 and bob's slot 0
      Then ann holds 7S, KH, 4H, QC
      And bob holds 3D, 6D, 2S, 8H
      And ann knows ann's slot 2
      And ann knows bob's slot 0
      And bob does not know bob's slot 0
      And bob does not know 3D
      And cat does not know 4H
      And cat does not know 3D

    @rule:CHK-ABIL-8 @rule:CHK-VIS-2
    Scenario: a blind swap moves bob's known card to ann's grid, still known to bob only
      Given the draw pile is JD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      And cat did pass_match
      When ann does ability_swap ann's slot 0 and bob's slot 2
      Then ann holds 2S, KH, 3D, QC
      And bob holds 4H, 6D, 7S, 8H
      And bob knows ann's slot 0
      And ann does not know ann's slot 0
      And ann does not know 2S
      And bob does not know bob's slot 2
      And bob does not know 7S
      And cat does not know 2S

    @rule:CHK-ABIL-12
    Scenario: a swap takes exactly two cards
      Given the draw pile is JD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      And cat did pass_match
      When ann does ability_swap bob's slot 1
      Then the action is rejected with "ability_swap takes two cards"
      When ann does ability_swap bob's slot 1 and cat's slot 0 and cat's slot 1
      Then the action is rejected with "ability_swap takes two cards"
      And bob holds 4H, 6D, 2S, 8H
      And cat holds 5S, 9D, JH, AC
      And the phase is ability_swap

    @rule:CHK-ABIL-9
    Scenario: a swap of a card with itself is refused
      Given the draw pile is JD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      And cat did pass_match
      When ann does ability_swap bob's slot 1 and bob's slot 1
      Then the action is rejected with "the two cards must differ"
      And the phase is ability_swap
      And bob holds 4H, 6D, 2S, 8H

  Rule: only the ability's player acts, and a wrong match does not stop the ability

    @rule:CHK-ABIL-4
    Scenario: bob cannot use ann's ability
      Given the draw pile is KD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      And cat did pass_match
      When bob does ability_peek ann's slot 0
      Then the action is rejected with "it is not your ability"
      When bob does ability_skip
      Then the action is rejected with "it is not your ability"
      And bob does not know 7S
      And the phase is ability_peek
      And it is ann's turn

    @rule:CHK-ABIL-13
    Scenario: with no ability being resolved there is nothing to peek, swap or skip
      When ann does ability_peek bob's slot 0
      Then the action is rejected with "there is no ability to resolve"
      When ann does ability_swap bob's slot 0 and cat's slot 0
      Then the action is rejected with "there is no ability to resolve"
      When ann does ability_skip
      Then the action is rejected with "there is no ability to resolve"
      And ann does not know 4H
      And bob holds 4H, 6D, 2S, 8H
      And the phase is awaiting_draw

    @rule:CHK-ABIL-4
    Scenario: cat cannot swap with ann's Jack
      Given the draw pile is JD
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      And cat did pass_match
      When cat does ability_swap cat's slot 0 and bob's slot 0
      Then the action is rejected with "it is not your ability"
      And cat holds 5S, 9D, JH, AC
      And bob holds 4H, 6D, 2S, 8H

    @rule:CHK-ABIL-3 @rule:CHK-PEN-1
    Scenario: bob's wrong card on ann's King does not stop the King
      Given the draw pile is KD, 5C
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And bob did attempt_match 2S
      And ann did pass_match
      When cat does pass_match
      Then everyone sees game_ability with user ann and ability king and source discard
      And the phase is ability_peek
      And bob holds 4H, 6D, 2S, 8H, 5C

    @rule:CHK-ABIL-2
    Scenario Outline: a discarded <card> gives no ability
      Given the draw pile is <card>
      And ann did draw_from_deck
      And ann did discard_drawn_card
      And ann did pass_match
      And bob did pass_match
      When cat does pass_match
      Then ann does not see game_ability
      And it is bob's turn
      And the phase is awaiting_draw

      Examples:
        | card |
        | AD   |
        | 9H   |
        | 10D  |
