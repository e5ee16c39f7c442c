"""Argument handling shared by the environments: rules from ``preset`` and ``rules``, the
seats' players, the worst score of a round."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .._codes import BANTING_CODES, canonical_code
from ..banting import BOT_LEVELS, Rules
from ..banting.rules import resolve


def make_rules(preset: str | None, rules: Any) -> Rules:
    """``preset`` names the table, ``rules`` overrides settings (a dict) or is itself a rule
    set (Rules, preset name, ``{"preset": ..., ...}``) when no preset is given."""
    if preset is None:
        return resolve(rules)
    if not isinstance(preset, str):
        raise ValueError(f"preset must be a preset name, got {preset!r}")
    if rules is None:
        return Rules.preset(preset)
    if not isinstance(rules, Mapping):
        raise ValueError(
            "give rules as a dict of overrides when a preset is named "
            f"(preset={preset!r}, rules={rules!r})"
        )
    overrides = dict(rules)
    named = overrides.pop("preset", preset)
    if named != preset:
        raise ValueError(f"preset {preset!r} and rules['preset'] {named!r} disagree")
    return Rules.preset(preset, **overrides)


def check_players(players: Any) -> int:
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise ValueError(f"players must be 2, 3 or 4, got {players!r}")
    return players


def env_level(level: str) -> str:
    """The bot an environment's seat of ``level`` plays: ``standard`` seats are the
    rule-based standard bot (``standard-v2``), as in the C++ vector env. Standard's
    look-ahead near the end of a round costs about 12 times as much a move, which the
    environments' throughput cannot carry."""
    return "standard-v2" if level == "standard" else level


def opponent_levels(opponents: Any, players: int) -> tuple[str, ...]:
    """The one-seat envs' ``opponents``: a bot level for every other seat, or one level per
    other seat in seat order after the learner's."""
    if isinstance(opponents, str):
        levels = [opponents] * (players - 1)
    elif isinstance(opponents, Sequence):
        levels = list(opponents)
        if len(levels) != players - 1:
            raise ValueError(
                f"opponents: one bot level per other seat ({players - 1}), got {len(levels)}"
            )
    else:
        raise ValueError(f"opponents must be a bot level or a list of them, got {opponents!r}")
    for level in levels:
        if level not in BOT_LEVELS:
            raise ValueError(
                f"opponents: unknown bot level {level!r} (known: {', '.join(BOT_LEVELS)})"
            )
    return tuple(levels)


def seat_levels(opponents: Any, players: int) -> tuple[str | None, ...]:
    """Per seat: None for a seat the caller plays, else a bot level. ``opponents``: None
    (the caller plays every seat), a level (seat 0 is the caller's, the others that bot),
    or one entry per seat."""
    if opponents is None:
        return (None,) * players
    if isinstance(opponents, str):
        levels: tuple[str | None, ...] = (None,) + (opponents,) * (players - 1)
    elif isinstance(opponents, Sequence):
        levels = tuple(opponents)
        if len(levels) != players:
            raise ValueError(
                f"opponents: one entry per seat ({players}), None for the learner's seats; "
                f"got {len(levels)}"
            )
    else:
        raise ValueError(
            f"opponents must be None, a bot level or a list per seat, got {opponents!r}"
        )
    for level in levels:
        if level is not None and level not in BOT_LEVELS:
            raise ValueError(
                f"opponents: unknown bot level {level!r} (known: {', '.join(BOT_LEVELS)})"
            )
    if all(level is not None for level in levels):
        raise ValueError("opponents: at least one seat must be played by the learner (None)")
    return levels


def worst_score(rules: Rules, players: int) -> int:
    """The most one seat can lose in a round under these rules (13 cards at the top tier)."""
    multiplier = 0
    for threshold, mult in rules.scoring:
        if threshold <= 13:
            multiplier = mult
    return -13 * multiplier if players > 1 else 0


def option_code(options: dict[str, Any] | None, players: int) -> str | None:
    """The round code of ``reset``'s options (``{"code": CODE}``), checked; None when
    none is given."""
    if options is None:
        return None
    if not isinstance(options, dict):
        raise ValueError(f"options must be a dict or None, got {type(options).__name__}")
    # Other keys are left alone: the libraries' own checks send options of their own.
    code = options.get("code")
    if code is None:
        return None
    dealt, _ = BANTING_CODES.parse(code)
    if dealt is not None and dealt != players:
        raise ValueError(f"round code {code!r} deals {dealt} players; this env seats {players}")
    return canonical_code(code)


def settle_exchange(game: Any, level_of: Any) -> None:
    """Give back every card owed in the round's card exchange (``exchange: ranked``): each
    seat by the bot of ``level_of(seat)``. The environments' actions are plays only, so a
    learner's seat gives back the standard bot's choice."""
    for seat in range(game.players):
        part = game.exchange_view(seat) if game.exchanging else None
        if part is not None and part.give:
            game.bot_give_back(seat, level_of(seat))
