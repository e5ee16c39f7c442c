"""Capsa Banting table rules as data (RULES.md 3.2 and 3.4).

A rule set is a value: every setting has a default, the regional presets are rows of data in
:data:`PRESETS`, and ``Rules.preset(name, **overrides)`` layers overrides on a row. Adding a
variant means adding a row here and a test, never touching the engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from .. import _core
from .._presets import PresetRules, resolve_rules

RANKS = "23456789TJQKA"

# The 13 five-rank runs, named as they read upward from their lowest card, by start rank.
RUNS: tuple[str, ...] = tuple("".join(RANKS[(s + i) % 13] for i in range(5)) for s in range(13))
_RUN_OF_SET: dict[frozenset[str], str] = {frozenset(run): run for run in RUNS}

_TWO_TO_ACE = ["34567", "45678", "56789", "6789T", "789TJ", "89TJQ", "9TJQK", "TJQKA"]
# The kinds a combo can be (Combo.kind), weakest to strongest among five-card hands (sizes
# never compare otherwise). The HTTP schemas and the RL observation list them in this order.
COMBO_KINDS: tuple[str, ...] = (
    "single",
    "pair",
    "triple",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
)
STRAIGHT_ORDERS: dict[str, list[str]] = {
    "two-high": [*_TWO_TO_ACE, "23456", "A2345"],
    "two-low": ["A2345", "23456", *_TWO_TO_ACE],
    "taiwan": ["A2345", *_TWO_TO_ACE, "23456"],
    "ace-top-jqka2": [*_TWO_TO_ACE, "JQKA2"],
    "no-two": list(_TWO_TO_ACE),
}

CHOICES: dict[str, tuple[str, ...]] = {
    "straight_tiebreak": ("highest-card", "sequence-top"),
    "flush_compare": ("suit-first", "rank-first", "top-card", "none"),
    "bombs": ("none", "quads-and-straight-flush"),
    "first_lead": ("lowest-card", "previous-winner"),
    "ending": ("first-out", "last-standing"),
    "exchange": ("none", "ranked"),
}
BOOLEANS = ("triples", "pass_locks", "dragon", "two_demotion", "bomb_ends")

_DEFAULT_SCORING = [[1, 1], [10, 2], [13, 3]]

# The default table (RULES.md 3.2); each preset is this table with the settings it changes
# (RULES.md 3.4). PRESETS holds every preset's full settings.
_BASE: dict[str, Any] = {
    "suit_order": "dchs",
    "straights": "two-high",
    "straight_tiebreak": "highest-card",
    "flush_compare": "suit-first",
    "triples": True,
    "bombs": "none",
    "first_lead": "lowest-card",
    "pass_locks": False,
    "two_demotion": False,
    "ending": "first-out",
    "bomb_ends": False,
    "dragon": True,
    "exchange": "none",
    "scoring": _DEFAULT_SCORING,
}
_CHANGES: dict[str, dict[str, Any]] = {
    "capsa-banting": {},
    "hong-kong": {
        "straights": "two-low",
        "straight_tiebreak": "sequence-top",
        "flush_compare": "rank-first",
    },
    "taiwan": {
        "suit_order": "cdhs",
        "straights": "taiwan",
        "flush_compare": "none",
        "bombs": "quads-and-straight-flush",
    },
    "pagat": {"flush_compare": "rank-first"},
    # Seed 000 as written: no 2 in straights, flushes by their highest card, a pass locks
    # the player out of the trick, a four of a kind demotes the 2s.
    "capsa-klasik": {
        "straights": "no-two",
        "flush_compare": "top-card",
        "pass_locks": True,
        "two_demotion": True,
    },
}
PRESETS: dict[str, dict[str, Any]] = {name: {**_BASE, **diff} for name, diff in _CHANGES.items()}
DEFAULT_PRESET = "capsa-banting"


def _normalise_run(text: Any) -> str:
    if not isinstance(text, str):
        raise ValueError(
            f"straights: each straight is a string of 5 ranks like '34567', got {text!r}"
        )
    # A rank-set (RULES.md 3.2): its ranks in any order, '65432' being the run 23456.
    ranks = text.upper().replace("10", "T")
    run = _RUN_OF_SET.get(frozenset(ranks)) if len(ranks) == 5 else None
    if run is None:
        raise ValueError(
            f"straights: {text!r} is not five consecutive ranks "
            f"(one of {', '.join(RUNS)}, in any order)"
        )
    return run


def _normalise_straights(value: Any) -> tuple[str, list[str]]:
    """(name or 'custom', list of runs low to high)."""
    if isinstance(value, str):
        if value not in STRAIGHT_ORDERS:
            raise ValueError(
                f"straights: unknown order {value!r} (known: {', '.join(STRAIGHT_ORDERS)}; "
                "or give a list of runs such as ['34567', ..., 'A2345'])"
            )
        return value, list(STRAIGHT_ORDERS[value])
    if not isinstance(value, Sequence):
        raise ValueError(f"straights: expected an order name or a list of runs, got {value!r}")
    runs = [_normalise_run(v) for v in value]
    if len(set(runs)) != len(runs):
        raise ValueError("straights: a run is listed twice")
    for name, order in STRAIGHT_ORDERS.items():
        if order == runs:
            return name, runs
    return "custom", runs


def _normalise_scoring(value: Any) -> list[list[int]]:
    if not isinstance(value, Sequence) or isinstance(value, str) or not value:
        raise ValueError("scoring: expected a non-empty list of [threshold, multiplier] tiers")
    tiers = []
    for tier in value:
        if (
            not isinstance(tier, Sequence)
            or isinstance(tier, str)
            or len(tier) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in tier)
        ):
            raise ValueError(
                f"scoring: each tier is [threshold, multiplier] integers, got {tier!r}"
            )
        threshold, multiplier = tier
        if not 1 <= threshold <= 13 or not 0 <= multiplier <= 1000:
            raise ValueError(
                f"scoring: tier {tier!r} out of range (threshold 1..13, multiplier 0..1000)"
            )
        tiers.append([threshold, multiplier])
    thresholds = [t[0] for t in tiers]
    if thresholds != sorted(set(thresholds)):
        raise ValueError("scoring: thresholds must be strictly increasing")
    return tiers


@dataclass(frozen=True)
class Rules(PresetRules):
    """One Capsa Banting rule set. Build with :meth:`preset` or :meth:`from_dict`."""

    _PRESETS: ClassVar[Mapping[str, Mapping[str, Any]]] = PRESETS
    _DEFAULT_PRESET: ClassVar[str] = DEFAULT_PRESET

    suit_order: str = "dchs"
    straights: tuple[str, ...] = tuple(STRAIGHT_ORDERS["two-high"])
    straight_order: str = "two-high"  # the name of `straights`, or "custom"
    straight_tiebreak: str = "highest-card"
    flush_compare: str = "suit-first"
    triples: bool = True
    bombs: str = "none"
    first_lead: str = "lowest-card"
    pass_locks: bool = False
    two_demotion: bool = False
    ending: str = "first-out"
    bomb_ends: bool = False
    dragon: bool = True
    exchange: str = "none"
    scoring: tuple[tuple[int, int], ...] = ((1, 1), (10, 2), (13, 3))
    preset_name: str = DEFAULT_PRESET
    _core_rules: Any = field(default=None, repr=False, compare=False)
    _core_demoted: Any = field(default=None, repr=False, compare=False)
    _game_rules: Any = field(default=None, repr=False, compare=False)

    @classmethod
    def _build(cls, name: str, s: dict[str, Any]) -> Rules:
        suit_order = s["suit_order"]
        if not isinstance(suit_order, str) or sorted(suit_order.lower()) != sorted("cdhs"):
            raise ValueError(
                f"suit_order must be the four suits c, d, h, s in some order, low to high "
                f"(e.g. 'dchs'), got {suit_order!r}"
            )
        suit_order = suit_order.lower()
        order_name, runs = _normalise_straights(s["straights"])
        for key, allowed in CHOICES.items():
            if s[key] not in allowed:
                raise ValueError(f"{key} must be one of {', '.join(allowed)}, got {s[key]!r}")
        for key in BOOLEANS:
            if not isinstance(s[key], bool):
                raise ValueError(f"{key} must be true or false, got {s[key]!r}")
        if s["bomb_ends"] and s["ending"] != "last-standing":
            raise ValueError(
                "bomb_ends: true needs ending: last-standing (a bomb ends the round for the "
                f"seats still holding cards); these rules have ending: {s['ending']}"
            )
        tiers = _normalise_scoring(s["scoring"])
        return cls(
            suit_order=suit_order,
            straights=tuple(runs),
            straight_order=order_name,
            straight_tiebreak=s["straight_tiebreak"],
            flush_compare=s["flush_compare"],
            triples=s["triples"],
            bombs=s["bombs"],
            first_lead=s["first_lead"],
            pass_locks=s["pass_locks"],
            two_demotion=s["two_demotion"],
            ending=s["ending"],
            bomb_ends=s["bomb_ends"],
            dragon=s["dragon"],
            exchange=s["exchange"],
            scoring=tuple((t[0], t[1]) for t in tiers),
            preset_name=name,
        )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Rules:
        """From ``{"preset": name, **overrides}``; reads back what :meth:`to_dict` gives.

        ``straight_order`` (the name of the straights, as ``to_dict`` reports it) may stand
        in for ``straights``, or accompany it when the two agree."""
        settings = dict(data or {})
        order = settings.pop("straight_order", None)
        if order is not None:
            if not isinstance(order, str):
                raise ValueError(
                    f"straight_order must be the name of a straight order, got {order!r}"
                )
            if "straights" not in settings:
                settings["straights"] = order
            elif order != _normalise_straights(settings["straights"])[0]:
                raise ValueError(
                    f"straight_order {order!r} does not match straights {settings['straights']!r}"
                )
        return super().from_dict(settings)

    def __post_init__(self) -> None:
        def core_rules(twos_demoted: bool) -> Any:
            return _core.BantingRules(
                self.suit_order,
                [RUNS.index(r) for r in self.straights],
                self.straight_tiebreak,
                self.flush_compare,
                self.triples,
                self.bombs != "none",
                self.pass_locks,
                self.two_demotion,
                twos_demoted,
            )

        core = core_rules(False)
        object.__setattr__(self, "_core_rules", core)
        if self.two_demotion:
            object.__setattr__(self, "_core_demoted", core_rules(True))
        game = _core.BantingGameRules(
            core,
            list(self.scoring),
            self.dragon,
            self.ending == "last-standing",
            self.first_lead == "previous-winner",
            bomb_ends=self.bomb_ends,
            exchange=self.exchange == "ranked",
        )
        object.__setattr__(self, "_game_rules", game)

    def to_dict(self) -> dict[str, Any]:
        """Every setting, JSON-ready; ``straights`` as the list of runs low to high."""
        out = {f.name: getattr(self, f.name) for f in fields(self) if not f.name.startswith("_")}
        out["straights"] = list(self.straights)
        out["scoring"] = [list(t) for t in self.scoring]
        out["preset"] = out.pop("preset_name")
        return out

    @property
    def core(self) -> Any:
        """The C++ rule set."""
        return self._core_rules

    def core_for(self, twos_demoted: bool = False) -> Any:
        """The C++ rule set with the 2s demoted (the state a four of a kind brings under
        ``two_demotion``) or not; ValueError when these rules never demote them."""
        if not isinstance(twos_demoted, bool):
            raise ValueError(f"twos_demoted must be true or false, got {twos_demoted!r}")
        if not twos_demoted:
            return self._core_rules
        if not self.two_demotion:
            raise ValueError(
                "twos_demoted is only meaningful under the two_demotion setting "
                "(a four of a kind demotes the 2s); these rules have two_demotion=false"
            )
        return self._core_demoted

    @property
    def game_core(self) -> Any:
        """The C++ rule set of a whole round (combos, scoring, dragon, ending, bomb_ends,
        first lead, exchange)."""
        return self._game_rules


def resolve(rules: Rules | Mapping[str, Any] | str | None) -> Rules:
    """Rules from a Rules, a dict ``{"preset": ..., ...}``, a preset name, or None (default)."""
    return resolve_rules(Rules, _DEFAULT, rules)


_DEFAULT = Rules.preset(DEFAULT_PRESET)
