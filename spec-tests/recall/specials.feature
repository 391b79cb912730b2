@recall
Feature: Special plays: the Jack's swap and the Queen's peek
  "Recall Card Game Rules", section "Special Powers"; "Recall Card Game - Game Play and Rules",
  sections "4. Special Cards Window", "Jack Swap Power" and "Queen Peek Power"; deckspec rulings
  "Recall: Special window": when the same rank window closes, every Jack and Queen played in the
  turn and its window is resolved in the order played, each by its player: a Jack swaps any two
  cards in hands, a Queen peeks at any one card in a hand, or the player skips.

  Background:
    Given a recall game with players ann, bob, cat
    And ann holds 7S, KH, 3D, QC
    And bob holds 4H, 6D, 2S, 8H
    And cat holds 5S, 9D, JH, AC
    And it is ann's turn

  Rule: a played Jack or Queen opens the special play window

    @rule:REC-SPEC-1 @rule:REC-SPEC-3
    Scenario: ann's Jack is resolved when the same rank window closes
      Given the draw pile is JD
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      Then the phase is special_play_window
      And everyone sees game_special_play with user ann and special jack_swap and card JD
      And it is ann's turn

    @rule:REC-SPEC-1 @rule:REC-SPEC-3
    Scenario: a Queen played from the hand counts as well
      Given the draw pile is 10C
      And ann did draw
      And ann did play slot 3
      When 5 seconds pass
      Then the phase is special_play_window
      And everyone sees game_special_play with user ann and special queen_peek and card QC
      And ann holds 7S, KH, 3D, 10C

    @rule:REC-SPEC-7
    Scenario Outline: a <card> played opens no special play
      Given the draw pile is <card>
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      Then it is bob's turn
      And the phase is drawing_card
      And ann does not see game_special_play

      Examples:
        | card |
        | KS   |
        | JK   |
        | 10C  |

    @rule:REC-SPEC-7
    Scenario: a Jack drawn and kept in the hand does nothing
      Given the draw pile is JD
      And ann did draw
      And ann did play slot 2
      When 5 seconds pass
      Then it is bob's turn
      And ann holds 7S, KH, JD, QC
      And ann does not see game_special_play

    @rule:REC-SPEC-4
    Scenario: only ann may use her Jack
      Given the draw pile is JD
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      And bob does jack_swap bob's slot 0 and cat's slot 0
      Then the action is rejected with "it is not your special play"
      When bob does skip
      Then the action is rejected with "it is not your special play"
      And bob holds 4H, 6D, 2S, 8H
      And cat holds 5S, 9D, JH, AC
      And the phase is special_play_window

    @rule:REC-SPEC-10
    Scenario: the special_player and special properties name the special play being resolved
      Given the draw pile is JD
      And ann did draw
      And ann did play drawn
      Then the special_player is none
      And the special is ""
      When 5 seconds pass
      Then the special_player is ann
      And the special is jack_swap
      When ann does skip
      Then the special_player is none
      And the special is ""

    @rule:REC-SPEC-5 @rule:REC-SPEC-6
    Scenario: ann skips her Jack and the next turn starts
      Given the draw pile is JD
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      And ann does skip
      Then everyone sees player_skip with user ann and special jack_swap
      And ann holds 7S, KH, 3D, QC
      And bob holds 4H, 6D, 2S, 8H
      And it is bob's turn
      And the phase is drawing_card

  Rule: the Jack swaps any two cards in hands, blind

    @rule:REC-JACK-1 @rule:REC-JACK-5 @rule:REC-KNOW-2 @rule:REC-SPEC-6
    Scenario: ann swaps her slot 2 with bob's slot 0
      Given the draw pile is JD
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      And ann does jack_swap slot 2 and bob's slot 0
      Then ann holds 7S, KH, 4H, QC
      And bob holds 3D, 6D, 2S, 8H
      And everyone sees player_jack_swap with user ann
      And bob knows ann's slot 2
      And bob does not know bob's slot 0
      And ann does not know 4H
      And ann does not know 3D
      And cat does not know 4H
      And it is bob's turn
      And the phase is drawing_card

    @rule:REC-JACK-1 @rule:REC-KNOW-2
    Scenario: ann swaps a card of bob's with a card of cat's
      Given the draw pile is JD
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      And ann does jack_swap bob's slot 1 and cat's slot 2
      Then bob holds 4H, JH, 2S, 8H
      And cat holds 5S, 9D, 6D, AC
      And bob knows cat's slot 2
      And bob does not know bob's slot 1
      And cat does not know 6D
      And ann does not know 6D
      And ann does not know JH

    @rule:REC-JACK-2 @rule:REC-KNOW-2
    Scenario: two cards of one hand switch slots
      Given the draw pile is JD
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      And ann does jack_swap bob's slot 0 and bob's slot 3
      Then bob holds 8H, 6D, 2S, 4H
      And bob knows bob's slot 3
      And bob does not know bob's slot 0

    @rule:REC-JACK-3
    Scenario: the two cards must differ
      Given the draw pile is JD
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      And ann does jack_swap bob's slot 0 and bob's slot 0
      Then the action is rejected with "the two cards must differ"
      And bob holds 4H, 6D, 2S, 8H
      And the phase is special_play_window

    @rule:REC-JACK-4
    Scenario: cards of the piles cannot be swapped
      Given the draw pile is JD, 10C
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      And ann does jack_swap JD and bob's slot 0
      Then the action is rejected
      When ann does jack_swap 10C and bob's slot 0
      Then the action is rejected
      And bob holds 4H, 6D, 2S, 8H
      And the discard pile is JD
      And the draw pile top is 10C
      And the phase is special_play_window

    @rule:REC-JACK-6
    Scenario: a jack_swap of one card or of three is refused
      Given the draw pile is JD
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      And ann does jack_swap bob's slot 0
      Then the action is rejected with "jack_swap takes two cards"
      When ann does jack_swap bob's slot 0 and bob's slot 1 and cat's slot 0
      Then the action is rejected with "jack_swap takes two cards"
      And bob holds 4H, 6D, 2S, 8H
      And cat holds 5S, 9D, JH, AC
      And the phase is special_play_window

  Rule: the Queen peeks at any one card in a hand

    @rule:REC-QUEEN-1 @rule:REC-QUEEN-2 @rule:REC-SPEC-3 @rule:REC-SPEC-6
    Scenario: ann peeks at bob's slot 2; nobody else learns it
      Given the draw pile is QD
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      Then everyone sees game_special_play with user ann and special queen_peek and card QD
      When ann does queen_peek bob's slot 2
      Then only ann sees private_queen_peek with card 2S
      And everyone sees player_queen_peek with user ann
      And ann knows 2S
      And bob does not know 2S
      And cat does not know 2S
      And it is bob's turn

    @rule:REC-QUEEN-2 @rule:REC-VIS-2
    Scenario: bob is told which card ann looked at, not what it is
      Given the draw pile is QD
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      And ann does queen_peek bob's slot 3
      Then bob receives:
        """
        {"type": "player_queen_peek", "user": {"id": "ann"}, "card": {"id": "{8H}"}}
        """
      And bob does not know 8H
      And bob does not see private_queen_peek

    @rule:REC-QUEEN-1
    Scenario: ann peeks at a card of her own
      Given the draw pile is QD
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      And ann does queen_peek slot 2
      Then ann knows 3D
      And bob does not know 3D
      And only ann sees private_queen_peek with card 3D

    @rule:REC-QUEEN-3
    Scenario: cards of the piles cannot be peeked at
      Given the draw pile is QD, 10C
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      And ann does queen_peek 10C
      Then the action is rejected
      And ann does not know 10C
      When ann does queen_peek QD
      Then the action is rejected
      And the phase is special_play_window

    @rule:REC-QUEEN-4
    Scenario: a queen_peek of two cards is refused
      Given the draw pile is QD
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      And ann does queen_peek bob's slot 0 and bob's slot 1
      Then the action is rejected with "queen_peek takes one card"
      And ann does not know 4H
      And ann does not know 6D
      And the phase is special_play_window

  Rule: several specials are resolved first in, first out

    @rule:REC-SPEC-2 @rule:REC-SPEC-1 @rule:REC-SPEC-4
    Scenario: cat throws her Jack on ann's Jack; ann swaps first, then cat
      Given the draw pile is JD
      And ann did draw
      And ann did play drawn
      And cat did same_rank slot 2
      When 5 seconds pass
      Then everyone sees game_special_play with user ann and special jack_swap and card JD
      And ann does not see game_special_play with user cat
      When cat does jack_swap cat's slot 0 and bob's slot 0
      Then the action is rejected with "it is not your special play"
      When ann does jack_swap bob's slot 0 and bob's slot 1
      Then bob holds 6D, 4H, 2S, 8H
      And everyone sees game_special_play with user cat and special jack_swap and card JH
      And the phase is special_play_window
      When cat does jack_swap ann's slot 0 and bob's slot 3
      Then ann holds 8H, KH, 3D, QC
      And bob holds 6D, 4H, 2S, 7S
      And cat holds 5S, 9D, _, AC
      And it is bob's turn
      And the phase is drawing_card

    @rule:REC-SPEC-2
    Scenario: ann's two Queens are resolved in the order she played them
      Given the draw pile is QD
      And ann did draw
      And ann did play drawn
      And ann did same_rank slot 3
      When 5 seconds pass
      Then everyone sees game_special_play with card QD
      And ann does not see game_special_play with card QC
      When ann does queen_peek bob's slot 2
      Then everyone sees game_special_play with user ann and special queen_peek and card QC
      And the phase is special_play_window
      When ann does queen_peek cat's slot 3
      Then ann knows 2S
      And ann knows AC
      And it is bob's turn

    @rule:REC-SPEC-8
    Scenario: the specials of a turn are not resolved again in the next turn
      Given the draw pile is JD, 10C
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      And ann does skip
      And bob does draw
      And bob does play drawn
      And 5 seconds pass
      Then it is cat's turn
      And the phase is drawing_card
      And everyone sees game_special_play 0 times
