Feature: Then steps

  Scenario: hands, slots and piles
    Given a cambia game with players ann, bob
    When time runs out
    Then ann holds 7S, KH, _, 3D
    And ann holds ?, ?, 7♥, _
    And ann holds 5 cards
    And bob holds 1 card
    And ann's slot 2 is KH
    And ann's slot 3 is empty
    And the discard pile top is 7S
    And the discard pile is 7S, 4S
    And the discard pile is empty
    And the draw pile has 40 cards
    And the draw pile top is 5C

  Scenario: turn, phase, rejection, knowledge, score
    Given a cambia game with players ann, bob
    When bob does draw
    Then the action is rejected
    And the action is rejected with "not your turn"
    And the action is rejected with "say \"please\""
    And it is bob's turn
    And the phase is same_rank_window
    And ann knows KH
    And ann knows bob's slot 1
    And ann does not know bob's slot 1
    And ann does not know QS
    And ann's score is 12
    And bob's score is -1

  Scenario: outcomes
    Given a cambia game with players ann, bob, cat
    When time runs out
    Then ann wins
    And ann and bob win
    And ann, bob and cat win
    And the game is a draw
    And the game is over
    And the game is not over

  Scenario: properties
    Given a cambia game with players ann, bob
    When time runs out
    Then ann's collection_rank is 7
    And ann's locked is true
    And the discard pile sealed is true
    And the round is 2
    And the leader is bob
    And the last card is QH
    And the bonus list is [1, 2.5, -3]

  Scenario: events
    Given a cambia game with players ann, bob
    When ann does draw
    Then everyone sees game_player_turn
    And only ann sees private_draw
    And ann sees player_draw with user ann
    And bob sees player_draw with card.rank King and card.suit Hearts and stockpileSize 29
    And bob sees player_discard with card KH 2 times
    And ann sees tick 1 time
    And ann does not see private_draw with user bob
    And everyone sees player_snap_penalty with penalty.cards.0.id "x" 2 times
    And ann receives:
      """json
      {
        "type": "private_initial_cards",
        "cards": [{"id": "{7S}", "rank": "7"}]
      }
      """
