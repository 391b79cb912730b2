"""The OpenSpiel games (deckspec.openspiel), checked by OpenSpiel's own `random_sim_test` (with
serialization) for every bundled variant, and by our tests of what it does not look at:
parameters, the chance node, clones, serialization, illegal actions, observations and
information states, rewards, bots on states, and a designer's own rules folder.

    /tmp/pyenv/bin/python python/tests/test_openspiel.py      # DECKSPEC_TEST_SIZE=ci: more sims
"""

import os
import pickle
import shutil
import sys
import tempfile
import time
import unittest

import numpy as np
import pyspiel

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import deckspec  # noqa: E402
import deckspec.openspiel as dso  # noqa: E402
from deckspec.bots import policy  # noqa: E402
from support import CI, variants  # noqa: E402

# Simulations per configuration. A random four-player Cambia runs to the 2000-step cut (about
# ten seconds a simulation on a debug build: the native clone's cost grows with the steps, and
# random_sim_test clones at every step); the other variants finish in well under a second.
SIMS = 8 if CI else 2
SIMS_TWO_PLAYERS = 20 if CI else 5


def play(state, rng, limit=None):
    """Random legal actions (the deal included) until terminal or `limit` actions."""
    n = 0
    while not state.is_terminal() and (limit is None or n < limit):
        if state.is_chance_node():
            outcomes, _ = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        n += 1
    return state


class RandomSimTest(unittest.TestCase):
    """OpenSpiel's own checks (clone, serialize, legal actions and masks, tensor sizes,
    returns in the utility range, game length within max_game_length) for every variant."""

    def run_sims(self, name, params, sims):
        game = pyspiel.load_game(f"deckspec_{name}", params)
        started = time.time()
        pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)
        if os.environ.get("DECKSPEC_TEST_TIMES"):
            print(f"  random_sim_test {game}: {sims} sims, {time.time() - started:.1f}s", file=sys.stderr)

    def test_every_variant_with_its_default_players(self):
        for name in variants():
            with self.subTest(variant=name):
                self.run_sims(name, {}, SIMS)

    def test_every_variant_with_two_players(self):
        for name in variants():
            with self.subTest(variant=name):
                self.run_sims(name, {"players": 2}, SIMS_TWO_PLAYERS)

    def test_every_variant_with_score_rewards_and_three_players(self):
        for name in variants():
            with self.subTest(variant=name):
                self.run_sims(name, {"players": 3, "reward": "score"}, SIMS)

    def test_a_short_cut_and_few_deals(self):
        for name in variants():
            with self.subTest(variant=name):
                self.run_sims(name, {"players": 2, "max_steps": 25, "chance_outcomes": 3}, SIMS_TWO_PLAYERS)


class Registration(unittest.TestCase):
    def test_every_bundled_variant_is_registered_with_its_type_and_info(self):
        names = pyspiel.registered_names()
        for name in variants():
            with self.subTest(variant=name):
                self.assertIn(f"deckspec_{name}", names)
                low, high = deckspec.load(name).players
                game = pyspiel.load_game(f"deckspec_{name}")
                kind = game.get_type()
                self.assertEqual((kind.min_num_players, kind.max_num_players), (low, high))
                self.assertEqual(kind.dynamics, pyspiel.GameType.Dynamics.SEQUENTIAL)
                self.assertEqual(kind.chance_mode, pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC)
                self.assertEqual(kind.information, pyspiel.GameType.Information.IMPERFECT_INFORMATION)
                self.assertEqual(kind.reward_model, pyspiel.GameType.RewardModel.TERMINAL)
                self.assertTrue(kind.provides_information_state_string)
                self.assertTrue(kind.provides_information_state_tensor)
                self.assertTrue(kind.provides_observation_string and kind.provides_observation_tensor)
                self.assertEqual(game.num_players(), max(low, min(4, high)))
                native = deckspec.load(name).game(game.num_players(), seed=0)
                self.assertEqual(game.num_distinct_actions(), native.action_count)
                self.assertEqual(game.observation_tensor_size(), native.observation_size)
                self.assertEqual(game.information_state_tensor_size(), native.observation_size + 1)
                self.assertEqual(game.max_chance_outcomes(), dso.DEFAULT_CHANCE_OUTCOMES)
                self.assertEqual(game.max_game_length(), dso.DEFAULT_MAX_STEPS + 1)
                self.assertEqual((game.min_utility(), game.max_utility()), (-1.0, 1.0))
                scored = pyspiel.load_game(f"deckspec_{name}", {"reward": "score", "score_bound": 500.0})
                self.assertEqual((scored.min_utility(), scored.max_utility()), (-500.0, 500.0))

    def test_registering_again_is_harmless_and_a_taken_name_is_refused(self):
        self.assertEqual(dso.register("golf"), "deckspec_golf")
        with self.assertRaises(ValueError):
            dso.register("cambia", short_name="deckspec_golf")
        with self.assertRaises(ValueError):
            dso.register("golf", short_name="kuhn_poker")


class Parameters(unittest.TestCase):
    def test_house_rules_read_as_values_and_survive_the_game_string(self):
        text = "penalty_draw_count=3, allow_draw_from_discard_pile=true,initial_peek_slots=[0, 2]"
        game = pyspiel.load_game("deckspec_cambia", {"house_rules": text, "players": 3})
        self.assertEqual(
            game.deckspec_settings["house_rules"],
            {"penalty_draw_count": 3, "allow_draw_from_discard_pile": True, "initial_peek_slots": [0, 2]},
        )
        canonical = game.get_parameters()["house_rules"]
        self.assertEqual(
            canonical, "allow_draw_from_discard_pile:true;initial_peek_slots:[0 2];penalty_draw_count:3"
        )
        again = pyspiel.load_game(str(game))
        self.assertEqual(str(again), str(game))
        self.assertEqual(again.deckspec_settings, game.deckspec_settings)
        # The house rules reach the native game.
        state = again.new_initial_state()
        state.apply_action(0)
        rules = game.deckspec_settings["house_rules"]
        direct = deckspec.load("cambia").game(3, seed=0, house_rules=rules, max_steps=2000)
        self.assertEqual(state.deckspec_game.render(0), direct.render(0))

    def test_parse_house_rules(self):
        parse = dso.parse_house_rules
        self.assertEqual(parse(""), {})
        self.assertEqual(
            parse("a=1;b:false; c = [x, y] ,d=-2.5,e=word"),
            {"a": 1, "b": False, "c": ["x", "y"], "d": -2.5, "e": "word"},
        )
        self.assertEqual(parse("s=[0 1 2]"), {"s": [0, 1, 2]})
        self.assertEqual(dso.format_house_rules(parse("b=[1,2],a=TRUE")), "a:true;b:[1 2]")
        for bad in ("x", "=1", "a=[1", "a=1]", "a="):
            with self.subTest(text=bad), self.assertRaises(ValueError):
                parse(bad)

    def test_bad_settings_raise_naming_them(self):
        cases = [
            ({"house_rules": "nope=1"}, "nope"),
            ({"house_rules": "penalty_draw_count=x"}, "penalty_draw_count"),
            ({"players": 13}, "players"),
            ({"reward": "money"}, "reward"),
            ({"max_steps": 0}, "max_steps"),
            ({"chance_outcomes": 0}, "chance_outcomes"),
            ({"score_bound": 0.0}, "score_bound"),
        ]
        for params, word in cases:
            with self.subTest(params=params):
                with self.assertRaises(ValueError) as caught:
                    pyspiel.load_game("deckspec_cambia", params)
                self.assertIn(word, str(caught.exception))


class States(unittest.TestCase):
    def test_the_root_is_a_uniform_chance_node_over_seeds(self):
        game = pyspiel.load_game("deckspec_check", {"chance_outcomes": 5, "players": 2})
        state = game.new_initial_state()
        self.assertEqual(state.current_player(), pyspiel.PlayerId.CHANCE)
        self.assertEqual(state.chance_outcomes(), [(k, 0.2) for k in range(5)])
        self.assertEqual(state.legal_actions(), list(range(5)))
        self.assertIsNone(state.deckspec_game)
        self.assertEqual(state.action_to_string(pyspiel.PlayerId.CHANCE, 3), "deal seed 3")
        with self.assertRaises(ValueError):
            state.apply_action(5)
        state.apply_action(3)
        self.assertEqual(state.deckspec_game.seed, 3)
        native = deckspec.load("check").game(2, seed=3, max_steps=2000)
        self.assertEqual(state.current_player(), native.agent)
        self.assertEqual(state.legal_actions(), native.legal())
        self.assertEqual(state.deckspec_game.render(0), native.render(0))
        self.assertEqual(state.chance_outcomes(), [])

    def test_the_same_history_gives_the_same_state(self):
        for name in variants():
            with self.subTest(variant=name):
                game = pyspiel.load_game(f"deckspec_{name}", {"players": 2})
                a = play(game.new_initial_state(), np.random.default_rng(4), limit=40)
                b = game.new_initial_state()
                for action in a.history():
                    b.apply_action(action)
                self.assertEqual(str(a), str(b))
                self.assertEqual(a.information_state_string(0), b.information_state_string(0))
                self.assertEqual(a.observation_tensor(1), b.observation_tensor(1))

    def test_a_clone_is_independent(self):
        for name in variants():
            with self.subTest(variant=name):
                game = pyspiel.load_game(f"deckspec_{name}", {"players": 3})
                rng = np.random.default_rng(5)
                state = play(game.new_initial_state(), rng, limit=10)
                state.information_state_string(0)  # the seat's record is kept from now on
                before = (str(state), state.history(), state.information_state_string(0))
                clone = state.clone()
                self.assertEqual(str(clone), before[0])
                self.assertIsNot(clone.deckspec_game, state.deckspec_game)
                play(clone, rng, limit=15)
                self.assertEqual((str(state), state.history(), state.information_state_string(0)), before)
                self.assertNotEqual(clone.history(), state.history())
                # The clone's record went on step by step; a replay from scratch agrees.
                rebuilt = game.deserialize_state(clone.serialize())
                self.assertEqual(clone.information_state_string(0), rebuilt.information_state_string(0))
                # And the original goes on its own way.
                play(state, rng, limit=5)
                rebuilt = game.deserialize_state(state.serialize())
                self.assertEqual(state.information_state_string(0), rebuilt.information_state_string(0))

    def test_serialize_and_deserialize_round_trip(self):
        for name in variants():
            with self.subTest(variant=name):
                game = pyspiel.load_game(f"deckspec_{name}", {"players": 2, "house_rules": ""})
                rng = np.random.default_rng(6)
                for limit in (0, 1, 30):
                    state = play(game.new_initial_state(), rng, limit=limit)
                    back = game.deserialize_state(state.serialize())
                    self.assertEqual(str(back), str(state))
                    self.assertEqual(back.history(), state.history())
                    text = pyspiel.serialize_game_and_state(game, state)
                    game2, state2 = pyspiel.deserialize_game_and_state(text)
                    self.assertEqual(str(game2), str(game))
                    self.assertEqual(str(state2), str(state))
                    self.assertEqual(str(pickle.loads(pickle.dumps(state))), str(state))
                    self.assertEqual(str(pickle.loads(pickle.dumps(game))), str(game))
                    if not state.is_terminal() and not state.is_chance_node():
                        action = state.legal_actions()[-1]
                        state.apply_action(action)
                        back.apply_action(action)
                        self.assertEqual(str(back), str(state))

    def test_an_illegal_action_raises_and_changes_nothing(self):
        game = pyspiel.load_game("deckspec_cambia", {"players": 3})
        state = game.new_initial_state()
        state.apply_action(11)
        legal = set(state.legal_actions())
        illegal = next(a for a in range(game.num_distinct_actions()) if a not in legal)
        before = (str(state), state.history(), state.information_state_string(1))
        for action in (illegal, game.num_distinct_actions() + 3):
            with self.subTest(action=action):
                with self.assertRaises(deckspec.IllegalAction) as caught:
                    state.apply_action(action)
                self.assertIsInstance(caught.exception, ValueError)
                self.assertIn("not legal now", str(caught.exception))
                self.assertEqual((str(state), state.history(), state.information_state_string(1)), before)

    def test_only_the_seat_asked_has_legal_actions(self):
        game = pyspiel.load_game("deckspec_recall", {"players": 3})
        state = play(game.new_initial_state(), np.random.default_rng(7), limit=12)
        asked = state.current_player()
        for seat in range(3):
            self.assertEqual(bool(state.legal_actions(seat)), seat == asked)
        mask = state.legal_actions_mask(asked)
        self.assertEqual(list(np.flatnonzero(mask)), state.legal_actions())

    def test_returns_come_at_the_end_and_follow_the_reward(self):
        for name in variants():
            for reward in ("outcome", "score"):
                with self.subTest(variant=name, reward=reward):
                    game = pyspiel.load_game(f"deckspec_{name}", {"players": 2, "reward": reward})
                    state = game.new_initial_state()
                    self.assertEqual(state.rewards(), [0.0, 0.0])
                    rng = np.random.default_rng(8)
                    play(state, rng, limit=1)
                    while not state.is_terminal():
                        self.assertEqual(state.returns(), [0.0, 0.0])
                        state.apply_action(int(rng.choice(state.legal_actions())))
                    native = state.deckspec_game
                    self.assertEqual(state.returns(), native.rewards())
                    self.assertEqual(state.rewards(), state.returns())
                    self.assertEqual(state.current_player(), pyspiel.PlayerId.TERMINAL)
                    if native.is_over and reward == "score":
                        self.assertAlmostEqual(sum(state.returns()), 0.0)
                    for r in state.returns():
                        self.assertTrue(game.min_utility() <= r <= game.max_utility())

    def test_a_game_cut_short_is_terminal_with_zero_returns(self):
        game = pyspiel.load_game("deckspec_cambia", {"players": 4, "max_steps": 30})
        state = play(game.new_initial_state(), np.random.default_rng(9))
        self.assertTrue(state.is_terminal())
        self.assertIsNotNone(state.deckspec_game.truncated)
        self.assertEqual(state.returns(), [0.0] * 4)
        self.assertLessEqual(len(state.history()), game.max_game_length())
        self.assertIn("cut short", str(state))

    def test_a_bot_plays_a_state(self):
        game = pyspiel.load_game("deckspec_golf", {"players": 2})
        state = game.new_initial_state()
        state.apply_action(2)
        expert = policy("golf", "expert")
        for _ in range(20):
            if state.is_terminal():
                break
            action = expert(state)
            self.assertIn(action, state.legal_actions())
            state.apply_action(action)


class Observations(unittest.TestCase):
    def test_observations_are_the_native_view(self):
        for name in variants():
            with self.subTest(variant=name):
                game = pyspiel.load_game(f"deckspec_{name}", {"players": 3})
                state = game.new_initial_state()
                size = game.observation_tensor_size()
                self.assertEqual(state.observation_tensor(0), [0.0] * size)
                self.assertEqual(state.observation_string(0), "deal pending")
                self.assertEqual(state.information_state_tensor(0), [0.0] * (size + 1))
                play(state, np.random.default_rng(10), limit=20)
                native = state.deckspec_game
                for seat in range(3):
                    self.assertEqual(state.observation_tensor(seat), native.observe(seat).tolist())
                    self.assertEqual(state.observation_string(seat), native.render(seat))
                    info = state.information_state_tensor(seat)
                    self.assertEqual(info[:size], native.observe(seat).tolist())
                    self.assertAlmostEqual(info[size], len(native.steps) / dso.DEFAULT_MAX_STEPS, places=6)

    def test_python_observers_follow_the_pyobserver_pattern(self):
        from open_spiel.python.observation import make_observation

        game = pyspiel.load_game("deckspec_dutch", {"players": 2})
        state = play(game.new_initial_state(), np.random.default_rng(11), limit=6)
        obs = make_observation(game)
        obs.set_from(state, 1)
        self.assertEqual(list(obs.dict), ["observation"])
        np.testing.assert_array_equal(obs.tensor, state.deckspec_game.observe(1))
        info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
        info.set_from(state, 1)
        self.assertEqual(list(info.dict), ["observation", "progress"])
        self.assertEqual(info.string_from(state, 1), state.information_state_string(1))
        with self.assertRaises(ValueError):
            public_only = pyspiel.IIGObservationType(
                perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
            )
            make_observation(game, public_only)

    def test_the_information_state_string_recalls_every_step_and_hides_the_seed(self):
        game = pyspiel.load_game("deckspec_cambia", {"players": 2})
        state = game.new_initial_state()
        state.apply_action(321)
        rng = np.random.default_rng(12)
        for _ in range(25):
            if state.is_terminal():
                break
            state.apply_action(int(rng.choice(state.legal_actions())))
        native = state.deckspec_game
        for seat in range(2):
            lines = state.information_state_string(seat).split("\n")
            self.assertEqual(lines[0], f"deckspec_cambia · 2 players · p{seat}")
            self.assertTrue(lines[1].startswith("dealt: "))
            self.assertEqual(len(lines), 2 + len(native.steps))
            for n, action in enumerate(native.steps, 1):
                self.assertTrue(lines[1 + n].startswith(f"{n}. p"))
                self.assertIn(native.describe(action), lines[1 + n])
            self.assertNotIn("321", "\n".join(lines))
        self.assertNotEqual(state.information_state_string(0), state.information_state_string(1))


class DesignersVariant(unittest.TestCase):
    def test_a_rules_folder_of_ones_own_registers_and_plays(self):
        folder = tempfile.mkdtemp(prefix="deckspec-openspiel-test-")
        self.addCleanup(shutil.rmtree, folder, True)
        shutil.copytree(os.path.join(deckspec.bundled_rules(), "cambia"), os.path.join(folder, "mycambia"))
        # The folder names the variant; its variant.yaml's `name:` need not match it, but a
        # variant renamed there must be renamed in its rulebook.yaml's `variant:` too.
        renames = (
            ("variant.yaml", "name: cambia", "name: mycambia"),
            ("rulebook.yaml", "variant: cambia", "variant: mycambia"),
        )
        for file, old, new in renames:
            path = os.path.join(folder, "mycambia", file)
            with open(path) as f:
                text = f.read()
            self.assertIn(old, text)
            with open(path, "w") as f:
                f.write(text.replace(old, new, 1))

        name = dso.register("mycambia", rules=folder)
        self.assertEqual(name, "deckspec_mycambia")
        self.assertEqual(dso.register("mycambia", rules=folder), name)
        self.assertEqual(dso.registered()[name], ("mycambia", os.path.abspath(folder)))
        game = pyspiel.load_game(name, {"players": 2})
        self.assertEqual(game.get_type().long_name, f"deckspec mycambia ({os.path.abspath(folder)})")
        pyspiel.random_sim_test(game, num_sims=SIMS_TWO_PLAYERS, serialize=True, verbose=False)
        state = play(game.new_initial_state(), np.random.default_rng(13), limit=20)
        self.assertEqual(str(pickle.loads(pickle.dumps(state))), str(state))
        self.assertEqual(str(game.deserialize_state(state.serialize())), str(state))

        # The same rules as the bundled Cambia play the same game.
        bundled = pyspiel.load_game("deckspec_cambia", {"players": 2})
        twin = bundled.new_initial_state()
        for action in state.history():
            twin.apply_action(action)
        self.assertEqual(twin.deckspec_game.render(0), state.deckspec_game.render(0))

        # Another short name for the same folder, and the name taken by another folder.
        self.assertEqual(dso.register("mycambia", rules=folder, short_name="my_cambia_2"), "my_cambia_2")
        with self.assertRaises(ValueError):
            dso.register("cambia", short_name=name)


if __name__ == "__main__":
    unittest.main(verbosity=2)
