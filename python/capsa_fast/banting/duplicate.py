"""Duplicate play for Capsa Banting bots: each deal played once per seat rotation.

    capsa-fast sim --duplicate --games 2000 --seats master,expert,expert,expert --seed 1

Deal d is played ``players`` times; in rotation k the lineup entry i sits in seat
(i + k) mod players, so every entry plays every hand of the deal against the same cards.
The luck of the deal then cancels in a comparison, and far fewer deals give the same
precision as random rounds. Each round opens with the lowest card (no previous winner).

The figures are mean points per round for each lineup entry, and for each level the mean
over its entries, with 95% intervals taken over deals (a deal's rotations are one
sample, so the interval is honest about the correlation between them).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _core, _ray
from .._threads import usable_cores
from .game import MASTER_ITERATIONS, check_budget, check_seats
from .rules import Rules, resolve

Z95 = 1.959963984540054


@dataclass(frozen=True)
class LevelStats:
    """A level's mean points per round (over its lineup entries) with a 95% interval."""

    level: str
    entries: int  # how many lineup entries play this level
    mean: float
    low: float
    high: float


@dataclass(frozen=True)
class DuplicateResult:
    """``points[d, i]``: lineup entry i's points over the rotations of deal d."""

    lineup: tuple[str, ...]
    points: npt.NDArray[np.int32]
    seconds: float

    @property
    def deals(self) -> int:
        return int(self.points.shape[0])

    @property
    def rounds(self) -> int:
        return self.deals * len(self.lineup)

    def per_round(self) -> npt.NDArray[np.float64]:
        """[deals, entries]: each entry's mean points per round within each deal."""
        return self.points.astype(np.float64) / len(self.lineup)

    def level_stats(self) -> list[LevelStats]:
        """One row per distinct level, in lineup order."""
        per = self.per_round()
        out = []
        for level in dict.fromkeys(self.lineup):
            cols = [i for i, lv in enumerate(self.lineup) if lv == level]
            x = per[:, cols].mean(axis=1)
            mean, half = mean_interval(x)
            out.append(LevelStats(level, len(cols), mean, mean - half, mean + half))
        return out


def mean_interval(x: npt.NDArray[np.float64]) -> tuple[float, float]:
    """Mean and the half-width of its 95% normal interval (inf for fewer than 2 samples)."""
    n = len(x)
    if n == 0:
        return math.nan, math.inf
    if n == 1:
        return float(x[0]), math.inf
    return float(x.mean()), Z95 * float(x.std(ddof=1)) / math.sqrt(n)


def play(
    deals: int,
    lineup: Sequence[str],
    rules: Any = None,
    seed: int = 2026,
    workers: int = 1,
    chunk: int = 100,
    iterations: int = MASTER_ITERATIONS,
    time_ms: float = 0.0,
    threads: int = 1,
    progress: Callable[[DuplicateResult, int], None] | None = None,
    ray: str | None = None,
) -> DuplicateResult:
    """Play ``deals`` duplicate deals (each ``len(lineup)`` rounds) in C++.

    ``iterations``, ``time_ms`` and ``threads`` are the master's budget. Deals are split
    into chunks of ``chunk`` shared by ``workers`` threads (0: one per core), or run as Ray
    tasks when ``ray`` is given (``"local"`` or a cluster address, see
    :mod:`capsa_fast._ray`); deal d depends only on (``seed``, d), so the results do not
    depend on any of these. ``progress(so_far, total)`` follows each chunk with the deals
    done so far (in deal order locally; on Ray, the chunks finished so far in any order)."""
    lineup = check_seats(lineup)
    _ray.check_count(deals, chunk)
    if not 0 <= seed < 1 << 64:
        raise ValueError(f"seed must be 0..2**64 - 1, got {seed}")
    check_budget(iterations, time_ms, threads)
    workers = workers or usable_cores()  # 0: one per core this process may use
    if workers < 1:
        raise ValueError(f"workers must be >= 1 (0 for one per core), got {workers}")
    resolved = resolve(rules)
    rules_arg: Any = resolved if ray is None else resolved.to_dict()
    players = len(lineup)
    points = np.zeros((deals, players), dtype=np.int32)
    finished = np.zeros(deals, dtype=bool)
    chunks = [
        (rules_arg, lineup, seed, first, min(chunk, deals - first), iterations, time_ms, threads)
        for first in range(0, deals, chunk)
    ]
    t0 = time.perf_counter()

    def store(i: int, part: npt.NDArray[np.int32]) -> None:
        first, count = chunks[i][3], chunks[i][4]
        points[first : first + count] = part
        finished[first : first + count] = True
        if progress is not None:
            so_far = DuplicateResult(lineup, points[finished], time.perf_counter() - t0)
            progress(so_far, deals)

    _ray.run_chunks(
        _deals,
        chunks,
        ray_address=ray,
        threads=workers,
        units=lambda c: c[4],
        on_result=store,
    )
    return DuplicateResult(lineup, points, time.perf_counter() - t0)


def _deals(chunk: tuple[Any, ...]) -> npt.NDArray[np.int32]:
    """Deals first .. first + count - 1 of a run: [count, entries] points."""
    rules_arg, lineup, seed, first, count, iterations, time_ms, threads = chunk
    game_rules = resolve(rules_arg).game_core
    return np.asarray(
        _core.banting_simulate_duplicate(
            game_rules, len(lineup), list(lineup), seed, first, count, iterations, time_ms, threads
        ),
        dtype=np.int32,
    )


def report(result: DuplicateResult, rules: Rules) -> str:
    """The table ``sim --duplicate`` prints."""
    lines = [
        f"{result.deals:,} duplicate deals x {len(result.lineup)} rotations = "
        f"{result.rounds:,} rounds, preset {rules.preset_name}, {result.seconds:.1f} s",
        "level          seats   mean points per round (95% CI)",
    ]
    for s in result.level_stats():
        interval = f"[{s.low:+.3f}, {s.high:+.3f}]"
        lines.append(f"{s.level:<13}  {s.entries:>5}   {s.mean:+7.3f} {interval}")
    return "\n".join(lines)


def to_json(result: DuplicateResult, rules: Rules) -> dict[str, Any]:
    return {
        "duplicate": True,
        "deals": result.deals,
        "rounds": result.rounds,
        "seconds": result.seconds,
        "rules": rules.to_dict(),
        "lineup": list(result.lineup),
        "levels": [s.__dict__ for s in result.level_stats()],
    }
