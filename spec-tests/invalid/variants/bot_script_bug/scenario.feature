# The variant and its bots load, but the bot script fails when asked: the failure must point at
# the bot script's line.
Feature: a bot script bug is reported at its line

  Scenario: the bot's decision hits the bug
    Given a bot_script_bug game with players ann, bob
    And ann is a hard bot
    When ann's bot acts
    Then ann holds 5 cards
