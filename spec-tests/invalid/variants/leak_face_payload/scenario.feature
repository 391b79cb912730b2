# a hook puts a hidden card's face in an event as text.
Feature: leak_face_payload

  Scenario: the hostile hook fails at its line
    Given a leak_face_payload game with players ann, bob
    When ann does draw
    Then ann holds 5 cards
