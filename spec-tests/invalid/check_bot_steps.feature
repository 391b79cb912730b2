@recall
Feature: bot steps are checked before anything runs

  Scenario: a misspelled level, a stranger's bot and an unknown action
    Given a recall game with players ann, bob
    And bob is a hrad bot
    When cat's bot acts
    Then bob's bot chose drwa
