"""Capsa Susun ``deep`` (level ``master``): milliseconds a decision, by preset and table size.

Each hand of ``--tables`` random tables (seed 99) gets one ``deep`` decision at the default
budget (100 sampled opponent hands, 96 candidates), on one thread; the figure is the median
of ``--repeats`` passes over the hands. ``ev-cr`` times the same decisions with the
card-removal model (the default until 2026-12-05), alternating with today's model.

Run: ``.venv/bin/python bench/bench_susun_deep.py [--tables N] [--repeats N]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from _timing import random_hands
from capsa_fast import _core, susun


def ms_per_decision(
    rules: susun.Rules, players: int, model: object, hands: list[list[int]]
) -> float:
    t0 = time.perf_counter()
    for hand in hands:
        _core.susun_deep_choice(hand, rules.core, players, model)
    return (time.perf_counter() - t0) * 1e3 / len(hands)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"{'preset':12s} {'players':>7s} {'ev ms':>8s} {'ev-cr ms':>9s}")
    for preset, players in (("capsa-susun", 4), ("capsa-susun", 2), ("two-four", 2)):
        rules = susun.Rules.preset(preset)
        hands = [[int(c) for c in h] for h in random_hands(args.tables * players, 99)]
        times: dict[str, list[float]] = {"ev": [], "ev-cr": []}
        for _ in range(args.repeats):
            for name in times:
                model = susun.ev.strategy_model(name, rules, players)
                times[name].append(ms_per_decision(rules, players, model, hands))
        ev_ms, cr_ms = (statistics.median(times[name]) for name in ("ev", "ev-cr"))
        print(f"{preset:12s} {players:7d} {ev_ms:8.2f} {cr_ms:9.2f}", flush=True)


if __name__ == "__main__":
    main()
