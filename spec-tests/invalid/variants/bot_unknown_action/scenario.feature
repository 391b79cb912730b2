# a bot names an action the variant does not have: an error at the name, with did-you-mean.
Feature: bot_unknown_action

  Scenario: the misspelled action is a script error
    Given a bot_unknown_action game with players ann, bob
    And ann is an expert bot
    When ann's bot acts
    Then ann holds 5 cards
