"""The gunicorn worker class: uvicorn's event loop with bounds on what a client may hold.

gunicorn keeps what it is good at (the master process, preloading the app, restarting
workers, recycling each after ``max_requests`` plus jitter, graceful stops). Each worker runs
uvicorn (httptools parser, uvloop when installed) with the app behind ``api.bridge``, so a
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
is served with ``Connection: close``. Idle kept-alive connections are closed at once, as HTTP
allows (clients reopen them).
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn_worker import UvicornWorker  # type: ignore[import-untyped]

from api.settings import ServerSettings

LINGER_SECONDS = 2.0
LINGER_BYTES = 64 * 1024 * 1024
SHUTDOWN_GRACE_SECONDS = 2.0


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
        waiting = self._served == 0 or self._header_bytes > 0
        if self.cycle is None and waiting and not self.transport.is_closing():
            self._disarm()
            self.loop.call_later(SHUTDOWN_GRACE_SECONDS, self._close_if_idle)
            return
        super().shutdown()

    def _close_if_idle(self) -> None:
        # No request came: there is no answer to keep, so no need to linger.
        if self.cycle is None and self._raw is not None:
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

    def on_headers_complete(self) -> None:
        self._disarm()
        self._in_headers = False
        super().on_headers_complete()
        if self._stopping and self.cycle is not None:
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
            "loop": "auto",
            "http": GuardedProtocol,
            "lifespan": "on",
            # The app logs each request itself (api.access_log), with a request id.
            "access_log": False,
            # The app reads X-Forwarded-For itself, only from TRUSTED_PROXIES.
            "proxy_headers": False,
            "limit_concurrency": settings.max_connections,
            "timeout_graceful_shutdown": settings.graceful_timeout,
        }
        super().__init__(*args, **kwargs)
