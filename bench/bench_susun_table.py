"""Capsa Susun tables: whole tables in C++, and a round through the session API.

1. ``susun_simulate_tables``: 4-player tables dealt, arranged by four ``expert`` (ev) bots
   (declaring specials when that pays) and scored, all in C++; tables per second on one
   thread and on two, by the clock and per CPU second, on the scan path in use
   (``CAPSA_FAST_ISA=avx2`` runs the AVX2 path on an AVX-512 machine).
2. The session API in process (the Flask app, a temporary SQLite store), one human seat
   against three expert bots: the human's arrangement (the reveal and the scoring happen in
   that request) and the next round (the deal and the three bots arranging happen there);
   medians and 90th percentiles.

Run: ``.venv/bin/python bench/bench_susun_table.py [--tables N] [--rounds N]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from capsa_fast import _core, format_cards, susun

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api import create_app


def tables_per_second(rules: susun.Rules, tables: int, threads: int) -> tuple[float, float]:
    """Tables per second: by the clock and per CPU second of the process (the CPU rate is
    steadier on a shared machine; with two threads it is per core), medians of 5 runs."""
    model = susun.ev.ev_model(rules, 4)
    walls, cpus = [], []
    for _ in range(5):
        t0, c0 = time.perf_counter(), time.process_time()
        _core.susun_simulate_tables(rules.core, 4, ["ev"], [model], 11, 0, tables, threads)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return tables / statistics.median(walls), tables / statistics.median(cpus)


def session_latencies(rounds: int) -> tuple[list[float], list[float]]:
    folder = tempfile.mkdtemp(prefix="capsa-bench-")
    app = create_app({"GAMES_DB": str(Path(folder) / "games.sqlite3"), "ACCESS_LOG": False})
    client = app.test_client()
    created = client.post(
        "/v1/susun/games", json={"bots": {"1": "expert", "2": "expert", "3": "expert"}}
    ).get_json()
    url = f"/v1/susun/games/{created['id']}"
    auth = {"Authorization": f"Bearer {created['tokens']['0']}"}
    arrange_ms, next_ms = [], []
    for _ in range(rounds):
        view = client.get(url, headers=auth).get_json()
        best = susun.arrange(view["hand"])  # the player's choice, outside the timing
        body = {
            "top": format_cards(best.top),
            "middle": format_cards(best.middle),
            "bottom": format_cards(best.bottom),
        }
        t0 = time.perf_counter()
        done = client.post(f"{url}/arrangement", json=body, headers=auth)
        arrange_ms.append((time.perf_counter() - t0) * 1e3)
        assert done.status_code == 200 and done.get_json()["revealed"]
        t0 = time.perf_counter()
        dealt = client.post(f"{url}/rounds", headers=auth)
        next_ms.append((time.perf_counter() - t0) * 1e3)
        assert dealt.status_code == 200
    return arrange_ms, next_ms


def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=4000)
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    rules = susun.Rules.preset("capsa-susun")
    tables_per_second(rules, 200, 1)  # load the model and warm up
    print(f"Susun scan path: {_core.susun_scan_path()} (CAPSA_FAST_ISA caps it)")
    for threads in (1, 2):
        rate, per_cpu = tables_per_second(rules, args.tables, threads)
        print(
            f"whole 4-player tables, expert bots, C++, {threads} thread(s): "
            f"{rate:,.0f} tables/s ({1e6 / rate:.0f} us/table); "
            f"{per_cpu:,.0f} tables per CPU second"
        )
    arrange_ms, next_ms = session_latencies(args.rounds)
    both = [a + b for a, b in zip(arrange_ms, next_ms, strict=True)]
    for name, values in (
        ("arrangement (reveal and scoring)", arrange_ms),
        ("next round (deal, 3 expert bots arrange)", next_ms),
        ("both: a whole round's requests", both),
    ):
        print(
            f"session API, {name}: median {statistics.median(values):.2f} ms, "
            f"p90 {p90(values):.2f} ms"
        )


if __name__ == "__main__":
    main()
