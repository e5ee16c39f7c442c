"""Capsa Susun search throughput from Python, on random 13-card hands.

Prints, for each strategy, ``arrange_batch`` hands per second with 1 and 2 threads (this
machine has 2 cores), and ``count_valid`` per hand. Medians of several runs. The C++-only
per-hand medians come from ``build/cpp/bench_susun``.

Run: ``.venv/bin/python bench/bench_susun.py [--hands N]``.
"""

from __future__ import annotations

import argparse

from _timing import median_rate, random_hands
from capsa_fast import susun


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--preset", default="capsa-susun")
    args = parser.parse_args()
    hands = random_hands(args.hands, seed=5)
    rules = susun.Rules.preset(args.preset)
    susun.arrange(hands[0].tolist(), rules)  # load the ev model outside the timing
    print(f"preset {args.preset}, {args.hands:,} random hands")
    print(f"{'measure':<40} {'hands/s':>12} {'us/hand':>9}")
    for strategy in susun.STRATEGIES:
        for threads in (1, 2):
            rate = median_rate(
                lambda s=strategy, t=threads: susun.arrange_batch(hands, rules, s, threads=t),
                len(hands),
                repeats=3,
            )
            print(
                f"{f'arrange_batch {strategy}, {threads} thread(s)':<40} {rate:>12,.0f} "
                f"{1e6 / rate:>9.1f}"
            )
    few = [h.tolist() for h in hands[:5000]]
    rate = median_rate(lambda: [susun.count_valid(h, rules) for h in few], len(few), repeats=3)
    print(f"{'count_valid per hand (Python call)':<40} {rate:>12,.0f} {1e6 / rate:>9.1f}")


if __name__ == "__main__":
    main()
