"""Whole Capsa Banting rounds played by bots in C++, with each seat's results.

    capsa-fast sim --games 20000 --seats standard,beginner,beginner,beginner \\
        --preset capsa-banting --seed 1

(or ``python -m capsa_fast.banting.sim`` with the same arguments)
prints each seat's win rate and mean score with 95% intervals and the rounds per second.
Rounds are split into fixed chunks (``--chunk``) numbered from 0; round g is dealt from a
seed derived from (``--seed``, g), so the results do not depend on ``--workers``, nor on
where the chunks run: ``--ray [ADDRESS]`` runs them as tasks on a Ray cluster (a local one
without an address; see :mod:`capsa_fast._ray`) with the same results. Under
``first_lead=previous-winner`` each chunk is one match: its first round opens with the
lowest card, the others with the previous winner; so too under ``exchange=ranked``, where
each round of a chunk but the first (and one after a dragon) begins with the card exchange,
the bots giving back by their own level.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ... import _core, _ray
from ..._threads import usable_cores
from ..game import MASTER_ITERATIONS, check_budget, check_seats
from ..rules import resolve

Z95 = 1.959963984540054


@dataclass(frozen=True)
class SeatStats:
    """One seat's results: rates are fractions, intervals are 95% (Wilson for wins)."""

    seat: int
    level: str
    wins: int
    win_rate: float
    win_low: float
    win_high: float
    mean_score: float
    score_low: float
    score_high: float


@dataclass(frozen=True)
class Totals:
    """Per seat over a run's rounds: wins, the sum of the scores and of their squares (what
    the seat statistics need, in constant memory)."""

    games: int
    wins: tuple[int, ...]
    sums: tuple[int, ...]
    squares: tuple[int, ...]

    @staticmethod
    def of(scores: npt.NDArray[np.int32], winners: npt.NDArray[np.int32]) -> Totals:
        players = scores.shape[1]
        wide = scores.astype(np.int64)
        return Totals(
            games=int(winners.shape[0]),
            wins=tuple(int(np.count_nonzero(winners == s)) for s in range(players)),
            sums=tuple(int(x) for x in wide.sum(axis=0)),
            squares=tuple(int(x) for x in (wide * wide).sum(axis=0)),
        )

    def __add__(self, other: Totals) -> Totals:
        def add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(x + y for x, y in zip(a, b, strict=True))

        return Totals(
            self.games + other.games,
            add(self.wins, other.wins),
            add(self.sums, other.sums),
            add(self.squares, other.squares),
        )


@dataclass(frozen=True)
class SimResult:
    """Scores ``[games, players]`` and winners ``[games]``, with the time the play took.
    A run made with ``keep_rounds=False`` keeps only the seats' ``totals`` (its ``scores``
    and ``winners`` are None)."""

    seats: tuple[str, ...]
    scores: npt.NDArray[np.int32] | None
    winners: npt.NDArray[np.int32] | None
    seconds: float
    totals: Totals | None = None

    @property
    def games(self) -> int:
        if self.winners is not None:
            return int(self.winners.shape[0])
        return self.totals.games if self.totals is not None else 0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else math.inf

    def seat_stats(self) -> list[SeatStats]:
        out = []
        totals = self.totals
        if totals is None:
            assert self.scores is not None and self.winners is not None
            totals = Totals.of(self.scores, self.winners)
        n = totals.games
        for seat, level in enumerate(self.seats):
            wins = totals.wins[seat]
            low, high = wilson(wins, n)
            mean = totals.sums[seat] / n if n else 0.0
            # the sample variance from exact integer sums: no cancellation
            spread = (
                (n * totals.squares[seat] - totals.sums[seat] ** 2) / (n * (n - 1)) if n > 1 else 0
            )
            half = Z95 * math.sqrt(spread) / math.sqrt(n) if n > 1 else math.inf
            out.append(
                SeatStats(
                    seat=seat,
                    level=level,
                    wins=wins,
                    win_rate=wins / n if n else 0.0,
                    win_low=low,
                    win_high=high,
                    mean_score=mean,
                    score_low=mean - half,
                    score_high=mean + half,
                )
            )
        return out


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def simulate(
    games: int,
    seats: Sequence[str] = ("standard", "beginner", "beginner", "beginner"),
    rules: Any = None,
    seed: int = 2026,
    workers: int = 1,
    chunk: int = 2000,
    progress: Callable[[int, int, float], None] | None = None,
    ray: str | None = None,
    iterations: int = MASTER_ITERATIONS,
    time_ms: float = 0.0,
    threads: int = 1,
    keep_rounds: bool = True,
) -> SimResult:
    """Play ``games`` rounds with one bot level per seat (2-4 seats).

    ``keep_rounds=False`` keeps only each seat's totals (constant memory whatever the
    number of rounds; each chunk is summed where it ran), which is what the seat
    statistics and the command line need; True also keeps every round's scores and winner
    (20 bytes a round at four seats).

    ``iterations``, ``time_ms`` and ``threads`` are the master's budget.
    ``workers`` threads share the chunks (0: one per core); the C++ loop releases the GIL.
    ``ray``: run the chunks as Ray tasks instead (``"local"`` or a cluster address; see
    :mod:`capsa_fast._ray`); the results are the same. ``progress(done, total, seconds)``
    is called after each chunk.
    """
    seats = check_seats(seats)
    _ray.check_count(games, chunk)
    if not 0 <= seed < 1 << 64:
        raise ValueError(f"seed must be 0..2**64 - 1, got {seed}")
    check_budget(iterations, time_ms, threads)
    workers = workers or usable_cores()  # 0: one per core this process may use
    if workers < 1:
        raise ValueError(f"workers must be >= 1 (0 for one per core), got {workers}")
    resolved = resolve(rules)
    players = len(seats)
    # A chunk: (rules, seats, seed, first round, count, the master's budget); Ray tasks get
    # the rules as a dict.
    rules_arg: Any = resolved if ray is None else resolved.to_dict()
    chunks = [
        (rules_arg, seats, seed, first, min(chunk, games - first), iterations, time_ms, threads)
        for first in range(0, games, chunk)
    ]
    t0 = time.perf_counter()
    run: dict[str, Any] = {
        "ray_address": ray,
        "threads": workers,
        "progress": progress,
        "units": lambda c: c[4],
    }
    if not keep_rounds:
        summed = [Totals(0, (0,) * players, (0,) * players, (0,) * players)]

        def add(_index: int, part: Totals) -> None:
            summed[0] = summed[0] + part

        # results are summed as they come and not kept: run_chunks' list holds only None
        _ray.run_chunks(_sim_chunk_totals, chunks, on_result=add, keep=False, **run)
        return SimResult(seats, None, None, time.perf_counter() - t0, totals=summed[0])
    parts = _ray.run_chunks(_sim_chunk, chunks, **run)
    scores = np.concatenate([p[0] for p in parts]) if parts else np.zeros((0, players), np.int32)
    winners = np.concatenate([p[1] for p in parts]) if parts else np.zeros(0, np.int32)
    return SimResult(seats, scores, winners, time.perf_counter() - t0)


def _sim_chunk_totals(chunk: tuple[Any, tuple[str, ...], int, int, int, int, float, int]) -> Totals:
    """A chunk's rounds summed per seat (see :func:`_sim_chunk`)."""
    scores, winners = _sim_chunk(chunk)
    return Totals.of(scores, winners)


def _sim_chunk(
    chunk: tuple[Any, tuple[str, ...], int, int, int, int, float, int],
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """Rounds first .. first + count - 1 of a run: (scores [count, players], winners)."""
    rules, seats, seed, first, count, iterations, time_ms, threads = chunk
    game_rules = resolve(rules).game_core
    scores, winners = _core.banting_simulate(
        game_rules, len(seats), list(seats), seed, first, count, iterations, time_ms, threads
    )
    return np.asarray(scores), np.asarray(winners)
