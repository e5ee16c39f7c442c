"""The Banting simulation on a local Ray: one worker against two, with identical results.

Plays ``--games`` rounds (default 200,000; standard + 3 beginners, capsa-banting, seed 1)
with ``sim.simulate(..., ray="local")`` on a local Ray started with 1 CPU, then with 2
CPUs (each started once and warmed up, so worker start-up is not timed), and on one local
thread without Ray for reference. Prints the median rounds per second of each, the speed-up
of 2 workers over 1, and whether all three runs gave the same scores.

Run: ``.venv/bin/python bench/bench_ray.py [--games N] [--repeats K]``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import numpy as np
import ray
from capsa_fast.banting import sim

SEATS = ("standard", "beginner", "beginner", "beginner")


def timed_runs(games: int, repeats: int, **kwargs: Any) -> tuple[float, sim.SimResult]:
    rates = []
    result = None
    for _ in range(repeats):
        t0 = time.perf_counter()
        result = sim.simulate(games, SEATS, seed=1, **kwargs)
        rates.append(games / (time.perf_counter() - t0))
    assert result is not None
    return statistics.median(rates), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rates: dict[str, float] = {}
    results: dict[str, sim.SimResult] = {}
    for cpus in (1, 2):
        ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False)
        try:
            sim.simulate(8 * 2000, SEATS, seed=99, ray="local")  # start and warm the workers
            rates[f"ray, {cpus} worker(s)"], results[str(cpus)] = timed_runs(
                args.games, args.repeats, ray="local"
            )
        finally:
            ray.shutdown()
    rates["local thread, no Ray"], results["local"] = timed_runs(args.games, args.repeats)
    same = all(
        np.array_equal(results[k].scores, results["local"].scores)
        and np.array_equal(results[k].winners, results["local"].winners)
        for k in ("1", "2")
    )
    for name, rate in rates.items():
        print(f"{name:<22} {rate:>10,.0f} rounds/s  ({args.games / rate:.2f} s)")
    speedup = rates["ray, 2 worker(s)"] / rates["ray, 1 worker(s)"]
    print(f"2 workers / 1 worker: {speedup:.2f}x; identical results: {same}")


if __name__ == "__main__":
    main()
