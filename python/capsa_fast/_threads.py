"""The ``threads`` argument of the batch and search calls, checked in one place."""

from __future__ import annotations

import os
from typing import Any

import numpy as np

# More threads than this on one call only queue for the cores (the machines this runs on
# have tens of cores at most), and each costs a stack of its own.
MAX_THREADS = 256


def usable_cores() -> int:
    """The cores this process may run on (its affinity, not the machine's count)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def check_threads(threads: Any, name: str = "threads") -> int:
    """``threads`` as an int: None is every usable core (at most MAX_THREADS), else an
    integer 1..MAX_THREADS; ValueError naming ``name`` otherwise."""
    if threads is None:
        return min(MAX_THREADS, usable_cores())
    if (
        isinstance(threads, bool)
        or not isinstance(threads, int | np.integer)
        or not 1 <= threads <= MAX_THREADS
    ):
        raise ValueError(f"{name} must be an integer 1..{MAX_THREADS} or None, got {threads!r}")
    return int(threads)
