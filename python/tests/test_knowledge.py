"""An observation never shows a face its seat does not know: over whole games of every variant
(random seats and bots), each seat's observation, decoded, is checked card by card against the
kernel's own view for that seat (the view a server sends, which shows a face only to a seat
whose knowledge holds it)."""

import json
import unittest

import numpy as np

import deckspec
from deckspec import observation_slices
from support import CI, player_counts, variants

RANKS = ["Joker", "Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King"]
SUITS = ["Spades", "Hearts", "Diamonds", "Clubs"]
CARD = 3 + 14 + 4


def decoded(card):
    """A card's numbers as (occupied, face or None)."""
    occupied, known = card[0] == 1, card[1] == 1
    ranks, suits = np.flatnonzero(card[3:17]), np.flatnonzero(card[17:21])
    if not known:
        assert not ranks.size and not suits.size, "an unknown card shows a rank or a suit"
        return occupied, None
    assert ranks.size == 1 and suits.size <= 1
    return occupied, (RANKS[ranks[0]], SUITS[suits[0]] if suits.size else None)


def viewed(card):
    if card is None:
        return False, None
    if "rank" not in card:
        return True, None
    return True, (card["rank"], card["suit"])


class Knowledge(unittest.TestCase):
    def check_game(self, game):
        n, where = game.num_players, observation_slices(game)
        slots = game.slots
        for seat in range(n):
            obs = game.observe(seat)
            view = json.loads(game.view_json(seat))
            hands = obs[where["hands"]].reshape(n, slots, CARD)
            for k in range(n):
                hand = view["players"][(seat + k) % n]["hand"]
                for slot in range(slots):
                    expected = viewed(hand[slot]) if slot < len(hand) else (False, None)
                    self.assertEqual(decoded(hands[k, slot]), expected, f"seat {seat} sees seat +{k} slot {slot}")
            piles = obs[where["piles"]].reshape(-1, 1 + CARD)
            for pile, (name, shown) in zip(piles, view["piles"].items()):
                self.assertEqual(pile[0], shown["size"], name)
                self.assertEqual(decoded(pile[1:]), viewed(shown["top"]), f"seat {seat}'s {name} top")
            # A seat that is not asked has nothing to choose.
            if game.agent != seat:
                self.assertFalse(game.mask(seat).any())

    def test_no_observation_shows_an_unknown_face_over_whole_games(self):
        games = 12 if CI else 3
        for name in variants():
            levels = deckspec.load(name).bot_levels
            for players in player_counts(name):
                for g in range(games):
                    with self.subTest(variant=name, players=players, game=g):
                        game = deckspec.load(name).game(players, seed=g, max_steps=3000)
                        rng = np.random.default_rng(g)
                        level = levels[g % len(levels)] if levels and g % 2 else None
                        self.check_game(game)
                        while not game.done:
                            if level is not None:
                                action = game.bot_action(game.agent, level)
                            else:
                                action = int(rng.choice(game.legal()))
                            game.step(action)
                            self.check_game(game)


if __name__ == "__main__":
    unittest.main()
