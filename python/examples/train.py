"""The loop a learning agent trains in, with random agents in its place: every seat but one is
a uniformly random agent, the remaining seat is the variant's expert bot (it moves around the
table from game to game), and the random agents' win rate is printed at the end.

    python examples/train.py                          # cambia, 4 players, 1,000 games
    python examples/train.py --variant golf --players 2 --games 200

Replace `act` with your agent's policy (and learn from `reward` as it arrives) to train it.
"""

import argparse
import time

import numpy as np

from deckspec.bots import policy
from deckspec.pettingzoo import env


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="cambia")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--level", default="expert")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    e = env(args.variant, players=args.players, seed=args.seed)
    expert = policy(args.variant, args.level)
    rng = np.random.default_rng(args.seed)

    def act(observation):
        # A random agent: any legal action, uniformly. Your policy goes here.
        legal = np.flatnonzero(observation["action_mask"])
        return int(legal[rng.integers(len(legal))])

    wins = {"random": 0, "expert": 0, "draw": 0, "cut short": 0}
    returns = []
    steps, start = 0, time.process_time()
    for game in range(args.games):
        e.reset(seed=args.seed + game)
        bot_seat = f"player_{game % args.players}"
        total = {agent: 0.0 for agent in e.agents}
        for agent in e.agent_iter():
            observation, reward, terminated, truncated, info = e.last()
            total[agent] += reward
            if terminated or truncated:
                e.step(None)
                continue
            e.step(expert(e, agent) if agent == bot_seat else act(observation))
            steps += 1
        native = e.unwrapped.game
        if native.truncated is not None:
            wins["cut short"] += 1
            continue
        winners, _ = native.outcome()
        if not winners:
            wins["draw"] += 1
        elif int(bot_seat.split("_")[1]) in winners:
            wins["expert"] += 1
        else:
            wins["random"] += 1
        returns.append(np.mean([r for a, r in total.items() if a != bot_seat]))
    cpu = time.process_time() - start
    played = args.games - wins["cut short"]
    print(f"{args.variant}, {args.players} players, {args.games} games: one {args.level} bot, the other seats random")
    print(f"  random agents won {wins['random']} ({wins['random'] / max(played, 1):.1%}), "
          f"the {args.level} bot {wins['expert']} ({wins['expert'] / max(played, 1):.1%}), draws {wins['draw']}, cut short {wins['cut short']}")
    print(f"  a random agent's mean return {np.mean(returns):+.3f}")
    print(f"  {steps} steps in {cpu:.1f} s of CPU ({steps / cpu:,.0f} steps/s)")


if __name__ == "__main__":
    main()
