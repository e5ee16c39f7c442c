"""``GET /v1/{game}/games/{id}/events``: Server-Sent Events on the worker's event loop.

:class:`LiveFront` is the ASGI app the server runs: it serves the events route itself and
hands every other request to the WSGI bridge. A stream is a coroutine and a few KB; it holds
no lane thread while idle. Each push computes the seat's view by running the app's own
``GET /v1/{game}/games/{id}`` in the store lane (the seat given by the verified ticket, in a
WSGI environ key no client can set), at most :data:`VIEW_FETCHES` at a time per process.

Per stream: on connect the current view (unless ``Last-Event-ID`` or ``?since=`` names the
current version: then nothing until the next change); then one event per change, never an
older version after a newer one (a burst of changes may send only the newest); a comment
line every :data:`KEEPALIVE_SECONDS`. The stream ends when the game is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import resource
import time
from collections.abc import Callable
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs

from api.server.bridge import Receive, Scope, Send, WsgiBridge, _problem_body, _Refused
from api.server.errors import PROBLEM_MIMETYPE
from api.server.live.bus import UnixDatagramBus, bus_for
from api.server.live.tickets import COOKIE_NAME, store_secret, verify
from api.server.routing import LIVE_SEAT_ENVIRON_KEY

EVENTS_PATH = re.compile(r"^/v1/(banting|susun)/games/([A-Za-z0-9_-]{1,64})/events$")
KEEPALIVE_SECONDS = 15.0
RESYNC_SECONDS = 1.0
VIEW_FETCHES = 8
TABLES = {"banting": "banting_games", "susun": "susun_games"}
logger = logging.getLogger("capsa_fast.live")


def raise_open_files_limit() -> tuple[int, int]:
    """Raise this process's soft open-file limit to its hard limit (each stream is a file
    descriptor); returns (soft, hard) as they are now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)


class _Stream:
    __slots__ = ("ended", "seat", "sent", "wake")

    def __init__(self, seat: int, sent: int | None) -> None:
        self.seat = seat
        self.sent = sent
        self.wake = asyncio.Event()
        self.ended = False  # the client went away, or the worker is stopping


class _Hub:
    """One process's streams, by game, and what wakes them (the bus, the resync)."""

    def __init__(self, db_path: str, bus: UnixDatagramBus) -> None:
        self.db_path = db_path
        self.bus = bus
        self.games: dict[tuple[str, str], set[_Stream]] = {}
        self.fetches = asyncio.Semaphore(VIEW_FETCHES)
        loop = asyncio.get_running_loop()
        bus.subscribe(loop, self.changed)
        self._resync = loop.create_task(self._resync_forever())

    def changed(self, kind: str, game_id: str, version: int) -> None:
        for stream in self.games.get((kind, game_id), ()):
            if stream.sent is None or version > stream.sent:
                stream.wake.set()

    def end_all(self) -> None:
        """End every stream (the worker is stopping): each client reconnects, with its
        Last-Event-ID, to a worker that serves on."""
        for streams in self.games.values():
            for stream in streams:
                stream.ended = True
                stream.wake.set()

    def watch(self, kind: str, game_id: str, stream: _Stream) -> None:
        self.games.setdefault((kind, game_id), set()).add(stream)

    def unwatch(self, kind: str, game_id: str, stream: _Stream) -> None:
        streams = self.games.get((kind, game_id))
        if streams is not None:
            streams.discard(stream)
            if not streams:
                del self.games[(kind, game_id)]

    def _versions(self, watched: list[tuple[str, str]]) -> list[tuple[str, str, int]]:
        import sqlite3

        found: list[tuple[str, str, int]] = []
        conn = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True, timeout=1.0)
        try:
            for kind, table in TABLES.items():
                ids = [game_id for k, game_id in watched if k == kind]
                for start in range(0, len(ids), 500):
                    part = ids[start : start + 500]
                    marks = ",".join("?" * len(part))
                    rows = conn.execute(
                        f"SELECT id, version FROM {table} WHERE id IN ({marks})", part
                    )
                    found.extend((kind, game_id, version) for game_id, version in rows)
        finally:
            conn.close()
        return found

    async def _resync_forever(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(RESYNC_SECONDS)
            if not self.games:
                continue
            try:
                versions = await loop.run_in_executor(None, self._versions, list(self.games))
            except Exception as exc:  # a locked or missing store: try again next time
                logger.warning("live resync failed: %r", exc)
                continue
            for kind, game_id, version in versions:
                self.changed(kind, game_id, version)


def _query(scope: Scope) -> dict[str, str]:
    parsed = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    return {name: values[-1] for name, values in parsed.items()}


def _header(scope: Scope, wanted: bytes) -> str | None:
    for name, value in scope["headers"]:
        if name == wanted:
            return str(value.decode("latin-1"))
    return None


def _version(text: str | None) -> int | None:
    if text is None or not text.strip().isdigit():
        return None
    return int(text.strip())


_FRONTS: list[LiveFront] = []


def end_streams() -> None:
    """End this process's streams: the worker is stopping (``api.server.worker`` calls it),
    and a stream would otherwise hold the stop for its whole grace time."""
    for front in _FRONTS:
        if front._hub is not None and front._pid == os.getpid():
            front._hub.end_all()


class LiveFront:
    """The server's ASGI app: the events route here, everything else to ``bridge``."""

    def __init__(self, bridge: WsgiBridge, db_path: Callable[[], str]) -> None:
        self.bridge = bridge
        self._db_path = db_path
        self._hub: _Hub | None = None
        self._pid = -1
        _FRONTS.append(self)

    def _get_hub(self) -> _Hub:
        if self._hub is None or self._pid != os.getpid():
            path = self._db_path()
            self._hub = _Hub(path, bus_for(path))
            self._pid = os.getpid()
        return self._hub

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] == "http":
            matched = EVENTS_PATH.match(scope["path"])
            if matched and scope["method"] in ("GET", "HEAD"):
                await self._events(scope, receive, send, matched[1], matched[2])
                return
        await self.bridge(scope, receive, send)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        async def relay_receive() -> dict[str, Any]:
            message = await receive()
            if message["type"] == "lifespan.startup":
                soft, hard = raise_open_files_limit()
                logging.getLogger("gunicorn.error").info(
                    "Open-file limit of worker %s: %s (hard limit %s)", os.getpid(), soft, hard
                )
            elif message["type"] == "lifespan.shutdown" and self._hub is not None:
                self._hub.bus.close()
            return message

        await self.bridge({"type": "lifespan", "asgi": {"version": "3.0"}}, relay_receive, send)

    async def _problem(self, send: Send, status: int, detail: str) -> None:
        body = _problem_body(status, detail)
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", PROBLEM_MIMETYPE.encode()),
                    (b"content-length", str(len(body)).encode()),
                    (b"cache-control", b"no-store"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    async def _events(
        self, scope: Scope, receive: Receive, send: Send, kind: str, game_id: str
    ) -> None:
        hub = self._get_hub()
        loop = asyncio.get_running_loop()
        query = _query(scope)
        given = query.get("ticket")
        if given is None:
            cookie = SimpleCookie()
            with contextlib.suppress(Exception):
                cookie.load(_header(scope, b"cookie") or "")
            morsel = cookie.get(COOKIE_NAME)
            given = morsel.value if morsel is not None else None
        if not given:
            await self._problem(
                send, 401, "This stream needs a ticket (POST .../ticket): ?ticket= or its cookie."
            )
            return
        secret = await loop.run_in_executor(None, store_secret, hub.db_path)
        ticket = verify(secret, given, kind, game_id)
        if ticket is None:
            await self._problem(
                send, 401, "The stream ticket is invalid, expired or for another game."
            )
            return
        since = _version(_header(scope, b"last-event-id"))
        if since is None:
            since = _version(query.get("since"))
        stream = _Stream(ticket.seat, since)
        view_scope = {
            **scope,
            "path": f"/v1/{kind}/games/{game_id}",
            "raw_path": None,
            "query_string": b"",
            "headers": [(n, v) for n, v in scope["headers"] if n == b"accept-language"],
        }
        if "lang" in query:
            view_scope["headers"] = [(b"accept-language", query["lang"].encode("latin-1"))]
        # The first view, before answering: a gone game is a 404, not an empty stream.
        first = await self._view(hub, view_scope, ticket.seat)
        if first[0] != 200:
            await send(
                {
                    "type": "http.response.start",
                    "status": first[0],
                    "headers": [(b"content-type", PROBLEM_MIMETYPE.encode())],
                }
            )
            await send({"type": "http.response.body", "body": first[1]})
            return
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", b"text/event-stream; charset=utf-8"),
                    (b"cache-control", b"no-store"),
                    (b"x-accel-buffering", b"no"),  # nginx: pass each event at once
                    (b"x-served-by", str(os.getpid()).encode()),
                ],
            }
        )
        if scope["method"] == "HEAD":
            await send({"type": "http.response.body", "body": b""})
            return

        async def watch_disconnect() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            stream.ended = True
            stream.wake.set()

        watcher = loop.create_task(watch_disconnect())
        first_view = True
        opened = time.perf_counter()
        events = 0
        hub.watch(kind, game_id, stream)
        try:
            pending: tuple[int, bytes] | None = first
            await send(
                {"type": "http.response.body", "body": b"retry: 2000\n\n", "more_body": True}
            )
            while not stream.ended:
                if pending is not None:
                    status, body = pending
                    pending = None
                    if status in (403, 404):
                        break  # the game is gone
                    if status != 200:
                        continue  # refused for now (a busy store): the resync tries again
                    version = int(json.loads(body)["version"])
                    # The first view goes unless the client named its version; then only
                    # newer ones.
                    fresh = version != stream.sent if first_view else version > (stream.sent or 0)
                    first_view = False
                    if fresh:
                        event = b"id: %d\ndata: %s\n\n" % (version, body)
                        await send({"type": "http.response.body", "body": event, "more_body": True})
                        stream.sent = version
                        events += 1
                    continue
                try:
                    async with asyncio.timeout(KEEPALIVE_SECONDS):
                        await stream.wake.wait()
                except TimeoutError:
                    await send(
                        {
                            "type": "http.response.body",
                            "body": b": keep-alive\n\n",
                            "more_body": True,
                        }
                    )
                    continue
                stream.wake.clear()
                if not stream.ended:
                    pending = await self._view(hub, view_scope, ticket.seat)
        except OSError:
            pass  # the client went away mid-write
        finally:
            hub.unwatch(kind, game_id, stream)
            watcher.cancel()
        with contextlib.suppress(Exception):
            await send({"type": "http.response.body", "body": b""})
        self._log(scope, opened, events)

    def _log(self, scope: Scope, opened: float, events: int) -> None:
        """One access-log line when a stream ends (its path only: never the query, which
        holds the ticket)."""
        if self.bridge.logger is None:
            return
        client = scope.get("client")
        fields = {
            "event": "stream",
            "method": scope["method"],
            "path": scope["path"],
            "status": 200,
            "duration_ms": round((time.perf_counter() - opened) * 1000, 3),
            "events": events,
            "client": client[0] if client else None,
        }
        self.bridge.logger.info(
            "%s %s stream of %d events",
            scope["method"],
            scope["path"],
            events,
            extra={"fields": fields},
        )

    async def _view(self, hub: _Hub, scope: Scope, seat: int) -> tuple[int, bytes]:
        """The seat's view as ``GET /v1/{game}/games/{id}`` answers it (status, body)."""
        async with hub.fetches:
            for attempt in range(50):
                environ = self.bridge._environ({**scope, "method": "GET"}, b"")
                environ[LIVE_SEAT_ENVIRON_KEY] = seat
                try:
                    status, _, body = await self.bridge._run("store", environ)
                except _Refused:  # the lane is full: wait a little, never give up the stream
                    await asyncio.sleep(0.05 * (attempt + 1))
                    continue
                if status == 503:
                    await asyncio.sleep(0.05 * (attempt + 1))
                    continue
                return status, body
        return 503, b'{"status": 503}'
