@dutch
Feature: Choosing the collection rank
  "Recall Card Game - Game Play and Rules", section "Collection Rank Selection"; "Collection Cards
  Verification - Dutch Game", section "Collection Cards Overview"; deckspec rulings "Dutch": when
  the initial peek ends, one of the two cards each player peeked at becomes that player's collection
  card: never a joker if the other is not; else the one with fewer points; on equal points Ace, then
  numbers, then King, Queen, Jack; two cards of one rank are settled at random. The card stays in
  its slot, turns face up and sets the player's collection_rank.

  Rule: the collection card is one of the two peeked cards

    @rule:DUT-SEL-1
    Scenario: ann peeked at slots 2 and 3, so the Ace in her slot 0 is not chosen
      Given a dutch game with players ann, bob
      And ann holds AS, 2S, 9C, 7D
      And bob holds 4H, 8H, 5S, 6D
      And ann did initial_peek 2 and 3
      And bob did initial_peek 0 and 1
      Then ann's collection_rank is 7
      And everyone sees player_collection_rank with user ann and card 7D
      And bob knows ann's slot 3
      And ann's slot 3 is face up
      And ann's slots 0, 1 and 2 are face down
      And bob does not know AS
      And bob does not know 2S

    @rule:DUT-SEL-1
    Scenario: each of three players gets one collection card, announced to everyone
      Given a dutch game with players ann, bob, cat
      And ann holds 3D, 9C, 5H, 6H
      And bob holds 4H, 8H, 2S, 6D
      And cat holds 7C, JD, AH, 2H
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      And cat did initial_peek 0 and 1
      Then everyone sees player_collection_rank with user ann and card 3D 1 time
      And everyone sees player_collection_rank with user bob and card 4H 1 time
      And everyone sees player_collection_rank with user cat and card 7C 1 time
      And everyone sees player_collection_rank 3 times
      And cat's collection_rank is 7

    @rule:DUT-SEL-2
    Scenario: bob did not peek, so his card is chosen from his slots 0 and 1
      Given a dutch game with players ann, bob
      And ann holds 3D, 9C, 5H, 6H
      And bob holds 9D, 4C, AH, 2H
      And ann did initial_peek 0 and 1
      And it is ann's turn
      Then bob's collection_rank is 4
      And ann knows bob's slot 1
      And ann does not know bob's slot 2
      And bob does not know AH
      And bob knows 9D

    @rule:DUT-SEL-2
    Scenario: nobody peeked: when time runs out both cards come from slots 0 and 1
      Given a dutch game with players ann, bob
      And ann holds 9C, 3D, AS, 2S
      And bob holds 8H, 4H, AC, 2C
      When time runs out
      Then ann's collection_rank is 3
      And bob's collection_rank is 4
      And only ann sees private_initial_peek with cards.0 9C and cards.1 3D
      And everyone sees player_collection_rank with user ann and card 3D

    @rule:DUT-SEL-11
    Scenario: ann did not peek and her slot 0 is empty: the 3 in her slot 1 is chosen
      Given a dutch game with players ann, bob
      And ann holds _, 3D, 5H, 6H
      And bob holds 4H, 8H, 5S, 6D
      And bob did initial_peek 0 and 1
      When time runs out
      Then only ann sees private_initial_peek with cards.0 3D
      And ann's collection_rank is 3
      And ann's collection_rank_cards is [3D]
      And bob knows 3D
      And everyone sees player_collection_rank with user ann and card 3D
      And the phase is drawing_card

    @rule:DUT-SEL-11
    Scenario: ann did not peek and her slots 0 and 1 are empty: she gets no collection rank
      Given a dutch game with players ann, bob
      And ann holds _, _, 5H, 6H
      And bob holds 4H, 8H, 5S, 6D
      And bob did initial_peek 0 and 1
      When time runs out
      Then ann's collection_rank is none
      And ann's collection_rank_cards is []
      And bob's collection_rank is 4
      And everyone sees player_collection_rank 1 time
      And bob does not know 5H
      And the phase is drawing_card
      And the game is not over

  Rule: a joker is never chosen against another card

    @rule:DUT-SEL-3 @rule:DUT-SEL-8
    Scenario Outline: of <first> and <second> the <chosen> is chosen, not the joker
      Given a dutch game with players ann, bob
      And ann holds <first>, <second>, 6C, 8C
      And bob holds 4H, 8H, 5S, 6D
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      Then ann's collection_rank is <rank>
      And everyone sees player_collection_rank with user ann and card <chosen>
      And bob knows ann's slot <slot>
      And bob does not know ann's slot <other>

      Examples:
        | first | second | chosen | rank | slot | other |
        | JK    | 9C     | 9C     | 9    | 1    | 0     |
        | QS    | JK     | QS     | Q    | 0    | 1     |
        | JK    | KH     | KH     | K    | 1    | 0     |

  Rule: of two cards with different points the one with fewer points is chosen

    @rule:DUT-SEL-4 @rule:DUT-SEL-8
    Scenario Outline: of <first> and <second> the <chosen> has fewer points
      Given a dutch game with players ann, bob
      And ann holds <first>, <second>, 6C, 8C
      And bob holds 4H, 8H, 5S, 6D
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      Then ann's collection_rank is <rank>
      And everyone sees player_collection_rank with user ann and card <chosen> and rank <rank>
      And bob knows ann's slot <slot>
      And bob does not know ann's slot <other>

      Examples:
        | first | second | chosen | rank | slot | other |
        | 7S    | 3D     | 3D     | 3    | 1    | 0     |
        | 3D    | 7S     | 3D     | 3    | 0    | 1     |
        | 2D    | AC     | AC     | A    | 1    | 0     |
        | KH    | AS     | KH     | K    | 0    | 1     |
        | QD    | 9S     | 9S     | 9    | 1    | 0     |

    @rule:DUT-SEL-4 @rule:DUT-PTS-4
    Scenario: the King of diamonds is worth 10, so a 9 is chosen before it
      Given a dutch game with players ann, bob
      And ann holds KD, 9S, 6C, 8C
      And bob holds 4H, 8H, 5S, 6D
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      Then ann's collection_rank is 9
      And bob knows 9S
      And bob does not know KD

  Rule: on equal points Ace, then numbers, then King, then Queen, then Jack

    @rule:DUT-SEL-5 @rule:DUT-SEL-8
    Scenario Outline: <first> and <second> are worth 10 each and the <chosen> is chosen
      Given a dutch game with players ann, bob
      And ann holds <first>, <second>, 6C, 8C
      And bob holds 4H, 8H, 5S, 6D
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      Then ann's collection_rank is <rank>
      And everyone sees player_collection_rank with user ann and card <chosen> and rank <rank>
      And bob knows ann's slot <slot>
      And bob does not know ann's slot <other>

      Examples:
        | first | second | chosen | rank | slot | other |
        | 10S   | KS     | 10S    | 10   | 0    | 1     |
        | KS    | 10S    | 10S    | 10   | 1    | 0     |
        | 10D   | QD     | 10D    | 10   | 0    | 1     |
        | JD    | 10C    | 10C    | 10   | 1    | 0     |
        | KD    | QC     | KD     | K    | 0    | 1     |
        | QC    | KC     | KC     | K    | 1    | 0     |
        | JC    | KS     | KS     | K    | 1    | 0     |
        | QH    | JS     | QH     | Q    | 0    | 1     |
        | JS    | QH     | QH     | Q    | 1    | 0     |

  Rule: two cards of the same rank: one of them, at random

    @rule:DUT-SEL-6
    Scenario Outline: of 7S and 7H one is chosen (seed <seed>)
      Given a dutch game with players ann, bob
      And the seed is <seed>
      And ann holds 7S, 7H, 6C, 8C
      And bob holds 4H, 8H, 5S, 6D
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      Then ann's collection_rank is 7
      And everyone sees player_collection_rank with user ann and rank 7 1 time
      And bob sees player_collection_rank with user ann and card.rank 7
      And ann holds 7S, 7H, 6C, 8C

      Examples:
        | seed |
        | 0    |
        | 1    |
        | 2    |
        | 3    |

    @rule:DUT-SEL-6
    Scenario: of two black Kings one is chosen
      Given a dutch game with players ann, bob
      And ann holds KS, KC, 6C, 8C
      And bob holds 4H, 8H, 5S, 6D
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      Then ann's collection_rank is K
      And bob sees player_collection_rank with user ann and card.rank King 1 time

    @rule:DUT-SEL-6
    Scenario: of two Aces one is chosen
      Given a dutch game with players ann, bob
      And ann holds AS, AD, 6C, 8C
      And bob holds 4H, 8H, 5S, 6D
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      Then ann's collection_rank is A
      And bob sees player_collection_rank with user ann and card.rank Ace 1 time
      And ann holds AS, AD, 6C, 8C

    @rule:DUT-SEL-6 @rule:DUT-SEL-3
    Scenario: of two jokers one is chosen: a joker is refused only beside a card that is not one
      Given a dutch game with players ann, bob
      And ann holds JK, JK, 6C, 8C
      And bob holds 4H, 8H, 5S, 6D
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      Then ann's collection_rank is JK
      And bob sees player_collection_rank with user ann and card.rank Joker 1 time
      And ann holds JK, JK, 6C, 8C

    @rule:DUT-SEL-6 @rule:DUT-SEL-12
    Scenario Outline: the seed decides between 7S and 7H: seed <seed> chooses the <chosen>
      Given a dutch game with players ann, bob
      And the seed is <seed>
      And ann holds 7S, 7H, 6C, 8C
      And bob holds 4H, 8H, 5S, 6D
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      Then ann's collection_rank_cards is [<chosen>]
      And bob knows ann's slot <slot>
      And bob does not know ann's slot <other>

      Examples:
        | seed | chosen | slot | other |
        | 0    | 7H     | 1    | 0     |
        | 3    | 7S     | 0    | 1     |
        | 5    | 7H     | 1    | 0     |
        | 12   | 7S     | 0    | 1     |

  Rule: the chosen card stays in its slot, face up, and sets collection_rank

    @rule:DUT-SEL-7
    Scenario: ann's 3 stays in her slot 1 and everyone knows it
      Given a dutch game with players ann, bob
      And ann holds 9C, 3D, 5H, 6H
      And bob holds 4H, 8H, 2S, 6D
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      And it is ann's turn
      Then ann holds 9C, 3D, 5H, 6H
      And ann's slot 1 is 3D
      And bob knows 3D
      And bob knows ann's slot 1
      And ann knows bob's slot 0
      And everyone sees player_collection_rank with user ann and card 3D and rank 3

    @rule:DUT-SEL-7
    Scenario: bob is shown the face of ann's collection card
      Given a dutch game with players ann, bob
      And ann holds 9C, 3D, 5H, 6H
      And bob holds 4H, 8H, 2S, 6D
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      Then bob receives:
        """
        {"type": "player_collection_rank", "user": {"id": "ann"}, "card": {"id": "{3D}", "rank": "3", "suit": "Diamonds", "value": 3}}
        """

    @rule:DUT-SEL-8
    Scenario: an Ace sets collection_rank A
      Given a dutch game with players ann, bob
      And ann holds 9C, AD, 5H, 6H
      And bob holds 4H, 8H, 2S, 6D
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      Then ann's collection_rank is A
      And bob's collection_rank is 4

  Rule: the other peeked card stays private

    @rule:DUT-SEL-9
    Scenario: ann's other peeked card stays face down, known to her only
      Given a dutch game with players ann, bob
      And ann holds 9C, 3D, 5H, 6H
      And bob holds 4H, 8H, 2S, 6D
      And ann did initial_peek 0 and 1
      And bob did initial_peek 0 and 1
      And it is ann's turn
      Then ann knows 9C
      And bob does not know 9C
      And bob does not know ann's slot 0
      And bob does not know 5H
      And ann does not know bob's slot 1
