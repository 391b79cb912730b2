# a hook imports a script from outside the rules folder.
Feature: path_import_outside

  Scenario: the import is refused at its line
    Given a path_import_outside game with players ann, bob
    When ann does draw
