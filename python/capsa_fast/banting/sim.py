"""Whole Capsa Banting rounds played by bots in C++, with each seat's results.

    capsa-fast sim --games 20000 --seats standard,beginner,beginner,beginner \\
        --preset capsa-banting --seed 1

(or ``python -m capsa_fast.banting.sim`` with the same arguments)
prints each seat's win rate and mean score with 95% intervals and the rounds per second.
Rounds are split into fixed chunks (``--chunk``) numbered from 0; round g is dealt from a
seed derived from (``--seed``, g), so the results do not depend on ``--workers``. Under
``first_lead=previous-winner`` each chunk is one match: its first round opens with the
lowest card, the others with the previous winner.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TextIO

import numpy as np
import numpy.typing as npt

from .. import _core
from .game import BOT_LEVELS
from .rules import resolve

Z95 = 1.959963984540054
PROG = "python -m capsa_fast.banting.sim"


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
class SimResult:
    """Scores ``[games, players]`` and winners ``[games]``, with the time the play took."""

    seats: tuple[str, ...]
    scores: npt.NDArray[np.int32]
    winners: npt.NDArray[np.int32]
    seconds: float

    @property
    def games(self) -> int:
        return int(self.winners.shape[0])

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else math.inf

    def seat_stats(self) -> list[SeatStats]:
        out = []
        n = self.games
        for seat, level in enumerate(self.seats):
            wins = int(np.count_nonzero(self.winners == seat))
            low, high = wilson(wins, n)
            col = self.scores[:, seat].astype(np.float64)
            mean = float(col.mean()) if n else 0.0
            half = Z95 * float(col.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
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
) -> SimResult:
    """Play ``games`` rounds with one bot level per seat (2-4 seats).

    ``workers`` threads share the chunks (0: one per core); the C++ loop releases the GIL.
    ``progress(done, total, seconds)`` is called after each chunk.
    """
    seats = tuple(seats)
    if not 2 <= len(seats) <= 4:
        raise ValueError(f"seats: 2 to 4 bot levels, got {len(seats)}")
    for level in seats:
        if level not in BOT_LEVELS:
            raise ValueError(f"seats: unknown bot level {level!r} (known: {', '.join(BOT_LEVELS)})")
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise ValueError(f"games must be a count >= 0, got {games!r}")
    if chunk < 1:
        raise ValueError(f"chunk must be >= 1, got {chunk}")
    if not 0 <= seed < 1 << 64:
        raise ValueError(f"seed must be 0..2**64 - 1, got {seed}")
    workers = workers or (os.cpu_count() or 1)
    if workers < 1:
        raise ValueError(f"workers must be >= 1 (0 for one per core), got {workers}")
    game_rules = resolve(rules).game_core
    players = len(seats)
    scores = np.zeros((games, players), dtype=np.int32)
    winners = np.zeros(games, dtype=np.int32)
    starts = list(range(0, games, chunk))

    def run(first: int) -> int:
        count = min(chunk, games - first)
        s, w = _core.banting_simulate(game_rules, players, list(seats), seed, first, count)
        scores[first : first + count] = s
        winners[first : first + count] = w
        return count

    t0 = time.perf_counter()
    done = 0
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for count in pool.map(run, starts):
            done += count
            if progress is not None:
                progress(done, games, time.perf_counter() - t0)
    return SimResult(seats, scores, winners, time.perf_counter() - t0)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """``python -m capsa_fast.banting.sim``: the same as ``capsa-fast sim`` (exit status 2 and
    the reason on stderr for a bad argument); ``out`` receives what it prints."""
    from contextlib import redirect_stdout

    from ..cli.sim import command

    with redirect_stdout(out or sys.stdout):
        try:
            command.main(args=list(argv) if argv is not None else None, prog_name=PROG)
        except SystemExit as stop:
            if stop.code not in (0, None):
                raise
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
