"""capsa_fast against phevaluator, eval7 and treys: one process, the same random hands.

Run:  python bench/compare.py            (about 1-2 minutes)
      python bench/compare.py --quick    (a few seconds, rougher numbers)

Every peer evaluates the same hands (numpy seed, uniformly random distinct cards), each
measurement is repeated and the median is reported, so the ratios in the table compare
like with like. Per-hand rows time a plain Python loop of single calls over pre-converted
inputs (ids for capsa_fast and phevaluator, eval7.Card lists, treys ints), so they include
the loop and call overhead a user pays; batch rows time one evaluate_batch call on a uint8
[N, k] array. "vs phevaluator" is how many times faster than phevaluator's public per-hand
call evaluate_cards(*ids) on the same k (higher is better); "vs fastest phevaluator" uses
the fastest of phevaluator's public per-hand calls (evaluate_cards, evaluate_5cards /
evaluate_7cards). The row for its private native function (_pheval.evaluate_Ncards, what
the public calls end in, with no argument conversion) is shown for reference.

Also measured: `import capsa_fast` in a fresh interpreter (median of several).
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata

import capsa_fast
import numpy as np

CARD_NAMES = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]


@dataclass
class Row:
    peer: str
    k: int
    ns_per_hand: float
    hands: int
    baseline: bool = False  # phevaluator's public per-hand call evaluate_cards
    phevaluator: bool = False  # a public phevaluator call (for the "fastest" column)


def random_hands(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    """n hands of k distinct cards each, [n, k] uint8."""
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.uint8)


def median_ns(run: Callable[[], object], repeats: int) -> float:
    """Median wall time of run() in nanoseconds, after one warm-up call, GC off."""
    run()
    times = []
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeats):
            start = time.perf_counter_ns()
            run()
            times.append(time.perf_counter_ns() - start)
    finally:
        if gc_was_enabled:
            gc.enable()
    return statistics.median(times)


def per_hand_loop(call: Callable[..., object], inputs: list, star: bool) -> Callable[[], None]:
    if star:

        def run() -> None:
            for args in inputs:
                call(*args)

    else:

        def run() -> None:
            for arg in inputs:
                call(arg)

    return run


def measure_per_hand(
    peer: str,
    k: int,
    call: Callable[..., object],
    inputs: list,
    star: bool,
    repeats: int,
    target_s: float,
    **flags: bool,
) -> Row:
    """Time a loop of single calls; use a prefix of `inputs` sized to take ~target_s."""
    probe = inputs[:2000]
    per_hand = median_ns(per_hand_loop(call, probe, star), 3) / len(probe)
    n = int(min(len(inputs), max(len(probe), target_s * 1e9 / per_hand)))
    used = inputs[:n]
    ns = median_ns(per_hand_loop(call, used, star), repeats) / n
    return Row(peer, k, ns, n, **flags)


def measure_batch(peer: str, k: int, hands: np.ndarray, repeats: int, **options: object) -> Row:
    evaluate_batch = capsa_fast.poker.evaluate_batch
    ns = median_ns(lambda: evaluate_batch(hands, **options), repeats) / len(hands)
    return Row(peer, k, ns, len(hands))


def import_time(module: str, repeats: int) -> tuple[float, float]:
    """Median seconds for `import module` inside a fresh interpreter, and for the whole run."""
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    inside, whole = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-c", code], check=True, capture_output=True, text=True
        ).stdout
        whole.append(time.perf_counter() - start)
        inside.append(float(out.strip()))
    return statistics.median(inside), statistics.median(whole)


def bare_interpreter_time(repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def cpu_description() -> str:
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else "?"
    return f"{model}; {os.cpu_count()} logical CPUs, {usable} usable by this process"


def version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def format_table(rows: list[Row]) -> str:
    baseline = {row.k: row.ns_per_hand for row in rows if row.baseline}
    fastest_phe: dict[int, float] = {}
    for row in rows:
        if row.phevaluator:
            fastest_phe[row.k] = min(fastest_phe.get(row.k, float("inf")), row.ns_per_hand)

    def ratio(reference: dict[int, float], row: Row) -> str:
        return f"{reference[row.k] / row.ns_per_hand:.2f}x" if row.k in reference else "-"

    lines = [
        "| peer | k | median ns/hand | hands/s | vs phevaluator | vs fastest phevaluator |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row.peer} | {row.k} | {row.ns_per_hand:,.1f} | "
            f"{1e9 / row.ns_per_hand:,.0f} | {ratio(baseline, row)} | "
            f"{ratio(fastest_phe, row)} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small samples, few repeats")
    parser.add_argument("--seed", type=int, default=20240501)
    args = parser.parse_args()

    if args.quick:
        batch_n, batch_repeats = 200_000, 5
        per_hand_n, per_hand_repeats, target_s = 20_000, 3, 0.02
        import_repeats = 3
    else:
        batch_n, batch_repeats = 4_000_000, 15
        per_hand_n, per_hand_repeats, target_s = 200_000, 7, 0.25
        import_repeats = 9

    print(f"CPU: {cpu_description()}")
    print(
        f"Python {platform.python_version()}, numpy {np.__version__}, "
        f"capsa_fast {version('capsa_fast')}, phevaluator {version('phevaluator')}, "
        f"eval7 {version('eval7')}, treys {version('treys')}"
    )
    print(
        f"batch: {batch_n:,} hands x {batch_repeats} repeats; per hand: up to "
        f"{per_hand_n:,} hands (~{target_s}s per repeat) x {per_hand_repeats} repeats; "
        f"seed {args.seed}; batch rows use 1 thread unless marked"
    )
    print()

    rng = np.random.default_rng(args.seed)
    hands = {k: random_hands(rng, batch_n, k) for k in (5, 7)}
    rows: list[Row] = []

    for k in (5, 7):
        batch = hands[k]
        as_ids = batch[:per_hand_n].tolist()

        # Sanity: the batch agrees with the per-hand call on the hands both see.
        check = np.asarray(capsa_fast.poker.evaluate_batch(batch[:1000]))
        assert [capsa_fast.poker.evaluate(h).strength for h in as_ids[:1000]] == check.tolist()

        rows.append(measure_batch("capsa_fast evaluate_batch", k, batch, batch_repeats))
        rows.append(
            measure_batch(
                "capsa_fast evaluate_batch validate=False",
                k,
                batch,
                batch_repeats,
                validate=False,
            )
        )
        rows.append(
            measure_batch("capsa_fast evaluate_batch threads=2", k, batch, batch_repeats, threads=2)
        )
        per_hand = {"repeats": per_hand_repeats, "target_s": target_s}
        rows.append(
            measure_per_hand(
                "capsa_fast evaluate (per hand)",
                k,
                capsa_fast.poker.evaluate,
                as_ids,
                star=False,
                **per_hand,
            )
        )

        try:
            import phevaluator
            from phevaluator import _pheval  # the native functions its wrappers call
        except ImportError:
            print("phevaluator not installed: no baseline column")
        else:
            rows.append(
                measure_per_hand(
                    "phevaluator evaluate_cards (per hand)",
                    k,
                    phevaluator.evaluate_cards,
                    as_ids,
                    star=True,
                    baseline=True,
                    phevaluator=True,
                    **per_hand,
                )
            )
            sized = {5: phevaluator.evaluate_5cards, 7: phevaluator.evaluate_7cards}[k]
            rows.append(
                measure_per_hand(
                    f"phevaluator evaluate_{k}cards (per hand)",
                    k,
                    sized,
                    as_ids,
                    star=True,
                    phevaluator=True,
                    **per_hand,
                )
            )
            native = {5: _pheval.evaluate_5cards, 7: _pheval.evaluate_7cards}[k]
            rows.append(
                measure_per_hand(
                    f"phevaluator _pheval.evaluate_{k}cards (private, per hand)",
                    k,
                    native,
                    as_ids,
                    star=True,
                    **per_hand,
                )
            )

        try:
            import eval7
        except ImportError:
            print("eval7 not installed: skipped")
        else:
            cards = [eval7.Card(name) for name in CARD_NAMES]
            eval7_hands = [[cards[c] for c in hand] for hand in as_ids]
            rows.append(
                measure_per_hand(
                    "eval7 evaluate (per hand)",
                    k,
                    eval7.evaluate,
                    eval7_hands,
                    star=False,
                    **per_hand,
                )
            )

        try:
            import treys
        except ImportError:
            print("treys not installed: skipped")
        else:
            treys_cards = [treys.Card.new(name) for name in CARD_NAMES]
            treys_hands = [
                ([treys_cards[c] for c in hand[:2]], [treys_cards[c] for c in hand[2:]])
                for hand in as_ids
            ]
            rows.append(
                measure_per_hand(
                    "treys Evaluator.evaluate (per hand)",
                    k,
                    treys.Evaluator().evaluate,
                    treys_hands,
                    star=True,
                    **per_hand,
                )
            )

    print(format_table(rows))
    print()

    loop_only = measure_per_hand(
        "empty loop",
        5,
        lambda _hand: None,
        hands[5][:per_hand_n].tolist(),
        False,
        per_hand_repeats,
        target_s,
    )
    print(f"Python loop + call overhead alone: {loop_only.ns_per_hand:,.1f} ns/hand")

    inside, whole = import_time("capsa_fast", import_repeats)
    numpy_inside, _ = import_time("numpy", import_repeats)
    bare = bare_interpreter_time(import_repeats)
    print(
        f"import capsa_fast (fresh interpreter, median of {import_repeats}): "
        f"{inside * 1e3:.1f} ms (numpy alone: {numpy_inside * 1e3:.1f} ms); "
        f"whole `python -c 'import capsa_fast'`: {whole * 1e3:.1f} ms "
        f"(bare interpreter: {bare * 1e3:.1f} ms)"
    )


if __name__ == "__main__":
    main()
