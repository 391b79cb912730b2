@recall @bots
Feature: Recall's computer players decide from what they remember
  rules/recall/bots.yaml and bots.rhai (deckspec rulings "Bots"): a bot acts only on cards it knows,
  keeps a drawn card that beats its worst remembered card, throws remembered cards of the top's rank
  in the same rank window, uses Jacks and Queens by its level, and calls when its estimate is low.
  The expert level never forgets, never misses a same-rank play and always uses a power, so its
  choices here do not depend on its random draws.

  Background:
    Given a recall game with players ann, bob
    And bob is an expert bot

  Rule: the initial peek

    Scenario: the bot peeks at its first two cards
      Given ann holds 3D, 9C, 5H, 6H
      And bob holds 4H, 8H, 2S, 6D
      When bob's bot acts
      Then bob's bot chose initial_peek bob's slot 0 and bob's slot 1
      And bob knows 4H
      And bob knows 8H
      And bob does not know 2S

  Rule: drawing and playing

    Background:
      Given ann holds 3D, 9C, 5H, 6H
      And bob holds 4H, 8H, 2S, 6D
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      And it is bob's turn

    Scenario: the bot draws, then keeps the drawn 3 in place of its remembered 8
      Given the draw pile is 3C
      When bob's bot acts
      Then bob's bot chose draw
      When bob's bot acts
      Then bob's bot chose play bob's slot 1
      And bob holds 4H, 3C, 2S, 6D
      And the discard pile top is 8H

    Scenario: a card it has not seen is never what the bot gives up
      Given the draw pile is 9S, 3C
      When bob's bot acts
      And bob's bot acts
      Then bob's bot chose play drawn
      And bob holds 4H, 8H, 2S, 6D
      And the discard pile top is 9S

    Scenario: the bot waits while it is not its move
      Given it is ann's turn
      When bob's bot acts
      Then bob's bot waited
      And the phase is drawing_card

  Rule: the same rank window

    Background:
      Given ann holds 3D, 9C, 5H, 6H
      And bob holds 4H, 8H, 2S, 6D
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      And it is ann's turn

    Scenario: the bot throws its remembered 4 on ann's 4
      Given the draw pile is 4C
      And ann did draw
      And ann did play drawn
      When bob's bot acts
      Then bob's bot chose same_rank 4H
      And bob holds _, 8H, 2S, 6D
      And the discard pile top is 4H

    Scenario: the bot does not throw a 2 it has never seen
      Given the draw pile is 2C
      And ann did draw
      And ann did play drawn
      When bob's bot acts
      Then bob's bot waited
      And bob holds 4H, 8H, 2S, 6D

  Rule: powers

    Background:
      Given ann holds 3D, 9C, 5H, 6H
      And bob holds 4H, 8H, 2S, 6D
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      And it is bob's turn

    Scenario: an expert's Queen looks at its own unknown card first
      Given the draw pile is QS
      And bob did draw
      And bob did play drawn
      When 5 seconds pass
      And bob's bot acts
      Then bob's bot chose queen_peek bob's slot 2
      And bob knows 2S

    Scenario: an expert's Jack gives its worst remembered card for a lower one it knows
      Given the draw pile is JC
      And bob knows ann's slot 0
      And bob did draw
      And bob did play drawn
      When 5 seconds pass
      And bob's bot acts
      Then bob's bot chose jack_swap 8H and 3D
      And ann holds 8H, 9C, 5H, 6H
      And bob holds 4H, 3D, 2S, 6D

    Scenario: with nothing better to take, the Jack is skipped
      Given the draw pile is JC
      And bob did draw
      And bob did play drawn
      When 5 seconds pass
      And bob's bot acts
      Then bob's bot chose skip

  Rule: calling Recall

    Scenario: an expert who knows a low hand calls after its play
      Given ann holds 3D, 9C, 5H, 6H
      And bob holds AH, 2H, 2S, 3S
      And the draw pile is 9S
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      And bob knows bob's slot 2
      And bob knows bob's slot 3
      And it is bob's turn
      And bob did draw
      And bob did play drawn
      When bob's bot acts
      Then bob's bot chose call_recall
