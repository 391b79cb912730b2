Feature: CRLF line ends

  Scenario: windows
    Given a cambia game with players ann, bob
    Then ann receives:
      """
      {"a": 1}
      """
    And the game is not over
