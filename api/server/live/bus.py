"""The change bus: a saved game tells every worker process holding streams of it.

:class:`ChangeBus` is the interface: ``publish(kind, game_id, version)`` from any thread of
any process after a save has committed, and ``subscribe(loop, callback)`` in a worker's event
loop, which then calls ``callback(kind, game_id, version)`` on that loop for every change
published by any process on the same store (its own included). Delivery may be lost (a full
buffer, a worker starting): the streams' periodic resync recovers, so the bus only has to be
fast. A PostgreSQL store can put LISTEN/NOTIFY behind the same two methods.

:class:`UnixDatagramBus` (local, one host): each subscribing process binds an abstract UNIX
datagram socket named after the store and its pid, and registers the pid as an empty file in
a runtime folder beside the store (``<GAMES_DB>.live``); ``publish`` sends one datagram to
every registered process, dropping the files of processes that are gone. A datagram wakes
another process in 0.04 ms (p50; p99 0.2 ms on the 2-core machine under load), where polling
``PRAGMA data_version`` every 5 ms woke it in 7 ms (p50; 1.4% of a core per worker, idle or
not): polling is kept for the resync only.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import hashlib
import json
import os
import socket
import sys
from collections.abc import Callable
from typing import Protocol

Callback = Callable[[str, str, int], None]
RECEIVE_BUFFER_BYTES = 1 << 20


class ChangeBus(Protocol):
    def publish(self, kind: str, game_id: str, version: int) -> None: ...

    def subscribe(self, loop: asyncio.AbstractEventLoop, callback: Callback) -> None: ...

    def close(self) -> None: ...


class UnixDatagramBus:
    """The local :class:`ChangeBus` (Linux: abstract socket names)."""

    def __init__(self, db_path: str) -> None:
        real = os.path.realpath(db_path)
        self.folder = real + ".live"
        self._prefix = "capsa_fast-live-" + hashlib.sha256(real.encode()).hexdigest()[:16]
        self._sender: socket.socket | None = None
        self._sender_pid = -1
        self._receiver: socket.socket | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def _address(self, pid: int) -> str:
        return f"\0{self._prefix}-{pid}"

    # --- publishing (any thread) --------------------------------------------------------

    def publish(self, kind: str, game_id: str, version: int) -> None:
        if not sys.platform.startswith("linux"):
            return
        try:
            pids = os.listdir(self.folder)
        except FileNotFoundError:
            return  # nobody has subscribed yet
        if self._sender is None or self._sender_pid != os.getpid():
            self._sender = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            self._sender.setblocking(False)
            self._sender_pid = os.getpid()
        message = json.dumps([kind, game_id, version], separators=(",", ":")).encode()
        for name in pids:
            if not name.isdigit():
                continue
            try:
                self._sender.sendto(message, self._address(int(name)))
            except (ConnectionRefusedError, FileNotFoundError):
                # Nobody bound to it: that process is gone.
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(os.path.join(self.folder, name))
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.ENOBUFS):
                    raise
                # A full receive buffer: that worker's resync will catch up.

    # --- subscribing (a worker's event loop) --------------------------------------------

    def subscribe(self, loop: asyncio.AbstractEventLoop, callback: Callback) -> None:
        if not sys.platform.startswith("linux"):
            return  # the resync alone (every RESYNC_SECONDS)
        receiver = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        receiver.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER_BYTES)
        receiver.bind(self._address(os.getpid()))
        receiver.setblocking(False)
        os.makedirs(self.folder, exist_ok=True)
        with open(os.path.join(self.folder, str(os.getpid())), "w"):
            pass
        self._receiver, self._loop = receiver, loop

        def drain() -> None:
            while True:
                try:
                    data = receiver.recv(4096)
                except BlockingIOError:
                    return
                try:
                    kind, game_id, version = json.loads(data)
                except (ValueError, TypeError):
                    continue
                callback(str(kind), str(game_id), int(version))

        loop.add_reader(receiver.fileno(), drain)

    def close(self) -> None:
        if self._receiver is not None:
            if self._loop is not None:
                self._loop.remove_reader(self._receiver.fileno())
            self._receiver.close()
            self._receiver = None
            with contextlib.suppress(FileNotFoundError):
                os.unlink(os.path.join(self.folder, str(os.getpid())))


_buses: dict[str, UnixDatagramBus] = {}


def bus_for(db_path: str) -> UnixDatagramBus:
    """The process's bus for the store at ``db_path``."""
    found = _buses.get(db_path)
    if found is None:
        found = _buses[db_path] = UnixDatagramBus(db_path)
    return found
