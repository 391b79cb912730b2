"""A variant's bots (its bots.yaml and bots.rhai) as policies: given a game and the seat asked,
the action number the bot of that level would take.

    from deckspec.bots import policy
    expert = policy("cambia", "expert")
    action = expert(env, agent)          # a deckspec.pettingzoo environment and its agent
    action = expert(state)               # a deckspec.openspiel state (its current player)
    action = expert(game, seat)          # a native game (deckspec.load(...).game(...))

A bot decides from its own seat's view and memory only, as in `deckspec simulate`. Its choice
is taken when legal; when it would wait it passes (if the seat may pass), and otherwise it takes
a random legal action from the game's own seeded generator. Each game keeps one bot per seat:
the bot's memory follows the game, is copied with it, and starts anew if the level changes.
"""

from __future__ import annotations

from typing import Optional

from . import load

__all__ = ["Policy", "policy"]


def _native_game(target):
    """The native game behind an environment, an OpenSpiel state or a native game."""
    for candidate in (target, getattr(target, "unwrapped", None)):
        if candidate is None:
            continue
        game = getattr(candidate, "deckspec_game", None)
        if game is None:
            game = getattr(candidate, "game", None)
        if game is not None and hasattr(game, "bot_action"):
            return game
    if hasattr(target, "bot_action"):
        return target
    raise TypeError(
        f"a deckspec policy plays a deckspec environment, OpenSpiel state or game, not {type(target).__name__}"
    )


class Policy:
    """The bot of `level` of a variant, as a callable policy."""

    def __init__(self, variant: str, level: str, rules: Optional[str] = None):
        loaded = load(variant, rules)
        if not loaded.bot_levels:
            raise ValueError(f"{loaded.name} has no bots (no bots.yaml)")
        if level not in loaded.bot_levels:
            raise ValueError(
                f"{loaded.name} has no bot level {level!r}: its levels are {', '.join(loaded.bot_levels)}"
            )
        self.variant = loaded.name
        self.level = level

    def __call__(self, target, agent=None) -> int:
        game = _native_game(target)
        if agent is None:
            seat = game.agent
        elif isinstance(agent, str):
            seat = int(agent.rsplit("_", 1)[-1])
        else:
            seat = int(agent)
        if seat is None:
            raise ValueError("the game is over: no seat is asked")
        return game.bot_action(seat, self.level)

    def __repr__(self) -> str:
        return f"<deckspec bot {self.variant} {self.level}>"


def policy(variant: str, level: str, rules: Optional[str] = None) -> Policy:
    """The bot of `level` of `variant` (bundled, or from the rules folder `rules`)."""
    return Policy(variant, level, rules)
