"""Play arrangement strategies against each other at random Capsa Susun tables.

    capsa-fast tournament --tables 200000 --preset capsa-susun \\
        --strategies ev,percentile,naive --seed 1

Deals ``--tables`` tables of ``--players`` hands from ``--seed`` (table t from the round-code
seed ``susun_table_seed(seed, t)``). Seats take the strategies, or the bot levels
``beginner`` (naive), ``standard`` (percentile) and ``expert`` (ev), in rotation (seat j at
table t plays strategy (j + t) mod S), so every strategy sits in every seat equally often.
A bot declares a special hand (the dragon, and the optional specials the preset counts)
when declaring pays. Prints each strategy's mean points per hand with a 95% confidence
interval, and for each pair of strategies the mean difference per table between their seats
(tables where both sit), with its 95% interval. All arranging and scoring runs in C++.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .. import _core
from . import ev
from .rules import Rules
from .table import strategy_of


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
) -> tuple[np.ndarray, np.ndarray]:
    """(points [tables, players], strategy index [tables, players]): whole tables dealt,
    arranged (a bot declares a special hand when that pays) and scored in C++.

    Tables are played ``chunk`` at a time, ``progress(done)`` called after each; table t is
    dealt from (``seed``, t) whatever the chunk, so the results do not depend on it."""
    names = [strategy_of(level) for level in strategies]
    models = [ev.ev_model(rules, players) if name == "ev" else None for name in names]
    points = np.empty((tables, players), dtype=np.int32)
    kinds = np.empty((tables, players), dtype=np.int32)
    for first in range(0, tables, chunk):
        count = min(chunk, tables - first)
        got_points, got_kinds = _core.susun_simulate_tables(
            rules.core, players, names, models, seed, first, count, threads
        )
        points[first : first + count] = np.asarray(got_points)
        kinds[first : first + count] = np.asarray(got_kinds)
        if progress is not None:
            progress(first + count)
    return points, kinds


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


def main(argv: list[str] | None = None) -> None:
    """``python -m capsa_fast.susun.tournament``: the same as ``capsa-fast tournament``."""
    from ..cli.tournament import command

    command.main(args=argv, prog_name="python -m capsa_fast.susun.tournament")


if __name__ == "__main__":
    main()
