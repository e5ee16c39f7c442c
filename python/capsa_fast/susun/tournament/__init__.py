"""Play arrangement strategies against each other at random Capsa Susun tables.

    capsa-fast tournament --tables 200000 --preset capsa-susun \\
        --strategies ev,percentile,naive --seed 1

Deals ``--tables`` tables of ``--players`` hands from ``--seed`` (table t from the round-code
seed ``susun_table_seed(seed, t)``). Seats take the strategies, or the bot levels
``beginner`` (naive), ``standard`` (percentile) and ``expert`` (ev), in rotation (seat j at
table t plays strategy (j + t) mod S), so every strategy sits in every seat equally often.
A bot declares a special hand (the dragon, and the optional specials the preset counts)
when declaring pays. ``--duplicate`` instead plays each deal once per seat rotation with
one strategy per seat (or two: the first in one seat, the second in every other), which
cancels the luck of the deal. Prints each strategy's mean points per hand with a 95% confidence
interval, and for each pair of strategies the mean difference per table between their seats
(tables where both sit), with its 95% interval. All arranging and scoring runs in C++.
Table t depends only on (``--seed``, t), so ``--ray [ADDRESS]`` (chunks of ``--chunk``
tables as tasks on a Ray cluster, a local one without an address) gives the same results.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ... import _core, _ray
from ..._threads import check_threads
from .. import ev
from ..rules import Rules
from ..table import strategy_of


@dataclass(frozen=True)
class Summary:
    name: str
    hands: int
    mean: float
    half_width: float  # of the 95% confidence interval


def mean_ci(x: np.ndarray) -> tuple[float, float]:
    """Mean and the half-width of its 95% normal-approximation interval."""
    if len(x) < 2:
        return float(np.mean(x)) if len(x) else math.nan, math.inf
    return float(np.mean(x)), 1.96 * float(np.std(x, ddof=1)) / math.sqrt(len(x))


def play(
    tables: int,
    players: int,
    strategies: list[str],
    rules: Rules,
    seed: int,
    threads: int,
    progress: Callable[[int], None] | None = None,
    chunk: int = 2000,
    ray: str | None = None,
    duplicate: bool = False,
    deep_hands: int = _core.SUSUN_DEEP_HANDS,
    deep_candidates: int = _core.SUSUN_DEEP_CANDIDATES,
    deep_bank: int = _core.SUSUN_DEEP_BANK,
) -> tuple[np.ndarray, np.ndarray]:
    """(points [tables, players], strategy index [tables, players]): whole tables dealt,
    arranged (a bot declares a special hand when that pays) and scored in C++.

    Tables are played ``chunk`` at a time, ``progress(done)`` called after each; table t is
    dealt from (``seed``, t) whatever the chunk, so the results do not depend on it. ``ray``:
    the chunks run as Ray tasks (``"local"`` or a cluster address, see
    :mod:`capsa_fast._ray`), with the same results.

    ``duplicate``: ``strategies`` holds one strategy per seat and each deal is played once
    per seat rotation; points are per lineup entry, summed over the rotations. ``deep``
    samples ``deep_hands`` opponent hands per decision and scores ev's ``deep_candidates``
    best arrangements against them (1 to SUSUN_MAX_DEEP_CANDIDATES); with ``deep_bank`` > 0
    it scores them against the hands of a bank of that many random hands arranged by ev
    that share no card with the seat's instead of sampling."""
    names = [strategy_of(level) for level in strategies]
    _ray.check_count(tables, chunk, "tables")
    if isinstance(players, bool) or players not in (2, 3, 4):
        raise ValueError(f"players must be 2, 3 or 4, got {players!r}")
    threads = check_threads(threads)
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an integer from 0 to 2**64 - 1, got {seed!r}")
    rules_arg: Any = rules if ray is None else rules.to_dict()
    per_task = 1 if ray is not None else threads
    chunks = [
        (
            rules_arg,
            players,
            names,
            seed,
            first,
            min(chunk, tables - first),
            per_task,
            duplicate,
            deep_hands,
            deep_candidates,
            deep_bank,
        )
        for first in range(0, tables, chunk)
    ]
    parts = _ray.run_chunks(
        _tables,
        chunks,
        ray_address=ray,
        threads=1,  # local chunks in order, each on `threads` C++ threads
        progress=None if progress is None else lambda done, _total, _s: progress(done),
        units=lambda c: c[5],
    )
    if not parts:
        return np.zeros((0, players), np.int32), np.zeros((0, players), np.int32)
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def _tables(chunk: tuple[Any, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Tables first .. first + count - 1 of a run: (points, strategy index)."""
    (
        rules_arg,
        players,
        names,
        seed,
        first,
        count,
        threads,
        duplicate,
        deep_hands,
        candidates,
        bank,
    ) = chunk
    rules = rules_arg if isinstance(rules_arg, Rules) else Rules.from_dict(rules_arg)
    models = [ev.strategy_model(name, rules, players) for name in names]
    core_names = ["ev" if name in ev.VERSIONS else name for name in names]
    points, kinds = _core.susun_simulate_tables(
        rules.core,
        players,
        core_names,
        models,
        seed,
        first,
        count,
        threads,
        duplicate,
        deep_hands=deep_hands,
        deep_candidates=candidates,
        deep_bank=bank,
    )
    return np.asarray(points), np.asarray(kinds)


def lineup(strategies: list[str], players: int) -> list[str]:
    """One strategy per seat for duplicate tables: as given when there is one per seat, or
    the first strategy in one seat against the second in every other seat."""
    if len(strategies) == players:
        return strategies
    if len(strategies) == 2:
        return [strategies[0]] + [strategies[1]] * (players - 1)
    raise ValueError(
        f"duplicate tables take one strategy per seat ({players}) or two strategies, "
        f"got {len(strategies)}"
    )


def duplicate_summary(points: np.ndarray, seats: list[str]) -> list[tuple[str, int, float, float]]:
    """Per strategy: (name, seats, mean points per hand, 95% half-width), taken over deals
    (a deal's rotations are one sample); points are summed over the rotations."""
    per_hand = points.astype(np.float64) / len(seats)
    out = []
    for name in dict.fromkeys(seats):
        cols = [i for i, s in enumerate(seats) if s == name]
        mean, hw = mean_ci(per_hand[:, cols].mean(axis=1))
        out.append((name, len(cols), mean, hw))
    return out


def duplicate_difference(points: np.ndarray, seats: list[str]) -> tuple[str, str, float, float]:
    """With two strategies in the lineup: (a, b, mean of a's minus b's points per hand per
    deal, 95% half-width)."""
    a, b = list(dict.fromkeys(seats))
    per_hand = points.astype(np.float64) / len(seats)
    ia = [i for i, s in enumerate(seats) if s == a]
    ib = [i for i, s in enumerate(seats) if s == b]
    mean, hw = mean_ci(per_hand[:, ia].mean(axis=1) - per_hand[:, ib].mean(axis=1))
    return a, b, mean, hw


def summarise(
    points: np.ndarray, seat_strategy: np.ndarray, strategies: list[str]
) -> tuple[list[Summary], list[tuple[str, str, float, float, int]]]:
    singles = []
    for s, name in enumerate(strategies):
        x = points[seat_strategy == s].astype(np.float64)
        mean, hw = mean_ci(x)
        singles.append(Summary(name, len(x), mean, hw))
    pairs = []
    for a in range(len(strategies)):
        for b in range(a + 1, len(strategies)):
            in_a = seat_strategy == a
            in_b = seat_strategy == b
            both = in_a.any(axis=1) & in_b.any(axis=1)
            pa = np.where(in_a, points, 0).sum(axis=1) / np.maximum(in_a.sum(axis=1), 1)
            pb = np.where(in_b, points, 0).sum(axis=1) / np.maximum(in_b.sum(axis=1), 1)
            diff = (pa - pb)[both]
            mean, hw = mean_ci(diff)
            pairs.append((strategies[a], strategies[b], mean, hw, int(both.sum())))
    return singles, pairs
