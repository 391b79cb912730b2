# Each form QA asked for, in a scenario where it does not hold: the failure says what the step
# expected and what was found.
@cambia
Feature: the forms QA asked for, failing

  Scenario: a legal action said to be refused
    Given a cambia game with players ann, bob
    And it is ann's turn
    Then ann may not do draw_stockpile

  Scenario: a refused action said to be legal
    Given a cambia game with players ann, bob
    And it is bob's turn
    Then ann may do draw_stockpile

  Scenario: a wrong count of the discard pile
    Given a cambia game with players ann, bob
    And the discard pile is 7H, 4S
    Then the discard pile has 3 cards

  Scenario: an event somebody saw
    Given a cambia game with players ann, bob
    And it is ann's turn
    When ann does draw_stockpile
    Then nobody sees player_draw_stockpile with user ann

  Scenario: events out of order
    Given a cambia game with players ann, bob
    And it is ann's turn
    When ann does draw_stockpile
    And ann does discard
    Then bob sees, in order: game_player_turn, player_discard

  Scenario: a game the rules accept
    Given a cambia game with players ann, bob
    Then the setup is rejected with "at most 12 players"

  Scenario: refused for another reason
    Given a cambia game with players ann, bob, cat, dan, eve, fay, gus, hal, ida, jo, kim, lee, max
    Then the setup is rejected with "at least 2 players"

  Scenario: a property set to a value that does not hold
    Given a cambia game with players ann, bob
    And ann's locked is true
    Then ann's locked is false
