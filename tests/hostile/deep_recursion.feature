# The deepest recursion the script limits allow runs on the thread `deckspec test` uses.
Feature: deep but legal recursion

  Scenario: setup and a draw recurse 46 calls deep
    Given a deep_recursion game with players ann, bob
    When ann does draw
    Then ann holds 5 cards
    And the note is 30268
