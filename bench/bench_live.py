"""Live updates under the production server (not a test; issue 56's transport figures).

Starts gunicorn as ``make run`` does (``--workers`` uvicorn workers, a fresh store in a
temporary folder) on 127.0.0.1, then:

1. Memory: the workers' RSS (sum over the worker processes, from /proc) before and after
   ``--idle`` streams are open and have had their first event; per stream = the difference
   divided by the streams.
2. Stateless routes while those streams are open: ``--probes`` POST /v1/evaluate one after
   another, idle server vs with the streams open (p50, p99).
3. Push latency: ``--tables`` four-seat tables of humans, each seat's stream open (a
   different connection per seat, spread over the workers by the server); ``--moves`` moves
   in all, at ``--rate`` moves per second over the tables (one move in flight per table).
   For each move, the time from its response to each of the other three seats' events for
   that version (an event read before the response was counts as 0); p50, p99, max; lost
   events (a version a stream never got) are counted. Also the server's CPU seconds (all
   its processes, /proc) per move with its pushes.

Usage: python bench/bench_live.py --idle 2000 --tables 50 --moves 1000 --rate 25
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _sse import SseStream, json_request, open_stream

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def call(port: int, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    status, _, data = json_request(HOST, port, method, path, body, token, timeout=60)
    if status >= 300:
        raise RuntimeError(f"{method} {path}: {status} {data}")
    return data


def children(pid: int) -> list[int]:
    text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    return [int(p) for p in text.split()]


def rss_bytes(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) * 1024
    return total


def cpu_seconds(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / CLOCK_TICKS


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def new_table(port: int) -> tuple[str, dict[int, str]]:
    created = call(port, "POST", "/v1/banting/games", {"players": 4, "bots": {}, "tokens": "all"})
    return created["id"], {int(s): t for s, t in created["tokens"].items()}


def ticket(port: int, game_id: str, token: str) -> str:
    return str(call(port, "POST", f"/v1/banting/games/{game_id}/ticket", token=token)["ticket"])


async def open_events(port: int, game_id: str, issued: str) -> SseStream:
    stream = await open_stream(HOST, port, f"/v1/banting/games/{game_id}/events?ticket={issued}")
    if stream.status != 200:
        raise RuntimeError(f"stream refused: {stream.status} {stream.body!r}")
    return stream


def probe_times(port: int, count: int) -> list[float]:
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    body = json.dumps({"cards": ["As", "Ks", "Qs", "Js", "Ts"]})
    times = []
    try:
        for _ in range(count):
            started = time.perf_counter()
            conn.request(
                "POST", "/v1/evaluate", body=body, headers={"Content-Type": "application/json"}
            )
            response = conn.getresponse()
            response.read()
            times.append((time.perf_counter() - started) * 1000)
    finally:
        conn.close()
    return times


def summary(values: list[float]) -> str:
    return (
        f"p50 {statistics.median(values):.2f} ms, p99 {percentile(values, 0.99):.2f} ms, "
        f"max {max(values):.2f} ms (n={len(values)})"
    )


async def idle_phase(args: argparse.Namespace, port: int, workers: list[int]) -> None:
    game_id, tokens = new_table(port)
    issued = ticket(port, game_id, tokens[0])
    idle_probes = await asyncio.to_thread(probe_times, port, args.probes)
    before = rss_bytes(workers)
    streams = []
    for start in range(0, args.idle, 100):
        batch = [open_events(port, game_id, issued) for _ in range(min(100, args.idle - start))]
        streams += await asyncio.gather(*batch)
    await asyncio.gather(*(s.next_event() for s in streams))
    await asyncio.sleep(1.0)
    after = rss_bytes(workers)
    busy_probes = await asyncio.to_thread(probe_times, port, args.probes)
    served = {s.headers.get("x-served-by") for s in streams}
    print(f"idle streams: {len(streams)} over {len(served)} workers")
    print(
        f"workers' RSS: {before / 2**20:.1f} MiB before, {after / 2**20:.1f} MiB after: "
        f"{(after - before) / len(streams) / 1024:.1f} KiB per stream"
    )
    print(f"POST /v1/evaluate, no streams:        {summary(idle_probes)}")
    print(f"POST /v1/evaluate, {len(streams)} streams open: {summary(busy_probes)}")
    for s in streams:
        s.close()
    await asyncio.sleep(1.0)


async def push_phase(args: argparse.Namespace, port: int, server_pids: list[int]) -> None:
    tables = []
    for _ in range(args.tables):
        game_id, tokens = new_table(port)
        streams = {}
        for seat, token in tokens.items():
            streams[seat] = await open_events(port, game_id, ticket(port, game_id, token))
        latest = {seat: json.loads((await s.next_event()).data) for seat, s in streams.items()}
        tables.append((game_id, tokens, streams, latest))
    latencies: list[float] = []
    lost = 0
    moves = 0
    cpu_before = cpu_seconds(server_pids)
    started = time.perf_counter()

    async def one_move(index: int) -> None:
        nonlocal lost, moves
        game_id, tokens, streams, latest = tables[index % len(tables)]
        seen = latest[0]
        if seen["over"]:
            path, body, token = f"/v1/banting/games/{game_id}/rounds", {}, tokens[0]
            mover = 0
        else:
            mover = seen["turn"]
            hint = latest[mover]["hint"]
            play = hint["play"] if hint is not None else "pass"
            path, body, token = f"/v1/banting/games/{game_id}/moves", {"play": play}, tokens[mover]
        answer = await asyncio.to_thread(call, port, "POST", path, body, token)
        answered = time.perf_counter()
        version = int(answer["version"])
        moves += 1
        for seat, stream in streams.items():
            try:
                while True:
                    event = await asyncio.wait_for(stream.next_event(), 5.0)
                    if int(event.id or 0) >= version:
                        break
            except TimeoutError:
                lost += 1
                continue
            if int(event.id or 0) != version:
                lost += 1
            latest[seat] = json.loads(event.data)
            if seat != mover:
                latencies.append(max(0.0, (event.received - answered) * 1000))

    running: dict[int, asyncio.Task[None]] = {}
    for index in range(args.moves):
        table = index % len(tables)
        due = started + index / args.rate
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        if table in running:
            await running[table]
        running[table] = asyncio.create_task(one_move(index))
    await asyncio.gather(*running.values())
    elapsed = time.perf_counter() - started
    cpu = cpu_seconds(server_pids) - cpu_before
    print(
        f"pushes: {args.tables} tables x 4 seats, {moves} moves in {elapsed:.1f} s "
        f"({moves / elapsed:.1f} moves/s)"
    )
    print(f"push latency, response -> other seats' events: {summary(latencies)}; lost {lost}")
    print(f"server CPU per move with its 4 pushes: {cpu / moves * 1000:.2f} ms")
    for _, _, streams, _ in tables:
        for s in streams.values():
            s.close()


async def run(args: argparse.Namespace, port: int, master: int) -> None:
    workers = children(master)
    print(f"server: gunicorn {master}, workers {workers}")
    if args.idle:
        await idle_phase(args, port, workers)
    if args.moves:
        await push_phase(args, port, [master, *workers])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--idle", type=int, default=2000, help="idle streams (0: skip)")
    parser.add_argument("--probes", type=int, default=300, help="evaluate requests per run")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--moves", type=int, default=1000, help="moves in all (0: skip)")
    parser.add_argument("--rate", type=float, default=25.0, help="moves per second")
    args = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    port = _free_port()
    with tempfile.TemporaryDirectory() as folder:
        env = {
            **os.environ,
            "CAPSA_FAST_PORT": str(port),
            "CAPSA_FAST_WORKERS": str(args.workers),
            "CAPSA_FAST_GAMES_DB": os.path.join(folder, "games.sqlite3"),
            "CAPSA_FAST_ACCESS_LOG": "false",
        }
        gunicorn = str(Path(sys.executable).parent / "gunicorn")
        with open(os.path.join(folder, "server.log"), "wb") as log:
            process = subprocess.Popen(
                [
                    gunicorn,
                    "-c",
                    "python:api.server.gunicorn_conf",
                    "api.server.asgi:create_asgi_app()",
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    call(port, "GET", "/v1/health")
                    break
                except (OSError, RuntimeError):
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.1)
            time.sleep(0.5)
            asyncio.run(run(args, port, process.pid))
        finally:
            process.terminate()
            process.wait(timeout=60)


if __name__ == "__main__":
    main()
