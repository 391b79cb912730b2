"""deckspec's variants as PettingZoo AEC environments: the agents are the seats, one is asked
at a time (out-of-turn windows and timers included: README.md, "The model").

    from deckspec.pettingzoo import env
    e = env("cambia", players=4, seed=1)
    e.reset()
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)
"""

from __future__ import annotations

from typing import Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import _native as deckspec_errors
from . import load

__all__ = ["env", "raw_env"]


def env(variant: str, players: int = 4, rules: Optional[str] = None, wrapped: bool = False, **kwargs) -> AECEnv:
    """A PettingZoo AEC environment of `variant` (bundled, or from the rules folder `rules`).
    Keyword arguments are `raw_env`'s.

    The environment checks what PettingZoo's wrappers check, itself: an action that is not
    legal now (out of range included) raises `deckspec.IllegalAction` and changes nothing, and
    stepping or observing before `reset()` raises. `wrapped=True` adds PettingZoo's
    `AssertOutOfBoundsWrapper` and `OrderEnforcingWrapper` as well, at their cost in speed."""
    e = raw_env(variant, players=players, rules=rules, **kwargs)
    if wrapped:
        e = wrappers.AssertOutOfBoundsWrapper(e)
        e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv):
    """The environment itself (see `env` for the wrapped one).

    - `variant`, `rules`: the variant, bundled or from a rules folder.
    - `players`: the number of seats; agents are `player_0` … (seat order).
    - `house_rules`: a dict of house rules and values (`{"penalty_draw_count": 2}`).
    - `seed`: the first deal's seed; later resets without a seed deal from seeds drawn from it.
    - `reward`: "outcome" (+1 win, -1 loss, 0 for all in a draw) or "score" (the mean of the
      other seats' final points minus one's own).
    - `slots`: hand slots named by actions and observations (default 12, or the variant's
      `max_hand_slots` when smaller); `max_steps`: steps after which a game is truncated.
    - `render_mode`: "human" prints, "ansi" returns the table as the asked seat sees it.
    """

    metadata = {
        "render_modes": ["human", "ansi"],
        "name": "deckspec_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str,
        players: int = 4,
        rules: Optional[str] = None,
        house_rules: Optional[dict] = None,
        seed: Optional[int] = None,
        reward: str = "outcome",
        slots: Optional[int] = None,
        max_steps: Optional[int] = None,
        render_mode: Optional[str] = None,
    ):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.variant = load(variant, rules)
        self.render_mode = render_mode
        self._settings = dict(
            house_rules=dict(house_rules) if house_rules else None,
            slots=slots,
            max_steps=max_steps,
            reward=reward,
        )
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self._seeds = np.random.default_rng(seed)
        self._next_seed = seed
        self._has_reset = False
        # A game dealt now, so that a bad setting fails here and the spaces know their sizes.
        self._game = self._deal(0 if seed is None else seed)
        n_obs, n_actions = self._game.observation_size, self._game.action_count
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (n_obs,), np.float32),
                "action_mask": spaces.Box(0, 1, (n_actions,), np.int8),
            }
        )
        self._action_space = spaces.Discrete(n_actions)
        self.observation_spaces = {a: self._observation_space for a in self.possible_agents}
        self.action_spaces = {a: self._action_space for a in self.possible_agents}

    def _deal(self, seed: int):
        return self.variant.game(len(self.possible_agents), seed=seed, **self._settings)

    @property
    def game(self):
        """The native game (deckspec._native.Game): legal(), describe(), scenario(), …"""
        return self._game

    def observation_space(self, agent):
        return self._observation_space

    def action_space(self, agent):
        return self._action_space

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None):
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            deal = seed
        elif self._next_seed is not None:
            deal = self._next_seed
        else:
            deal = int(self._seeds.integers(0, 2**63))
        self._next_seed = None
        self._game = self._deal(int(deal))
        self._has_reset = True
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._settle()

    def _settle(self):
        """After a step: whom to ask, or the end's rewards."""
        g = self._game
        if g.done:
            over, cut = g.is_over, g.truncated is not None
            for a, r in zip(self.possible_agents, g.rewards()):
                if a in self.rewards:
                    self.rewards[a] = r
                    self.terminations[a] = over
                    self.truncations[a] = cut
                    if cut:
                        self.infos[a] = {"truncated": g.truncated}
        else:
            self.agent_selection = self.possible_agents[g.agent]

    def observe(self, agent):
        if not self._has_reset:
            raise RuntimeError("call reset() before observe()")
        observation, mask = self._game.observe_masked(self.agent_name_mapping[agent])
        return {"observation": observation, "action_mask": mask}

    def step(self, action):
        if not self._has_reset:
            raise RuntimeError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise deckspec_errors.IllegalAction(f"{agent} is asked to act: None is for an agent whose game is over")
        # Rewards are 0 until the end, where every seat's comes at once: nothing to reset here.
        self._cumulative_rewards[agent] = 0.0
        following = self._game.step(int(action))
        if following is None:
            self._settle()
            self._accumulate_rewards()
        else:
            self.agent_selection = self.possible_agents[following]
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            return None
        seat = self._game.agent
        if seat is None:
            seat = self.agent_name_mapping.get(getattr(self, "agent_selection", None), 0)
        text = self._game.render(seat)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self):
        pass
