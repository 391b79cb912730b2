"""deckspec's variants as OpenSpiel games: ``import deckspec.openspiel`` registers every bundled
variant with pyspiel as ``deckspec_<variant>``, and `register()` registers a variant of a rules
folder of your own.

    import random
    import pyspiel
    import deckspec.openspiel

    game = pyspiel.load_game("deckspec_cambia", {"players": 3})
    state = game.new_initial_state()          # a chance node: the deal
    state.apply_action(7)                     # deal seed 7
    while not state.is_terminal():
        state.apply_action(random.choice(state.legal_actions()))
    print(state.returns())

The games follow the model of README.md ("The model"): every step asks exactly one seat
(`current_player()`), which takes one of its legal actions or passes (action 0, `pass`); the
action numbers are the native enumeration (`game.num_distinct_actions()` of them, README.md
"Actions"), and a number that is not legal raises `deckspec.IllegalAction` (a ValueError) and
changes nothing.

Game parameters (pyspiel's ``parameter_specification``; all optional):

- ``players`` (int): the seats; the default is 4 where the variant allows 4, else the nearest
  count it allows.
- ``house_rules`` (str): the variant's house rules, ``name=value`` items separated by ``,`` or
  ``;`` (``"penalty_draw_count=2,allow_draw_from_discard=true"``). Values read as ``true`` /
  ``false``, integers, decimals, ``[lists]`` (items separated by ``,``, ``;`` or spaces) or
  words, and are checked as ``deckspec``'s ``--house-rule`` checks them. ``name:value`` works too. A
  game keeps them in a canonical form, ``name:value;name:value`` with lists as ``[0 1]``, which
  is the one to write in a game string (``deckspec_cambia(house_rules=penalty_draw_count:2)``):
  pyspiel's game strings cannot carry ``,`` or ``=`` inside a value.
- ``reward`` (str): ``"outcome"`` (+1 to each winner, -1 to every other seat, 0 to all in a
  draw) or ``"score"`` (the mean of the other seats' final points minus one's own).
- ``max_steps`` (int, default 2000): the steps (passes included, the deal not) after which a
  game is cut short. **A game cut short is terminal and every seat's return is 0**, as is one
  the rules cannot go on with (`state.deckspec_game.truncated` says why). Random play rarely
  finishes Cambia with four players inside 2000 steps; raise it for play that needs longer.
- ``chance_outcomes`` (int, default 1024): the deals the root chance node chooses among.
- ``slots`` (int, default 0: the variant's default): hand slots that actions and observations
  name (README.md, "Actions").
- ``score_bound`` (float, default 1000): the utility bound reported for ``reward="score"``
  (`min_utility()` is its negative). The bundled variants' returns lie well inside it: their
  scores are hand points, and all of a deck's points together stay under 400; a variant of
  your own whose scores can reach it needs a larger bound.

**Chance.** The root is the only chance node: it picks the deal's seed uniformly among
``chance_outcomes`` outcomes (outcome ``k`` deals with seed ``k``: ``"deal seed k"``). The
seed also decides every later reshuffle of the engine, so everything random in a game follows
from the root's outcome and the players' actions: the game is deterministic given its
parameters and its history. A game therefore has ``chance_outcomes`` different deals, not every
deal of the deck; raise ``chance_outcomes`` for more.

**Lengths and utilities.** `max_game_length()` is ``max_steps + 1`` (the deal, then at most
``max_steps`` steps; time passing when every seat has passed is part of a step, not a move).
Utilities are in [-1, 1] for ``"outcome"`` and in [-score_bound, score_bound] for ``"score"``;
the game type says GENERAL_SUM for both (``"score"`` rewards do sum to 0) and rewards come only
at the end (TERMINAL).

**Observations** (``observation_tensor`` / ``observation_string``, perfect_recall=False): the
native observation of the seat, exactly `deckspec` ``observe(seat)`` (README.md,
"Observations"; a dict of one entry, ``"observation"``), and the table as the seat sees it
(``render(seat)``). Before the deal both are empty (zeros; ``"deal pending"``).

**Information states** (perfect_recall=True):

- ``information_state_string(seat)`` is perfect recall: after a header naming the variant, the
  player count and the seat, it lists the seat's first view (every part of its observation
  that is not zero, cards decoded) and then every step in order, ``<n>. p<seat> <action>``,
  followed by what changed in the seat's observation through that step (cards decoded as
  ``8C``, ``??`` for a card it cannot see, ``--`` for an empty slot, ``^`` after a card lying
  face up; piles as ``pile<i>=<size>:<top>``; other numbers as ``part[i]=value``). It assumes
  what the model makes true of the bundled variants: which seat took which action number is
  seen by the whole table (a move's cards are not, and they appear only in the views of the
  seats that see them). It never shows the seed. The first time a
  seat's string is asked for, it is built by replaying the game from its seed; from then on
  the state (and its clones) extend that seat's record at every step, so asking again costs
  only joining its lines. Its length grows with the game's.
- ``information_state_tensor(seat)`` has a fixed size and is **not** perfect recall: the seat's
  observation (``"observation"``) followed by one number, ``"progress"``, the steps taken so
  far divided by ``max_steps``. What a seat of these games needs to remember is where the cards
  it has seen went, and the native observation carries exactly that (the engine's record of
  each seat's knowledge: a card it saw stays known as it moves in plain sight); what it drops
  is the order of past events and faces the seat has seen that are no longer on the table.

Other observation types (public only, every seat's private information) are not offered:
`make_py_observer` raises ValueError for them.

**Cloning and serialization.** `clone()` copies the native game (a state's Python attributes
copy cheaply). `state.serialize()` / `game.deserialize_state()` and pyspiel's
``serialize_game_and_state`` (and pickle) work: a state serializes as its history and its seed
and steps, and deserializing replays the steps, giving a state equal in everything (its
`str()` included). Bundled variants deserialize in any process that can import this module; a
variant of your own rules folder needs that folder at the same path, and ``register()`` called
again before ``deserialize_game_and_state`` (a pickled game registers it again itself).

`str(state)` is deterministic: the game, the seed, every step, the outcome, then the table as
each seat sees it; two states with the same history print the same. `state.deckspec_game` is
the native game (None before the deal), for `deckspec.bots.policy(...)(state)` and the native
API (`describe()`, `scenario()`, `scores()` …).
"""

from __future__ import annotations

import os
import re
import threading
from typing import Dict, List, Optional, Tuple

import numpy as np
import pyspiel

from . import load
from . import variants as _variants

__all__ = [
    "DEFAULT_CHANCE_OUTCOMES",
    "DEFAULT_MAX_STEPS",
    "DEFAULT_SCORE_BOUND",
    "DeckspecGame",
    "DeckspecObserver",
    "DeckspecState",
    "format_house_rules",
    "parse_house_rules",
    "register",
    "registered",
]

DEFAULT_MAX_STEPS = 2000
DEFAULT_CHANCE_OUTCOMES = 1024
DEFAULT_SCORE_BOUND = 1000.0

_REWARDS = ("outcome", "score")
_lock = threading.Lock()
# short name -> (variant name, rules folder or None for the bundled rules)
_registered: Dict[str, Tuple[str, Optional[str]]] = {}


# --- house rules as one string ------------------------------------------------------------


def _split_top(text: str, separators: str) -> List[str]:
    """`text` split at `separators` outside brackets."""
    parts, depth, current = [], 0, []
    for ch in text:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth < 0:
                raise ValueError(f"house_rules: unbalanced ] in {text!r}")
        if depth == 0 and ch in separators:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    if depth != 0:
        raise ValueError(f"house_rules: unbalanced [ in {text!r}")
    parts.append("".join(current))
    return parts


_INT = re.compile(r"^[+-]?\d+$")
_FLOAT = re.compile(r"^[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?$")
_WORD = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-]*$")


def _parse_value(text: str):
    text = text.strip()
    if text.startswith("[") and text.endswith("]"):
        inner = text[1:-1].strip()
        if not inner:
            return []
        return [_parse_value(item) for item in _split_top(inner, ",; \t") if item.strip()]
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if _INT.match(text):
        return int(text)
    if _FLOAT.match(text):
        return float(text)
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    if not text:
        raise ValueError("house_rules: an empty value")
    return text


def parse_house_rules(text) -> Dict[str, object]:
    """House rules from a string (``"penalty_draw_count=2,use_jokers=false"``,
    ``"initial_peek_slots:[0 1]"``) or a dict (returned as a copy) — the module's
    documentation gives the syntax. ValueError names what does not read."""
    if isinstance(text, dict):
        return dict(text)
    if text is None:
        return {}
    out: Dict[str, object] = {}
    for item in _split_top(str(text), ",;"):
        item = item.strip()
        if not item:
            continue
        cut = min((i for i in (item.find("="), item.find(":")) if i >= 0), default=-1)
        if cut <= 0:
            raise ValueError(f"house_rules: {item!r} is not name=value")
        name = item[:cut].strip()
        if not _WORD.match(name):
            raise ValueError(f"house_rules: {name!r} is not a house rule's name")
        out[name] = _parse_value(item[cut + 1 :])
    return out


def _format_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + " ".join(_format_value(v) for v in value) + "]"
    text = str(value)
    if not _WORD.match(text) or text.lower() in ("true", "false"):
        raise ValueError(f"house_rules: the value {text!r} cannot be written in a game string")
    return text


def format_house_rules(rules: Dict[str, object]) -> str:
    """The canonical string of house rules: ``name:value`` by name, joined by ``;``, lists as
    ``[0 1]`` — a form that pyspiel's game strings carry unchanged."""
    return ";".join(f"{name}:{_format_value(rules[name])}" for name in sorted(rules))


# --- settings shared by a game and its states ---------------------------------------------


class _Spec:
    """A game's variant and settings: immutable, shared by its states (copied as itself,
    pickled as what rebuilds it)."""

    def __init__(self, variant: str, rules: Optional[str], short_name: str, params: dict):
        self.variant_name = variant
        self.rules = rules
        self.short_name = short_name
        self.variant = load(variant, rules)
        low, high = self.variant.players
        players = params["players"]
        if not isinstance(players, int) or not low <= players <= high:
            raise ValueError(f"players: {self.variant.name} is for {low} to {high} players, not {players}")
        self.players = players
        self.reward = params["reward"]
        if self.reward not in _REWARDS:
            raise ValueError(f"reward is one of {', '.join(_REWARDS)}, not {self.reward!r}")
        self.max_steps = int(params["max_steps"])
        if self.max_steps < 1:
            raise ValueError(f"max_steps is at least 1, not {self.max_steps}")
        self.chance_outcomes = int(params["chance_outcomes"])
        if self.chance_outcomes < 1:
            raise ValueError(f"chance_outcomes is at least 1, not {self.chance_outcomes}")
        self.slots = int(params["slots"])
        if self.slots < 0:
            raise ValueError(f"slots is 0 (the variant's default) or more, not {self.slots}")
        self.score_bound = float(params["score_bound"])
        if not self.score_bound > 0:
            raise ValueError(f"score_bound is more than 0, not {self.score_bound}")
        self.house_rules = parse_house_rules(params["house_rules"])
        self.house_rules_text = format_house_rules(self.house_rules)
        # A deal to check the settings (a bad one raises here, naming it) and learn the sizes;
        # its describe() serves every state of the game, before its deal too.
        self.probe = self.deal(0)
        self.action_count = self.probe.action_count
        self.observation_size = self.probe.observation_size
        self.parts = [(key, width) for key, width, *_ in self.probe.observation_parts()]
        self.outcomes = [(k, 1.0 / self.chance_outcomes) for k in range(self.chance_outcomes)]
        self.describer = _Describer(self)

    def params(self) -> dict:
        """The parameters in canonical form (what the game passes to pyspiel)."""
        return {
            "players": self.players,
            "house_rules": self.house_rules_text,
            "reward": self.reward,
            "max_steps": self.max_steps,
            "chance_outcomes": self.chance_outcomes,
            "slots": self.slots,
            "score_bound": self.score_bound,
        }

    def deal(self, seed: int):
        """A native game of these settings dealt with `seed`."""
        return self.variant.game(
            self.players,
            seed=seed,
            house_rules=self.house_rules or None,
            slots=self.slots or None,
            max_steps=self.max_steps,
            reward=self.reward,
        )

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (_spec_from_key, (self.variant_name, self.rules, self.short_name, self.params()))


_specs: Dict[tuple, _Spec] = {}


def _spec_from_key(variant, rules, short_name, params) -> _Spec:
    """The settings of a game, shared by the games and states that have the same. A variant
    loaded again (`deckspec.load(..., reload=True)`) makes new ones: games made after it play
    the new rules."""
    loaded = load(variant, rules)
    key = (variant, rules, short_name, tuple(sorted(params.items())), id(loaded))
    with _lock:
        found = _specs.get(key)
    if found is None:
        found = _Spec(variant, rules, short_name, params)
        with _lock:
            _specs[key] = found
    return found


class _Table:
    """The native game behind a dealt state, and each seat's information-state record once
    that seat's has been asked for (kept up to date step by step from then on, so asking
    again costs nothing but joining the lines).

    Copied by cloning the native game (and the records: lists of lines, copied shallowly);
    pickled as its settings, seed and steps, and rebuilt by replaying them (the records are
    rebuilt when asked for)."""

    __slots__ = ("spec", "native", "recall")

    def __init__(self, spec: _Spec, native, recall=None):
        self.spec = spec
        self.native = native
        # by seat: None, or [lines of the information state string, the last observation]
        self.recall = recall if recall is not None else [None] * spec.players

    def __deepcopy__(self, memo):
        recall = [None if r is None else [list(r[0]), r[1]] for r in self.recall]
        return _Table(self.spec, self.native.clone(), recall)

    def __reduce__(self):
        return (_replay, (self.spec, self.native.seed, list(self.native.steps)))

    def step(self, action: int):
        """Take `action` for the seat asked (IllegalAction changes nothing) and extend the
        records kept."""
        actor = self.native.agent
        self.native.step(action)
        for seat, record in enumerate(self.recall):
            if record is not None:
                now = self.native.observe(seat)
                n = len(self.native.steps)
                record[0].append(self.spec.describer.line(n, actor, action, record[1], now))
                record[1] = now

    def information_state(self, seat: int) -> str:
        """The seat's perfect-recall string (module documentation)."""
        record = self.recall[seat]
        if record is None:
            record = self.recall[seat] = self._rebuild(seat)
        return self.spec.describer.header(seat) + "\n" + "\n".join(record[0])

    def _rebuild(self, seat: int):
        """The seat's record, by replaying the game from its seed."""
        spec = self.spec
        describer = spec.describer
        replay = spec.deal(self.native.seed)
        now = replay.observe(seat)
        lines = ["dealt: " + describer.changes(np.zeros_like(now), now)]
        for n, action in enumerate(self.native.steps, 1):
            actor = replay.agent
            replay.step(action)
            before, now = now, replay.observe(seat)
            lines.append(describer.line(n, actor, action, before, now))
        return [lines, now]


def _replay(spec: _Spec, seed: int, steps) -> _Table:
    native = spec.deal(seed)
    for action in steps:
        native.step(action)
    return _Table(spec, native)


# --- the game -----------------------------------------------------------------------------


def _default_players(low: int, high: int) -> int:
    return max(low, min(4, high))


class DeckspecGame(pyspiel.Game):
    """A deckspec variant as an OpenSpiel game (one subclass per registered short name; see
    the module's documentation for the parameters)."""

    _variant: str = ""
    _rules: Optional[str] = None
    _short_name: str = ""
    _game_type: Optional[pyspiel.GameType] = None

    def __init__(self, params=None):
        given = dict(self._game_type.parameter_specification)
        given.update(params or {})
        chosen = {k: given[k] for k in _PARAMETERS}
        spec = _spec_from_key(self._variant, self._rules, self._short_name, chosen)
        self._spec = spec
        if spec.reward == "outcome":
            low, high = -1.0, 1.0
        else:
            low, high = -spec.score_bound, spec.score_bound
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.action_count,
            max_chance_outcomes=spec.chance_outcomes,
            num_players=spec.players,
            min_utility=low,
            max_utility=high,
            utility_sum=None,
            max_game_length=spec.max_steps + 1,
        )
        super().__init__(self._game_type, info, spec.params())

    @property
    def deckspec_variant(self):
        """The variant (`deckspec.Variant`)."""
        return self._spec.variant

    @property
    def deckspec_settings(self) -> dict:
        """The parameters, canonical, with the house rules as a dict."""
        out = self._spec.params()
        out["house_rules"] = dict(self._spec.house_rules)
        return out

    def __reduce__(self):
        # Pickled as its game string; unpickling registers the variant again if need be.
        return (_load_registered, (self._short_name, self._variant, self._rules, str(self)))

    def new_initial_state(self):
        """The root: a chance node choosing the deal's seed."""
        return DeckspecState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """An observer: the seat's observation (perfect_recall=False, the default) or its
        information state (perfect_recall=True). Only the seat's own view is offered (public
        info on, private info of that single player)."""
        if isinstance(iig_obs_type, dict):  # pyspiel calls make_py_observer(params) too
            iig_obs_type, params = None, iig_obs_type
        return DeckspecObserver(self._spec, iig_obs_type, params)


_PARAMETERS = ("players", "house_rules", "reward", "max_steps", "chance_outcomes", "slots", "score_bound")


# --- the state ----------------------------------------------------------------------------


class DeckspecState(pyspiel.State):
    """A deckspec game as an OpenSpiel state: the deal (a chance node), then one seat asked
    at a time until the game is over or cut short."""

    def __init__(self, game: DeckspecGame):
        super().__init__(game)
        self._spec = game._spec
        self._table: Optional[_Table] = None

    @property
    def deckspec_game(self):
        """The native game (`deckspec._native.Game`), None before the deal."""
        return None if self._table is None else self._table.native

    def current_player(self):
        """CHANCE before the deal, TERMINAL once the game is over or cut short, else the seat
        asked now."""
        if self._table is None:
            return pyspiel.PlayerId.CHANCE
        native = self._table.native
        if native.done:
            return pyspiel.PlayerId.TERMINAL
        return native.agent

    def _legal_actions(self, player):
        """The legal action numbers of `player` (sorted): the seat asked has them, the others
        none."""
        if self._table is None:
            return [k for k, _ in self._spec.outcomes] if player == pyspiel.PlayerId.CHANCE else []
        native = self._table.native
        if native.done or player != native.agent:
            return []
        return native.legal()

    def chance_outcomes(self):
        """The deal's seeds, each as likely."""
        if self._table is not None:
            return []
        return list(self._spec.outcomes)

    def _apply_action(self, action):
        """The deal (at the root) or the asked seat's action; an illegal one raises
        `deckspec.IllegalAction` (a ValueError) and changes nothing."""
        if self._table is None:
            action = int(action)
            if not 0 <= action < self._spec.chance_outcomes:
                raise ValueError(f"the deal is one of 0 to {self._spec.chance_outcomes - 1}, not {action}")
            self._table = _Table(self._spec, self._spec.deal(action))
        else:
            self._table.step(int(action))

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal seed {action}"
        return self._spec.probe.describe(int(action))

    def is_terminal(self):
        return self._table is not None and self._table.native.done

    def returns(self):
        """The rewards by seat once the game is over (0s before, and 0s for a game cut
        short)."""
        if self._table is None:
            return [0.0] * self._spec.players
        return list(self._table.native.rewards())

    def rewards(self):
        """Rewards come at the end: the returns at a terminal state, 0s before."""
        return self.returns() if self.is_terminal() else [0.0] * self._spec.players

    def __str__(self):
        spec = self._spec
        head = f"{spec.short_name} · {spec.players} players"
        if self._table is None:
            return f"{head} · the deal is pending (seeds 0 to {spec.chance_outcomes - 1})"
        native = self._table.native
        steps = native.steps
        lines = [f"{head} · seed {native.seed} · {len(steps)} steps"]
        lines.append("steps: " + " ".join(map(str, steps)))
        outcome = native.outcome()
        if outcome is not None:
            winners, reason = outcome
            lines.append(f"over ({reason}): winners {' '.join(f'p{s}' for s in winners) or 'none'}")
        elif native.truncated is not None:
            lines.append(f"cut short: {native.truncated}")
        else:
            lines.append(f"p{native.agent} asked")
        for seat in range(spec.players):
            lines.append(f"-- seen by p{seat} --")
            lines.append(native.render(seat).rstrip("\n"))
        return "\n".join(lines)


# --- observations -------------------------------------------------------------------------

_RANKS = ["JK", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
_SUITS = ["S", "H", "D", "C"]
_CARD = 21


def _card_text(cell) -> str:
    """A card's 21 observation numbers as text: ``8C``, ``??`` (unseen), ``--`` (empty);
    ``^`` marks a card lying face up."""
    if cell[0] == 0:
        return "--"
    up = "^" if cell[2] else ""
    if cell[1] == 0:
        return "??" + up
    ranks = np.flatnonzero(cell[3:17])
    suits = np.flatnonzero(cell[17:21])
    rank = _RANKS[ranks[0]] if len(ranks) else "?"
    suit = _SUITS[suits[0]] if len(suits) else ""
    return rank + suit + up


def _seat_label(relative: int) -> str:
    return "own" if relative == 0 else f"next+{relative}"


class _Describer:
    """What changed in a seat's observation, as text (the information state string)."""

    def __init__(self, spec: _Spec):
        self.short_name = spec.short_name
        self.players = spec.players
        self.slots = spec.probe.slots
        self.describe = spec.probe.describe
        self.parts = []
        at = 0
        for key, width in spec.parts:
            self.parts.append((key, at, width))
            at += width

    def changes(self, before, after) -> str:
        changed = before != after
        if not changed.any():
            return ""
        out = []
        for key, at, width in self.parts:
            part = changed[at : at + width]
            if not part.any():
                continue
            if key == "hands":
                cells = np.flatnonzero(part.reshape(-1, _CARD).any(axis=1))
                for c in cells:
                    seat, slot = divmod(int(c), self.slots)
                    cell = after[at + c * _CARD : at + (c + 1) * _CARD]
                    out.append(f"{_seat_label(seat)} {slot}={_card_text(cell)}")
            elif key == "piles":
                piles = np.flatnonzero(part.reshape(-1, _CARD + 1).any(axis=1))
                for p in piles:
                    base = at + p * (_CARD + 1)
                    size = after[base]
                    top = _card_text(after[base + 1 : base + 1 + _CARD])
                    out.append(f"pile{int(p)}={size:g}:{top}")
            else:
                for i in np.flatnonzero(part):
                    out.append(f"{key}[{int(i)}]={after[at + i]:g}")
        return " ".join(out)

    def header(self, seat: int) -> str:
        return f"{self.short_name} · {self.players} players · p{seat}"

    def line(self, n: int, actor: int, action: int, before, after) -> str:
        """Step `n`: `actor` took `action`, and what changed in the seat's view."""
        text = f"{n}. p{actor} {self.describe(action)}"
        seen = self.changes(before, after)
        return f"{text} | {seen}" if seen else text


class DeckspecObserver:
    """A PyObserver (OpenSpiel's python/observation.py): `tensor` and `dict` are filled by
    `set_from(state, player)`, `string_from(state, player)` gives the string. See the module's
    documentation for what the observation and the information state hold."""

    def __init__(self, spec: _Spec, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"deckspec observers take no parameters, not {params}")
        if iig_obs_type is not None:
            single = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
            if not iig_obs_type.public_info or not single:
                raise ValueError(
                    "deckspec offers the seat's own view only (public_info=True, "
                    "private_info=SINGLE_PLAYER)"
                )
        self._spec = spec
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        n = spec.observation_size
        self.tensor = np.zeros(n + (1 if self.perfect_recall else 0), np.float32)
        self.dict = {"observation": self.tensor[:n]}
        if self.perfect_recall:
            self.dict["progress"] = self.tensor[n:]

    def set_from(self, state: DeckspecState, player: int):
        """Fill `tensor` with `state` as `player` sees it (zeros before the deal)."""
        native = state.deckspec_game
        if native is None:
            self.tensor.fill(0)
            return
        self.dict["observation"][:] = native.observe(player)
        if self.perfect_recall:
            self.dict["progress"][0] = len(native.steps) / self._spec.max_steps

    def string_from(self, state: DeckspecState, player: int) -> str:
        """The table as `player` sees it, or (perfect recall) the seat's whole history."""
        table = state._table
        if not self.perfect_recall:
            return "deal pending" if table is None else table.native.render(player)
        if table is None:
            return self._spec.describer.header(player) + "\ndeal pending"
        return table.information_state(player)


# --- registration -------------------------------------------------------------------------


def register(variant: str, rules: Optional[str] = None, short_name: Optional[str] = None) -> str:
    """Register `variant` (bundled, or of the rules folder `rules`) with pyspiel as
    `short_name` (default ``deckspec_<variant>``); the short name. Registering the same
    variant and folder under the same name again does nothing; a name taken by anything else
    raises ValueError."""
    folder = os.path.abspath(rules) if rules is not None else None
    loaded = load(variant, folder)
    name = short_name or f"deckspec_{variant}"
    with _lock:
        if name in _registered:
            if _registered[name] == (variant, folder):
                return name
            raise ValueError(
                f"{name} is registered already, for {_registered[name]}: pass another short_name"
            )
        if name in pyspiel.registered_names():
            raise ValueError(f"{name} is one of pyspiel's games already: pass another short_name")
        low, high = loaded.players
        game_type = pyspiel.GameType(
            short_name=name,
            long_name=f"deckspec {loaded.name}" + (f" ({folder})" if folder else ""),
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.GENERAL_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=high,
            min_num_players=low,
            provides_information_state_string=True,
            provides_information_state_tensor=True,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification={
                "players": _default_players(low, high),
                "house_rules": "",
                "reward": "outcome",
                "max_steps": DEFAULT_MAX_STEPS,
                "chance_outcomes": DEFAULT_CHANCE_OUTCOMES,
                "slots": 0,
                "score_bound": DEFAULT_SCORE_BOUND,
            },
        )
        cls = type(
            f"DeckspecGame_{re.sub(r'[^0-9A-Za-z_]', '_', name)}",
            (DeckspecGame,),
            {"_variant": variant, "_rules": folder, "_short_name": name, "_game_type": game_type},
        )
        pyspiel.register_game(game_type, cls)
        _registered[name] = (variant, folder)
    return name


def _load_registered(short_name: str, variant: str, rules: Optional[str], game_string: str):
    """A pickled game: its variant registered (as when pickled) and its game string loaded."""
    register(variant, rules, short_name)
    return pyspiel.load_game(game_string)


def registered() -> Dict[str, Tuple[str, Optional[str]]]:
    """The short names registered by this module: (variant, rules folder or None)."""
    with _lock:
        return dict(_registered)


for _name in _variants():
    register(_name)
