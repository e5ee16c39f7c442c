"""End-to-end time of POST /v1/evaluate/batch with 100,000 hands (not a test).

Runs the app in process through the Flask test client, so the figure covers request
parsing and validation, card conversion, evaluation and JSON encoding of the response, but
not the network or a WSGI server. Usage: ``python bench/bench_api_batch.py [--hands N]``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

# Run from a checkout: the top-level `api` package lives next to this folder.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api import create_app

DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()

    client = create_app().test_client()
    rng = random.Random(args.seed)
    print(f"POST /v1/evaluate/batch, {args.hands:,} hands, median of {args.repeat} runs")
    for size in (5, 7):
        hands = [rng.sample(DECK, size) for _ in range(args.hands)]
        body = json.dumps({"hands": hands}).encode()
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            response = client.post("/v1/evaluate/batch", data=body, content_type="application/json")
            elapsed = time.perf_counter() - start
            if response.status_code != 200:
                raise SystemExit(
                    f"unexpected {response.status_code}: {response.get_data()[:300]!r}"
                )
            times.append(elapsed)
        median = statistics.median(times)
        rate = args.hands / median
        print(
            f"  {size}-card hands: median {median * 1000:7.1f} ms  "
            f"({rate / 1e6:.2f} M hands/s, request {len(body) / 1e6:.1f} MB, "
            f"response {len(response.get_data()) / 1e6:.1f} MB)"
        )


if __name__ == "__main__":
    main()
