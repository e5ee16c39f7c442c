"""The production server as ``make run`` starts it: gunicorn with api/server/gunicorn_conf.py.

Starts real server processes on 127.0.0.1, so it also checks the configuration file, the
JSON logs on stderr and that a graceful stop (SIGTERM) loses no game move a client was told
about: clients keep moving in several games while the server is stopped, and afterwards
every game's stored version is at least the last version a response reported.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).parent / "gunicorn"
BOTS = {"1": "standard", "2": "standard", "3": "standard"}
APP = "api.server.asgi:create_asgi_app()"  # as `make run` and `capsa-fast serve` start it


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    def __init__(self, process: subprocess.Popen[bytes], port: int, log: Path) -> None:
        self.process = process
        self.port = port
        self.log = log

    def request(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            headers = {"Content-Type": "application/json"}
            if token:
                headers["Authorization"] = f"Bearer {token}"
            payload = None if body is None else json.dumps(body)
            conn.request(method, path, body=payload, headers=headers)
            response = conn.getresponse()
            return response.status, json.loads(response.read() or b"null")
        finally:
            conn.close()


@contextmanager
def server(tmp_path: Path, **env: str) -> Iterator[Server]:
    """gunicorn as in production, on 127.0.0.1 and a free port, until the block ends."""
    port = _free_port()
    log = tmp_path / f"server-{port}.log"
    environ = {
        **os.environ,
        "CAPSA_FAST_PORT": str(port),
        "CAPSA_FAST_WORKERS": "2",
        "CAPSA_FAST_GAMES_DB": str(tmp_path / "games.sqlite3"),
        **env,
    }
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [str(GUNICORN), "-c", "python:api.server.gunicorn_conf", APP],
            cwd=ROOT,
            env=environ,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    running = Server(process, port, log)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                # Any answer: a test may start a server whose health check is meant to fail.
                if running.request("GET", "/v1/health")[0] in (200, 503):
                    break
            except OSError:
                pass
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
        yield running
    finally:
        # SIGTERM: the master stops its workers. A SIGKILLed master leaves its uvicorn
        # workers running, orphaned, after the suite.
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def test_make_run_server_logs_json_and_stops_gracefully(tmp_path: Path) -> None:
    with server(tmp_path) as running:
        status, body = running.request("POST", "/v1/evaluate", {"cards": ["As", "Ks", "Qs"]})
        assert status == 200 and body["category"] == "high_card"
        running.process.send_signal(signal.SIGTERM)
        assert running.process.wait(timeout=40) == 0
    lines = [json.loads(line) for line in running.log.read_text().splitlines() if line]
    access = [entry for entry in lines if entry["logger"] == "capsa_fast.access"]
    assert [(e["method"], e["path"], e["status"]) for e in access][-1] == (
        "POST",
        "/v1/evaluate",
        200,
    )
    messages = [entry["message"] for entry in lines if entry["logger"] == "gunicorn.error"]
    assert any("Handling signal: term" in m for m in messages)
    assert any("Shutting down" in m for m in messages)
    # uvicorn's records too, as plain JSON: no terminal colour codes anywhere.
    assert any(entry["logger"].startswith("uvicorn") for entry in lines)
    assert not [
        entry
        for entry in lines
        if any(isinstance(value, str) and "\x1b" in value for value in entry.values())
    ]


def test_a_bad_setting_stops_the_server_at_start(tmp_path: Path) -> None:
    port = _free_port()
    result = subprocess.run(
        [str(GUNICORN), "-c", "python:api.server.gunicorn_conf", APP],
        cwd=ROOT,
        env={**os.environ, "CAPSA_FAST_PORT": str(port), "CAPSA_FAST_MAX_BATCH_HANDS": "-5"},
        capture_output=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert b"CAPSA_FAST_MAX_BATCH_HANDS" in result.stdout + result.stderr


def _play(running: Server, game: dict[str, Any], acknowledged: dict[str, int]) -> None:
    """Move in one game until the server goes away; note each version a response reports."""
    token = game["tokens"]["0"]
    url = f"/v1/banting/games/{game['id']}"
    try:
        status, view = running.request("GET", url, token=token)
        while status == 200:
            acknowledged[game["id"]] = max(acknowledged[game["id"]], view["version"])
            if view["result"]:
                status, view = running.request("POST", f"{url}/rounds", token=token)
            else:
                play = view["hint"]["play"] if view["your_turn"] else "pass"
                status, view = running.request("POST", f"{url}/moves", {"play": play}, token)
    except OSError:
        return  # the server stopped


def test_graceful_stop_loses_no_acknowledged_move(tmp_path: Path) -> None:
    with server(tmp_path) as running:
        games = [running.request("POST", "/v1/banting/games", {"bots": BOTS})[1] for _ in range(6)]
        acknowledged = {game["id"]: 0 for game in games}
        players = [
            threading.Thread(target=_play, args=(running, game, acknowledged)) for game in games
        ]
        for thread in players:
            thread.start()
        time.sleep(1.5)
        running.process.send_signal(signal.SIGTERM)
        assert running.process.wait(timeout=40) == 0
        for thread in players:
            thread.join(timeout=40)
    assert sum(acknowledged.values()) > 2 * len(games), "the clients made too few moves"
    with sqlite3.connect(tmp_path / "games.sqlite3") as conn:
        stored = dict(conn.execute("SELECT id, version FROM banting_games").fetchall())
    for game_id, version in acknowledged.items():
        assert stored[game_id] >= version, (game_id, stored[game_id], version)
    # A new server on the same file serves the games where they were left.
    with server(tmp_path) as restarted:
        for game in games:
            status, view = restarted.request(
                "GET", f"/v1/banting/games/{game['id']}", token=game["tokens"]["0"]
            )
            assert status == 200 and view["version"] == stored[game["id"]]
