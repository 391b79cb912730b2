"""deckspec's card games for agents: every variant of a rules folder, bundled or your own.

    import deckspec
    game = deckspec.load("cambia").game(["ann", "bob", "cat"], seed=7)

`deckspec.pettingzoo.env(...)` makes a PettingZoo AEC environment, `import deckspec.openspiel`
registers every bundled variant with pyspiel as ``deckspec_<variant>``, and
`deckspec.bots.policy(variant, level)` gives a variant's bots as policies. README.md beside
this package documents the model (who is asked when, passing, time), the action numbers and
the observation's layout.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import threading
from typing import Dict, List, Optional, Tuple

from . import _native
from ._native import PASS, IllegalAction, RulesError

__all__ = [
    "PASS",
    "IllegalAction",
    "RulesError",
    "Variant",
    "bundled_rules",
    "load",
    "observation_slices",
    "variants",
]

_lock = threading.Lock()
_bundled_dir: Optional[str] = None
_loaded: Dict[Tuple[str, str], "Variant"] = {}


def bundled_rules() -> str:
    """The folder holding the bundled rules (written once per process to a temporary folder,
    removed at exit)."""
    global _bundled_dir
    with _lock:
        if _bundled_dir is None:
            root = tempfile.mkdtemp(prefix="deckspec-rules-")
            atexit.register(shutil.rmtree, root, True)
            for relative, data in _native.bundled_files():
                path = os.path.join(root, *relative.split("/"))
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "wb") as f:
                    f.write(data)
            _bundled_dir = root
        return _bundled_dir


def variants(rules: Optional[str] = None) -> List[str]:
    """The variants of a rules folder (the bundled ones by default): its subfolders with a
    variant.yaml."""
    root = rules if rules is not None else bundled_rules()
    return sorted(
        name
        for name in os.listdir(root)
        if os.path.isfile(os.path.join(root, name, "variant.yaml"))
    )


class Variant:
    """A variant loaded and compiled once; `game()` deals a new game of it."""

    def __init__(self, native: "_native.LoadedVariant", rules: str):
        self._native = native
        self.rules = rules
        self.name: str = native.name
        self.players: Tuple[int, int] = native.players
        self.house_rules: List[Tuple[str, str]] = native.house_rules
        self.actions: List[str] = native.actions
        self.bot_levels: List[str] = native.bot_levels

    def game(
        self,
        players,
        seed: int = 0,
        house_rules: Optional[dict] = None,
        slots: Optional[int] = None,
        max_steps: Optional[int] = None,
        reward: str = "outcome",
    ) -> "_native.Game":
        """A new game, dealt. `players` is a list of names or a count (seats named p0, p1, …)."""
        if isinstance(players, int):
            players = [f"p{i}" for i in range(players)]
        return self._native.game(
            list(players), int(seed), house_rules, slots, max_steps, reward
        )

    def restore(self, saved: str) -> "_native.Game":
        """A game saved by `game.save()` (JSON text) made again, checked against this variant:
        the same deal, round, steps and bots' memories."""
        return self._native.restore(saved)

    def __repr__(self) -> str:
        return f"<deckspec variant {self.name} from {self.rules}>"


def load(variant: str, rules: Optional[str] = None, reload: bool = False) -> Variant:
    """Variant `variant` from the rules folder `rules` (the bundled rules by default). A
    variant is loaded once per process and folder, and shared by its games; `reload=True`
    reads its files again (after a designer changed them): environments made after it use
    the new rules."""
    root = os.path.abspath(rules) if rules is not None else bundled_rules()
    key = (root, variant)
    with _lock:
        found = None if reload else _loaded.get(key)
    if found is None:
        found = Variant(_native.LoadedVariant(root, variant), root)
        with _lock:
            _loaded[key] = found
    return found


def observation_slices(game) -> Dict[str, slice]:
    """Where each part of `game`'s observations lies, by key (README.md, "Observations")."""
    out, at = {}, 0
    for key, width, _ in game.observation_parts():
        out[key] = slice(at, at + width)
        at += width
    return out
