"""End-to-end time of POST /v1/evaluate/batch with 100,000 hands (not a test).

By default it starts the production server as ``make run`` does (bench/load.py's helper) on
127.0.0.1 and times each request from the first byte sent to the last byte of the answer, on
one kept-alive connection: body reading, the C++ body reader, evaluation, the C++ answer
writer, and the loopback network both ways. ``--url`` times a running server instead;
``--in-process`` times the app alone through the Flask test client (no server, no network).

Usage: ``python bench/bench_api_batch.py [--hands N] [--repeat 15] [--url URL | --in-process]``
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

# Run from a checkout: the top-level `api` package and bench/load.py live next to this folder.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]


def over_http(host: str, port: int) -> Callable[[bytes], tuple[int, int]]:
    conn = http.client.HTTPConnection(host, port, timeout=60)

    def send(body: bytes) -> tuple[int, int]:
        conn.request("POST", "/v1/evaluate/batch", body, {"Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, len(response.read())

    return send


def in_process() -> Callable[[bytes], tuple[int, int]]:
    from api import create_app

    client = create_app({"ACCESS_LOG": False}).test_client()

    def send(body: bytes) -> tuple[int, int]:
        response = client.post("/v1/evaluate/batch", data=body, content_type="application/json")
        return response.status_code, len(response.get_data())

    return send


def measure(send: Callable[[bytes], tuple[int, int]], args: argparse.Namespace, how: str) -> None:
    rng = random.Random(args.seed)
    print(f"POST /v1/evaluate/batch, {args.hands:,} hands, {how}, median of {args.repeat} runs")
    for size in (5, 7):
        hands = [rng.sample(DECK, size) for _ in range(args.hands)]
        body = json.dumps({"hands": hands}).encode()
        send(body)  # warm-up
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            status, length = send(body)
            times.append(time.perf_counter() - start)
            if status != 200:
                raise SystemExit(f"unexpected {status}")
        times.sort()
        print(
            f"  {size}-card hands: median {statistics.median(times) * 1000:6.1f} ms, best "
            f"{times[0] * 1000:6.1f} ms, p90 {times[int(0.9 * (len(times) - 1))] * 1000:6.1f} ms "
            f"(request {len(body) / 1e6:.1f} MB, answer {length / 1e6:.1f} MB)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--url", help="a running server")
    parser.add_argument("--in-process", action="store_true", help="the app alone, no server")
    args = parser.parse_args()
    if args.in_process:
        measure(in_process(), args, "in process (Flask test client)")
    elif args.url:
        parts = urlsplit(args.url)
        measure(over_http(parts.hostname or "127.0.0.1", parts.port or 80), args, args.url)
    else:
        import load

        server_args = argparse.Namespace(
            workers=None, gunicorn_config="python:api.server.gunicorn_conf", server_args="", env=[]
        )
        with (
            tempfile.TemporaryDirectory(prefix="capsa-batch-") as folder,
            load.gunicorn_server(server_args, folder) as (target, _process),
        ):
            measure(over_http(target.host, target.port), args, "over HTTP to `make run`")


if __name__ == "__main__":
    main()
