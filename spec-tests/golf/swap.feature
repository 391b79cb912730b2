@golf
Feature: Swapping the drawn card into the layout
  "Golf (six-card), as commonly played", section "Turn"; deckspec rulings "Golf (six-card)": the
  drawn card goes face up into a slot of the player's own layout and the card that was there goes
  face up onto the discard pile.

  Background:
    Given a golf game with players ann, bob
    And ann holds 5S, 7H, KD, 6C, 9D, 2S
    And bob holds 4H, 6D, 3S, 8H, QC, AC
    And the discard pile is 8D
    And the draw pile is 10C, 4C
    And it is ann's turn

  @rule:GOLF-SWAP-1 @rule:GOLF-FACE-3
  Scenario: a card drawn from the stock replaces a face-down card, which is discarded face up
    Given ann did draw_stock
    When ann does swap slot 4
    Then ann holds 5S, 7H, KD, 6C, 10C, 2S
    And ann's slot 4 is face up
    And ann's slots 2, 3 and 5 are face down
    And the discard pile is 9D, 8D
    And everyone knows 9D
    And everyone knows 10C
    And everyone knows ann's slot 4

  @rule:GOLF-SWAP-1
  Scenario: a card can replace a face-up card too
    Given ann did draw_stock
    When ann does swap slot 1
    Then ann holds 5S, 10C, KD, 6C, 9D, 2S
    And ann's slot 1 is face up
    And the discard pile top is 7H
    And everyone knows 7H

  @rule:GOLF-SWAP-1 @rule:GOLF-DRAW-3
  Scenario: the top of the discard pile is swapped in face up
    Given ann did draw_discard
    When ann does swap slot 2
    Then ann holds 5S, 7H, 8D, 6C, 9D, 2S
    And ann's slot 2 is face up
    And the discard pile is KD
    And everyone knows KD

  @rule:GOLF-SWAP-2 @rule:GOLF-EVT-2
  Scenario: a swap is announced with the card now in the slot and the card it replaced
    Given ann did draw_stock
    When ann does swap slot 4
    Then everyone sees player_swap with user ann and card 10C and card.idx 4 and card.user ann and replaced 9D and replaced.idx 4 and replaced.user ann
    And bob receives:
      """
      {
        "type": "player_swap",
        "user": {"id": "ann"},
        "card": {"id": "{10C}", "rank": "10", "suit": "Clubs", "value": 10, "idx": 4, "user": {"id": "ann"}},
        "replaced": {"id": "{9D}", "rank": "9", "suit": "Diamonds", "value": 9, "idx": 4, "user": {"id": "ann"}}
      }
      """

  @rule:GOLF-SWAP-2
  Scenario: a swap sends no player_discard
    Given ann did draw_stock
    When ann does swap slot 0
    Then everyone sees player_swap with replaced 5S and replaced.idx 0
    And ann does not see player_discard
    And bob does not see player_discard

  @rule:GOLF-SWAP-3 @rule:GOLF-TURN-2
  Scenario: a swap ends the turn
    Given ann did draw_stock
    When ann does swap slot 5
    Then it is bob's turn
    And the phase is awaiting_draw
    And everyone sees game_player_turn with user bob

  @rule:GOLF-SWAP-3
  Scenario Outline: a swap names one card of the swapper's layout, by slot or by face
    Given ann did draw_stock
    When ann does swap <target>
    Then ann's slot <slot> is 10C
    And the discard pile top is <old>

    Examples:
      | target | slot | old |
      | slot 3 | 3    | 6C  |
      | 3      | 3    | 6C  |
      | 2S     | 5    | 2S  |

  @rule:GOLF-SWAP-3
  Scenario: a card of another layout is refused
    Given ann did draw_stock
    When ann does swap bob's slot 0
    Then the action is rejected with "that card is not in your layout"
    When ann does swap 8D
    Then the action is rejected with "that card is not in your layout"
    And bob holds 4H, 6D, 3S, 8H, QC, AC
    And the phase is awaiting_decision

  @rule:GOLF-SWAP-3
  Scenario Outline: swap takes exactly one slot
    Given ann did draw_stock
    When ann does swap <args>
    Then the action is rejected with "<reason>"
    And ann holds 5S, 7H, KD, 6C, 9D, 2S

    Examples:
      | args         | reason                             |
      | slot 1 and 2 | swap takes one slot of your layout |
      | drawn        | expected a card, not `drawn`       |
      | 6            | no card in slot 6 of ann's hand    |

  @rule:GOLF-SWAP-3
  Scenario: swap with no slot is refused
    Given ann did draw_stock
    When ann does swap
    Then the action is rejected with "swap takes one slot of your layout, as in: swap slot 2"
