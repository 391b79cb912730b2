Feture: misspelled keywords are reported, and the file goes on

  Backgroud:
    Givn a cambia game with players ann, bob

  Scenaro: a misspelled scenario
    given ann holds 7S
    Wen ann does draw
    Thn the game is not over
    Adn it is ann's turn

  Scenario Outlin: a misspelled outline
    When <who> does draw

    Exmples:
      | who |
      | ann |

  Scenario without a colon
    Given: ann holds 7S
