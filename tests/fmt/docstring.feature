Feature: A doc string
  Scenario: windows line ends
  Given a cambia game with players ann, bob
  Then ann receives:
  """json
  {
    "a": 1
  }
  """
  And the game is not over
