"""An ASGI front for the WSGI app: requests are read whole on the event loop, then run in
thread pools ("lanes"), so a slow or stalled client costs a little memory, never a thread.

What a request goes through (:class:`WsgiBridge`):

1. Its headers were read by the server (uvicorn; ``api.server.worker`` bounds their size and time).
2. The route decides its lane and body limit (``route``). A ``Content-Length`` over the limit
   is a 413 at once, before any of the body is read; a chunked body is counted as it comes
   and refused the moment it passes the limit. The whole body must arrive within
   ``body_timeout`` seconds (else 408). Those answers close the connection.
3. The buffered request runs in its lane's threads. A lane with ``queue_limit`` requests
   already running or waiting answers 503 at once, so a stuck dependency (a locked session
   store) fills one lane, never the others: stateless routes keep their own threads. A lane
   with a budget (the store's: STORE_BUSY_TIMEOUT) tells the app when the request must be
   answered by, and answers 503 itself when the request is still waiting for a thread near
   then.
4. The answer is sent back by the event loop.

Problems the bridge answers itself are RFC 9457 documents like the app's, with
``X-Request-Id``, and are logged on the access log like any request.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import secrets
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from api.server.access_log import LOGGER_NAME, REQUEST_ID_HEADER
from api.server.errors import PROBLEM_MIMETYPE, status_title
from api.server.routing import BODY_ENVIRON_KEY, DEADLINE_ENVIRON_KEY
from api.server.schemas import Problem

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


@dataclass(frozen=True, slots=True)
class Route:
    """Where a request runs and how big its body may be."""

    lane: str
    body_limit: int


# A request in a lane with a budget that has not started when this share of its budget has
# passed is answered 503 by the bridge (the app keeps the rest of the budget for its answer).
QUEUE_SHARE = 0.8
STORE_UNAVAILABLE = "SESSION_STORE_UNAVAILABLE"


class _Refused(Exception):
    def __init__(
        self, status: int, detail: str, retry_after: int | None = None, code: str | None = None
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.retry_after = retry_after
        self.code = code


class _Disconnected(Exception):
    """The client went away before its request was complete."""


def _problem_body(status: int, detail: str, code: str | None = None) -> bytes:
    problem = Problem(
        type="about:blank", title=status_title(status), status=status, detail=detail, code=code
    )
    return problem.model_dump_json(exclude_none=True).encode()


class WsgiBridge:
    """ASGI application running ``wsgi_app`` as the module docstring says.

    ``lanes``: threads per lane (per process); ``route(method, path)``: the lane and body
    limit of a request; ``queue_limit``: requests a lane may hold (running and waiting) before
    it answers 503; ``body_timeout``: seconds a request's body may take to arrive;
    ``budgets``: per lane, seconds within which its requests are answered (the app is told
    the deadline, ``DEADLINE_ENVIRON_KEY``; a request still waiting for a thread after
    :data:`QUEUE_SHARE` of it is a 503 ``SESSION_STORE_UNAVAILABLE`` with Retry-After).
    """

    def __init__(
        self,
        wsgi_app: WsgiApp,
        *,
        lanes: Mapping[str, int],
        route: Callable[[str, str], Route],
        body_timeout: float,
        queue_limit: int,
        access_log: bool = True,
        budgets: Mapping[str, float] | None = None,
    ) -> None:
        self.wsgi_app = wsgi_app
        self.lanes = dict(lanes)
        self.route = route
        self.body_timeout = body_timeout
        self.queue_limit = queue_limit
        self.budgets = dict(budgets or {})
        self.logger = logging.getLogger(LOGGER_NAME) if access_log else None
        self._executors: dict[str, ThreadPoolExecutor] = {}
        self._pid = -1
        self._lock = threading.Lock()
        self._held: dict[str, int] = dict.fromkeys(self.lanes, 0)

    # --- thread pools, made in the process that serves (after gunicorn's fork) ------------

    def _executor(self, lane: str) -> ThreadPoolExecutor:
        if self._pid != os.getpid():
            with self._lock:
                if self._pid != os.getpid():
                    self._executors = {
                        name: ThreadPoolExecutor(max_workers=count, thread_name_prefix=name)
                        for name, count in self.lanes.items()
                    }
                    self._held = dict.fromkeys(self.lanes, 0)
                    self._pid = os.getpid()
        return self._executors[lane]

    def shutdown(self) -> None:
        """Let the requests in the lanes finish, then stop their threads."""
        if self._pid == os.getpid():
            for executor in self._executors.values():
                executor.shutdown(wait=True)
            self._executors = {}
            self._pid = -1

    # --- ASGI --------------------------------------------------------------------------

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif scope["type"] == "http":
            await self._http(scope, receive, send)
        # Anything else (websockets) is not served: returning closes it.

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self._executor(next(iter(self.lanes)))
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await asyncio.get_running_loop().run_in_executor(None, self.shutdown)
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.perf_counter()
        method: str = scope["method"]
        path: str = scope["path"]
        route = self.route(method, path)
        try:
            body = await self._read_body(scope, receive, route.body_limit)
            status, headers, chunks = await self._run(route.lane, self._environ(scope, body))
        except _Disconnected:
            return
        except _Refused as refused:
            await self._refuse(scope, send, refused, started)
            return
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": chunks})

    async def _read_body(self, scope: Scope, receive: Receive, limit: int) -> bytes:
        declared = None
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    raise _Refused(400, "The Content-Length header is not a number.") from None
        if declared is not None and declared > limit:
            raise _Refused(413, f"The request body is larger than the limit of {limit} bytes.")
        parts: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(self.body_timeout):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        raise _Disconnected
                    chunk = message.get("body", b"")
                    if chunk:
                        size += len(chunk)
                        if size > limit:
                            raise _Refused(
                                413, f"The request body is larger than the limit of {limit} bytes."
                            )
                        parts.append(chunk)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            raise _Refused(
                408, f"The request body did not arrive within {self.body_timeout:g} seconds."
            ) from None
        return parts[0] if len(parts) == 1 else b"".join(parts)

    async def _run(
        self, lane: str, environ: dict[str, Any]
    ) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        executor = self._executor(lane)
        with self._lock:
            if self._held[lane] >= self.queue_limit:
                raise _Refused(
                    503,
                    "The server is busy with requests of this kind; try again in a moment.",
                    retry_after=1,
                )
            self._held[lane] += 1
        try:
            budget = self.budgets.get(lane)
            if budget is None:
                return await asyncio.wrap_future(executor.submit(self._call_wsgi, environ))
            environ[DEADLINE_ENVIRON_KEY] = time.monotonic() + budget
            future = executor.submit(self._call_wsgi, environ)
            answer = asyncio.wrap_future(future)
            try:
                return await asyncio.wait_for(asyncio.shield(answer), QUEUE_SHARE * budget)
            except TimeoutError:
                if not future.cancel():
                    return await answer  # running: the app answers by its deadline
                raise _Refused(
                    503,
                    "The game session store is busy; nothing was changed. Try again.",
                    retry_after=1,
                    code=STORE_UNAVAILABLE,
                ) from None
        finally:
            with self._lock:
                self._held[lane] -= 1

    def _call_wsgi(self, environ: dict[str, Any]) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        started: list[Any] = []

        def start_response(
            status: str, headers: list[tuple[str, str]], exc_info: Any = None
        ) -> Any:
            if exc_info is not None and started:
                raise exc_info[1].with_traceback(exc_info[2])
            started[:] = [status, headers]
            return written.append

        written: list[bytes] = []
        result = self.wsgi_app(environ, start_response)
        try:
            written.extend(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        status, headers = started
        return (
            int(status.split(" ", 1)[0]),
            [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers],
            b"".join(written),
        )

    def _environ(self, scope: Scope, body: bytes) -> dict[str, Any]:
        server = scope.get("server") or ("localhost", 80)
        client = scope.get("client")
        environ: dict[str, Any] = {
            "REQUEST_METHOD": scope["method"],
            "SCRIPT_NAME": scope.get("root_path", "").encode("utf-8").decode("latin-1"),
            "PATH_INFO": scope["path"].encode("utf-8").decode("latin-1"),
            "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
            "SERVER_NAME": str(server[0]),
            "SERVER_PORT": str(server[1]) if server[1] is not None else "80",
            "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
            "CONTENT_LENGTH": str(len(body)),
            "wsgi.version": (1, 0),
            "wsgi.url_scheme": scope.get("scheme", "http"),
            "wsgi.input": io.BytesIO(body),
            "wsgi.errors": sys.stderr,
            "wsgi.multithread": True,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
            "wsgi.input_terminated": True,
            # The body as read and checked above, for api.server.routing.read_body (no second copy).
            BODY_ENVIRON_KEY: body,
        }
        if client:
            environ["REMOTE_ADDR"] = str(client[0])
            environ["REMOTE_PORT"] = str(client[1])
        for raw_name, raw_value in scope["headers"]:
            name = raw_name.decode("latin-1").upper().replace("-", "_")
            value = raw_value.decode("latin-1")
            if name == "CONTENT_LENGTH" or name == "TRANSFER_ENCODING":
                continue  # the body is whole: its length is the one above
            if name == "CONTENT_TYPE":
                environ["CONTENT_TYPE"] = value
                continue
            key = f"HTTP_{name}"
            if key in environ:
                joiner = "; " if name == "COOKIE" else ", "
                environ[key] = f"{environ[key]}{joiner}{value}"
            else:
                environ[key] = value
        return environ

    async def _refuse(self, scope: Scope, send: Send, refused: _Refused, started: float) -> None:
        body = _problem_body(refused.status, refused.detail, refused.code)
        request_id = secrets.token_hex(8)
        headers = [
            (b"content-type", PROBLEM_MIMETYPE.encode()),
            (b"content-length", str(len(body)).encode()),
            (REQUEST_ID_HEADER.lower().encode(), request_id.encode()),
        ]
        if refused.status in (400, 408, 413):
            # The rest of the body may still be on its way: do not read it as a request.
            headers.append((b"connection", b"close"))
        if refused.retry_after is not None:
            headers.append((b"retry-after", str(refused.retry_after).encode()))
        await send({"type": "http.response.start", "status": refused.status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
        if self.logger is not None:
            client = scope.get("client")
            fields = {
                "event": "request",
                "method": scope["method"],
                "path": scope["path"],
                "status": refused.status,
                "duration_ms": round((time.perf_counter() - started) * 1000, 3),
                "bytes": len(body),
                "client": client[0] if client else None,
                "request_id": request_id,
            }
            self.logger.info(
                "%s %s %s", scope["method"], scope["path"], refused.status, extra={"fields": fields}
            )
