"""The production server against slow clients and heavy bodies (not a test; issue 14's figures).

Starts the server as ``make run`` does (gunicorn, uvicorn workers; bench/load.py's helper) on
127.0.0.1, unless ``--url`` names one, then for ``--seconds``:

- ``--slow N`` connections that trickle a request's headers, one byte every ``--trickle``
  seconds, and open again as soon as the server cuts them off (so N are open all the time);
- ``--heavy N`` connections that loop POSTing the largest batch the API takes (100,000
  7-card hands);
- one prober that asks GET /v1/health every ``--probe-every`` seconds on a new connection
  and records how long each answer took (a probe unanswered after 5 s counts as failed);
- with ``--load``, bench/load.py's mixed load against the same server at the same time.

Prints the probes' percentiles, the share answered within 1 s, how often the slow
connections were cut off, and the mixed load's figures; ``--check`` exits 1 when a figure
misses its target (health p99 < ``--max-health-p99-ms``; at least 99% of probes within 1 s;
the load's own targets). Loopback only; every loop stops at the end of the window.

Usage: python bench/slow_clients.py --slow 200 --seconds 60 --load --check
       python bench/slow_clients.py --heavy 4 --seconds 30 --check --max-health-p99-ms 100
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load  # the server helper and the mixed load

ROOT = Path(__file__).resolve().parent.parent
DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]
SLOW_REQUEST = (
    b"GET /v1/health HTTP/1.1\r\nHost: slow\r\nUser-Agent: slow-client\r\n"
    + (b"X-Padding: " + b"a" * 200 + b"\r\n") * 20
)


async def slow_client(
    host: str, port: int, trickle: float, end: float, stats: dict[str, int]
) -> None:
    """Hold a connection open by sending a request's headers a byte at a time; reconnect when
    the server cuts it off."""
    while time.monotonic() < end:
        try:
            reader, writer = await asyncio.open_connection(host, port)
        except OSError:
            stats["connect_errors"] += 1
            await asyncio.sleep(0.1)
            continue
        stats["opened"] += 1
        try:
            for byte in SLOW_REQUEST:
                if time.monotonic() >= end:
                    break
                writer.write(bytes([byte]))
                await writer.drain()
                try:
                    answer = await asyncio.wait_for(reader.read(64), timeout=trickle)
                except TimeoutError:
                    continue  # nothing yet: the server is still waiting for the headers
                if answer.startswith(b"HTTP/1.1 408"):
                    stats["cut_off_408"] += 1
                elif answer:
                    stats["other_answers"] += 1
                else:
                    stats["closed"] += 1
                break
        except (ConnectionError, OSError):
            stats["reset"] += 1
        finally:
            writer.close()


async def heavy_client(host: str, port: int, body: bytes, end: float, times: list[float]) -> None:
    head = (
        f"POST /v1/evaluate/batch HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode()
    reader = writer = None
    while time.monotonic() < end:
        if writer is None:
            reader, writer = await asyncio.open_connection(host, port, limit=1 << 24)
        assert reader is not None
        started = time.monotonic()
        writer.write(head + body)
        await writer.drain()
        status, _, _ = await load.read_response(reader)
        if status != 200:
            raise SystemExit(f"a full batch got {status}")
        times.append(time.monotonic() - started)
    if writer is not None:
        writer.close()


async def prober(host: str, port: int, every: float, end: float, times: list[float | None]) -> None:
    request = f"GET /v1/health HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode()

    async def one() -> None:
        started = time.monotonic()
        try:
            async with asyncio.timeout(5):
                reader, writer = await asyncio.open_connection(host, port)
                writer.write(request)
                await writer.drain()
                status, _, _ = await load.read_response(reader)
                writer.close()
            times.append(time.monotonic() - started if status == 200 else None)
        except (TimeoutError, OSError, ConnectionError, asyncio.IncompleteReadError):
            times.append(None)

    tasks = []
    while time.monotonic() < end:
        tasks.append(asyncio.create_task(one()))
        await asyncio.sleep(every)
    await asyncio.gather(*tasks)


def percentile(ordered: list[float], q: float) -> float:
    return load.percentile(ordered, q)


async def drive(args: argparse.Namespace, host: str, port: int) -> dict[str, Any]:
    end = time.monotonic() + args.seconds
    slow_stats = dict.fromkeys(
        ("opened", "cut_off_408", "closed", "reset", "other_answers", "connect_errors"), 0
    )
    heavy_times: list[float] = []
    probe_times: list[float | None] = []
    body = b""
    if args.heavy:
        rng = random.Random(5)
        hands = [rng.sample(DECK, 7) for _ in range(args.batch_hands)]
        body = json.dumps({"hands": hands}).encode()
    tasks = [slow_client(host, port, args.trickle, end, slow_stats) for _ in range(args.slow)]
    tasks += [heavy_client(host, port, body, end, heavy_times) for _ in range(args.heavy)]
    tasks.append(prober(host, port, args.probe_every, end, probe_times))
    await asyncio.gather(*tasks)
    answered = sorted(t for t in probe_times if t is not None)
    within = sum(1 for t in answered if t <= 1.0)
    return {
        "seconds": args.seconds,
        "slow_connections": args.slow,
        "heavy_connections": args.heavy,
        "slow": slow_stats,
        "health": {
            "probes": len(probe_times),
            "answered": len(answered),
            "within_1s_share": within / max(1, len(probe_times)),
            "median_ms": percentile(answered, 50) * 1000,
            "p90_ms": percentile(answered, 90) * 1000,
            "p99_ms": percentile(answered, 99) * 1000,
            "max_ms": (answered[-1] if answered else 0.0) * 1000,
        },
        "heavy": {
            "batches": len(heavy_times),
            "median_ms": percentile(sorted(heavy_times), 50) * 1000,
            "p99_ms": percentile(sorted(heavy_times), 99) * 1000,
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arg = parser.add_argument
    arg("--url", help="a running server (else one is started as `make run` does)")
    arg("--seconds", type=float, default=60.0)
    arg("--slow", type=int, default=200, help="slow connections held open (default 200)")
    arg("--trickle", type=float, default=1.0, help="seconds between their bytes (default 1)")
    arg("--heavy", type=int, default=0, help="connections looping full batches (default 0)")
    arg("--batch-hands", type=int, default=100_000)
    arg("--probe-every", type=float, default=0.1, help="seconds between health probes")
    arg("--load", action="store_true", help="run bench/load.py's mixed load meanwhile")
    arg("--load-args", default="", help="more arguments for bench/load.py")
    arg("--workers", type=int, help="server workers (default: the production config's)")
    arg("--env", action="append", default=[], metavar="KEY=VALUE", help="server environment")
    arg("--json", type=Path, help="also write the figures here")
    arg("--check", action="store_true", help="exit 1 when a target is missed")
    arg("--max-health-p99-ms", type=float, default=1000.0)
    args = parser.parse_args()
    if args.slow < 0 or args.heavy < 0 or args.seconds <= 0:
        parser.error("--slow, --heavy and --seconds must not be negative")

    with tempfile.TemporaryDirectory(prefix="capsa-slow-") as folder:
        if args.url:
            parts = urlsplit(args.url)
            host, port = parts.hostname or "127.0.0.1", parts.port or 80
            report = run(args, host, port, folder)
        else:
            server_args = argparse.Namespace(
                workers=args.workers,
                gunicorn_config="python:api.server.gunicorn_conf",
                server_args="",
                env=args.env,
            )
            with load.gunicorn_server(server_args, folder) as (target, _process):
                report = run(args, target.host, target.port, folder)
    health = report["health"]
    print(
        f"{args.seconds:g} s, {args.slow} slow connections (a byte every {args.trickle:g} s), "
        f"{args.heavy} connections looping {args.batch_hands:,}-hand batches"
    )
    print(
        f"health probes: {health['probes']}, answered {health['answered']}, within 1 s "
        f"{health['within_1s_share']:.1%}; median {health['median_ms']:.1f} ms, p90 "
        f"{health['p90_ms']:.1f} ms, p99 {health['p99_ms']:.1f} ms, max {health['max_ms']:.1f} ms"
    )
    print(f"slow connections: {report['slow']}")
    if args.heavy:
        heavy = report["heavy"]
        print(
            f"full batches: {heavy['batches']}, median {heavy['median_ms']:.0f} ms, "
            f"p99 {heavy['p99_ms']:.0f} ms"
        )
    verdicts = {
        "health_within_1s": health["within_1s_share"] >= 0.99,
        "health_p99": health["p99_ms"] < args.max_health_p99_ms,
    }
    if report.get("load") is not None:
        total = report["load"]["total"]
        print(
            f"mixed load meanwhile: {total['rps']:.0f} req/s, errors "
            f"{total['errors'] + total['connection_errors']}, median {total['median_ms']:.1f} ms, "
            f"p99 {total['p99_ms']:.1f} ms"
        )
        verdicts["load"] = bool(report["load"]["passed"])
    for name, ok in verdicts.items():
        print(f"{'ok  ' if ok else 'MISS'} {name}")
    report["verdicts"] = verdicts
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    sys.exit(1 if args.check and not all(verdicts.values()) else 0)


def run(args: argparse.Namespace, host: str, port: int, folder: str) -> dict[str, Any]:
    loader = None
    load_json = Path(folder) / "load.json"
    if args.load:
        command = [
            sys.executable,
            str(ROOT / "bench" / "load.py"),
            "--url",
            f"http://{host}:{port}",
            "--seconds",
            str(max(1.0, args.seconds - 5)),
            "--warmup",
            "2",
            "--check",
            "--json",
            str(load_json),
            *args.load_args.split(),
        ]
        loader = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    report = asyncio.run(drive(args, host, port))
    if loader is not None:
        loader.wait(timeout=args.seconds + 120)
        report["load"] = json.loads(load_json.read_text()) if load_json.exists() else None
    return report


if __name__ == "__main__":
    main()
