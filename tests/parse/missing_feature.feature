# Only a comment, then a scenario.

Scenario: no feature line
  Given a cambia game with players ann, bob
