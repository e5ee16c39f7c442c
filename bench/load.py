"""Throughput and latency of the HTTP API under a mixed load, served by gunicorn (not a test).

Closed-loop load: ``--concurrency`` HTTP/1.1 connections, spread over ``--clients`` client
processes, each sending its next request as soon as the answer to the last one is read.
Each request is drawn from ``--mix`` (relative weights):

- ``evaluate``: POST /v1/evaluate with one 3-7-card hand, or (one in five) POST
  /v1/evaluate/batch with a small batch of 2-16 hands;
- ``validate``: POST /v1/banting/validate with a random hand, table and play (allowed or
  not: 200 either way);
- ``arrange``: POST /v1/susun/arrange with 13 random cards;
- ``move``: the next step of a Banting game session that the connection drives alone (seat
  0 human, three ``--bots`` bots): create the game, view it, move (the view's hint, a pass
  where allowed or a single card when leading), deal the next round, a new game after
  ``--rounds`` rounds.

With ``--batch-clients N``, N more connections (in a process of their own) loop POSTing
/v1/evaluate/batch with the largest batch the API takes (DEFAULT_MAX_BATCH_HANDS, read from
api/poker/schemas.py) of 7-card hands; their latencies are reported on a line of their own and
left out of the totals, so the table shows whether they starve the other routes.

A latency runs from sending the request (from connecting, when the server had closed the
previous connection) to the last byte of the answer. Requests that start in the
``--seconds`` window after ``--warmup`` seconds are counted; req/s is their number over the
window. Request bodies are made before the clock starts. Client and server share the
machine: the report gives the CPU each used, and on 2 cores the client's share is capacity
the server did not have.

Unless ``--url`` names a running server, the script starts the production server itself,
as ``make run`` does (``gunicorn -c python:api.server.gunicorn_conf``: uvicorn workers, one per
core, JSON access log on), on 127.0.0.1:<free port> with CAPSA_FAST_GAMES_DB on a temporary file,
and stops it with SIGTERM at the end; ``--workers`` and ``--server-args`` change it.

An error is an answer outside 2xx (a 409 on a game move included: each game has one
connection, so there is no race to excuse it); a connection error is a refused or dropped
connection or a request over ``--timeout``. The exit code is 1 on any error, and with
``--check`` also when the window misses ``--min-rps`` or ``--max-p99-ms`` (without the
full-size batches).

Usage: ``python bench/load.py [--seconds 60] [--workers 4] [--env
CAPSA_FAST_COMPUTE_THREADS=8] [--concurrency 16] [--clients 1] [--batch-clients 1] [--mix
evaluate=40,validate=25,arrange=20,move=15] [--json PATH] [--check] [--url URL]``
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import contextlib
import http.client
import json
import math
import multiprocessing as mp
import os
import random
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]
GAMES = "/v1/banting/games"
DEFAULT_MIX = "evaluate=40,validate=25,arrange=20,move=15"
MIX_KINDS = ("evaluate", "validate", "arrange", "move")
# Report order; every route a request can be counted under.
ROUTES = (
    "evaluate",
    "evaluate-batch",
    "validate",
    "arrange",
    "game-create",
    "game-view",
    "game-move",
    "game-round",
)
FULL_BATCH = "evaluate-batch-full"
SMALL_BATCH_SHARE = 0.2
SMALL_BATCH_HANDS = (2, 16)
FULL_BATCH_HAND_SIZE = 7
ERROR_SAMPLES = 3
READ_LIMIT = 1 << 20


# --- request bodies, made before the clock starts -----------------------------------------


def _json(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


def _max_batch_hands() -> int:
    """DEFAULT_MAX_BATCH_HANDS from api/poker/schemas.py, read as text so the client imports
    nothing of the project (it may be run against a server elsewhere)."""
    tree = ast.parse((ROOT / "api" / "poker" / "schemas.py").read_text(encoding="utf-8"))
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        value = getattr(node, "value", None)
        for target in targets:
            if isinstance(target, ast.Name) and target.id == "DEFAULT_MAX_BATCH_HANDS":
                return int(ast.literal_eval(value))  # type: ignore[arg-type]
    raise SystemExit(
        "DEFAULT_MAX_BATCH_HANDS not found in api/poker/schemas.py; pass --batch-hands"
    )


def _pair(cards: list[str], rng: random.Random) -> list[str] | None:
    """Two cards of one rank from ``cards``, or None when no rank occurs twice."""
    by_rank: dict[str, list[str]] = {}
    for card in cards:
        by_rank.setdefault(card[0], []).append(card)
    ranks = [rank for rank, group in by_rank.items() if len(group) >= 2]
    return rng.sample(by_rank[rng.choice(ranks)], 2) if ranks else None


def evaluate_body(rng: random.Random) -> tuple[str, bytes]:
    if rng.random() < SMALL_BATCH_SHARE:
        count = rng.randint(*SMALL_BATCH_HANDS)
        hands = [rng.sample(DECK, rng.choice((5, 7))) for _ in range(count)]
        return "evaluate-batch", _json({"hands": hands})
    return "evaluate", _json({"cards": rng.sample(DECK, rng.choice((3, 5, 5, 6, 7, 7, 7)))})


def validate_body(rng: random.Random) -> tuple[str, bytes]:
    """A position the route accepts (the table is a combo and not in the hand) and a play
    that may or may not be allowed: both are 200."""
    deck = rng.sample(DECK, len(DECK))
    size = 13 if rng.random() < 0.7 else rng.randint(1, 13)
    hand, rest = deck[:size], deck[size:]
    body: dict[str, Any] = {"hand": hand}
    roll = rng.random()
    table = [rest[0]] if roll < 0.35 else _pair(rest, rng) if roll < 0.6 else None
    if table is None:
        body["first_play"] = rng.random() < 0.2
    else:
        body["table"] = table
        body["passed"] = rng.random() < 0.1
    roll = rng.random()
    if roll < 0.15:
        body["play"] = "pass"
    elif roll < 0.25:
        body["play"] = [rest[-1]]  # not in the hand: refused, NOT_IN_HAND
    elif roll < 0.4 and len(hand) >= 5:
        body["play"] = rng.sample(hand, 5)
    elif roll < 0.6 and (pair := _pair(hand, rng)):
        body["play"] = pair
    else:
        body["play"] = [rng.choice(hand)]
    return "validate", _json(body)


def arrange_body(rng: random.Random) -> tuple[str, bytes]:
    return "arrange", _json({"hand": rng.sample(DECK, 13)})


BODY_MAKERS = {"evaluate": evaluate_body, "validate": validate_body, "arrange": arrange_body}


@dataclass(frozen=True)
class Target:
    host: str
    port: int
    prefix: str  # a path the API is mounted under, '' at the root

    def request(
        self, method: str, path: str, body: bytes | None = None, token: str | None = None
    ) -> bytes:
        """The bytes of one HTTP/1.1 request (keep-alive is the default in 1.1)."""
        head = [f"{method} {self.prefix}{path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        if token is not None:
            head.append(f"Authorization: Bearer {token}")
        if body is not None:
            head += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
        return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + (body or b"")


ROUTE_PATHS = {
    "evaluate": "/v1/evaluate",
    "evaluate-batch": "/v1/evaluate/batch",
    "validate": "/v1/banting/validate",
    "arrange": "/v1/susun/arrange",
}


# --- HTTP/1.1 over asyncio streams ----------------------------------------------------------


class IdleClosed(ConnectionError):
    """The server closed a kept-alive connection before answering anything."""


async def read_response(reader: asyncio.StreamReader) -> tuple[int, bool, bytes]:
    """Status, whether the connection stays open, and the body of one response."""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError as exc:
        if not exc.partial:
            raise IdleClosed("connection closed before a response") from exc
        raise
    lines = head.decode("latin-1").split("\r\n")
    version, status_text = lines[0].split(" ", 2)[:2]
    status = int(status_text)
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if line:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip().lower()
    connection = headers.get("connection", "")
    # HTTP/1.1 keeps the connection unless told otherwise; 1.0 closes it unless told otherwise.
    keep_alive = "close" not in connection if version == "HTTP/1.1" else "keep-alive" in connection
    if status in (204, 304) or 100 <= status < 200:
        body = b""
    elif "chunked" in headers.get("transfer-encoding", ""):
        body = await _read_chunked(reader)
    elif "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    else:
        body = await reader.read()  # the body runs to the end of the connection
        keep_alive = False
    return status, keep_alive, body


async def _read_chunked(reader: asyncio.StreamReader) -> bytes:
    parts: list[bytes] = []
    while True:
        size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
        if size == 0:
            while await reader.readuntil(b"\r\n") != b"\r\n":  # trailers
                pass
            return b"".join(parts)
        parts.append(await reader.readexactly(size))
        await reader.readexactly(2)


class Connection:
    """One client connection: kept alive while the server allows, reopened when it closes.
    ``opened`` counts the connections made in the clock's window."""

    def __init__(self, target: Target, clock: Clock) -> None:
        self.target, self.clock = target, clock
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.opened = 0

    async def exchange(self, raw: bytes) -> tuple[int, bytes, float]:
        """Send ``raw``; the status, the body and the monotonic time the body was complete."""
        while True:
            fresh = self.writer is None
            if fresh:
                self.reader, self.writer = await asyncio.open_connection(
                    self.target.host, self.target.port, limit=READ_LIMIT
                )
                self.opened += self.clock.window_start <= time.monotonic() < self.clock.window_end
            assert self.reader is not None and self.writer is not None
            try:
                self.writer.write(raw)
                await self.writer.drain()
                status, keep_alive, body = await read_response(self.reader)
            except (IdleClosed, ConnectionResetError, BrokenPipeError):
                self.close()
                if fresh:
                    raise
                continue  # the server dropped an idle kept-alive connection: send it anew
            done = time.monotonic()
            if not keep_alive:
                # Let the server close first, so the TIME_WAIT sockets are its and the
                # client's ephemeral ports are not used up at a connection per request.
                with contextlib.suppress(OSError, TimeoutError):
                    async with asyncio.timeout(1.0):
                        await self.reader.read()
                self.close()
            return status, body, done

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


CONNECTION_ERRORS = (OSError, EOFError, TimeoutError, ValueError, asyncio.LimitOverrunError)


# --- what a client process does --------------------------------------------------------------


@dataclass
class RouteStats:
    """One route's figures in one process: latencies (seconds) of the window's requests."""

    latencies: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    errors: int = 0
    connection_errors: int = 0
    warmup_errors: int = 0
    samples: list[str] = field(default_factory=list)

    def merge(self, other: RouteStats) -> None:
        self.latencies += other.latencies
        self.statuses.update(other.statuses)
        self.errors += other.errors
        self.connection_errors += other.connection_errors
        self.warmup_errors += other.warmup_errors
        self.samples += other.samples[: ERROR_SAMPLES - len(self.samples)]


@dataclass(frozen=True)
class Plan:
    """What one client process is to do."""

    target: Target
    connections: int
    batch_connections: int
    mix: tuple[tuple[str, float], ...]
    seed: int
    pool: int
    bots: str
    rounds: int
    timeout: float
    batch_hands: int


@dataclass(frozen=True)
class Clock:
    warm_start: float  # time.monotonic(), the same clock in every process on one machine
    window_start: float
    window_end: float


class Recorder:
    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.routes: dict[str, RouteStats] = {}

    def _route(self, route: str) -> RouteStats:
        stats = self.routes.get(route)
        if stats is None:
            stats = self.routes[route] = RouteStats()
        return stats

    def answer(self, route: str, start: float, elapsed: float, status: int, body: bytes) -> None:
        stats = self._route(route)
        ok = 200 <= status < 300
        if start < self.clock.window_start:
            stats.warmup_errors += not ok
        else:
            stats.latencies.append(elapsed)
            stats.statuses[status] += 1
            stats.errors += not ok
        if not ok and len(stats.samples) < ERROR_SAMPLES:
            stats.samples.append(f"{status}: {body[:300].decode('utf-8', 'replace')}")

    def failure(self, route: str, start: float, exc: BaseException) -> None:
        stats = self._route(route)
        if start < self.clock.window_start:
            stats.warmup_errors += 1
        else:
            stats.connection_errors += 1
        if len(stats.samples) < ERROR_SAMPLES:
            stats.samples.append(f"connection: {type(exc).__name__}: {exc}")


class GameDriver:
    """One connection's Banting match, one request per step; the human is seat 0."""

    def __init__(self, target: Target, rng: random.Random, bots: str, rounds: int) -> None:
        self.target, self.rng, self.rounds = target, rng, rounds
        create = {"bots": dict.fromkeys(("1", "2", "3"), bots)}
        self.create_request = target.request("POST", GAMES, _json(create))
        self.reset()

    def reset(self) -> None:
        self.url: str | None = None
        self.token: str | None = None
        self.view: dict[str, Any] | None = None

    def next_request(self) -> tuple[str, bytes]:
        view = self.view
        if self.url is None or (view is not None and view["over"] and view["round"] >= self.rounds):
            return "game-create", self.create_request
        if view is None:
            return "game-view", self.target.request("GET", self.url, token=self.token)
        if view["over"]:
            return "game-round", self.target.request(
                "POST", f"{self.url}/rounds", b"{}", self.token
            )
        body = _json({"play": self._choose(view)})
        return "game-move", self.target.request("POST", f"{self.url}/moves", body, self.token)

    def _choose(self, view: dict[str, Any]) -> Any:
        """A legal move: mostly the hint; else a pass where allowed, or a single when leading
        (the lowest card on the round's first play, which must hold it)."""
        roll = self.rng.random()
        if view["can_pass"] and roll < 0.15:
            return "pass"
        if view["table"] is None and roll > 0.85 and view["hand"]:
            return [view["hand"][0] if view["first_play"] else self.rng.choice(view["hand"])]
        hint = view["hint"]
        return hint["play"] if hint else "pass"

    def update(self, route: str, status: int, body: bytes) -> None:
        if not 200 <= status < 300:
            self.reset()  # start over on a new game rather than guess its state
            return
        answer = json.loads(body)
        if route == "game-create":
            self.url, self.token, self.view = f"{GAMES}/{answer['id']}", answer["tokens"]["0"], None
        elif answer["over"] or answer["your_turn"]:
            self.view = answer
        else:
            self.reset()  # the bots always hand the turn back to the only human: not expected


async def _timed_exchange(
    plan: Plan, conn: Connection, rec: Recorder, route: str, raw: bytes
) -> tuple[int, bytes] | None:
    """Send one request and record its answer or failure; (status, body), or None when the
    connection failed or timed out (it is then closed, and reopens on the next request)."""
    start = time.monotonic()
    try:
        async with asyncio.timeout(plan.timeout):
            status, body, done = await conn.exchange(raw)
    except CONNECTION_ERRORS as exc:
        conn.close()
        rec.failure(route, start, exc)
        return None
    rec.answer(route, start, done - start, status, body)
    return status, body


async def _interactive(
    plan: Plan, pools: dict[str, list[tuple[str, bytes]]], clock: Clock, rec: Recorder, n: int
) -> int:
    rng = random.Random(plan.seed * 7919 + n)
    kinds = [kind for kind, _ in plan.mix]
    weights = [weight for _, weight in plan.mix]
    cursors = {kind: rng.randrange(len(pool)) for kind, pool in pools.items()}
    game = GameDriver(plan.target, rng, plan.bots, plan.rounds)
    conn = Connection(plan.target, clock)
    while time.monotonic() < clock.window_end:
        kind = rng.choices(kinds, weights)[0]
        if kind == "move":
            route, raw = game.next_request()
        else:
            pool = pools[kind]
            route, raw = pool[cursors[kind]]
            cursors[kind] = (cursors[kind] + 1) % len(pool)
        answer = await _timed_exchange(plan, conn, rec, route, raw)
        if kind == "move":
            if answer is None:
                game.reset()
            else:
                game.update(route, *answer)
        if answer is None:
            await asyncio.sleep(0.01)
    conn.close()
    return conn.opened


async def _full_batches(plan: Plan, raw: bytes, clock: Clock, rec: Recorder) -> int:
    conn = Connection(plan.target, clock)
    while time.monotonic() < clock.window_end:
        if await _timed_exchange(plan, conn, rec, FULL_BATCH, raw) is None:
            await asyncio.sleep(0.1)
    conn.close()
    return conn.opened


async def _run(plan: Plan, requests: Any, clock: Clock) -> dict[str, Any]:
    rec = Recorder(clock)
    loop = asyncio.get_running_loop()
    cpu: dict[str, float] = {}
    # loop.time() is time.monotonic(), so the marks fall on the window's edges.
    loop.call_at(clock.window_start, lambda: cpu.setdefault("start", time.process_time()))
    loop.call_at(clock.window_end, lambda: cpu.setdefault("end", time.process_time()))
    await asyncio.sleep(max(0.0, clock.warm_start - time.monotonic()))
    if plan.batch_connections:
        tasks = [_full_batches(plan, requests, clock, rec) for _ in range(plan.batch_connections)]
    else:
        tasks = [_interactive(plan, requests, clock, rec, n) for n in range(plan.connections)]
    opened = await asyncio.gather(*tasks)
    end = cpu.get("end", time.process_time())
    return {
        "routes": rec.routes,
        "opened": sum(opened),
        "cpu_seconds": end - cpu.get("start", end),
    }


def client_process(index: int, plan: Plan, queue: Any, go: Any, times: Any) -> None:
    """Make the request bodies, say ready, wait for the clock, run, send the figures."""
    try:
        rng = random.Random(plan.seed * 1_000_003 + index)
        requests: Any
        if plan.batch_connections:
            hands = [rng.sample(DECK, FULL_BATCH_HAND_SIZE) for _ in range(plan.batch_hands)]
            requests = plan.target.request("POST", "/v1/evaluate/batch", _json({"hands": hands}))
        else:
            requests = {}
            for kind, _ in plan.mix:
                if kind in BODY_MAKERS:
                    bodies = [BODY_MAKERS[kind](rng) for _ in range(plan.pool)]
                    requests[kind] = [
                        (route, plan.target.request("POST", ROUTE_PATHS[route], body))
                        for route, body in bodies
                    ]
        queue.put(("ready", index, None))
        go.wait()
        clock = Clock(*times[:])
        queue.put(("done", index, asyncio.run(_run(plan, requests, clock))))
    except BaseException:  # reported to the parent, which stops the run
        queue.put(("failed", index, traceback.format_exc()))


# --- the server ------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _gunicorn() -> str:
    for candidate in (
        ROOT / ".venv" / "bin" / "gunicorn",
        Path(sys.executable).parent / "gunicorn",
    ):
        if candidate.exists():
            return str(candidate)
    raise SystemExit("gunicorn not found in .venv/bin; install the project with the api extra")


def server_command(args: argparse.Namespace, port: int) -> list[str]:
    command = [_gunicorn(), "--bind", f"127.0.0.1:{port}"]
    if args.workers is not None:
        command += ["--workers", str(args.workers)]
    if args.gunicorn_config:
        command += ["-c", args.gunicorn_config]
    # Extra arguments come last so that they win over the ones above.
    return [*command, *shlex.split(args.server_args), "api.server.asgi:create_asgi_app()"]


def _health(target: Target) -> bool:
    conn = http.client.HTTPConnection(target.host, target.port, timeout=2)
    try:
        conn.request("GET", f"{target.prefix}/v1/health")
        return conn.getresponse().status == 200
    except OSError:
        return False
    finally:
        conn.close()


@contextlib.contextmanager
def gunicorn_server(args: argparse.Namespace, folder: str) -> Iterator[tuple[Target, Any]]:
    """Start gunicorn on a free port and wait for /v1/health; SIGTERM it on the way out."""
    port = _free_port()
    command = server_command(args, port)
    env = {**os.environ, "CAPSA_FAST_GAMES_DB": str(Path(folder) / "games.sqlite3")}
    env.update(item.split("=", 1) for item in args.env)
    log_path = Path(folder) / "gunicorn.log"
    print("server:", shlex.join(command), flush=True)
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
    target = Target("127.0.0.1", port, "")
    try:
        deadline = time.monotonic() + 60
        while not _health(target):
            if process.poll() is not None or time.monotonic() > deadline:
                tail = log_path.read_text(errors="replace")[-3000:]
                raise SystemExit(f"gunicorn did not come up (exit {process.poll()}):\n{tail}")
            time.sleep(0.1)
        yield target, process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if process.returncode not in (0, -signal.SIGTERM):
            tail = log_path.read_text(errors="replace")[-3000:]
            print(
                f"gunicorn exited with {process.returncode}; its log ends:\n{tail}", file=sys.stderr
            )


def _machine_busy() -> tuple[float, float]:
    """Seconds of CPU time busy and in total so far, summed over all cores (Linux)."""
    with open("/proc/stat") as stat:
        ticks = [int(v) for v in stat.readline().split()[1:]]
    idle = ticks[3] + ticks[4]  # idle and iowait
    total = sum(ticks[:8])  # guest time is already counted in user
    tick = os.sysconf("SC_CLK_TCK")
    return (total - idle) / tick, total / tick


def _process_tree_cpu(root_pid: int) -> dict[int, float]:
    """CPU seconds (user + system) used so far by ``root_pid`` and each of its descendants
    (Linux): for gunicorn, the master and its workers."""
    tick = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    used: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        parents[int(entry)] = int(fields[1])
        used[int(entry)] = (int(fields[11]) + int(fields[12])) / tick
    tree, grown = {root_pid}, True
    while grown:
        more = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree |= more
        grown = bool(more)
    return {pid: used[pid] for pid in sorted(tree) if pid in used}


# --- figures ---------------------------------------------------------------------------------


def percentile(ordered: list[float], q: float) -> float:
    """Nearest-rank percentile of an ascending list (0.0 when empty)."""
    if not ordered:
        return 0.0
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def route_figures(stats: RouteStats, seconds: float) -> dict[str, Any]:
    ordered = sorted(stats.latencies)
    return {
        "count": len(ordered),
        "rps": len(ordered) / seconds,
        "errors": stats.errors,
        "connection_errors": stats.connection_errors,
        "warmup_errors": stats.warmup_errors,
        "statuses": {str(k): v for k, v in sorted(stats.statuses.items())},
        "median_ms": percentile(ordered, 50) * 1000,
        "p90_ms": percentile(ordered, 90) * 1000,
        "p99_ms": percentile(ordered, 99) * 1000,
        "max_ms": (ordered[-1] if ordered else 0.0) * 1000,
        "error_samples": stats.samples,
    }


def print_report(report: dict[str, Any]) -> None:
    cfg = report["config"]
    print(
        f"\n{cfg['seconds']:g} s after {cfg['warmup']:g} s warm-up; {cfg['concurrency']} "
        f"connections over {cfg['clients']} client process(es); mix {cfg['mix']}; "
        f"{cfg['batch_clients']} full-batch connection(s)"
    )
    header = f"{'route':<26}{'count':>8}{'req/s':>9}{'errors':>8}"
    header += f"{'median':>9}{'p90':>9}{'p99':>9}{'max':>9}  (ms)"
    print(header)
    print("-" * len(header))

    def line(name: str, fig: dict[str, Any]) -> None:
        errors = fig["errors"] + fig["connection_errors"]
        print(
            f"{name:<26}{fig['count']:>8}{fig['rps']:>9.1f}{errors:>8}"
            f"{fig['median_ms']:>9.2f}{fig['p90_ms']:>9.2f}{fig['p99_ms']:>9.2f}"
            f"{fig['max_ms']:>9.1f}"
        )

    for route, fig in report["routes"].items():
        line(route, fig)
    print("-" * len(header))
    line("all (without full batches)", report["total"])
    if report["full_batch"] is not None:
        line(f"full batch ({cfg['batch_hands']:,} hands)", report["full_batch"])
    print(
        f"connections opened: {report['connections_opened']:,} "
        f"({report['connections_per_request']:.2f} per request)"
    )
    cpu = report["cpu"]
    server = "n/a"
    if cpu["server_cores"] is not None:
        each = " + ".join(f"{c:.2f}" for c in cpu["server_process_cores"])
        server = (
            f"{cpu['server_cores']:.2f} (master + workers: {each}; "
            f"{cpu['server_ms_per_request']:.2f} ms per request)"
        )
    clients = " + ".join(f"{c:.2f}" for c in cpu["client_cores"])
    print(
        f"CPU in the window, cores busy: server {server}, client processes {clients}, "
        f"everything else (kernel, other programs) {cpu['other_cores']:.2f}; "
        f"machine {cpu['machine_busy']:.0%} busy of {cpu['machine_cores']} cores"
    )
    for route, fig in [*report["routes"].items(), (FULL_BATCH, report["full_batch"])]:
        if fig and (fig["errors"] or fig["connection_errors"] or fig["warmup_errors"]):
            print(
                f"  {route}: statuses {fig['statuses']}, connection errors "
                f"{fig['connection_errors']}, warm-up errors {fig['warmup_errors']}"
            )
            for sample in fig["error_samples"]:
                print(f"    {sample}")
    for verdict in report["verdicts"]:
        print(verdict)


def parse_mix(text: str) -> tuple[tuple[str, float], ...]:
    mix = []
    for item in text.split(","):
        kind, _, weight = item.partition("=")
        kind = kind.strip()
        if kind not in MIX_KINDS:
            raise argparse.ArgumentTypeError(f"unknown kind {kind!r} (known: {MIX_KINDS})")
        try:
            value = float(weight)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{item!r} is not kind=weight") from None
        if value < 0:
            raise argparse.ArgumentTypeError(f"negative weight in {item!r}")
        if value > 0:
            mix.append((kind, value))
    if not mix:
        raise argparse.ArgumentTypeError("the mix needs one positive weight")
    return tuple(mix)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arg = parser.add_argument
    arg("--url", help="a running server, e.g. http://127.0.0.1:8000 (else gunicorn is started)")
    arg(
        "--workers",
        type=int,
        help="gunicorn --workers (default: the production config's, one per core)",
    )
    arg("--server-args", default="", help="extra gunicorn arguments, e.g. '--threads 4'")
    arg(
        "--gunicorn-config",
        default="python:api.server.gunicorn_conf",
        help="gunicorn config, passed as -c (default: the production one, as `make run`)",
    )
    arg("--env", action="append", default=[], metavar="KEY=VALUE", help="server environment")
    arg("--seconds", type=float, default=60.0, help="timed window (default 60)")
    arg("--warmup", type=float, default=3.0, help="seconds of load before it (default 3)")
    arg("--concurrency", type=int, default=16, help="connections (default 16)")
    arg("--clients", type=int, default=1, help="client processes sharing them (default 1)")
    arg("--mix", type=parse_mix, default=parse_mix(DEFAULT_MIX), help=f"default {DEFAULT_MIX}")
    arg("--batch-clients", type=int, default=0, help="full-size batch connections (default 0)")
    arg("--batch-hands", type=int, help="hands per full batch (default DEFAULT_MAX_BATCH_HANDS)")
    arg("--bots", default="standard", help="level of the three bots of each game")
    arg("--rounds", type=int, default=2, help="rounds per game before a new one (default 2)")
    arg("--pool", type=int, default=2000, help="precomputed bodies per kind and process")
    arg("--timeout", type=float, default=30.0, help="seconds before a request is given up")
    arg("--seed", type=int, default=2024)
    arg("--json", type=Path, help="also write the figures here")
    arg("--check", action="store_true", help="exit 1 when a target is missed")
    arg("--min-rps", type=float, default=1000.0, help="target for --check (default 1000)")
    arg("--max-p99-ms", type=float, default=50.0, help="target for --check (default 50)")
    args = parser.parse_args()
    if args.concurrency < 1 or args.clients < 1 or args.clients > args.concurrency:
        parser.error("need 1 <= --clients <= --concurrency")
    if args.batch_clients < 0 or args.seconds <= 0 or args.warmup < 0:
        parser.error("--batch-clients, --seconds and --warmup must not be negative")
    if any("=" not in item for item in args.env):
        parser.error("--env takes KEY=VALUE")
    return args


# --- the run ---------------------------------------------------------------------------------


def drive(args: argparse.Namespace, target: Target, server_pid: int | None) -> dict[str, Any]:
    """Run the client processes through warm-up and window; the merged figures."""
    batch_hands = args.batch_hands or _max_batch_hands()
    plans = []
    for index in range(args.clients):
        share = args.concurrency // args.clients + (index < args.concurrency % args.clients)
        plans.append(
            Plan(
                target=target,
                connections=share,
                batch_connections=0,
                mix=args.mix,
                seed=args.seed + index,
                pool=args.pool,
                bots=args.bots,
                rounds=args.rounds,
                timeout=args.timeout,
                batch_hands=batch_hands,
            )
        )
    if args.batch_clients:
        plans.append(
            Plan(
                target=target,
                connections=0,
                batch_connections=args.batch_clients,
                mix=args.mix,
                seed=args.seed,
                pool=1,
                bots=args.bots,
                rounds=args.rounds,
                timeout=args.timeout,
                batch_hands=batch_hands,
            )
        )

    context = mp.get_context("fork")
    queue = context.Queue()
    go = context.Event()
    times = context.Array("d", 3)
    processes = [
        context.Process(target=client_process, args=(i, plan, queue, go, times), daemon=True)
        for i, plan in enumerate(plans)
    ]
    for process in processes:
        process.start()

    def receive(kind: str) -> dict[int, Any]:
        got: dict[int, Any] = {}
        while len(got) < len(processes):
            try:
                what, index, payload = queue.get(timeout=args.seconds + args.timeout + 120)
            except Exception as exc:  # queue.Empty: a client hung or died without a word
                raise SystemExit(f"client processes stopped answering ({kind})") from exc
            if what == "failed":
                raise SystemExit(f"client process {index} failed:\n{payload}")
            got[index] = payload
        return got

    try:
        receive("ready")
        warm_start = time.monotonic() + 0.2
        window_start = warm_start + args.warmup
        window_end = window_start + args.seconds
        times[:] = [warm_start, window_start, window_end]
        go.set()
        time.sleep(max(0.0, window_start - time.monotonic()))
        server_start = None if server_pid is None else _process_tree_cpu(server_pid)
        busy_start, total_start = _machine_busy()
        time.sleep(max(0.0, window_end - time.monotonic()))
        busy_end, total_end = _machine_busy()
        server_cpu, server_processes = None, []
        if server_pid is not None and server_start is not None:
            server_end = _process_tree_cpu(server_pid)
            # A process that ended in the window (a restarted worker) is left out.
            server_processes = [
                (server_end[pid] - server_start.get(pid, 0.0)) / args.seconds for pid in server_end
            ]
            server_cpu = sum(server_processes) * args.seconds
        machine_busy = (busy_end - busy_start) / (total_end - total_start)
        results = receive("results")
    finally:
        for process in processes:
            process.join(timeout=5)
            if process.is_alive():
                process.terminate()

    merged: dict[str, RouteStats] = {}
    for result in results.values():
        for route, stats in result["routes"].items():
            merged.setdefault(route, RouteStats()).merge(stats)
    seconds = args.seconds
    routes = {r: route_figures(merged[r], seconds) for r in ROUTES if r in merged}
    everything = RouteStats()
    for route in routes:
        everything.merge(merged[route])
    total = route_figures(everything, seconds)
    full = route_figures(merged[FULL_BATCH], seconds) if FULL_BATCH in merged else None
    opened = sum(result["opened"] for result in results.values())
    client_cores = [results[i]["cpu_seconds"] / seconds for i in range(len(plans))]
    cores = os.cpu_count() or 1
    known = sum(client_cores) + (0.0 if server_cpu is None else server_cpu / seconds)
    requests = total["count"] + (full["count"] if full else 0)
    return {
        "config": {
            "seconds": seconds,
            "warmup": args.warmup,
            "concurrency": args.concurrency,
            "clients": args.clients,
            "batch_clients": args.batch_clients,
            "batch_hands": batch_hands,
            "mix": ",".join(f"{kind}={weight:g}" for kind, weight in args.mix),
            "bots": args.bots,
            "rounds": args.rounds,
        },
        "routes": routes,
        "total": total,
        "full_batch": full,
        "connections_opened": opened,
        "connections_per_request": opened / max(1, requests),
        "cpu": {
            "server_cores": None if server_cpu is None else server_cpu / seconds,
            "server_process_cores": server_processes,
            # How fast the machine was: a shared or throttled host shows here first.
            "server_ms_per_request": None
            if server_cpu is None
            else server_cpu * 1000 / max(1, requests),
            "client_cores": client_cores,
            "other_cores": machine_busy * cores - known,
            "machine_cores": cores,
            "machine_busy": machine_busy,
        },
    }


def judge(report: dict[str, Any], args: argparse.Namespace) -> bool:
    """Add the verdict lines to ``report``; True when the run passes."""
    figures = [report["total"], *([report["full_batch"]] if report["full_batch"] else [])]
    errors = sum(f["errors"] + f["connection_errors"] + f["warmup_errors"] for f in figures)
    total = report["total"]
    checks = {
        "errors": (errors == 0, f"errors (incl. connection and warm-up): {errors}"),
        "rps": (total["rps"] >= args.min_rps, f"{total['rps']:.0f} req/s >= {args.min_rps:g}"),
        "p99": (
            total["p99_ms"] < args.max_p99_ms,
            f"p99 {total['p99_ms']:.1f} ms < {args.max_p99_ms:g} ms",
        ),
    }
    report["targets"] = {
        "min_rps": args.min_rps,
        "max_p99_ms": args.max_p99_ms,
        **{name: ok for name, (ok, _) in checks.items()},
    }
    report["verdicts"] = [f"{'ok  ' if ok else 'MISS'} {text}" for ok, text in checks.values()]
    passed = checks["errors"][0] and (not args.check or all(ok for ok, _ in checks.values()))
    report["passed"] = passed
    return passed


def main() -> None:
    args = parse_args()
    with tempfile.TemporaryDirectory(prefix="capsa-load-") as folder:
        if args.url:
            parts = urlsplit(args.url)
            target = Target(parts.hostname or "127.0.0.1", parts.port or 80, parts.path.rstrip("/"))
            server = None
            report = drive(args, target, None)
        else:
            with gunicorn_server(args, folder) as (target, process):
                server = server_command(args, target.port)
                report = drive(args, target, process.pid)
    report["server"] = {"url": args.url, "command": server}
    passed = judge(report, args)
    print_report(report)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    sys.exit(0 if passed else 1)


if __name__ == "__main__":
    main()
