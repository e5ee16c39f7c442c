"""Capsa Susun table rules as data (RULES.md 4.1-4.3).

Presets are rows of :data:`PRESETS`; ``Rules.preset(name, **overrides)`` layers overrides
on a row. An override of ``bonus_rows`` replaces the whole table.

``super_players`` lists the table sizes at which a super counts. The setting it replaced,
``super_min_players`` (the fewest players for a super), is still read as a legacy alias:
``super_min_players=k`` means ``super_players=[n for n in 2..4 if n >= k]``; ``to_dict``
reports only ``super_players``.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .. import _core
from .._presets import PresetRules, resolve_rules

POSITIONS = ("top", "middle", "bottom")
CATEGORIES: tuple[str, ...] = tuple(_core.CATEGORIES)
BONUS_KINDS = (*CATEGORIES, "royal_flush")
# A 3-card top row can only be high card, a pair or three of a kind.
TOP_KINDS = ("high_card", "pair", "three_of_a_kind")

_DEFAULT_BONUS = {
    "top": {"three_of_a_kind": 5},
    "middle": {"full_house": 3, "four_of_a_kind": 14, "straight_flush": 18, "royal_flush": 22},
    "bottom": {"four_of_a_kind": 7, "straight_flush": 9, "royal_flush": 11},
}
_NO_BONUS: dict[str, dict[str, int]] = {"top": {}, "middle": {}, "bottom": {}}

OPTIONAL_SPECIALS = ("six_pairs", "three_flushes", "three_straights")
"""The special hands a table may add to the dragon (RULES.md 4.4), by their API names."""
_DEFAULT_SPECIAL_POINTS = {name: 6 for name in OPTIONAL_SPECIALS}

PRESETS: dict[str, dict[str, Any]] = {
    "capsa-susun": {
        "suit_tiebreak": True,
        "bonus_rows": _DEFAULT_BONUS,
        "sweep_multiplier": 2,
        "super_multiplier": 4,
        "super_players": [2, 4],
        "majority_bonus": 0,
        "foul_points": 12,
        "dragon_points": 208,
        "room_fee": 0.03,
        "specials": [],
        "special_points": _DEFAULT_SPECIAL_POINTS,
    },
    "classic": {
        "suit_tiebreak": False,
        "bonus_rows": _NO_BONUS,
        "sweep_multiplier": 2,
        "super_multiplier": 0,
        "super_players": [2, 4],
        "majority_bonus": 0,
        "foul_points": 6,
        "dragon_points": 0,
        "room_fee": 0.0,
        "specials": [],
        "special_points": _DEFAULT_SPECIAL_POINTS,
    },
    "two-four": {
        "suit_tiebreak": False,
        "bonus_rows": _NO_BONUS,
        "sweep_multiplier": 1,
        "super_multiplier": 0,
        "super_players": [2, 4],
        "majority_bonus": 1,
        "foul_points": 4,
        "dragon_points": 0,
        "room_fee": 0.0,
        "specials": [],
        "special_points": _DEFAULT_SPECIAL_POINTS,
    },
}
# capsa-susun with the optional special hands of RULES.md 4.4, 6 points each.
PRESETS["susun-specials"] = {**PRESETS["capsa-susun"], "specials": list(OPTIONAL_SPECIALS)}
DEFAULT_PRESET = "capsa-susun"
TABLE_SIZES = (2, 3, 4)
LEGACY_SUPER_MIN_PLAYERS = "super_min_players"

_INT_RANGES = {
    "sweep_multiplier": (1, 100),
    "super_multiplier": (0, 100),
    "majority_bonus": (0, 1000),
    "foul_points": (0, 10_000),
    "dragon_points": (0, 100_000),
}


def _check_int(name: str, value: Any) -> int:
    lo, hi = _INT_RANGES[name]
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ValueError(f"{name} must be an integer in {lo}..{hi}, got {value!r}")
    return value


def _check_players(value: Any) -> tuple[int, ...]:
    """``super_players``: distinct table sizes in 2..4, in any order; kept sorted."""
    sizes = list(value) if isinstance(value, list | tuple) else None
    if sizes is None or not all(
        isinstance(n, int) and not isinstance(n, bool) and n in TABLE_SIZES for n in sizes
    ):
        raise ValueError(
            f"super_players must be a list of table sizes in 2..4 (e.g. [2, 4]), got {value!r}"
        )
    if len(set(sizes)) != len(sizes):
        raise ValueError(f"super_players lists a table size twice: {value!r}")
    return tuple(sorted(sizes))


def _from_legacy_min_players(value: Any) -> list[int]:
    """``super_players`` for the legacy ``super_min_players`` (the fewest players)."""
    lo, hi = TABLE_SIZES[0], TABLE_SIZES[-1]
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ValueError(
            f"super_min_players (legacy; use super_players) must be an integer in {lo}..{hi}, "
            f"got {value!r}"
        )
    return [n for n in TABLE_SIZES if n >= value]


def _check_specials(value: Any) -> tuple[str, ...]:
    """``specials``: distinct names of OPTIONAL_SPECIALS, kept in that order."""
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise ValueError(
            f"specials must be a list of special hands ({', '.join(OPTIONAL_SPECIALS)}), "
            f"got {value!r}"
        )
    for name in value:
        if name not in OPTIONAL_SPECIALS:
            raise ValueError(
                f"specials: unknown special {name!r} (known: {', '.join(OPTIONAL_SPECIALS)}; "
                "the dragon counts through dragon_points)"
            )
    if len(set(value)) != len(value):
        raise ValueError(f"specials lists a special twice: {value!r}")
    return tuple(name for name in OPTIONAL_SPECIALS if name in value)


def _check_special_points(value: Any) -> dict[str, int]:
    """``special_points``: {special: points}; names left out keep their default (6)."""
    if not isinstance(value, Mapping):
        raise ValueError("special_points must be an object {special: points}")
    points = dict(_DEFAULT_SPECIAL_POINTS)
    for name, amount in value.items():
        if name not in OPTIONAL_SPECIALS:
            raise ValueError(
                f"special_points: unknown special {name!r} (known: {', '.join(OPTIONAL_SPECIALS)})"
            )
        if isinstance(amount, bool) or not isinstance(amount, int) or not 0 <= amount <= 100_000:
            raise ValueError(
                f"special_points.{name} must be an integer in 0..100000, got {amount!r}"
            )
        points[name] = amount
    return points


def _check_bonus(value: Any) -> dict[str, dict[str, int]]:
    if not isinstance(value, Mapping):
        raise ValueError("bonus_rows must be an object {position: {kind: points}}")
    table: dict[str, dict[str, int]] = {p: {} for p in POSITIONS}
    for position, kinds in value.items():
        if position not in POSITIONS:
            raise ValueError(
                f"bonus_rows: unknown position {position!r} (known: {', '.join(POSITIONS)})"
            )
        if not isinstance(kinds, Mapping):
            raise ValueError(f"bonus_rows.{position} must be an object {{kind: points}}")
        allowed = TOP_KINDS if position == "top" else BONUS_KINDS
        for kind, points in kinds.items():
            if kind not in allowed:
                raise ValueError(
                    f"bonus_rows.{position}: unknown kind {kind!r} (known: {', '.join(allowed)})"
                )
            if isinstance(points, bool) or not isinstance(points, int) or not 0 <= points <= 10_000:
                raise ValueError(
                    f"bonus_rows.{position}.{kind} must be an integer in 0..10000, got {points!r}"
                )
            table[position][kind] = points
    return table


@dataclass(frozen=True)
class Rules(PresetRules):
    """One Capsa Susun rule set. Build with :meth:`preset` or :meth:`from_dict`."""

    _PRESETS: ClassVar[Mapping[str, Mapping[str, Any]]] = PRESETS
    _DEFAULT_PRESET: ClassVar[str] = DEFAULT_PRESET

    suit_tiebreak: bool = True
    bonus_rows: Mapping[str, Mapping[str, int]] = field(
        default_factory=lambda: copy.deepcopy(_DEFAULT_BONUS)
    )
    sweep_multiplier: int = 2
    super_multiplier: int = 4
    super_players: tuple[int, ...] = (2, 4)
    majority_bonus: int = 0
    foul_points: int = 12
    dragon_points: int = 208
    room_fee: float = 0.03
    specials: tuple[str, ...] = ()
    special_points: Mapping[str, int] = field(default_factory=lambda: dict(_DEFAULT_SPECIAL_POINTS))
    preset_name: str = DEFAULT_PRESET
    _core_rules: Any = field(default=None, repr=False, compare=False)
    _fingerprint: Any = field(default="", repr=False, compare=False)

    @classmethod
    def preset(cls, name: str | None = None, /, **overrides: Any) -> Rules:
        """The preset ``name`` with ``overrides``; reads the legacy ``super_min_players``
        (see the module docstring), which must agree with ``super_players`` when both come."""
        if LEGACY_SUPER_MIN_PLAYERS in overrides:
            overrides = dict(overrides)
            converted = _from_legacy_min_players(overrides.pop(LEGACY_SUPER_MIN_PLAYERS))
            if "super_players" not in overrides:
                overrides["super_players"] = converted
            elif _check_players(overrides["super_players"]) != tuple(converted):
                raise ValueError(
                    f"super_min_players (legacy) means super_players {converted}, which does "
                    f"not match super_players {overrides['super_players']!r}"
                )
        return super().preset(name, **overrides)

    @classmethod
    def _build(cls, name: str, settings: dict[str, Any]) -> Rules:
        if not isinstance(settings["suit_tiebreak"], bool):
            raise ValueError(
                f"suit_tiebreak must be true or false, got {settings['suit_tiebreak']!r}"
            )
        fee = settings["room_fee"]
        if isinstance(fee, bool) or not isinstance(fee, int | float) or not 0 <= fee < 1:
            raise ValueError(f"room_fee must be a number in 0..1 (a fraction), got {fee!r}")
        return cls(
            suit_tiebreak=settings["suit_tiebreak"],
            bonus_rows=_check_bonus(settings["bonus_rows"]),
            super_players=_check_players(settings["super_players"]),
            room_fee=float(fee),
            specials=_check_specials(settings["specials"]),
            special_points=_check_special_points(settings["special_points"]),
            preset_name=name,
            **{k: _check_int(k, settings[k]) for k in _INT_RANGES},
        )

    def __post_init__(self) -> None:
        bonus = [
            [int(self.bonus_rows.get(p, {}).get(kind, 0)) for kind in BONUS_KINDS]
            for p in POSITIONS
        ]
        core = _core.SusunRules(
            self.suit_tiebreak,
            bonus,
            self.sweep_multiplier,
            self.super_multiplier,
            list(self.super_players),
            self.majority_bonus,
            self.foul_points,
            self.dragon_points,
            {name: self.special_value(name) for name in OPTIONAL_SPECIALS},
        )
        object.__setattr__(self, "_core_rules", core)

    @property
    def fingerprint(self) -> str:
        """Every setting as one canonical string (equal rules, equal strings), computed once;
        for caches keyed by a rule set."""
        if not self._fingerprint:
            settings = self.to_dict()
            settings.pop("preset")
            object.__setattr__(self, "_fingerprint", json.dumps(settings, sort_keys=True))
        return str(self._fingerprint)

    def special_value(self, special: str) -> int:
        """Points a declared special wins from each opponent of lower rank; 0 when these
        rules do not count it (the dragon: dragon_points)."""
        if special == "dragon":
            return self.dragon_points
        return self.special_points.get(special, 0) if special in self.specials else 0

    def to_dict(self) -> dict[str, Any]:
        """Every setting, JSON-ready, with the preset it started from."""
        return {
            "preset": self.preset_name,
            "suit_tiebreak": self.suit_tiebreak,
            "bonus_rows": {p: dict(self.bonus_rows.get(p, {})) for p in POSITIONS},
            "sweep_multiplier": self.sweep_multiplier,
            "super_multiplier": self.super_multiplier,
            "super_players": list(self.super_players),
            "majority_bonus": self.majority_bonus,
            "foul_points": self.foul_points,
            "dragon_points": self.dragon_points,
            "room_fee": self.room_fee,
            "specials": list(self.specials),
            "special_points": dict(self.special_points),
        }

    @property
    def core(self) -> Any:
        """The C++ rule set."""
        return self._core_rules


_DEFAULT = Rules.preset(DEFAULT_PRESET)


def resolve(rules: Rules | Mapping[str, Any] | str | None) -> Rules:
    """Rules from a Rules, a dict ``{"preset": ..., ...}``, a preset name, or None (default)."""
    return resolve_rules(Rules, _DEFAULT, rules)
