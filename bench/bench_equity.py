"""Hold'em equity figures (issue 18) with eval7 in the same process and the same run.

Run:  python bench/bench_equity.py            (about a minute)
      python bench/bench_equity.py --quick    (a few seconds, rougher numbers)
      python bench/bench_equity.py --json     (one JSON object instead of the table)

Rows (capsa_fast through the package, as a user calls it; each time is the median of
several runs, peers timed in turn so a change of load falls on both):
  hand vs hand    AhKh vs QsQc preflop, exact: every one of the 1,712,304 boards, one
                  thread.
  hand vs range   AhKh vs "22+,ATs+,KQs,JTs,KQo" preflop, exact, one thread: the 100
                  combinations of that range that AhKh's cards leave, every board each.
  range vs range  Monte Carlo "QQ+,ATs+,AJo+,KQs,55-22,98s" vs "TT+,AQs+,AKo,KJs+"
                  preflop; showdowns per second on 1 and 2 threads (a showdown is one
                  pair of combinations settled on one board).

eval7 has no preflop enumeration (its exact hand-vs-range settles a complete board only),
so its time for an exact row is the time its Monte Carlo (in C) takes for the same number
of showdowns: py_hand_vs_range_monte_carlo settles one showdown per iteration; for the
100-combination range it runs a twentieth of them (a fifth with --quick) and the time is
scaled up (it is linear in the iterations). Range vs range: eval7's py_all_hands_vs_range
(every hero combination against the villain range, `iterations` showdowns each), one
thread (it has no threads).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any

import capsa_fast as cf

HERO = "AhKh"
VILLAIN_HAND = "QsQc"
RANGE_100 = "22+,ATs+,KQs,JTs,KQo"
MC_HERO = "QQ+,ATs+,AJo+,KQs,55-22,98s"
MC_VILLAIN = "TT+,AQs+,AKo,KJs+"


def median_time(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def in_turn(fns: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    """Median seconds of each function, timed round by round in turn."""
    times: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
    return {k: statistics.median(v) for k, v in times.items()}


def eval7_peer() -> Any:
    try:
        import eval7
    except ImportError:
        return None
    return eval7


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats, rougher numbers")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    repeats = 3 if args.quick else 7
    scale = 5 if args.quick else 20
    e7 = eval7_peer()
    out: dict[str, Any] = {"eval7": e7 is not None}

    # Hand vs hand, exact, one thread.
    hvh = cf.poker.equity([HERO, VILLAIN_HAND], exact=True, threads=1)
    fns: dict[str, Callable[[], object]] = {
        "capsa_fast": lambda: cf.poker.equity([HERO, VILLAIN_HAND], exact=True, threads=1)
    }
    if e7 is not None:
        hero7 = [e7.Card(HERO[:2]), e7.Card(HERO[2:])]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # eval7's range parser uses a deprecated call
            villain7 = e7.HandRange(VILLAIN_HAND)
        fns["eval7"] = lambda: e7.py_hand_vs_range_monte_carlo(hero7, villain7, [], hvh.combos)
    t = in_turn(fns, repeats)
    out["hand_vs_hand"] = {
        "showdowns": hvh.combos,
        "equity": hvh.equity[0],
        "capsa_fast_ms": t["capsa_fast"] * 1e3,
        "eval7_ms": t["eval7"] * 1e3 if e7 else None,
    }

    # Hand vs a range of 100 combinations, exact, one thread.
    hvr = cf.poker.equity([HERO, RANGE_100], exact=True, threads=1)
    faced = sum(
        1 for c, _ in cf.poker.parse_range(RANGE_100) if not {c[:2], c[2:]} & {HERO[:2], HERO[2:]}
    )
    fns = {"capsa_fast": lambda: cf.poker.equity([HERO, RANGE_100], exact=True, threads=1)}
    if e7 is not None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            range7 = e7.HandRange(RANGE_100)
        part = hvr.combos // scale
        fns["eval7"] = lambda: e7.py_hand_vs_range_monte_carlo(hero7, range7, [], part)
    t = in_turn(fns, max(3, repeats // 2))
    out["hand_vs_range"] = {
        "combos_faced": faced,
        "showdowns": hvr.combos,
        "equity": hvr.equity[0],
        "capsa_fast_ms": t["capsa_fast"] * 1e3,
        "eval7_ms": t["eval7"] * scale * 1e3 if e7 else None,
    }

    # Monte Carlo range vs range, showdowns per second.
    samples = 20_000 if args.quick else 100_000

    def ours(threads: int) -> Callable[[], object]:
        return lambda: cf.poker.equity(
            [MC_HERO, MC_VILLAIN], samples=samples, threads=threads, seed=1
        )

    mc = cf.poker.equity([MC_HERO, MC_VILLAIN], samples=samples, threads=1, seed=1)
    fns = {"capsa_fast_1t": ours(1), "capsa_fast_2t": ours(2)}
    iterations = 2_000 if args.quick else 10_000
    e7_showdowns = 0
    if e7 is not None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            hero_range7 = e7.HandRange(MC_HERO)
            villain_range7 = e7.HandRange(MC_VILLAIN)
        e7_showdowns = len(hero_range7.hands) * iterations
        fns["eval7"] = lambda: e7.py_all_hands_vs_range(hero_range7, villain_range7, [], iterations)
    t = in_turn(fns, max(3, repeats // 2))
    out["range_vs_range_mc"] = {
        "showdowns_per_run": mc.combos,
        "capsa_fast_1t_per_s": mc.combos / t["capsa_fast_1t"],
        "capsa_fast_2t_per_s": mc.combos / t["capsa_fast_2t"],
        "eval7_per_s": e7_showdowns / t["eval7"] if e7 else None,
    }

    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    a, b, c = out["hand_vs_hand"], out["hand_vs_range"], out["range_vs_range_mc"]

    def ratio(x: float | None, y: float | None) -> str:
        return f"{x / y:,.0f}x" if x and y else "-"

    def ms(x: float | None) -> str:
        return f"{x:,.1f} ms" if x is not None else "-"

    print(f"{'figure':<44} {'capsa_fast':>16} {'eval7':>16} {'ratio':>8}")
    print(
        f"{'hand vs hand preflop exact, 1 thread':<44} {ms(a['capsa_fast_ms']):>16} "
        f"{ms(a['eval7_ms']):>16} {ratio(a['eval7_ms'], a['capsa_fast_ms']):>8}"
    )
    print(f"  {a['showdowns']:,} boards, equity {a['equity']:.6f}")
    print(
        f"{'hand vs range (100 combos) exact, 1 thread':<44} {ms(b['capsa_fast_ms']):>16} "
        f"{ms(b['eval7_ms']):>16} {ratio(b['eval7_ms'], b['capsa_fast_ms']):>8}"
    )
    print(f"  {b['combos_faced']} combos, {b['showdowns']:,} showdowns, equity {b['equity']:.6f}")
    e7rate = c["eval7_per_s"]
    for threads in (1, 2):
        rate = c[f"capsa_fast_{threads}t_per_s"]
        print(
            f"{f'range vs range Monte Carlo, {threads} thread(s)':<44} "
            f"{rate / 1e6:>12,.1f} M/s "
            f"{(e7rate / 1e6 if e7rate else 0):>12,.2f} M/s {ratio(rate, e7rate):>8}"
        )
    print("(eval7: one thread; its exact rows are its Monte Carlo over as many showdowns)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
