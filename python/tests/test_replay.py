"""Recordings and the Python API agree: a game recorded by `deckspec simulate --record-game`
replays through the Python API (its actions as action numbers, its passing time as every seat
passing) to the same end, and a game played in Python, written as a scenario, passes
`deckspec test`."""

import os
import re
import tempfile
import unittest

import numpy as np

import deckspec
from deckspec import PASS
from support import CI, deckspec_program, player_counts, run_program, variants

DOES = re.compile(r"^(?:When|And) (\S+) does (.+)$")
TIME = re.compile(r"^(?:When|And) ([0-9.]+) seconds? pass(?:es)?$")


def needs_program(test):
    if deckspec_program() is None:
        if os.environ.get("DECKSPEC_REQUIRE_BIN"):
            raise AssertionError("no deckspec program: build it (cargo build) or set DECKSPEC_BIN")
        raise unittest.SkipTest("no deckspec program (cargo build, or DECKSPEC_BIN)")


def parse(text):
    """A recording's players, seed, steps (("does", name, command) or ("time", ms)) and Thens."""
    players = seed = None
    steps, thens, part = [], [], "given"
    for line in (l.strip() for l in text.splitlines()):
        if m := re.match(r"^Given an? \S+ game with players (.+)$", line):
            players = [p.strip() for p in m.group(1).split(",")]
        elif m := re.match(r"^And the seed is (\d+)$", line):
            seed = int(m.group(1))
        elif line.startswith("And the house rule"):
            raise AssertionError(f"a recording with house rules: {line}")
        if line.startswith("When"):
            part = "when"
        elif line.startswith("Then"):
            part = "then"
        if part == "when":
            if m := DOES.match(line):
                steps.append(("does", m.group(1), m.group(2)))
            elif m := TIME.match(line):
                steps.append(("time", round(float(m.group(1)) * 1000)))
            elif line:
                raise AssertionError(f"a When line the replay does not know: {line}")
        elif part == "then" and line:
            thens.append(re.sub(r"^(Then|And) ", "", line))
    return players, seed, steps, thens


def then_lines(scenario):
    return parse(scenario)[3]


def replay(name, text):
    """Play a recording's steps through the Python API; the game at the end."""
    players, seed, steps, _ = parse(text)
    game = deckspec.load(name).game(players, seed=seed)
    for step in steps:
        if step[0] == "does":
            seat = players.index(step[1])
            # The seats asked before it in this round pass; it is asked before the round ends,
            # because the action is legal for it.
            while game.agent != seat:
                game.step(PASS)
            game.step(game.command(seat, step[2]))
        else:
            target = game.clock_ms + step[1]
            while game.clock_ms < target:
                assert game.timer_running, "time passes in the recording but no timer runs"
                game.step(PASS)
    return game


class Replay(unittest.TestCase):
    def test_a_recorded_game_replays_through_the_python_api_to_the_same_end(self):
        needs_program(self)
        seeds = 3 if CI else 1
        with tempfile.TemporaryDirectory() as out:
            for name in variants():
                levels = deckspec.load(name).bot_levels or ["random"]
                for players in player_counts(name):
                    for study_seed in range(seeds):
                        with self.subTest(variant=name, players=players, seed=study_seed):
                            path = os.path.join(out, f"{name}-{players}-{study_seed}.feature")
                            bots = levels[study_seed % len(levels)] if levels != ["random"] else "random"
                            done = run_program(
                                "simulate", name, "--games", "1", "--players", str(players),
                                "--seed", str(study_seed), "--bots", bots,
                                "--rules", deckspec.bundled_rules(), "--record-game", "0", path,
                            )
                            self.assertEqual(done.returncode, 0, done.stderr)
                            with open(path) as f:
                                recorded = f.read()
                            game = replay(name, recorded)
                            self.assertTrue(game.is_over, "the recorded game ends in Python too")
                            self.assertEqual(then_lines(game.scenario("replayed")), parse(recorded)[3])

    def test_a_game_played_in_python_is_a_scenario_deckspec_test_passes(self):
        needs_program(self)
        games = 4 if CI else 2
        with tempfile.TemporaryDirectory() as out:
            written = 0
            for name in variants():
                levels = deckspec.load(name).bot_levels
                for g in range(games):
                    players = player_counts(name)[g % len(player_counts(name))]
                    game = deckspec.load(name).game(players, seed=100 + g, max_steps=5000)
                    rng = np.random.default_rng(g)
                    while not game.done:
                        if levels and g % 2:
                            game.step(game.bot_action(game.agent, levels[0]))
                        else:
                            legal = game.legal()
                            game.step(legal[int(rng.integers(len(legal)))])
                    if game.truncated is not None:
                        continue
                    with open(os.path.join(out, f"{name}-{g}.feature"), "w") as f:
                        f.write(game.scenario(f"{name} played in Python, game {g}"))
                    written += 1
            self.assertGreater(written, len(variants()))
            done = run_program("test", out, "--rules", deckspec.bundled_rules())
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
            self.assertIn(f"{written} passed, 0 failed", done.stdout)


if __name__ == "__main__":
    unittest.main()
