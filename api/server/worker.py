"""The gunicorn worker class: uvicorn's event loop with bounds on what a client may hold.

gunicorn keeps what it is good at (the master process, preloading the app, restarting
workers, recycling each after ``max_requests`` plus jitter, graceful stops). Each worker runs
uvicorn (httptools parser, uvloop when installed) with the app behind ``api.server.bridge``, so a
connection waiting on a slow client is a few KB on an event loop, not a worker.

uvicorn alone times out idle kept-alive connections but not a request whose headers trickle
in, and its httptools parser does not cap the size of the headers. :class:`GuardedProtocol`
adds both: the request line and headers must be complete within ``header_timeout`` seconds of
the connection opening (or of the previous answer) and fit in ``max_header_bytes``; else the
connection gets a 408 or 431 and is closed.

It also closes connections the way nginx does ("lingering close"): a connection closed while
the client is still sending (a 413 for a body over the limit) first sends its answer and a
FIN, then reads and drops what still arrives for up to ``LINGER_SECONDS`` (and
``LINGER_BYTES``). Closing at once would make the kernel reset the connection, and a reset
can destroy the answer before the client reads it.

When the worker stops (recycled after ``max_requests``, or a graceful stop), uvicorn closes
every connection that is not in the middle of a response, including one it has just accepted
whose request has not been read yet: that client would see the connection closed without an
answer. A connection that has not had its first request yet, or is part-way through a
request's headers, is instead given up to ``SHUTDOWN_GRACE_SECONDS`` to send it; the request
is served with ``Connection: close``. A kept-alive connection between two requests gets
``KEEPALIVE_GRACE_SECONDS`` likewise: HTTP allows closing it at once, but a client that
was just sending its next request would see the connection closed without an answer
(most clients retry, some do not).

Workers share one listening socket. An event loop left to itself accepts every connection
that is waiting whenever it wakes (libuv accepts until the queue is empty), so a burst of
clients opening kept-alive connections at once could all land on one worker, and stay there:
measured with ``bench/load.py``, in three runs of four one worker served all the load while
the other idled. The worker's loop (:func:`new_event_loop`) therefore takes connections
from a shared socket one at a time (:class:`FairListener`), and a worker that already
holds more connections than another worker (by more than one) leaves the next one to the
others for a moment (:class:`ConnectionBoard`, counts in memory shared by the workers).
Kept-alive connections move too: such a worker answers the next request on one of them with
``Connection: close``, and the client's new connection goes to a less busy worker. Without
that, the connections of a restarted worker all moved to the workers still running (its
replacement was not up yet) and stayed there: one worker idled for the rest of the run.

Balanced workers also reach ``max_requests`` at about the same time, and gunicorn starts a
worker's replacement only once it has exited; two workers stopping together left nobody
accepting for a second or two (seen: health probes waiting 1.4 s). So workers restart one
at a time (:class:`RestartTurn`): a worker due for a restart first takes the server's
restart turn, which only one worker holds at once, keeps serving for
``RESTART_SETTLE_SECONDS`` (time for the previous one's replacement to come up), and only
then stops; a worker that finds the turn taken keeps serving and asks again.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import mmap
import os
import socket
import sys
import time
from collections.abc import Callable
from typing import Any, ClassVar

import uvicorn
from gunicorn.arbiter import Arbiter  # type: ignore[import-untyped]
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn_worker import UvicornWorker  # type: ignore[import-untyped]

from api.server.live.stream import end_streams
from api.server.settings import ServerSettings

LINGER_SECONDS = 2.0
LINGER_BYTES = 64 * 1024 * 1024
SHUTDOWN_GRACE_SECONDS = 2.0
KEEPALIVE_GRACE_SECONDS = 0.5
# After an accept fails for want of resources (file descriptors, memory), the worker stops
# accepting for this long rather than spin on a socket that stays readable.
ACCEPT_RETRY_SECONDS = 0.1
_ACCEPT_AGAIN = (BlockingIOError, InterruptedError, ConnectionAbortedError)

# How long a worker holding the restart turn keeps serving before it stops.
RESTART_SETTLE_SECONDS = 1.0

# uvicorn's own logger, so these lines go where its start and stop messages go.
logger = logging.getLogger("uvicorn.error")


class RestartTurn:
    """The right to restart, held by one worker of a server at a time (see the module).

    The turn is an abstract UNIX socket named after the gunicorn master: binding it succeeds
    for one process only, and the kernel frees the name when that process exits. Abstract
    names are Linux's; elsewhere every worker has the turn at once (gunicorn's own jitter is
    all that spreads the restarts).
    """

    def __init__(self, master_pid: int, settle: float = RESTART_SETTLE_SECONDS) -> None:
        self.name = f"\0capsa_fast-restart-{master_pid}"
        self.settle = settle
        self._sock: socket.socket | None = None
        self._since = 0.0

    def release(self) -> None:
        """Give the turn back (a worker's exit does this by itself)."""
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def ready(self) -> bool:
        """Take the turn if it is free; True once this worker has held it for ``settle``
        seconds."""
        if not sys.platform.startswith("linux"):
            return True
        if self._sock is None:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                sock.bind(self.name)
            except OSError:  # another worker holds the turn
                sock.close()
                return False
            self._sock = sock
            self._since = time.monotonic()
        return time.monotonic() - self._since >= self.settle


class TurnTakingServer(uvicorn.Server):
    """uvicorn's server, stopping after ``max_requests`` only with the restart turn."""

    def __init__(self, config: uvicorn.Config, max_requests: int, turn: RestartTurn) -> None:
        super().__init__(config)
        self.max_requests = max_requests
        self.turn = turn

    async def on_tick(self, counter: int) -> bool:
        BOARD.beat()
        if await super().on_tick(counter):
            return True
        served = self.server_state.total_requests
        if served >= self.max_requests and self.turn.ready():
            logger.info(
                "worker %d served %d requests: restarting (one worker at a time)",
                os.getpid(),
                served,
            )
            return True
        return False

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        # Live streams never finish by themselves: end them first, so they do not hold the
        # stop for its grace time (their clients reconnect to a worker that serves on).
        end_streams()
        await super().shutdown(sockets)


# A worker holding more connections than the least loaded one waits this long before it
# accepts again (once: then it accepts whatever the others left).
ACCEPT_DEFER_SECONDS = 0.002


class ConnectionBoard:
    """Each worker's open connections, in memory the master shares with the workers it forks
    (made when this module is imported, which gunicorn does before forking). A connection
    counts from the moment it is accepted, answered or not: counted only after an answer,
    the connections of a burst counted for nobody while the burst was accepted, so the first
    worker to wake took them all (16 of 16 in 4 bursts of 20 in a row). A worker claims a
    slot when it starts (an abstract UNIX socket names the slot, so a slot whose worker has
    exited, cleanly or not, is free again) and gives it back (-1) when it stops accepting.
    Each slot also holds the time its worker last ticked (``beat``, every 0.1 s); a slot
    silent for ``STALE_MS`` (a worker killed, or whose loop is stuck) is left out, so it
    cannot make the others think they hold too many."""

    SLOTS = 64
    STALE_MS = 2000

    def __init__(self) -> None:
        self._memory = mmap.mmap(-1, 16 * self.SLOTS)
        words = memoryview(self._memory).cast("q")
        self.counts = words[: self.SLOTS]
        self.beats = words[self.SLOTS :]
        for i in range(self.SLOTS):
            self.counts[i] = -1
        self.slot = -1
        self._claim: socket.socket | None = None

    @staticmethod
    def _now_ms() -> int:
        return time.monotonic_ns() // 1_000_000  # CLOCK_MONOTONIC: one clock for all

    def beat(self) -> None:
        if self.slot >= 0:
            self.beats[self.slot] = self._now_ms()

    def claim(self, master_pid: int) -> bool:
        """Take a free slot for this process (Linux only; elsewhere no balancing)."""
        if not sys.platform.startswith("linux"):
            return False
        for i in range(self.SLOTS):
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                sock.bind(f"\0capsa_fast-slot-{master_pid}-{i}")
            except OSError:
                sock.close()
                continue
            self._claim, self.slot = sock, i
            self.counts[i] = 0
            self.beat()
            return True
        return False

    def release(self) -> None:
        if self.slot >= 0:
            self.counts[self.slot] = -1
            self.slot = -1
        if self._claim is not None:
            self._claim.close()
            self._claim = None

    def opened(self) -> None:
        if self.slot >= 0:
            self.counts[self.slot] += 1

    def closed(self) -> None:
        if self.slot >= 0 and self.counts[self.slot] > 0:
            self.counts[self.slot] -= 1

    def crowded(self, slack: int = 1) -> bool:
        """True when this worker holds more than ``slack`` connections more than another."""
        if self.slot < 0:
            return False
        mine = self.counts[self.slot]
        if mine <= slack:
            return False
        fresh = self._now_ms() - self.STALE_MS
        beats = self.beats
        return any(
            0 <= c < mine - slack and beats[i] > fresh
            for i, c in enumerate(self.counts)
            if i != self.slot
        )

    def overloaded(self) -> bool:
        """Crowded by a margin worth moving a kept-alive connection for (two, or a quarter
        of this worker's connections): a little imbalance is left alone."""
        return self.slot >= 0 and self.crowded(2 + self.counts[self.slot] // 4)


BOARD = ConnectionBoard()


class FairListener:
    """What ``loop.create_server(sock=...)`` returns in a worker: the socket shared with the
    other workers, accepted one connection per wake-up (see the module)."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        factory: Callable[[], asyncio.Protocol],
        sock: socket.socket,
    ) -> None:
        self._loop = loop
        self._factory = factory
        self._sock = sock
        self._tcp = sock.family in (socket.AF_INET, socket.AF_INET6)
        self._serving = False
        self._closed = asyncio.Event()
        self._pending: set[asyncio.Task[Any]] = set()
        self._deferred = False
        sock.setblocking(False)
        self._listen()

    @property
    def sockets(self) -> tuple[socket.socket, ...]:
        return (self._sock,)

    def is_serving(self) -> bool:
        return self._serving

    def close(self) -> None:
        """Stop accepting (the socket itself belongs to gunicorn and stays open)."""
        if self._serving:
            self._loop.remove_reader(self._sock.fileno())
        self._serving = False
        self._closed.set()
        BOARD.release()

    async def wait_closed(self) -> None:
        await self._closed.wait()
        if self._pending:
            await asyncio.gather(*self._pending, return_exceptions=True)

    def _listen(self) -> None:
        if not self._closed.is_set() and not self._serving:
            self._serving = True
            self._loop.add_reader(self._sock.fileno(), self._accept_one)

    def _accept_one(self) -> None:
        if not self._deferred and BOARD.crowded():
            # Leave this connection to a less busy worker, unless none takes it meanwhile.
            self._deferred = True
            self._loop.remove_reader(self._sock.fileno())
            self._serving = False
            self._loop.call_later(ACCEPT_DEFER_SECONDS, self._listen)
            return
        self._deferred = False
        try:
            conn, _address = self._sock.accept()
        except _ACCEPT_AGAIN:
            return  # another worker took it, or the client gave up
        except OSError as exc:
            logger.warning("accept failed (%s); retrying in %.1f s", exc, ACCEPT_RETRY_SECONDS)
            self._loop.remove_reader(self._sock.fileno())
            self._serving = False
            self._loop.call_later(ACCEPT_RETRY_SECONDS, self._listen)
            return
        BOARD.opened()  # counted now, so the next wake-up already sees it
        conn.setblocking(False)
        if self._tcp:
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        task = self._loop.create_task(self._connect(conn))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _connect(self, conn: socket.socket) -> None:
        try:
            await self._loop.connect_accepted_socket(self._factory, conn)
        except OSError:
            BOARD.closed()
            conn.close()


class _FairServing:
    """Mixed into the worker's event loop class: ``create_server`` on an already listening
    socket (what uvicorn does with gunicorn's sockets) returns a :class:`FairListener`."""

    async def create_server(self, protocol_factory: Any, *args: Any, **kwargs: Any) -> Any:
        sock = kwargs.get("sock")
        if sock is None or args or kwargs.get("ssl") is not None:
            return await super().create_server(  # type: ignore[misc]
                protocol_factory, *args, **kwargs
            )
        return FairListener(self, protocol_factory, sock)  # type: ignore[arg-type]


@functools.cache
def _loop_class() -> type[asyncio.AbstractEventLoop]:
    try:
        import uvloop
    except ImportError:  # pragma: no cover - uvloop is a server dependency off Windows
        base: type[asyncio.AbstractEventLoop] = asyncio.SelectorEventLoop
    else:
        base = uvloop.Loop
    return type("FairLoop", (_FairServing, base), {})


def new_event_loop() -> asyncio.AbstractEventLoop:
    """The workers' event loop (uvicorn's ``loop`` setting names it): uvloop when installed,
    else asyncio's, with connections taken fairly from gunicorn's shared socket."""
    return _loop_class()()


class _LingeringTransport:
    """The connection's transport as uvicorn sees it; ``close`` lingers (see the module)."""

    def __init__(self, transport: asyncio.Transport, protocol: GuardedProtocol) -> None:
        self._transport = transport
        self._protocol = protocol

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)

    def is_closing(self) -> bool:
        return self._protocol.lingering or self._transport.is_closing()

    def close(self) -> None:
        self._protocol.linger()


def _plain_response(status: int, reason: str, text: str) -> bytes:
    body = text.encode()
    return (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: text/plain; charset=utf-8\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    ).encode() + body


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline and a size cap on request headers."""

    header_timeout: ClassVar[float] = 10.0
    max_header_bytes: ClassVar[int] = 64 * 1024

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None
        self._header_bytes = 0
        self._in_headers = True
        self._tail = b""
        self.lingering = False
        self._linger_timer: asyncio.TimerHandle | None = None
        self._lingered = 0
        self._raw: asyncio.Transport | None = None
        self._served = 0
        self._stopping = False

    def shutdown(self) -> None:
        """The worker is stopping: finish the request on its way, then close (see the
        module)."""
        self._stopping = True
        if self._between_requests() and not self.transport.is_closing():
            self._disarm()
            fresh = self._served == 0 or self._header_bytes > 0
            grace = SHUTDOWN_GRACE_SECONDS if fresh else KEEPALIVE_GRACE_SECONDS
            self.loop.call_later(grace, self._close_if_idle)
            return
        super().shutdown()

    def _between_requests(self) -> bool:
        # The cycle of the last request stays in place until the next one starts.
        return self.cycle is None or self.cycle.response_complete

    def _close_if_idle(self) -> None:
        # No request came: there is no answer to keep, so no need to linger.
        if self._between_requests() and self._raw is not None:
            self._raw.close()

    def linger(self) -> None:
        """Send what is buffered and a FIN, then drop input until the client closes or the
        linger time or bytes run out."""
        raw = self._raw
        if raw is None or self.lingering or raw.is_closing():
            return
        self.lingering = True
        self._disarm()
        if not raw.can_write_eof():
            raw.close()
            return
        raw.write_eof()
        raw.resume_reading()
        self._linger_timer = self.loop.call_later(LINGER_SECONDS, raw.close)

    def eof_received(self) -> None:
        if self.lingering and self._raw is not None:
            self._raw.close()

    def _arm(self) -> None:
        self._disarm()
        self._in_headers = True
        self._header_bytes = 0
        self._tail = b""
        self._header_timer = self.loop.call_later(self.header_timeout, self._headers_too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _refuse(self, status: int, reason: str, text: str) -> None:
        self._disarm()
        if not self.transport.is_closing():
            self.transport.write(_plain_response(status, reason, text))
            self.linger()

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        self._refuse(408, "Request Timeout", "The request headers took too long.")

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._raw = transport
        super().connection_made(_LingeringTransport(transport, self))  # type: ignore[arg-type]
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        BOARD.closed()
        self._disarm()
        if self._linger_timer is not None:
            self._linger_timer.cancel()
            self._linger_timer = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.lingering:
            self._lingered += len(data)
            if self._lingered > LINGER_BYTES and self._raw is not None:
                self._raw.close()
            return
        if self._in_headers:
            # Count the bytes up to the blank line that ends the headers (a chunk may also
            # hold the start of the body, which has its own limit).
            seen = self._tail + data
            end = seen.find(b"\r\n\r\n")
            used = len(data) if end < 0 else end + 4 - len(self._tail)
            self._header_bytes += used
            self._tail = seen[-3:]
            if self._header_bytes > self.max_header_bytes:
                self._refuse(431, "Request Header Fields Too Large", "The headers are too large.")
                return
        super().data_received(data)

    def _unsupported_upgrade_warning(self) -> None:
        # uvicorn warns twice here and suggests installing a WebSocket library; the server
        # serves none on purpose (``ws: none``), the request is answered as plain HTTP (a
        # 400 from the app), and the access log has it.
        logger.debug("upgrade request answered as plain HTTP")

    def on_headers_complete(self) -> None:
        self._disarm()
        self._in_headers = False
        super().on_headers_complete()
        # A stopping worker, or one holding more connections than another worker (a new
        # worker after a restart starts with none), answers this request and closes: the
        # client reconnects, and the connection lands on a less busy worker.
        if self.cycle is not None and (self._stopping or BOARD.overloaded()):
            self.cycle.keep_alive = False

    def on_response_complete(self) -> None:
        self._served += 1
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request on this connection gets a fresh deadline


class Worker(UvicornWorker):
    """gunicorn worker: uvicorn with :class:`GuardedProtocol`, settings from the environment."""

    CONFIG_KWARGS: ClassVar[dict[str, Any]] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        settings = ServerSettings.from_environment()
        GuardedProtocol.header_timeout = settings.header_timeout
        GuardedProtocol.max_header_bytes = settings.max_header_bytes
        type(self).CONFIG_KWARGS = {
            "loop": "api.server.worker:new_event_loop",
            "http": GuardedProtocol,
            # No WebSocket upgrade: the app serves none, and an upgraded connection would
            # leave GuardedProtocol (its deadlines and the connection counts).
            "ws": "none",
            "lifespan": "on",
            # The app logs each request itself (api.server.access_log), with a request id.
            "access_log": False,
            # The app reads X-Forwarded-For itself, only from TRUSTED_PROXIES.
            "proxy_headers": False,
            "limit_concurrency": settings.max_connections,
            "timeout_graceful_shutdown": settings.graceful_timeout,
        }
        super().__init__(*args, **kwargs)
        # The restart after max_requests is TurnTakingServer's, not uvicorn's own.
        self.config.limit_max_requests = None

    async def _serve(self) -> None:
        self.config.app = self.wsgi
        server = TurnTakingServer(self.config, self.max_requests, RestartTurn(self.ppid))
        BOARD.claim(self.ppid)
        self._install_sigquit_handler()
        await server.serve(sockets=self.sockets)
        if not server.started:
            sys.exit(Arbiter.WORKER_BOOT_ERROR)
