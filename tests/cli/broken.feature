# Used by tests/program/cli.rs: a file that does not parse.
Feature: CLI fixture, broken

  Scenaro: a misspelled keyword
    Given a cambia game with players ann, bob
