"""Banting legal-play throughput from Python, on random 13-card hands (one core).

Prints medians over several runs:
- ``legal_play_counts`` in batch when leading, and when answering a single / a pair;
- ``legal_play_mask`` (packed) in batch when leading;
- ``legal_plays`` per hand (a full list of Combo objects per call), against the figure of
  about 39,000 legal-move lists per second measured for the Python reference projects.

Run: ``.venv/bin/python bench/bench_banting.py [--hands N]``.
"""

from __future__ import annotations

import argparse

from _timing import median_rate, random_hands
from capsa_fast import banting

REFERENCE_LISTS_PER_S = 39_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000)
    args = parser.parse_args()
    n = args.hands
    rules = banting.Rules.preset("capsa-banting")
    lead = random_hands(n, 1)
    three_d = banting.classify("3d").cards[0]
    nines = tuple(banting.classify("9s 9h").cards)
    no_3d = random_hands(n, 2, exclude=(three_d,))
    no_nines = random_hands(n, 3, exclude=nines)

    rows = [
        (
            "legal_play_counts, leading",
            median_rate(lambda: banting.legal_play_counts(lead, rules=rules), n),
        ),
        (
            "legal_play_counts, answering a single (3d)",
            median_rate(lambda: banting.legal_play_counts(no_3d, table=[three_d], rules=rules), n),
        ),
        (
            "legal_play_counts, answering a pair (9s 9h)",
            median_rate(
                lambda: banting.legal_play_counts(no_nines, table=list(nines), rules=rules), n
            ),
        ),
        (
            "legal_play_mask (packed), leading",
            median_rate(lambda: banting.legal_play_mask(lead, rules=rules, packed=True), n),
        ),
    ]
    per_hand = [h.tolist() for h in lead[:20_000]]
    lists = median_rate(
        lambda: [banting.legal_plays(h, rules=rules) for h in per_hand], len(per_hand)
    )
    rows.append(("legal_plays per hand (list of Combo)", lists))

    print(f"{'measure':<48} {'hands/s':>14}")
    for name, rate in rows:
        print(f"{name:<48} {rate:>14,.0f}")
    print(
        f"\nlegal_plays lists per second vs the Python reference projects "
        f"(~{REFERENCE_LISTS_PER_S:,}/s): {lists / REFERENCE_LISTS_PER_S:.1f}x"
    )


if __name__ == "__main__":
    main()
