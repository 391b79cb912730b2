"""The PettingZoo environments, checked by PettingZoo's own `api_test` for every variant and
player count, and by our tests of what api_test does not look at: illegal actions, seeds,
rewards, render, bots as policies, a designer's own rules folder."""

import os
import shutil
import tempfile
import unittest

import numpy as np
from pettingzoo.test import api_test

import deckspec
from deckspec import observation_slices
from deckspec.bots import policy
from deckspec.pettingzoo import env, raw_env
from support import CI, player_counts, variants


def play_random(e, seed):
    """One game of uniformly random legal actions; the number of steps."""
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    steps = 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return steps


class ApiTest(unittest.TestCase):
    def test_pettingzoo_api_test_passes_for_every_variant(self):
        cycles = 2000 if CI else 400
        for name in variants():
            for players in player_counts(name):
                with self.subTest(variant=name, players=players):
                    api_test(env(name, players=players, seed=3), num_cycles=cycles)
                    api_test(env(name, players=players, seed=4, wrapped=True), num_cycles=cycles // 4)


class Behaviour(unittest.TestCase):
    def test_an_illegal_action_is_refused_and_changes_nothing(self):
        e = raw_env("cambia", players=3, seed=5)
        e.reset(seed=5)
        mask = e.observe(e.agent_selection)["action_mask"]
        illegal = int(np.flatnonzero(mask == 0)[0])
        before = (e.agent_selection, e.game.steps, e.game.observe(0).tobytes())
        with self.assertRaises(deckspec.IllegalAction) as caught:
            e.step(illegal)
        self.assertIn("not legal now", str(caught.exception))
        self.assertEqual(before, (e.agent_selection, e.game.steps, e.game.observe(0).tobytes()))
        with self.assertRaises(deckspec.IllegalAction):
            e.step(e.game.action_count + 7)

    def test_stepping_or_observing_before_reset_is_refused(self):
        e = env("golf", players=2)
        with self.assertRaises(RuntimeError):
            e.step(0)
        with self.assertRaises(RuntimeError):
            e.observe("player_0")
        e.reset(seed=1)
        with self.assertRaises(deckspec.IllegalAction):
            e.step(None)

    def test_a_seed_deals_and_plays_the_same_game(self):
        for name in variants():
            with self.subTest(variant=name):
                a, b = raw_env(name, players=2), raw_env(name, players=2)
                self.assertEqual(play_random(a, 11), play_random(b, 11))
                self.assertEqual(a.game.steps, b.game.steps)
                self.assertEqual(a.game.scenario("t"), b.game.scenario("t"))

    def test_a_saved_game_restores_and_goes_on_the_same(self):
        for name in variants():
            with self.subTest(variant=name):
                variant = deckspec.load(name)
                game = variant.game(2, seed=9)
                rng = np.random.default_rng(9)
                for _ in range(40):
                    if game.done:
                        break
                    legal = game.legal()
                    game.step(legal[int(rng.integers(len(legal)))])
                copy = variant.restore(game.save())
                self.assertEqual((copy.legal(), copy.steps, copy.agent), (game.legal(), game.steps, game.agent))
                while not game.done:
                    legal = game.legal()
                    action = legal[int(rng.integers(len(legal)))]
                    game.step(action)
                    copy.step(action)
                self.assertEqual(copy.scenario("t"), game.scenario("t"))
        with self.assertRaises(ValueError):
            deckspec.load("golf").restore("{}")
        with self.assertRaises(ValueError):
            deckspec.load("golf").restore(deckspec.load("cambia").game(2).save())

    def test_rewards_come_at_the_end_and_follow_the_outcome(self):
        for name in variants():
            for reward in ("outcome", "score"):
                with self.subTest(variant=name, reward=reward):
                    e = raw_env(name, players=2, reward=reward)
                    play_random(e, 2)
                    game = e.game
                    if game.truncated is not None:
                        continue
                    winners, _ = game.outcome()
                    totals = game.rewards()
                    if reward == "outcome":
                        expected = [0.0] * 2 if not winners else [1.0 if s in winners else -1.0 for s in range(2)]
                        self.assertEqual(totals, expected)
                    else:
                        self.assertAlmostEqual(sum(totals), 0.0)

    def test_render_shows_the_asked_seat_its_table(self):
        e = raw_env("cambia", players=2, seed=1, render_mode="ansi")
        e.reset(seed=1)
        text = e.render()
        self.assertIn("phase", text)
        self.assertIn("(you)", text)

    def test_bad_settings_are_refused_by_name(self):
        with self.assertRaises(ValueError) as caught:
            raw_env("cambia", players=2, house_rules={"no_such_rule": 1})
        self.assertIn("no_such_rule", str(caught.exception))
        with self.assertRaises(ValueError):
            raw_env("cambia", players=99)
        with self.assertRaises(ValueError):
            raw_env("cambia", players=2, reward="points")
        with self.assertRaises(deckspec.RulesError):
            raw_env("no_such_variant")

    def test_house_rules_change_the_game(self):
        low, high = deckspec.load("cambia").players
        rules = dict(deckspec.load("cambia").house_rules)
        self.assertTrue(rules, "cambia declares house rules")
        e = raw_env("cambia", players=2, house_rules={"penalty_draw_count": 2}, seed=1)
        e.reset(seed=1)
        self.assertIn("the house rule penalty_draw_count is 2", e.game.scenario("t"))

    def test_every_bot_level_plays_whole_games_as_a_policy(self):
        for name in variants():
            levels = deckspec.load(name).bot_levels
            for level in levels:
                with self.subTest(variant=name, level=level):
                    bot = policy(name, level)
                    e = env(name, players=2, seed=4)
                    e.reset(seed=4)
                    for agent in e.agent_iter():
                        obs, _, terminated, truncated, _ = e.last()
                        if terminated or truncated:
                            e.step(None)
                            continue
                        action = bot(e, agent)
                        self.assertEqual(obs["action_mask"][action], 1)
                        e.step(action)
                    self.assertTrue(e.unwrapped.game.done)
        with self.assertRaises(ValueError):
            policy("cambia", "grandmaster")

    def test_a_designers_rules_folder_plays(self):
        with tempfile.TemporaryDirectory() as root:
            shutil.copytree(os.path.join(deckspec.bundled_rules(), "cambia"), os.path.join(root, "cambia"))
            api_test(env("cambia", players=3, rules=root, seed=1), num_cycles=200)
            self.assertEqual(deckspec.variants(root), ["cambia"])
            # A designer changes a house rule's default; a reload plays the new rules.
            path = os.path.join(root, "cambia", "variant.yaml")
            with open(path) as f:
                text = f.read()
            changed = text.replace("    default: 4\n", "    default: 3\n", 1)
            self.assertNotEqual(changed, text)
            with open(path, "w") as f:
                f.write(changed)
            self.assertEqual(dict(deckspec.load("cambia", root).house_rules)["hand_size"], "4")
            self.assertEqual(dict(deckspec.load("cambia", root, reload=True).house_rules)["hand_size"], "3")
            e = raw_env("cambia", players=2, rules=root, seed=1)
            e.reset(seed=1)
            self.assertEqual(e.game.observe(0)[observation_slices(e.game)["hand_sizes"]][0], 3)
            # A broken script is an error naming the file, not a crash.
            with open(os.path.join(root, "cambia", "cambia.rhai"), "a") as f:
                f.write("\nfn broken( {\n")
            with self.assertRaises(deckspec.RulesError) as caught:
                deckspec.load("cambia", root, reload=True)
            self.assertIn("cambia.rhai", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
