@cambia
Feature: Card values and scoring
  deckspec rulings "Cambia: Values" and "Cambia: Scoring": Joker 0, A 1, 2-10 face value, J 11, Q
  12, black K 13, red K -1; lowest total wins; a caller among the lowest wins alone, otherwise all
  tied players win.

  Rule: each card is worth its value

    @rule:CAM-VAL-1
    Scenario: a joker, an Ace, a 2 and a 10 are worth 0, 1, 2 and 10
      Given a cambia game with players ann, bob
      And ann holds JK, AS, 2D, 10C
      Then ann's score is 13

    @rule:CAM-VAL-2
    Scenario: a Jack is worth 11 and a Queen 12
      Given a cambia game with players ann, bob
      And ann holds JS, QD, 3C, 4C
      Then ann's score is 30

    @rule:CAM-VAL-3
    Scenario: black Kings are worth 13 and red Kings -1
      Given a cambia game with players ann, bob
      And ann holds KS, KC, KH, KD
      Then ann's score is 24

    @rule:CAM-VAL-3
    Scenario: two red Kings bring a hand below its other cards
      Given a cambia game with players ann, bob
      And ann holds KH, KD, AS, 2S
      Then ann's score is 1

    @rule:CAM-VAL-4 @rule:CAM-VAL-1
    Scenario: Aces count 1 each
      Given a cambia game with players ann, bob
      And ann holds AS, AC, AD, AH
      Then ann's score is 4

    @rule:CAM-VAL-4 @rule:CAM-VAL-5
    Scenario: a snapped Ace is announced worth 1, not 0
      Given a cambia game with players ann, bob
      And bob holds AS, 6D, 2S, 8H
      And the discard pile is AH
      And it is ann's turn
      When bob does snap AS
      Then everyone sees player_snap_success with user bob and card.rank Ace and card.value 1

    @rule:CAM-VAL-5 @rule:CAM-VAL-1
    Scenario: a discarded joker is announced as a Joker worth 0
      Given a cambia game with players ann, bob
      And the draw pile is JK
      And it is ann's turn
      And ann did draw_stockpile
      When ann does discard
      Then everyone sees player_discard with user ann and card.rank Joker and card.value 0

    @rule:CAM-VAL-5 @rule:CAM-VAL-3
    Scenario: a discarded black King is announced worth 13
      Given a cambia game with players ann, bob
      And the draw pile is KC
      And it is ann's turn
      And ann did draw_stockpile
      When ann does discard
      Then everyone sees player_discard with user ann and card.rank King and card.suit Clubs and card.value 13

  Rule: the score is the hand's total, penalty cards included

    @rule:CAM-SCORE-1
    Scenario: the score is the sum of the hand
      Given a cambia game with players ann, bob
      And ann holds 7S, KH, 3D, QD
      And bob holds 4H, 6D, 2S, 8H
      Then ann's score is 21
      And bob's score is 20

    @rule:CAM-SCORE-1 @rule:CAM-PEN-1
    Scenario: penalty cards count in the score
      Given a cambia game with players ann, bob
      And bob holds 3D, 9C, 4H, 2S
      And the discard pile is 7H
      And the draw pile is QS, 5D
      And it is ann's turn
      When bob does snap 9C
      Then bob's score is 35

    @rule:CAM-SCORE-1
    Scenario: a snapped card no longer counts
      Given a cambia game with players ann, bob
      And bob holds 3D, 7C, 4H, 2S
      And the discard pile is 7H
      And it is ann's turn
      When bob does snap 7C
      Then bob's score is 9

  Rule: the lowest score wins, the caller alone if among the lowest

    @rule:CAM-SCORE-2 @rule:CAM-SCORE-3
    Scenario: the caller with the lowest score wins
      Given a cambia game with players ann, bob
      And ann holds AS, 2S, 3S, 4S
      And bob holds 5H, 6H, 7H, 8H
      And the draw pile is 5C
      And it is ann's turn
      And ann did cambia
      And bob did draw_stockpile
      When bob does discard
      Then ann wins
      And ann's score is 10
      And bob's score is 26
      And the phase is game_over

    @rule:CAM-SCORE-2
    Scenario: a player lower than the caller wins
      Given a cambia game with players ann, bob
      And ann holds 10S, 10H, 5S, 5H
      And bob holds AS, 2S, 3S, 4S
      And the draw pile is 5C
      And it is ann's turn
      And ann did cambia
      And bob did draw_stockpile
      When bob does discard
      Then bob wins
      And ann's score is 30
      And bob's score is 10

    @rule:CAM-SCORE-3
    Scenario: a caller tied for the lowest wins alone
      Given a cambia game with players ann, bob
      And ann holds AS, 2S, 3S, 4S
      And bob holds AH, 2H, 3H, 4H
      And the draw pile is 5C
      And it is ann's turn
      And ann did cambia
      And bob did draw_stockpile
      When bob does discard
      Then ann wins
      And bob receives:
        """
        {"type": "game_end", "winners": [{"id": "ann"}], "scores": {"ann": 10, "bob": 10}}
        """

    @rule:CAM-SCORE-3 @rule:CAM-END-1
    Scenario: a caller in the middle seat tied for the lowest wins alone
      Given a cambia game with players ann, bob, cat
      And ann holds AH, 2H, 3H, 4H
      And bob holds AS, 2S, 3S, 4S
      And cat holds 10S, 10H, 5S, 5H
      And the draw pile is 5C, 6C
      And it is bob's turn
      And bob did cambia
      And cat did draw_stockpile
      And cat did discard
      And ann did draw_stockpile
      When ann does discard
      Then bob wins

    @rule:CAM-SCORE-4
    Scenario: players tied for the lowest win together when the caller is higher
      Given a cambia game with players ann, bob, cat
      And ann holds 10S, 10H, 5S, 5H
      And bob holds AS, 2S, 3S, 4S
      And cat holds AH, 2H, 3H, 4H
      And the draw pile is 5C, 6C
      And it is ann's turn
      And ann did cambia
      And bob did draw_stockpile
      And bob did discard
      And cat did draw_stockpile
      When cat does discard
      Then bob and cat win
      And cat receives:
        """
        {
          "type": "game_end",
          "winners": [{"id": "bob"}, {"id": "cat"}],
          "scores": {"ann": 30, "bob": 10, "cat": 10},
          "caller": {"id": "ann"}
        }
        """

    @rule:CAM-SCORE-1 @rule:CAM-SCORE-2 @rule:CAM-END-2
    Scenario: a replace in the last turn changes the final score
      Given a cambia game with players ann, bob
      And ann holds AS, 2S, 3S, 4S
      And bob holds 5H, 6H, 7H, 8H
      And the draw pile is AC
      And it is ann's turn
      And ann did cambia
      And bob did draw_stockpile
      When bob does replace slot 3
      Then bob holds 5H, 6H, 7H, AC
      And bob's score is 19
      And ann wins
      And bob receives:
        """
        {"type": "game_end", "scores": {"ann": 10, "bob": 19}}
        """
