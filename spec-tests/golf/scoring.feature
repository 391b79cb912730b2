@golf
Feature: Points and scoring
  "Golf (six-card), as commonly played", section "Scoring"; deckspec rulings "Golf (six-card)": A 1,
  2 -2, 3 to 10 their number, J and Q 10, K 0, joker -2; two cards of one rank in a column score 0
  together; the score counts every card, face down or up.

  Rule: what each card scores

    @rule:GOLF-PTS-1 @rule:GOLF-SCORE-1
    Scenario: an Ace scores 1, 3 to 10 their number, Jacks and Queens 10
      Given a golf game with players ann, bob
      And ann holds AS, 3D, 10C, JH, QS, 4H
      Then ann's score is 38

    @rule:GOLF-PTS-1
    Scenario Outline: each number card scores its number
      Given a golf game with players ann, bob
      And ann holds <card>, KS, KH, 2S, KD, 2H
      Then ann's score is <score>

      Examples:
        | card | score |
        | AC   | -3    |
        | 3C   | -1    |
        | 4C   | 0     |
        | 5C   | 1     |
        | 6C   | 2     |
        | 7C   | 3     |
        | 8C   | 4     |
        | 9C   | 5     |
        | 10C  | 6     |
        | JC   | 6     |
        | QC   | 6     |

    @rule:GOLF-PTS-2
    Scenario: a 2 scores -2 and a King 0
      Given a golf game with players ann, bob
      And ann holds 2S, KD, 5C, 6H, 2D, KC
      Then ann's score is 7

    @rule:GOLF-PTS-2
    Scenario: a layout of 2s and Kings in different columns scores below zero
      Given a golf game with players ann, bob
      And ann holds 2S, 2H, 2D, KS, KH, KD
      Then ann's score is -6

    @rule:GOLF-PTS-3 @rule:GOLF-DECK-2
    Scenario: a joker scores -2
      Given a golf game with players ann, bob
      And the house rule use_jokers is true
      And ann holds JK, 3S, 4S, 5D, 6S, JK
      Then ann's score is 14

    @rule:GOLF-SCORE-1 @rule:GOLF-FACE-1
    Scenario: face-down cards count in the score
      Given a golf game with players ann, bob
      And ann holds 9S, 9H, 9D, QC, QD, JS
      And it is ann's turn
      Then ann's slots 2, 3, 4 and 5 are face down
      And ann's score is 57

  Rule: a pair in a column scores 0

    @rule:GOLF-SCORE-2 @rule:GOLF-DEAL-2
    Scenario Outline: two cards of one rank in a column cancel each other
      Given a golf game with players ann, bob
      And ann holds <hand>
      Then ann's score is <score>

      Examples: one pair, in each column
        | hand                    | score |
        | 7S, 3D, 9C, 7H, 4D, 10S | 26    |
        | 3D, QS, 5C, 8H, QH, 6D  | 22    |
        | 3D, 4C, 8S, 5H, 9D, 8C  | 21    |

      Examples: three pairs
        | hand                   | score |
        | 5S, 9D, QC, 5H, 9C, QD | 0     |

    @rule:GOLF-SCORE-2 @rule:GOLF-DEAL-4
    Scenario Outline: with two columns, a column is a top slot and the slot two further on
      Given a golf game with players ann, bob
      And the house rule columns is 2
      And ann holds <hand>
      Then ann's score is <score>

      Examples:
        | hand           | score |
        | 5S, 7H, 5D, 9C | 16    |
        | 5S, 7H, 9D, 7C | 14    |
        | 5S, 5H, 9D, 7C | 26    |

    @rule:GOLF-SCORE-2
    Scenario: a pair of 2s scores 0, not -4
      Given a golf game with players ann, bob
      And ann holds 2S, 3D, 4C, 2H, 5D, 6C
      Then ann's score is 18

    @rule:GOLF-SCORE-2
    Scenario: a pair of Kings scores 0
      Given a golf game with players ann, bob
      And ann holds KS, 3D, 4C, KH, 5D, 6C
      Then ann's score is 18

    @rule:GOLF-SCORE-2 @rule:GOLF-DEAL-2
    Scenario Outline: the same rank in a row or across columns is no pair
      Given a golf game with players ann, bob
      And ann holds <hand>
      Then ann's score is <score>

      Examples:
        | hand                   | score |
        | 7S, 7H, 7D, 3S, 4S, 5S | 33    |
        | 7S, 3D, 4C, 5H, 7H, 6C | 32    |
        | 3D, 7S, 4C, 5H, 6C, 7H | 32    |
        | 7S, 3D, 4C, 5H, 6C, 7H | 32    |

    @rule:GOLF-SCORE-3 @rule:GOLF-DECK-2
    Scenario: two jokers in one column are a pair
      Given a golf game with players ann, bob
      And the house rule use_jokers is true
      And ann holds JK, 3S, 4S, JK, 6S, 5D
      Then ann's score is 18

    @rule:GOLF-SCORE-3 @rule:GOLF-PTS-3
    Scenario: a joker and a 2 in one column are no pair
      Given a golf game with players ann, bob
      And the house rule use_jokers is true
      And ann holds JK, 3S, 4S, 2S, 6S, 5D
      Then ann's score is 14

    @rule:GOLF-SCORE-2 @rule:GOLF-END-2
    Scenario: the end scores count the pairs
      Given a golf game with players ann, bob
      And ann holds 7S, 3D, 9C, 7H, 4D, 9S
      And bob holds QS, QH, JS, 10H, 10D, JD
      And the draw pile is 8C, 8S
      And ann's slots 0, 1, 2, 3 and 4 are face up
      And it is ann's turn
      And ann did draw_stock
      And ann did discard_drawn
      And ann did flip slot 5
      And bob did draw_stock
      When bob does discard_drawn
      And bob does flip slot 3
      Then ann wins
      And bob receives:
        """
        {"type": "game_end", "scores": {"ann": 7, "bob": 40}, "winners": [{"id": "ann"}]}
        """

  Rule: a card's value in events is its Golf points

    @rule:GOLF-PTS-4
    Scenario Outline: a discarded card shows its Golf points
      Given a golf game with players ann, bob
      And the house rule use_jokers is true
      And the draw pile is <card>
      And it is ann's turn
      And ann did draw_stock
      When ann does discard_drawn
      Then everyone sees player_discard with card.rank <rank> and card.value <value>

      Examples:
        | card | rank  | value |
        | 2D   | 2     | -2    |
        | KS   | King  | 0     |
        | KH   | King  | 0     |
        | JK   | Joker | -2    |
        | AC   | Ace   | 1     |
        | JD   | Jack  | 10    |
        | QH   | Queen | 10    |
        | 9S   | 9     | 9     |

    @rule:GOLF-PTS-4
    Scenario: a joker in an event has no suit
      Given a golf game with players ann, bob
      And the house rule use_jokers is true
      And the draw pile is JK
      And it is ann's turn
      And ann did draw_stock
      When ann does discard_drawn
      Then bob receives:
        """
        {"type": "player_discard", "card": {"id": "{JK}", "rank": "Joker", "suit": null, "value": -2}}
        """
