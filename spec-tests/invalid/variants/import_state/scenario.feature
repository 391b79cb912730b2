# a hook imports a module that exports a variable.
Feature: import_state

  Scenario: the stateful import is refused
    Given a import_state game with players ann, bob
    When ann does draw
