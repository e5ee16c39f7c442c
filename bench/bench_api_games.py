"""Latency of one move in a Banting game session over the HTTP API (not a test).

Creates games with one human seat (0) and three bots (standard, or ``--bots LEVEL``); the
human plays the view's hint on each turn. Each timed POST /v1/banting/games/{id}/moves
covers loading the stored match, replaying it, judging and making the move, the bots'
replies up to the human's next turn (or the end of the round), the SQLite write and the new
view. Runs in process through the Flask test client on a fresh SQLite file unless --url
names a running server (then the network and the WSGI server are included too). Target: a
median under 20 ms.

Usage: ``python bench/bench_api_games.py [--moves N] [--bots LEVEL] [--url URL]``
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

# Run from a checkout: the top-level `api` package lives next to this folder.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api import create_app

GAMES = "/v1/banting/games"
BOT_SEATS = ("1", "2", "3")


class Transport(Protocol):
    def __call__(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]: ...


def _headers(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def in_process_transport(db_path: str) -> Transport:
    client = create_app({"GAMES_DB": db_path}).test_client()

    def send(method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        response = client.open(path, method=method, json=body, headers=_headers(token))
        return response.status_code, response.get_json()

    return send


def http_transport(url: str) -> Transport:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "localhost", parts.port or 80)
    prefix = parts.path.rstrip("/")

    def send(method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        headers = _headers(token)
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        conn.request(method, prefix + path, body=data, headers=headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"null")

    return send


def _expect(reply: tuple[int, Any], wanted: int) -> Any:
    status, answer = reply
    if status != wanted:
        raise SystemExit(f"unexpected {status}: {json.dumps(answer)[:300]}")
    return answer


def play(send: Transport, moves: int, level: str) -> tuple[list[float], list[float], int]:
    """Seconds per move and per view over ``moves`` human moves, and the games it took."""
    move_times: list[float] = []
    view_times: list[float] = []
    games = 0
    while len(move_times) < moves:
        bots = dict.fromkeys(BOT_SEATS, level)
        created = _expect(send("POST", GAMES, {"bots": bots}), 201)
        games += 1
        url, token = f"{GAMES}/{created['id']}", created["tokens"]["0"]
        start = time.perf_counter()
        view = _expect(send("GET", url, token=token), 200)
        view_times.append(time.perf_counter() - start)
        while not view["over"] and len(move_times) < moves:
            body = {"play": view["hint"]["play"]}
            start = time.perf_counter()
            view = _expect(send("POST", f"{url}/moves", body, token), 200)
            move_times.append(time.perf_counter() - start)
    return move_times, view_times, games


def _ms(times: list[float], q: int) -> float:
    return statistics.quantiles(times, n=100, method="inclusive")[q - 1] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=400, help="human moves to time")
    parser.add_argument("--url", help="a running server, e.g. http://127.0.0.1:8000")
    parser.add_argument("--bots", default="standard", help="the three bots' level")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        if args.url:
            send, where = http_transport(args.url), args.url
        else:
            send, where = in_process_transport(str(Path(folder) / "games.sqlite3")), "in process"
        play(send, 20, args.bots)  # warm up: first requests, SQLite file creation
        move_times, view_times, games = play(send, args.moves, args.bots)

    print(f"Banting game sessions ({where}), 1 human + 3 {args.bots} bots, {games} games")
    print(
        f"  POST .../moves ({len(move_times)} moves, incl. the bots' replies): "
        f"median {statistics.median(move_times) * 1000:.2f} ms, p90 {_ms(move_times, 90):.2f} ms"
    )
    print(
        f"  GET  .../{{id}} ({len(view_times)} views, at the first turn):      "
        f"median {statistics.median(view_times) * 1000:.2f} ms"
    )


if __name__ == "__main__":
    main()
