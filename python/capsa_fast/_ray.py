"""Long jobs split into seeded chunks, run on local threads or on a Ray cluster.

A job is a list of chunks and a top-level function that computes one chunk from its
arguments alone (a chunk carries its own seed and range), so the results are the same
whichever machine runs which chunk; the caller combines them in chunk order. With Ray, each
chunk is a task: :func:`run_chunks` submits them all and reports progress as they finish.

``address`` (the command lines' ``--ray [ADDRESS]``): ``"local"`` starts a Ray instance
on this machine (``cpus`` CPUs, default all), anything else connects to a running cluster
(``"auto"``, ``"HOST:6379"`` or ``"ray://HOST:10001"``). A Ray this process already started
or joined is used as it is. Ray is the optional ``ray`` extra:
``pip install "capsa_fast[ray]"`` on every machine of the cluster.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

A = TypeVar("A")
R = TypeVar("R")

LOCAL = "local"

Progress = Callable[[int, int, float], None]

# The most rounds, deals or tables one job may ask for (its list of chunks is built first).
MAX_COUNT = 10**9


def check_count(count: Any, chunk: Any, what: str = "games") -> None:
    """ValueError unless ``count`` is 0..MAX_COUNT and ``chunk`` at least 1."""
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_COUNT:
        raise ValueError(f"{what} must be a count 0..{MAX_COUNT:,}, got {count!r}")
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise ValueError(f"chunk must be >= 1, got {chunk!r}")


def ray_module() -> Any:
    """The ray package, or ImportError saying how to install it."""
    try:
        import ray
    except ImportError as exc:
        raise ImportError(
            f'--ray needs the optional "ray" extra: pip install "capsa_fast[ray]" ({exc})'
        ) from exc
    return ray


# How long a cluster address may take to answer a TCP connection before it is called
# unreachable (Ray itself retries an unreachable head for ever).
REACH_SECONDS = 5.0


def _check_reachable(address: str) -> None:
    """ValueError unless ``address`` (``HOST:PORT`` or ``ray://HOST:PORT``) is well formed
    and its port answers within :data:`REACH_SECONDS`."""
    where = address.removeprefix("ray://")
    host, _, port = where.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(
            f"--ray {address!r}: give 'local', 'auto', HOST:PORT or ray://HOST:PORT "
            "(e.g. 10.0.0.5:6379)"
        )
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=REACH_SECONDS).close()
    except OSError as exc:
        raise ValueError(
            f"--ray {address!r}: nothing answers there ({exc}); start the head with "
            "`ray start --head` on that machine, or check the address"
        ) from None


def connect(address: str = LOCAL, cpus: int | None = None) -> Any:
    """Start or join Ray (see the module notes); returns the ray module. An address that
    is malformed, does not answer or refuses to be joined is a ValueError naming it."""
    ray = ray_module()
    if ray.is_initialized():
        return ray
    if address not in (LOCAL, "auto"):
        _check_reachable(address)
    try:
        if address == LOCAL:
            ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ValueError(f"--ray {address!r}: could not start or join Ray: {reason}") from None
    return ray


def _call(fn: Callable[[Any], Any], chunk: Any) -> Any:
    return fn(chunk)


def run_chunks(
    fn: Callable[[A], R],
    chunks: Sequence[A],
    *,
    ray_address: str | None = None,
    threads: int = 1,
    progress: Progress | None = None,
    units: Callable[[A], int] | None = None,
    on_result: Callable[[int, R], None] | None = None,
    keep: bool = True,
) -> list[R]:
    """``[fn(c) for c in chunks]``, computed in parallel: on ``threads`` local threads (the
    chunk functions release the GIL in C++), or as Ray tasks when ``ray_address`` is given
    (:func:`connect` joins or starts the cluster). As each chunk finishes (in chunk order
    locally, in any order on Ray), ``on_result(index, result)`` is called, then
    ``progress(done, total, seconds)`` counting ``units(chunk)`` per chunk (default 1).
    ``keep=False``: results go to ``on_result`` only (the list returned holds None), so a
    long run's memory does not grow with its chunks."""
    weight = units or (lambda _c: 1)
    total = sum(weight(c) for c in chunks)
    t0 = time.perf_counter()
    done = 0
    results: list[Any] = [None] * len(chunks)
    if ray_address is None:
        with ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
            for i, result in enumerate(pool.map(fn, chunks)):
                if keep:
                    results[i] = result
                if on_result is not None:
                    on_result(i, result)
                done += weight(chunks[i])
                if progress is not None:
                    progress(done, total, time.perf_counter() - t0)
        return results
    ray = connect(ray_address)
    task = ray.remote(num_cpus=1)(_call)
    fn_ref = ray.put(fn)
    index = {}
    for i, chunk in enumerate(chunks):
        index[task.remote(fn_ref, chunk)] = i
    pending = list(index)
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                i = index.pop(ref)
                result = ray.get(ref)
                if keep:
                    results[i] = result
                if on_result is not None:
                    on_result(i, result)
                done += weight(chunks[i])
                if progress is not None:
                    progress(done, total, time.perf_counter() - t0)
    except BaseException:
        for ref in pending:
            ray.cancel(ref)
        raise
    return results
