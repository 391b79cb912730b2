# three levels of extends load (this one then fails on purpose in its scenario).
Feature: path_extends_chain

  Scenario: the middle file's hand size wins over the base's
    Given a path_extends_chain game with players ann, bob
    Then ann holds 4 cards
