"""api.worker.GuardedProtocol when its worker stops (recycled after max_requests, SIGTERM).

uvicorn alone closes a connection it has accepted but whose request it has not read yet, so
the client sees the connection closed without an answer (CI saw it once in
test_workers_are_recycled_after_their_requests). These tests stop a real uvicorn server in
this process at the moment that matters, with no timing luck involved.
"""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import uvicorn

from api.worker import GuardedProtocol

REQUEST = b"GET /x HTTP/1.1\r\nHost: t\r\n\r\n"


async def _app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    assert scope["type"] == "http"
    headers = [(b"content-length", b"2")]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": b"ok"})


async def _until(condition: Any, what: str) -> None:
    for _ in range(500):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


async def _started() -> tuple[uvicorn.Server, int]:
    config = uvicorn.Config(_app, http=GuardedProtocol, lifespan="off", log_level="warning")
    server = uvicorn.Server(config)
    config.load()
    server.lifespan = config.lifespan_class(config)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    await server.startup(sockets=[sock])
    return server, int(sock.getsockname()[1])


async def _stop_with_a_connection(sent_first: bytes) -> tuple[bytes, bytes]:
    """Open a connection, send ``sent_first``, stop the server, then send the rest of the
    request; returns the answer to it and what followed (b"" once the server closed)."""
    server, port = await _started()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    state = server.server_state
    await _until(lambda: len(state.connections) == 1, "the server to accept")
    if sent_first:
        writer.write(sent_first)
        await writer.drain()
        protocol = next(iter(state.connections))
        await _until(lambda: protocol._header_bytes > 0, "the first bytes to arrive")
    stopping = asyncio.create_task(server.shutdown())
    await _until(lambda: not server.servers[0].is_serving(), "the server to stop accepting")
    writer.write(REQUEST[len(sent_first) :])
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(4096), 10)
    rest = await asyncio.wait_for(reader.read(), 10)
    writer.close()  # the server lingers until the client closes too
    await asyncio.wait_for(stopping, 10)
    return answer, rest


def test_a_request_on_a_fresh_connection_is_served_while_the_worker_stops() -> None:
    answer, rest = asyncio.run(_stop_with_a_connection(b""))
    assert answer.startswith(b"HTTP/1.1 200 "), answer
    assert b"connection: close" in answer.lower()
    assert answer.endswith(b"ok")
    assert rest == b""


def test_a_request_whose_headers_had_started_is_served_while_the_worker_stops() -> None:
    answer, rest = asyncio.run(_stop_with_a_connection(REQUEST[:10]))
    assert answer.startswith(b"HTTP/1.1 200 "), answer
    assert b"connection: close" in answer.lower()
    assert rest == b""


async def _idle_after_a_request() -> bytes:
    server, port = await _started()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(REQUEST)
    await writer.drain()
    first = await asyncio.wait_for(reader.readuntil(b"ok"), 10)
    assert first.startswith(b"HTTP/1.1 200 ")
    stopping = asyncio.create_task(server.shutdown())
    closed = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    await asyncio.wait_for(stopping, 10)
    return closed


def test_an_idle_kept_alive_connection_is_closed_at_once() -> None:
    assert asyncio.run(_idle_after_a_request()) == b""


async def _silent_client() -> float:
    server, port = await _started()
    _, writer = await asyncio.open_connection("127.0.0.1", port)
    await _until(lambda: len(server.server_state.connections) == 1, "the server to accept")
    loop = asyncio.get_running_loop()
    began = loop.time()
    await asyncio.wait_for(server.shutdown(), 10)
    writer.close()
    return loop.time() - began


def test_a_client_that_never_sends_holds_the_stop_for_the_grace_time_only() -> None:
    from api.worker import SHUTDOWN_GRACE_SECONDS

    assert asyncio.run(_silent_client()) < SHUTDOWN_GRACE_SECONDS + 1.5
