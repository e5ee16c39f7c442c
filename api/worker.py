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
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn_worker import UvicornWorker

from api.settings import ServerSettings


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
            self.transport.close()

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        self._refuse(408, "Request Timeout", "The request headers took too long.")

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
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

    def on_response_complete(self) -> None:
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
