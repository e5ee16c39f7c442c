"""Whole Capsa Banting rounds per second: the C++ simulation loop and Game from Python.

Prints medians over several runs (4 players, capsa-banting):
- ``sim.simulate`` with four random bots, four standard bots, and standard + 3 beginners,
  on one thread and with ``workers=2``;
- rounds played move by move through ``Game.bot_play`` (a Python call per move);
- a pure-Python peer measured in the same run: the test suite's model of a round
  (``tests/banting/oracle_banting_game.py``) playing random legal moves;
- the ratio to that peer and to the 27-118 random rounds per second of the Python
  reference projects.

Run: ``.venv/bin/python bench/bench_banting_game.py [--rounds N]``.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from _timing import median_rate
from capsa_fast import banting
from capsa_fast.banting import sim

REFERENCE_RANDOM_ROUNDS_PER_S = (27, 118)


def model_rounds(n: int) -> None:
    """Random rounds played by the pure-Python model of the tests (the in-run peer)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.banting.oracle_banting import make_rules
    from tests.banting.oracle_banting_game import OracleGame, make_code

    rng = random.Random(1)
    rules = make_rules("capsa-banting")
    for i in range(n):
        game = OracleGame(rules, make_code(4, i))
        while not game.over:
            seat = game.turn
            assert seat is not None
            game.move(seat, rng.choice(game.legal_moves(seat)))


def game_rounds(n: int, level: str) -> None:
    for i in range(n):
        g = banting.Game(code=banting.make_code(4, i))
        while not g.over:
            g.bot_play(g.turn, level)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=50_000)
    args = parser.parse_args()
    n = args.rounds
    seatings = {
        "4 random": ("random",) * 4,
        "4 standard": ("standard",) * 4,
        "standard + 3 beginner": ("standard", "beginner", "beginner", "beginner"),
    }
    rows = []
    for name, seats in seatings.items():
        for workers in (1, 2):
            rate = median_rate(lambda s=seats, w=workers: sim.simulate(n, s, workers=w), n)
            rows.append((f"sim, {name}, workers={workers}", rate))
    small = max(n // 25, 100)
    rows.append(
        ("Game.bot_play loop, 4 random", median_rate(lambda: game_rounds(small, "random"), small))
    )
    rows.append(
        (
            "Game.bot_play loop, 4 standard",
            median_rate(lambda: game_rounds(small, "standard"), small),
        )
    )
    peer = median_rate(lambda: model_rounds(20), 20, repeats=3)
    rows.append(("pure-Python model (tests), 4 random", peer))
    width = max(len(name) for name, _ in rows)
    for name, rate in rows:
        print(f"{name:<{width}}  {rate:>12,.0f} rounds/s")
    random_one = rows[0][1]
    low, high = REFERENCE_RANDOM_ROUNDS_PER_S
    print(f"random rounds on one core vs the pure-Python model: {random_one / peer:,.0f}x")
    print(
        f"random rounds on one core vs the Python references ({low}-{high}/s): "
        f"{random_one / high:,.0f}x to {random_one / low:,.0f}x"
    )


if __name__ == "__main__":
    main()
