"""Helpers shared by the benchmark scripts: random hands and median rates."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import numpy as np


def random_hands(n: int, seed: int, exclude: tuple[int, ...] = (), size: int = 13) -> np.ndarray:
    """[n, size] uint8 ids, each row dealt from one shuffled deck without ``exclude``."""
    rng = np.random.default_rng(seed)
    pool = np.array([c for c in range(52) if c not in exclude])
    keys = rng.random((n, len(pool)))
    return pool[np.argsort(keys, axis=1)[:, :size]].astype(np.uint8)


def median_rate(fn: Callable[[], object], items: int, repeats: int = 5) -> float:
    """Items per second of ``fn`` (which handles ``items`` items), median of ``repeats``."""
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return items / statistics.median(times)
