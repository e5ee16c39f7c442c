"""A small Server-Sent Events client on asyncio streams, for bench/bench_live.py and
tests/api/test_live.py: many streams in one process, each a coroutine and a socket.

:func:`open_stream` sends ``GET path`` (HTTP/1.1), reads the status and headers, and
returns an :class:`SseStream` whose :meth:`SseStream.next_event` gives each event's fields
(``id``, ``data``, ``event``) as they arrive, with the time it was read; comment lines
(keep-alives) are counted, not returned. Chunked transfer encoding only (what uvicorn sends
for a stream), or a body with a Content-Length (a refusal). :func:`json_request` makes the
plain JSON calls beside the streams (create, ticket, moves).
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import time
from dataclasses import dataclass, field
from typing import Any


@dataclass
class SseEvent:
    fields: dict[str, str]
    received: float  # time.perf_counter() when the event's last line was read

    @property
    def id(self) -> str | None:
        return self.fields.get("id")

    @property
    def data(self) -> str:
        return self.fields.get("data", "")


@dataclass
class SseStream:
    status: int
    headers: dict[str, str]
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    body: bytes = b""  # the whole body of a response that is not a stream
    comments: int = 0
    retry: int | None = None  # the reconnection time the server asked for, in ms
    _buffer: str = ""
    _pending: list[SseEvent] = field(default_factory=list)

    async def _chunk(self) -> str:
        size_line = await self.reader.readline()
        if not size_line:
            raise EOFError("the stream ended")
        size = int(size_line.strip().split(b";")[0], 16)
        if size == 0:
            raise EOFError("the stream ended")
        data = await self.reader.readexactly(size + 2)
        return data[:-2].decode("utf-8")

    async def next_event(self) -> SseEvent:
        """The next event (waits for it); EOFError when the server ends the stream."""
        while not self._pending:
            self._buffer += await self._chunk()
            while "\n\n" in self._buffer:
                block, self._buffer = self._buffer.split("\n\n", 1)
                fields: dict[str, str] = {}
                for line in block.split("\n"):
                    if line.startswith(":"):
                        self.comments += 1
                        continue
                    name, _, value = line.partition(":")
                    value = value.removeprefix(" ")
                    fields[name] = f"{fields[name]}\n{value}" if name in fields else value
                if "retry" in fields:
                    self.retry = int(fields["retry"])
                if "data" in fields:  # a block without data dispatches no event
                    self._pending.append(SseEvent(fields, time.perf_counter()))
        return self._pending.pop(0)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.writer.close()


async def open_stream(
    host: str, port: int, path: str, headers: dict[str, str] | None = None
) -> SseStream:
    reader, writer = await asyncio.open_connection(host, port)
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", "Accept: text/event-stream"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    status = int(status_line.split(" ")[1])
    found: dict[str, str] = {}
    for line in header_lines:
        if ":" in line:
            name, _, value = line.partition(":")
            found[name.strip().lower()] = value.strip()
    stream = SseStream(status, found, reader, writer)
    if "content-length" in found:
        stream.body = await reader.readexactly(int(found["content-length"]))
    return stream


def json_request(
    host: str,
    port: int,
    method: str,
    path: str,
    body: Any = None,
    token: str | None = None,
    timeout: float = 30.0,
) -> tuple[int, dict[str, str], Any]:
    """``method path`` with a JSON body (and the seat's bearer token): (status, headers with
    lower-case names, the decoded JSON answer or None)."""
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        response = conn.getresponse()
        found = {name.lower(): value for name, value in response.getheaders()}
        return response.status, found, json.loads(response.read() or b"null")
    finally:
        conn.close()
