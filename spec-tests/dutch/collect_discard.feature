@dutch
Feature: Collecting from the discard pile
  "Recall Card Game - Game Play and Rules", section "Collection Rank Cards" (its "Collection
  Mechanics", "Phase Restrictions" and "Special Case") and deckspec rulings "Dutch": any player may
  collect_discard the top of the discard pile when it is of their collection rank, at any time
  except in initial_peek and same_rank_window; the card joins their hand face up and nothing else
  changes.

  Rule: collect_discard takes a matching top card, in any player's turn

    Background:
      Given a dutch game with players ann, bob
      And ann holds 3D, 9C, 5H, 6H
      And bob holds 4H, 8H, 2S, 6D
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1

    @rule:DUT-DISC-1 @rule:DUT-DISC-3 @rule:DUT-DISC-4
    Scenario: at the start of her turn ann collects the 3 on top of the discard pile
      Given the discard pile is 3S, 7C
      And it is ann's turn
      When ann does collect_discard
      Then ann holds 3D, 9C, 5H, 6H, 3S
      And the discard pile is 7C
      And everyone sees player_collect with user ann and card 3S and source discard
      And bob knows ann's slot 4
      And it is ann's turn
      And the phase is drawing_card

    @rule:DUT-DISC-2 @rule:DUT-DISC-3 @rule:DUT-DISC-4
    Scenario: bob collects a 4 from the discard pile during ann's turn
      Given the discard pile is 4S
      And it is ann's turn
      When bob does collect_discard
      Then bob holds 4H, 8H, 2S, 6D, 4S
      And the discard pile is empty
      And everyone sees player_collect with user bob and card 4S and source discard
      And it is ann's turn
      And the phase is drawing_card

    @rule:DUT-DISC-3 @rule:DUT-DISC-4
    Scenario: ann collects from the discard pile while holding her drawn card, then plays it
      Given the discard pile is 3S
      And the draw pile is 7S
      And it is ann's turn
      And ann did draw
      When ann does collect_discard
      Then ann holds 3D, 9C, 5H, 6H, 3S
      And the discard pile is empty
      And the phase is playing_card
      And it is ann's turn
      When ann does play drawn
      Then the discard pile is 7S
      And the phase is same_rank_window

    @rule:DUT-DISC-7
    Scenario: there is nothing to collect from an empty discard pile
      Given the discard pile is empty
      And it is ann's turn
      When ann does collect_discard
      Then the action is rejected
      And ann holds 3D, 9C, 5H, 6H
      And the phase is drawing_card

    @rule:DUT-DISC-7
    Scenario: a 7 on top of the discard pile is not ann's to collect
      Given the discard pile is 7C
      And it is ann's turn
      When ann does collect_discard
      Then the action is rejected
      And the discard pile is 7C
      And ann holds 3D, 9C, 5H, 6H

    @rule:DUT-DISC-7
    Scenario: only the top card can be collected, not a 3 under it
      Given the discard pile is 7C, 3S
      And it is ann's turn
      When ann does collect_discard
      Then the action is rejected
      And the discard pile is 7C, 3S
      And ann holds 3D, 9C, 5H, 6H

    @rule:DUT-DISC-7 @rule:DUT-DISC-2
    Scenario: bob cannot collect ann's kind of card
      Given the discard pile is 3S
      And it is ann's turn
      When bob does collect_discard
      Then the action is rejected
      And bob holds 4H, 8H, 2S, 6D
      And the discard pile is 3S

  Rule: no collecting during the same rank window

    Background:
      Given a dutch game with players ann, bob
      And ann holds 3D, 9C, 5H, 6H
      And bob holds 4H, 8H, 2S, 6D
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1

    @rule:DUT-DISC-5
    Scenario: bob cannot collect the 4 ann has just played
      Given the draw pile is 4S
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      When bob does collect_discard
      Then the action is rejected with "collecting is not allowed during same_rank_window"
      And the discard pile is 4S
      And bob holds 4H, 8H, 2S, 6D
      And the phase is same_rank_window

    @rule:DUT-DISC-5 @rule:DUT-DISC-3
    Scenario: once the window is over bob collects the 4 at the start of his turn
      Given the draw pile is 4S
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      Then it is bob's turn
      And the phase is drawing_card
      When bob does collect_discard
      Then bob holds 4H, 8H, 2S, 6D, 4S
      And the discard pile is empty
      And it is bob's turn

  Rule: a played card of the collection rank can be collected once its window is over

    @rule:DUT-DISC-8 @rule:DUT-COLL-4
    Scenario: ann plays her unknown 3, waits for the window to end, then collects it
      Given a dutch game with players ann, bob
      And ann holds 3D, 9C, 3S, 6H
      And bob holds 4H, 8H, 2S, 6D
      And the draw pile is 7D
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      And it is ann's turn
      And ann did draw
      And ann did play 2
      Then the discard pile is 3S
      And ann holds 3D, 9C, 7D, 6H
      When ann does collect_discard
      Then the action is rejected with "collecting is not allowed during same_rank_window"
      When 5 seconds pass
      Then it is bob's turn
      When ann does collect_discard
      Then ann holds 3D, 9C, 7D, 6H, 3S
      And everyone sees player_collect with user ann and card 3S and source discard
      And it is bob's turn
      And the phase is drawing_card

  Rule: collecting in the special play window, not in the initial peek

    @rule:DUT-DISC-3 @rule:DUT-DISC-4 @rule:DUT-DISC-2
    Scenario: bob collects ann's Queen during her special play, and ann still peeks
      Given a dutch game with players ann, bob
      And ann holds 3D, 9C, 5H, 6H
      And bob holds QD, JC, 2H, 4C
      And the draw pile is QS
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      And it is ann's turn
      And ann did draw
      And ann did play drawn
      When 5 seconds pass
      Then the phase is special_play_window
      And bob's collection_rank is Q
      When bob does collect_discard
      Then bob holds QD, JC, 2H, 4C, QS
      And the discard pile is empty
      And the phase is special_play_window
      And it is ann's turn
      When ann does queen_peek bob's slot 2
      Then ann knows 2H

    @rule:DUT-DISC-6
    Scenario: nobody can collect during the initial peek
      Given a dutch game with players ann, bob
      And ann holds 3D, 9C, 5H, 6H
      And bob holds 4H, 8H, 2S, 6D
      And the discard pile is 3S
      And ann did initial_peek 0 and 1
      When ann does collect_discard
      Then the action is rejected with "collecting is not allowed during initial_peek"
      And the discard pile is 3S
      And ann holds 3D, 9C, 5H, 6H
      And the phase is initial_peek
