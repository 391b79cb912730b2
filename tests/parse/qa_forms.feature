@cambia
Feature: the forms QA asked for

  Scenario: each form once
    Given a cambia game with players ann, bob
    And ann's collection_rank is 7
    And the discard_pile_sealed is true
    Then ann may do snap slot 2
    And ann may not do draw_stockpile
    And the discard pile has 3 cards
    And nobody sees player_snap_fail
    And nobody sees player_snap_fail with user bob
    And ann sees, in order: player_discard, game_matching_stage, game_player_turn
    And the setup is rejected with "at most 7 players"
    And the setup is rejected
