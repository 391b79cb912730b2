"""Steps per second of a uniformly random agent through each API, on one core (CPU time):
`python bench.py [--seconds S] [variant ...]` prints one line per variant and API.

A step is one call of the API's step (an action or a pass; in OpenSpiel, the root's deal too).
The agent picks uniformly among the legal actions, as a learning agent's exploration would.
Through PettingZoo it reads the int8 action mask as booleans (a view, no copy), since numpy's
nonzero is several times slower on int8; `--mask-as-given` measures it on the int8 mask.
"""

import argparse
import os
import time

# One core: numpy's BLAS threads would otherwise spin on the other and count in the CPU time.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

import deckspec


def native(name, players, seconds):
    v = deckspec.load(name)
    rng = np.random.default_rng(0)
    steps, games, start = 0, 0, time.process_time()
    while time.process_time() - start < seconds:
        g = v.game(players, seed=games)
        while not g.done:
            g.observe(g.agent)
            legal = g.legal()
            g.step(legal[int(rng.integers(len(legal)))])
            steps += 1
        games += 1
    return steps, games, time.process_time() - start


def pettingzoo(name, players, seconds, mask_as_given=False):
    from deckspec.pettingzoo import env

    e = env(name, players=players, seed=0)
    rng = np.random.default_rng(0)
    steps, games, start = 0, 0, time.process_time()
    while time.process_time() - start < seconds:
        e.reset(seed=games)
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            # The mask read as booleans (a view, no copy): numpy's nonzero is several times
            # slower on int8 (about 9 µs for Cambia's 4,687 actions, against 1.3 µs).
            mask = obs["action_mask"]
            legal = np.flatnonzero(mask if mask_as_given else mask.view(np.bool_))
            e.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        games += 1
    return steps, games, time.process_time() - start


def openspiel(name, players, seconds):
    import pyspiel

    import deckspec.openspiel  # noqa: F401  (registers the variants)

    game = pyspiel.load_game(f"deckspec_{name}", {"players": players})
    rng = np.random.default_rng(0)
    steps, games, start = 0, 0, time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
            else:
                state.observation_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
            steps += 1
        games += 1
    return steps, games, time.process_time() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*")
    parser.add_argument("--seconds", type=float, default=10.0, help="CPU seconds per variant and API")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--api", action="append", choices=["native", "pettingzoo", "openspiel"])
    parser.add_argument(
        "--mask-as-given",
        action="store_true",
        help="PettingZoo's agent runs np.flatnonzero on the int8 mask itself, not on a boolean view of it",
    )
    args = parser.parse_args()
    apis = args.api or ["native", "pettingzoo", "openspiel"]
    for name in args.variants or deckspec.variants():
        low, high = deckspec.load(name).players
        players = min(max(args.players, low), high)
        for api in apis:
            if api == "pettingzoo":
                steps, games, cpu = pettingzoo(name, players, args.seconds, args.mask_as_given)
            else:
                steps, games, cpu = globals()[api](name, players, args.seconds)
            print(f"{name:8} {api:10} {players} players: {steps / cpu:9,.0f} steps/s ({steps} steps, {games} games, {cpu:.1f} s CPU)", flush=True)


if __name__ == "__main__":
    main()
