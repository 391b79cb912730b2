# The variant loads, but its draw hook names a pile that does not exist: the failure must point
# at the script line, and the game must be unchanged.
Feature: a script bug is reported at its line

  Scenario: drawing hits the bug
    Given a runtime_bug game with players ann, bob
    When ann does draw
    Then ann holds 4 cards
