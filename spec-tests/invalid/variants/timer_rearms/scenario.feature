# a timer that sets itself again every millisecond fires without end.
Feature: timer_rearms

  Scenario: the endless timer is stopped
    Given a timer_rearms game with players ann, bob
    When ann does draw
    When 100 seconds pass
    Then ann holds 4 cards
