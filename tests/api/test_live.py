"""Live updates (``api.server.live``) under the production server: gunicorn with two uvicorn
workers, as ``make run`` starts it, real sockets, real processes.

One server for the module (starting one takes seconds). Streams are opened with the small
asyncio client of ``bench/_sse.py``, so hundreds of them fit in the test process.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import signal
import sqlite3
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from api.server.live import tickets
from tests.api.test_server import Server, server

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from _sse import SseStream, json_request, open_stream

HOST = "127.0.0.1"
PUSH_TIMEOUT = 5.0


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with server(tmp_path_factory.mktemp("live")) as running:
        yield running


def call(
    running: Server,
    method: str,
    path: str,
    body: Any = None,
    token: str | None = None,
) -> tuple[int, dict[str, str], Any]:
    return json_request(HOST, running.port, method, path, body, token)


def new_table(
    running: Server, kind: str = "banting", humans: int = 4
) -> tuple[str, dict[int, str]]:
    bots = {str(seat): "standard" for seat in range(humans, 4)}
    body = {"players": 4, "bots": bots, "tokens": "all"}  # the test drives every seat
    status, _, created = call(running, "POST", f"/v1/{kind}/games", body)
    assert status == 201, created
    return created["id"], {int(seat): token for seat, token in created["tokens"].items()}


def ticket(running: Server, kind: str, game_id: str, token: str) -> tuple[str, str]:
    """A stream ticket and the cookie set with it (name=value)."""
    status, headers, body = call(running, "POST", f"/v1/{kind}/games/{game_id}/ticket", token=token)
    assert status == 200, body
    assert body["expires_in"] == tickets.TICKET_SECONDS
    return body["ticket"], headers["set-cookie"]


def events_path(kind: str, game_id: str) -> str:
    return f"/v1/{kind}/games/{game_id}/events"


async def stream(running: Server, path: str, headers: dict[str, str] | None = None) -> SseStream:
    opened = await open_stream(HOST, running.port, path, headers)
    return opened


def view(running: Server, game_id: str, token: str, kind: str = "banting") -> dict[str, Any]:
    status, _, body = call(running, "GET", f"/v1/{kind}/games/{game_id}", token=token)
    assert status == 200
    return body  # type: ignore[no-any-return]


def a_move(running: Server, game_id: str, tokens: dict[int, str]) -> int:
    """The seat to move plays the view's hint (or passes); returns the new version."""
    for token in tokens.values():
        seen = view(running, game_id, token)
        if seen["your_turn"]:
            hint = seen["hint"]
            play = hint["play"] if hint["play"] != "pass" or seen["can_pass"] else seen["hand"][:1]
            status, _, answer = call(
                running, "POST", f"/v1/banting/games/{game_id}/moves", {"play": play}, token
            )
            assert status == 200, answer
            return int(answer["version"])
    raise AssertionError("no human seat is to move")


def test_every_stream_gets_its_own_seats_view_of_every_move_in_order_across_workers(
    live: Server,
) -> None:
    game_id, tokens = new_table(live)
    per_seat = 5  # 20 streams: both workers hold some

    async def scenario() -> None:
        streams: list[tuple[int, SseStream]] = []
        for seat, token in tokens.items():
            issued, _ = ticket(live, "banting", game_id, token)
            for _ in range(per_seat):
                opened = await stream(live, f"{events_path('banting', game_id)}?ticket={issued}")
                assert opened.status == 200
                assert opened.headers["content-type"].startswith("text/event-stream")
                streams.append((seat, opened))
        assert len({opened.headers["x-served-by"] for _, opened in streams}) == 2
        first = view(live, game_id, tokens[0])["version"]
        for seat, opened in streams:
            event = await asyncio.wait_for(opened.next_event(), PUSH_TIMEOUT)
            assert int(event.id or 0) == first
            assert json.loads(event.data) == view(live, game_id, tokens[seat])
        for _ in range(6):
            version = await asyncio.to_thread(a_move, live, game_id, tokens)
            views = {seat: view(live, game_id, token) for seat, token in tokens.items()}
            for seat, opened in streams:
                event = await asyncio.wait_for(opened.next_event(), PUSH_TIMEOUT)
                assert int(event.id or 0) == version
                data = json.loads(event.data)
                # That seat's view, exactly as a poll at that version returns it.
                assert data == views[seat] and data["seat"] == seat
                assert not any(token in event.data for token in tokens.values())
        for _, opened in streams:
            opened.close()

    asyncio.run(scenario())


def test_a_reconnect_with_the_last_event_id_gets_only_what_it_missed(live: Server) -> None:
    game_id, tokens = new_table(live, humans=2)
    issued, cookie = ticket(live, "banting", game_id, tokens[0])
    path = events_path("banting", game_id)

    async def scenario() -> None:
        current = view(live, game_id, tokens[0])["version"]
        # Up to date (by Last-Event-ID, by ?since=): nothing until the next change.
        quiet = await stream(live, f"{path}?ticket={issued}", {"Last-Event-ID": str(current)})
        since = await stream(live, f"{path}?ticket={issued}&since={current}")
        for opened in (quiet, since):
            assert opened.status == 200
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(opened.next_event(), 1.5)
        # Behind: the current view at once.
        behind = await stream(live, f"{path}?ticket={issued}", {"Last-Event-ID": "0"})
        event = await asyncio.wait_for(behind.next_event(), PUSH_TIMEOUT)
        assert int(event.id or 0) == current
        version = await asyncio.to_thread(a_move, live, game_id, tokens)
        for opened in (quiet, since, behind):
            event = await asyncio.wait_for(opened.next_event(), PUSH_TIMEOUT)
            assert int(event.id or 0) == version
            opened.close()
        # The browser's way back: the cookie alone, no ticket in the URL.
        by_cookie = await stream(live, path, {"Cookie": cookie.split(";", 1)[0]})
        event = await asyncio.wait_for(by_cookie.next_event(), PUSH_TIMEOUT)
        assert int(event.id or 0) == version and json.loads(event.data)["seat"] == 0
        by_cookie.close()

    asyncio.run(scenario())


def test_the_ticket_cookie_is_httponly_strict_and_scoped_to_the_events_path(live: Server) -> None:
    game_id, tokens = new_table(live, humans=1)
    _, cookie = ticket(live, "banting", game_id, tokens[0])
    attributes = [part.strip().lower() for part in cookie.split(";")]
    assert "httponly" in attributes
    assert "samesite=strict" in attributes
    assert f"path={events_path('banting', game_id)}".lower() in attributes


def test_a_stream_without_a_valid_ticket_is_401(live: Server) -> None:
    game_id, tokens = new_table(live, humans=2)
    other_id, other_tokens = new_table(live, humans=1)
    issued, _ = ticket(live, "banting", game_id, tokens[0])
    elsewhere, _ = ticket(live, "banting", other_id, other_tokens[0])
    secret = bytes.fromhex(
        sqlite3.connect(live.log.parent / "games.sqlite3")
        .execute("SELECT value FROM server_secrets")
        .fetchone()[0]
    )
    expired = tickets.sign(secret, tickets.Ticket("banting", game_id, 0, int(time.time()) - 1))
    forged = tickets.sign(b"x" * 32, tickets.Ticket("banting", game_id, 0, int(time.time()) + 60))
    path = events_path("banting", game_id)

    async def scenario() -> None:
        for query in (
            "",
            "?ticket=",
            "?ticket=nonsense",
            f"?ticket={issued[:-2]}AA",  # a signature changed
            f"?ticket={elsewhere}",  # another game's
            f"?ticket={expired}",
            f"?ticket={forged}",
            f"?ticket={tokens[0]}",  # a seat token is no ticket
        ):
            refused = await stream(live, path + query)
            assert refused.status == 401, query
            assert refused.headers["content-type"] == "application/problem+json"
            assert json.loads(refused.body)["status"] == 401
            refused.close()
        # A Susun path with a Banting ticket.
        refused = await stream(live, f"{events_path('susun', game_id)}?ticket={issued}")
        assert refused.status == 401
        refused.close()

    asyncio.run(scenario())


def test_a_stream_speaks_the_language_of_its_request(live: Server) -> None:
    game_id, tokens = new_table(live, humans=2)
    issued, _ = ticket(live, "banting", game_id, tokens[0])
    a_move(live, game_id, tokens)  # the first play of a round: a labelled combo in the history
    conn = http.client.HTTPConnection(HOST, live.port, timeout=30)
    conn.request(
        "GET",
        f"/v1/banting/games/{game_id}",
        headers={"Authorization": f"Bearer {tokens[0]}", "Accept-Language": "id"},
    )
    polled = json.loads(conn.getresponse().read())
    conn.close()
    assert polled != view(live, game_id, tokens[0])  # the English view differs

    async def scenario() -> None:
        path = f"{events_path('banting', game_id)}?ticket={issued}"
        for opened in (
            await stream(live, path, {"Accept-Language": "id"}),
            await stream(live, f"{path}&lang=id"),
        ):
            event = await asyncio.wait_for(opened.next_event(), PUSH_TIMEOUT)
            assert json.loads(event.data) == polled
            opened.close()

    asyncio.run(scenario())


def test_a_susun_stream_sends_the_seats_view(live: Server) -> None:
    game_id, tokens = new_table(live, "susun", humans=2)

    async def scenario() -> None:
        for seat, token in tokens.items():
            issued, _ = ticket(live, "susun", game_id, token)
            opened = await stream(live, f"{events_path('susun', game_id)}?ticket={issued}")
            event = await asyncio.wait_for(opened.next_event(), PUSH_TIMEOUT)
            assert json.loads(event.data) == view(live, game_id, token, "susun")
            assert json.loads(event.data)["seat"] == seat
            opened.close()

    asyncio.run(scenario())


def test_stateless_routes_answer_fast_while_200_streams_are_open(live: Server) -> None:
    game_id, tokens = new_table(live, humans=1)
    issued, _ = ticket(live, "banting", game_id, tokens[0])

    def evaluate_times(count: int) -> list[float]:
        times = []
        for _ in range(count):
            started = time.perf_counter()
            status, _, _ = call(live, "POST", "/v1/evaluate", {"cards": ["As", "Ks", "Qs"]})
            assert status == 200
            times.append(time.perf_counter() - started)
        return times

    async def scenario() -> None:
        idle = statistics.median(evaluate_times(20))
        opened = [
            await stream(live, f"{events_path('banting', game_id)}?ticket={issued}")
            for _ in range(200)
        ]
        assert all(s.status == 200 for s in opened)
        for s in opened:
            await asyncio.wait_for(s.next_event(), PUSH_TIMEOUT)
        busy = await asyncio.to_thread(evaluate_times, 20)
        assert statistics.median(busy) < max(0.05, 5 * idle), (idle, busy)
        for s in opened:
            s.close()

    asyncio.run(scenario())


def test_no_seat_token_appears_in_the_server_log(live: Server) -> None:
    game_id, tokens = new_table(live, humans=2)
    issued, _ = ticket(live, "banting", game_id, tokens[0])

    async def scenario() -> None:
        opened = await stream(live, f"{events_path('banting', game_id)}?ticket={issued}")
        await asyncio.wait_for(opened.next_event(), PUSH_TIMEOUT)
        opened.close()

    asyncio.run(scenario())
    time.sleep(0.5)  # the stream's log line is written when the server sees it closed
    log = live.log.read_text()
    assert f"/v1/banting/games/{game_id}/events" in log  # the stream was logged, by path
    assert not any(token in log for token in tokens.values())
    assert issued not in log


def test_a_stopping_server_ends_its_streams_at_once(tmp_path: Path) -> None:
    # graceful_timeout is 30 s: a stream that held the stop would show.
    with server(tmp_path) as running:
        game_id, tokens = new_table(running, humans=1)
        issued, _ = ticket(running, "banting", game_id, tokens[0])

        async def scenario() -> float:
            opened = [
                await stream(running, f"{events_path('banting', game_id)}?ticket={issued}")
                for _ in range(6)
            ]
            for s in opened:
                await asyncio.wait_for(s.next_event(), PUSH_TIMEOUT)
            started = time.perf_counter()
            running.process.send_signal(signal.SIGTERM)
            for s in opened:
                with pytest.raises((EOFError, ConnectionError, asyncio.IncompleteReadError)):
                    await asyncio.wait_for(s.next_event(), 10)
                s.close()
            return time.perf_counter() - started

        assert asyncio.run(scenario()) < 5
        assert running.process.wait(timeout=20) == 0


def test_pushes_do_not_count_against_the_clients_rate_limit(tmp_path: Path) -> None:
    # 10 requests a minute per worker: the test's own 9 fit on one worker; with its 14 view
    # requests for pushes on top, one of the two workers would pass 10.
    with server(tmp_path, CAPSA_FAST_RATE_LIMIT="10/minute") as running:
        game_id, tokens = new_table(running, humans=2)

        async def scenario() -> None:
            streams = {}
            for seat, token in tokens.items():
                issued, _ = ticket(running, "banting", game_id, token)
                streams[seat] = await stream(
                    running, f"{events_path('banting', game_id)}?ticket={issued}"
                )
            latest = {
                seat: json.loads((await asyncio.wait_for(s.next_event(), PUSH_TIMEOUT)).data)
                for seat, s in streams.items()
            }
            for _ in range(6):
                mover = latest[0]["turn"]
                if mover not in tokens:  # a bot's turn cannot be: bots move at once
                    raise AssertionError(latest[0])
                hint = latest[mover]["hint"]
                status, _, answer = call(
                    running,
                    "POST",
                    f"/v1/banting/games/{game_id}/moves",
                    {"play": hint["play"]},
                    tokens[mover],
                )
                assert status == 200, answer
                for seat, s in streams.items():
                    event = await asyncio.wait_for(s.next_event(), PUSH_TIMEOUT)
                    assert int(event.id or 0) == answer["version"]
                    latest[seat] = json.loads(event.data)
            for s in streams.values():
                s.close()

        asyncio.run(scenario())
