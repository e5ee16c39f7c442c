"""Capsa Susun ``deep`` (level ``master``): milliseconds a decision, by preset and table size.

``first ms`` is the first ``deep`` decision of a fresh process (``python -c``, after the
import): the model loaded, its bank made from the codes shipped with the package
(``capsa_fast.susun.deep_banks``) and the hand arranged; the median of ``--firsts``
processes. Then each hand of ``--tables`` random tables (seed 99) gets one ``deep``
decision on one thread; the figures are the median of ``--repeats`` passes over the hands.
``bank`` is the default (the hands of a 262,144-hand bank arranged by ev that fit the
seat's cards), ``sampled`` the budget before it (``bank=0``: 100 opponent hands dealt and
arranged per decision), ``ev-cr bank`` the default against the card-removal model.
``build s`` is what the first decision costs without a shipped bank (a model of the same
counts built here, which has none): arranging the whole bank (on up to four threads).

Run: ``.venv/bin/python bench/bench_susun_deep.py [--tables N] [--repeats N] [--firsts N]``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from _timing import random_hands
from capsa_fast import _core, susun

FIRST = """
import sys, time
from capsa_fast import _core, susun
rules, players = susun.Rules.preset(sys.argv[1]), int(sys.argv[2])
hand = [int(c) for c in sys.argv[3].split(",")]
started = time.perf_counter()
model = susun.ev.strategy_model("deep", rules, players)
_core.susun_deep_choice(hand, rules.core, players, model, bank=_core.SUSUN_DEEP_BANK)
print((time.perf_counter() - started) * 1e3)
"""


def first_ms(preset: str, players: int, hand: list[int]) -> float:
    """The first decision of a new process, in milliseconds."""
    found = subprocess.run(
        [sys.executable, "-c", FIRST, preset, str(players), ",".join(map(str, hand))],
        check=True,
        capture_output=True,
        text=True,
    )
    return float(found.stdout)


def ms_per_decision(
    rules: susun.Rules, players: int, model: object, hands: list[list[int]], bank: int
) -> float:
    t0 = time.perf_counter()
    for hand in hands:
        _core.susun_deep_choice(hand, rules.core, players, model, bank=bank)
    return (time.perf_counter() - t0) * 1e3 / len(hands)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--firsts", type=int, default=3)
    args = parser.parse_args()
    bank = _core.SUSUN_DEEP_BANK
    print(
        f"{'preset':12s} {'players':>7s} {'first ms':>9s} {'bank ms':>8s} {'sampled ms':>11s} "
        f"{'ev-cr bank ms':>14s} {'build s':>8s}"
    )
    for preset, players in (("capsa-susun", 4), ("capsa-susun", 3), ("two-four", 2)):
        rules = susun.Rules.preset(preset)
        hands = [[int(c) for c in h] for h in random_hands(args.tables * players, 99)]
        first = statistics.median(first_ms(preset, players, hands[0]) for _ in range(args.firsts))
        ev_model = susun.ev.strategy_model("deep", rules, players)
        cr_model = susun.ev.strategy_model("ev-cr", rules, players)
        unshipped = susun.ev.model_from_counts(
            rules, players, susun.ev.load_model_counts(susun.ev.model_preset(rules), players)
        )
        t0 = time.perf_counter()
        _core.susun_deep_choice(hands[0], rules.core, players, unshipped, bank=bank)
        build = time.perf_counter() - t0
        del unshipped
        _core.susun_deep_choice(hands[0], rules.core, players, ev_model, bank=bank)
        _core.susun_deep_choice(hands[0], rules.core, players, cr_model, bank=bank)
        runs = {"bank": (ev_model, bank), "sampled": (ev_model, 0), "ev-cr": (cr_model, bank)}
        times: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(args.repeats):
            for name, (model, size) in runs.items():
                times[name].append(ms_per_decision(rules, players, model, hands, size))
        ms = {name: statistics.median(t) for name, t in times.items()}
        print(
            f"{preset:12s} {players:7d} {first:9.1f} {ms['bank']:8.2f} {ms['sampled']:11.2f} "
            f"{ms['ev-cr']:14.2f} {build:8.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
