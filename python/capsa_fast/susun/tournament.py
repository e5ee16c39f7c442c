"""Play arrangement strategies against each other at random Capsa Susun tables.

    .venv/bin/python -m capsa_fast.susun.tournament --tables 200000 --preset capsa-susun \\
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

import argparse
import math
import time
from dataclasses import dataclass

import numpy as np

from .. import _core
from . import ev
from .rules import PRESETS, Rules
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


def _model(name: str, rules: Rules, players: int) -> _core.SusunEvModel | None:
    if name in ("ev", "deep"):
        return ev.ev_model(rules, players)
    if name == "ev-v1":
        return ev.ev_model(rules, players, legacy=True)
    return None


def play(
    tables: int,
    players: int,
    strategies: list[str],
    rules: Rules,
    seed: int,
    threads: int,
    duplicate: bool = False,
    deep_hands: int = _core.SUSUN_DEEP_HANDS,
) -> tuple[np.ndarray, np.ndarray]:
    """(points [tables, players], strategy index [tables, players]): whole tables dealt,
    arranged (a bot declares a special hand when that pays) and scored in C++.

    ``duplicate``: ``strategies`` holds one strategy per seat and each deal is played once
    per seat rotation; points are per lineup entry, summed over the rotations."""
    names = [strategy_of(level) for level in strategies]
    models = [_model(name, rules, players) for name in names]
    core_names = ["ev" if name == "ev-v1" else name for name in names]
    points, kinds = _core.susun_simulate_tables(
        rules.core, players, core_names, models, seed, 0, tables, threads, duplicate, deep_hands
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


def duplicate_summary(
    points: np.ndarray, seats: list[str]
) -> list[tuple[str, int, float, float]]:
    """Per strategy: (name, seats, mean points per hand, 95% half-width), taken over deals
    (a deal's rotations are one sample); points are summed over the rotations."""
    per_hand = points.astype(np.float64) / len(seats)
    out = []
    for name in dict.fromkeys(seats):
        cols = [i for i, s in enumerate(seats) if s == name]
        mean, hw = mean_ci(per_hand[:, cols].mean(axis=1))
        out.append((name, len(cols), mean, hw))
    return out


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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20_000)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--preset", default="capsa-susun", choices=sorted(PRESETS))
    parser.add_argument("--strategies", default="ev,percentile,naive")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--duplicate",
        action="store_true",
        help="play each deal once per seat rotation (strategies: one per seat, or two: the "
        "first against the second in every other seat)",
    )
    parser.add_argument(
        "--deep-hands",
        type=int,
        default=_core.SUSUN_DEEP_HANDS,
        help="deep: opponent hands sampled per decision",
    )
    args = parser.parse_args(argv)
    strategies = [s.strip() for s in args.strategies.split(",") if s.strip()]
    for s in strategies:
        try:
            strategy_of(s)
        except ValueError as exc:
            parser.error(str(exc))
    if len(strategies) < 2:
        parser.error("name at least two strategies")
    rules = Rules.preset(args.preset)
    if args.duplicate:
        try:
            seats = lineup(strategies, args.players)
        except ValueError as exc:
            parser.error(str(exc))
        t0 = time.perf_counter()
        points, _ = play(
            args.tables, args.players, seats, rules, args.seed, args.threads, True, args.deep_hands
        )
        elapsed = time.perf_counter() - t0
        print(
            f"{args.tables:,} duplicate deals x {args.players} rotations, {args.players} "
            f"players, preset {args.preset}, seed {args.seed}, {elapsed:.1f}s"
        )
        print(f"{'strategy':<12} {'seats':>5} {'mean points/hand':>18} {'95% CI':>22}")
        for name, n, mean, hw in duplicate_summary(points, seats):
            print(f"{name:<12} {n:>5} {mean:>18.4f}   [{mean - hw:+.4f}, {mean + hw:+.4f}]")
        if len(set(seats)) == 2:
            a, b = list(dict.fromkeys(seats))
            per_hand = points.astype(np.float64) / len(seats)
            ia = [i for i, s in enumerate(seats) if s == a]
            ib = [i for i, s in enumerate(seats) if s == b]
            mean, hw = mean_ci(per_hand[:, ia].mean(axis=1) - per_hand[:, ib].mean(axis=1))
            print(f"\n{a} - {b}: {mean:+.4f} per hand [{mean - hw:+.4f}, {mean + hw:+.4f}]")
        return
    t0 = time.perf_counter()
    points, seat_strategy = play(
        args.tables, args.players, strategies, rules, args.seed, args.threads
    )
    elapsed = time.perf_counter() - t0
    singles, pairs = summarise(points, seat_strategy, strategies)
    print(
        f"{args.tables:,} tables x {args.players} players, preset {args.preset}, "
        f"seed {args.seed}, {elapsed:.1f}s ({args.tables * args.players / elapsed:,.0f} "
        f"hands/s)"
    )
    print(f"{'strategy':<12} {'hands':>10} {'mean points/hand':>18} {'95% CI':>22}")
    for s in singles:
        print(
            f"{s.name:<12} {s.hands:>10,} {s.mean:>18.4f}   "
            f"[{s.mean - s.half_width:+.4f}, {s.mean + s.half_width:+.4f}]"
        )
    print(f"\n{'pair':<24} {'tables':>10} {'mean difference':>16} {'95% CI':>22}")
    for a, b, mean, hw, n in pairs:
        print(f"{a + ' - ' + b:<24} {n:>10,} {mean:>16.4f}   [{mean - hw:+.4f}, {mean + hw:+.4f}]")


if __name__ == "__main__":
    main()
