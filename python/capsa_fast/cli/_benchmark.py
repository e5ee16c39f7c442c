"""capsa_fast against phevaluator, eval7, treys (and any external C evaluator): one process,
the same random hands.

Run:  capsa-fast bench                  (a few minutes; or python bench/compare.py)
      capsa-fast bench --quick          (a few seconds, rougher numbers)
      capsa-fast bench --batch-only     (batch rows and thread scaling only)
      capsa-fast bench --external LIB.so [--external ...]   (see below)
      capsa-fast bench --json           (one JSON object instead of tables)
      capsa-fast bench --plot FILE.png  (a chart of the rows, with matplotlib)

Every peer evaluates the same hands (numpy seed, uniformly random distinct cards), each
measurement is repeated and the median is reported, so the ratios in the table compare
like with like. Batch rows time one evaluate_batch call on a uint8 [N, k] array, one
thread unless marked, on the loop this CPU runs fastest and (rows marked "path=...") on
every other loop it can run; all batch rows of one k are timed in turn, round after round,
so a change of load on the machine falls on all of them, and before every timed run a
64 MB buffer is read, so no run starts with the hands or tables in cache. Per-hand
rows time a plain Python loop of single calls over pre-converted inputs (ids for
capsa_fast and phevaluator, eval7.Card lists, treys ints), so they include the loop and
call overhead a user pays.
"vs phevaluator" is how many times faster than phevaluator's public per-hand call
evaluate_cards(*ids) on the same k (higher is better); "vs fastest phevaluator" uses the
fastest of its public per-hand calls; "vs external" compares with the first --external
library.

--external takes a shared library built outside this repository that exports
    int capsa_external_batch(const uint8_t* cards, size_t n, int k, int32_t* out);
    const char* capsa_external_name(void);   /* optional */
evaluating n contiguous rows of k card ids (id = rank * 4 + suit, 2c = 0 .. As = 51) into
out, one thread. It is timed like evaluate_batch (a fresh output array per call, same
hands, same cache flush), and its values must order the first 200,000 hands of each k
exactly as capsa_fast does, or the script stops. This is how to compare with a C++
evaluator such as OMPEval on the same hands in the same run without shipping its code.

Thread scaling: evaluate_batch with threads=1 and threads=2 on 250,000, 1,000,000 and
4,000,000 7-card hands, taken in turn; the speed-up is the ratio of the medians. Beside it,
the machine's own ceiling for this work: two separate processes, each evaluating the same
hands with threads=1 at the same moment (started together, call by call, caches flushed),
against one of them alone, the two kinds of call taken in turn; their speed-up is twice
the ratio of the medians. Nothing is shared between them but the hardware, so no
threading code can do better than that. Last, "back to back": the same two calls with no
flush, each timed right after an untimed call with the same threads, as in a loop of calls
(after a flush the pool's worker has gone to sleep and must be woken; here it is awake).

Also measured: `import capsa_fast` in a fresh interpreter (median of several).
"""

from __future__ import annotations

import argparse
import ctypes
import functools
import gc
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from importlib import metadata
from typing import Any

import numpy as np

import capsa_fast

CARD_NAMES = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]


@dataclass
class Row:
    peer: str
    k: int
    ns_per_hand: float
    hands: int
    baseline: bool = False  # phevaluator's public per-hand call evaluate_cards
    phevaluator: bool = False  # a public phevaluator call (for the "fastest" column)
    external: bool = False  # the first --external library (for the "vs external" column)


@dataclass
class Scaling:
    k: int
    hands: int
    one_thread_ms: float
    two_threads_ms: float
    # One process alone, and each of two at once (threads=1 each; None when not measured).
    one_process_ms: float | None = None
    two_processes_ms: float | None = None
    # Back to back: each timed call right after an untimed one with the same threads, no
    # flush between them, as in a loop of calls (None when not measured).
    one_thread_hot_ms: float | None = None
    two_threads_hot_ms: float | None = None

    @property
    def speedup(self) -> float:
        return self.one_thread_ms / self.two_threads_ms

    @property
    def hot_speedup(self) -> float | None:
        if self.one_thread_hot_ms is None or self.two_threads_hot_ms is None:
            return None
        return self.one_thread_hot_ms / self.two_threads_hot_ms

    @property
    def process_speedup(self) -> float | None:
        if self.one_process_ms is None or self.two_processes_ms is None:
            return None
        return 2 * self.one_process_ms / self.two_processes_ms


# Read before every timed batch run: evicts the hands, tables and output of the last. Read,
# not written, so that no dirty lines of its own are left to be written back during the
# timed run; filled once so that its pages are real memory, not the shared zero page.
_FLUSH = np.ones(64 << 20, dtype=np.uint8)


def flush_caches() -> None:
    _FLUSH.max()


class External:
    """An evaluator in a shared library exporting capsa_external_batch (see the docstring)."""

    def __init__(self, path: str) -> None:
        try:
            lib = ctypes.CDLL(os.path.abspath(path))
        except OSError as exc:
            raise SystemExit(f"{path}: cannot be loaded as a shared library ({exc})") from None
        try:
            self._batch = lib.capsa_external_batch
        except AttributeError:
            raise SystemExit(f"{path}: does not export capsa_external_batch") from None
        self._batch.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_void_p]
        self._batch.restype = ctypes.c_int
        self.name = os.path.basename(path)
        if hasattr(lib, "capsa_external_name"):
            lib.capsa_external_name.restype = ctypes.c_char_p
            self.name = lib.capsa_external_name().decode()

    def evaluate(self, hands: np.ndarray) -> np.ndarray:
        assert hands.dtype == np.uint8 and hands.flags.c_contiguous
        out = np.empty(len(hands), dtype=np.int32)
        if self._batch(hands.ctypes.data, len(hands), hands.shape[1], out.ctypes.data) != 0:
            raise RuntimeError(f"{self.name}: capsa_external_batch failed")
        return out


def same_order(ours: np.ndarray, theirs: np.ndarray) -> bool:
    """Whether `theirs` rises exactly where `ours` rises along the order of `ours`."""
    order = np.argsort(ours, kind="stable")
    step_ours = np.sign(np.diff(ours[order].astype(np.int64)))
    step_theirs = np.sign(np.diff(theirs[order].astype(np.int64)))
    return bool(np.array_equal(step_ours, step_theirs))


def random_hands(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    """n hands of k distinct cards each, [n, k] uint8."""
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.uint8)


def median_ns(run: Callable[[], object], repeats: int, flush: bool = False) -> float:
    """Median wall time of run() in nanoseconds, after one warm-up call, GC off; with
    `flush`, the caches are flushed (untimed) before every run."""
    run()
    times = []
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeats):
            if flush:
                flush_caches()
            start = time.perf_counter_ns()
            run()
            times.append(time.perf_counter_ns() - start)
    finally:
        if gc_was_enabled:
            gc.enable()
    return statistics.median(times)


def per_hand_loop(call: Callable[..., object], inputs: list, star: bool) -> Callable[[], None]:
    if star:

        def run() -> None:
            for args in inputs:
                call(*args)

    else:

        def run() -> None:
            for arg in inputs:
                call(arg)

    return run


def measure_per_hand(
    peer: str,
    k: int,
    call: Callable[..., object],
    inputs: list,
    star: bool,
    repeats: int,
    target_s: float,
    **flags: bool,
) -> Row:
    """Time a loop of single calls; use a prefix of `inputs` sized to take ~target_s."""
    probe = inputs[:2000]
    per_hand = median_ns(per_hand_loop(call, probe, star), 3) / len(probe)
    n = int(min(len(inputs), max(len(probe), target_s * 1e9 / per_hand)))
    used = inputs[:n]
    ns = median_ns(per_hand_loop(call, used, star), repeats) / n
    return Row(peer, k, ns, n, **flags)


@dataclass
class BatchRun:
    """One batch measurement: `run` evaluates all the hands once, on loop `path`."""

    peer: str
    run: Callable[[], object]
    path: str | None = None
    external: bool = False


def measure_batches(k: int, n: int, runs: list[BatchRun], repeats: int) -> list[Row]:
    """Times every run `repeats` times, taking them in turn (round robin, caches flushed
    before each), so that a change of load on the machine falls on all of them alike and
    the ratios between rows hold even when the absolute times move."""
    default_path = capsa_fast.poker.batch_path()
    times: list[list[int]] = [[] for _ in runs]
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for rep in range(repeats + 1):  # the first round warms up and is not counted
            for i, batch_run in enumerate(runs):
                capsa_fast.poker.set_batch_path(batch_run.path or default_path)
                flush_caches()
                start = time.perf_counter_ns()
                batch_run.run()
                elapsed = time.perf_counter_ns() - start
                if rep:
                    times[i].append(elapsed)
    finally:
        capsa_fast.poker.set_batch_path(default_path)
        if gc_was_enabled:
            gc.enable()
    return [
        Row(r.peer, k, statistics.median(t) / n, n, external=r.external)
        for r, t in zip(runs, times, strict=True)
    ]


def measure_scaling(k: int, hands: np.ndarray, repeats: int) -> Scaling:
    """threads=1 and threads=2 on the same hands, measured alternately so that a change of
    load on the machine falls on both."""
    evaluate_batch = capsa_fast.poker.evaluate_batch
    one: list[float] = []
    two: list[float] = []
    one_hot: list[float] = []
    two_hot: list[float] = []
    for _ in range(repeats):
        # median_ns makes one untimed call first: with flush=False the timed call follows
        # it at once, so a worker thread of the pool is still awake (a loop of calls); with
        # a flush between them it has gone to sleep and must be woken.
        one.append(median_ns(lambda: evaluate_batch(hands, threads=1), 1, flush=True))
        two.append(median_ns(lambda: evaluate_batch(hands, threads=2), 1, flush=True))
        one_hot.append(median_ns(lambda: evaluate_batch(hands, threads=1), 1))
        two_hot.append(median_ns(lambda: evaluate_batch(hands, threads=2), 1))
    return Scaling(
        k,
        len(hands),
        statistics.median(one) / 1e6,
        statistics.median(two) / 1e6,
        one_thread_hot_ms=statistics.median(one_hot) / 1e6,
        two_threads_hot_ms=statistics.median(two_hot) / 1e6,
    )


def _process_calls(hands: np.ndarray, rounds: int, index: int, barrier: Any, results: Any) -> None:
    """In child process `index` (0 or 1): `rounds` rounds, each a call by child 0 alone,
    then one by both children at once (every call after a cache flush, started together by
    the barrier); sends back (index, median alone, median together) in ms."""
    evaluate_batch = capsa_fast.poker.evaluate_batch
    evaluate_batch(hands)
    alone: list[int] = []
    together: list[int] = []
    gc.disable()
    for _ in range(rounds):
        for both in (False, True):
            runs = both or index == 0
            if runs:
                flush_caches()
            barrier.wait()
            if runs:
                start = time.perf_counter_ns()
                evaluate_batch(hands, threads=1)
                (together if both else alone).append(time.perf_counter_ns() - start)
            barrier.wait()  # the next call starts once both have finished
    alone_ms = statistics.median(alone) / 1e6 if alone else None
    results.put((index, alone_ms, statistics.median(together) / 1e6))


def measure_processes(hands: np.ndarray, repeats: int) -> tuple[float, float] | None:
    """(one process alone, the mean of two at once) median ms per call, or None where
    processes cannot be forked (the children read the parent's hands in place). The calls
    alone and together alternate, round by round, so that a change of load on the machine
    falls on both (measured one after the other, the figure ran past 2x when the machine
    slowed between the two)."""
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        return None
    context = multiprocessing.get_context("fork")
    barrier, results = context.Barrier(2), context.Queue()
    children = [
        context.Process(target=_process_calls, args=(hands, repeats, i, barrier, results))
        for i in range(2)
    ]
    for child in children:
        child.start()
    got = sorted(results.get(timeout=600) for _ in children)
    for child in children:
        child.join()
    alone = got[0][1]
    assert alone is not None
    return alone, statistics.fmean(together for _index, _alone, together in got)


def import_time(module: str, repeats: int) -> tuple[float, float]:
    """Median seconds for `import module` inside a fresh interpreter, and for the whole run."""
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    inside, whole = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-c", code], check=True, capture_output=True, text=True
        ).stdout
        whole.append(time.perf_counter() - start)
        inside.append(float(out.strip()))
    return statistics.median(inside), statistics.median(whole)


def bare_interpreter_time(repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def cpu_description() -> str:
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else "?"
    return f"{model}; {os.cpu_count()} logical CPUs, {usable} usable by this process"


def version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def references(rows: list[Row]) -> dict[str, dict[int, float]]:
    """ns/hand per k of each reference column: phevaluator, fastest phevaluator, external."""
    baseline = {row.k: row.ns_per_hand for row in rows if row.baseline}
    external = {row.k: row.ns_per_hand for row in rows if row.external}
    fastest_phe: dict[int, float] = {}
    for row in rows:
        if row.phevaluator:
            fastest_phe[row.k] = min(fastest_phe.get(row.k, float("inf")), row.ns_per_hand)
    return {"phevaluator": baseline, "fastest_phevaluator": fastest_phe, "external": external}


def format_table(rows: list[Row]) -> str:
    refs = references(rows)

    def ratio(reference: dict[int, float], row: Row) -> str:
        return f"{reference[row.k] / row.ns_per_hand:.2f}x" if row.k in reference else "-"

    lines = [
        "| peer | k | median ns/hand | M hands/s | vs phevaluator | vs fastest phevaluator "
        "| vs external |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row.peer} | {row.k} | {row.ns_per_hand:,.2f} | "
            f"{1e3 / row.ns_per_hand:,.1f} | {ratio(refs['phevaluator'], row)} | "
            f"{ratio(refs['fastest_phevaluator'], row)} | {ratio(refs['external'], row)} |"
        )
    return "\n".join(lines)


def format_scaling(scaling: list[Scaling]) -> str:
    lines = [
        "| k | hands | threads=1 median ms | threads=2 median ms | speed-up | "
        "two processes at once: speed-up (the machine's ceiling) | back to back: speed-up |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]

    def times(x: float | None) -> str:
        return "-" if x is None else f"{x:.2f}x"

    for s in scaling:
        lines.append(
            f"| {s.k} | {s.hands:,} | {s.one_thread_ms:.2f} | {s.two_threads_ms:.2f} | "
            f"{s.speedup:.2f}x | {times(s.process_speedup)} | {times(s.hot_speedup)} |"
        )
    return "\n".join(lines)


def run(
    *,
    quick: bool = False,
    batch_only: bool = False,
    external_paths: Sequence[str] = (),
    seed: int = 20240501,
    say: Callable[..., object] = print,
    step: Callable[[int, int], object] | None = None,
) -> dict[str, object]:
    """Measure everything the module docstring lists; ``say`` gets the text report as it
    goes, ``step(done, total)`` the progress through the phases. Returns every figure."""
    args = argparse.Namespace(
        quick=quick, batch_only=batch_only, external=list(external_paths), seed=seed
    )
    phases = 2 if batch_only else 6
    done = 0

    def advance() -> None:
        nonlocal done
        done += 1
        if step is not None:
            step(done, phases)

    if args.quick:
        batch_n, batch_repeats = 200_000, 5
        per_hand_n, per_hand_repeats, target_s = 20_000, 3, 0.02
        scaling_sizes: tuple[int, ...] = (250_000, 1_000_000)
        import_repeats, scaling_repeats = 3, 5
    else:
        batch_n, batch_repeats = 4_000_000, 15
        per_hand_n, per_hand_repeats, target_s = 200_000, 7, 0.25
        scaling_sizes = (250_000, 1_000_000, 4_000_000)
        import_repeats, scaling_repeats = 9, 11
    externals = [External(path) for path in args.external]
    paths = capsa_fast.poker.batch_paths()
    default_path = capsa_fast.poker.batch_path()

    header = {
        "cpu": cpu_description(),
        "versions": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            **{p: version(p) for p in ("capsa_fast", "phevaluator", "eval7", "treys")},
        },
        "batch_hands": batch_n,
        "batch_repeats": batch_repeats,
        "seed": args.seed,
        "batch_paths": list(paths),
        "default_batch_path": default_path,
        "externals": [e.name for e in externals],
    }
    say(f"CPU: {header['cpu']}")
    say(", ".join(f"{name} {v}" for name, v in header["versions"].items()))
    say(
        f"batch: {batch_n:,} hands x {batch_repeats} repeats, caches flushed before each; "
        f"loops this CPU runs: {', '.join(paths)} (default {default_path}); per hand: up to "
        f"{per_hand_n:,} hands (~{target_s}s per repeat) x {per_hand_repeats} repeats; "
        f"seed {args.seed}; batch rows use 1 thread unless marked"
    )
    say()

    rng = np.random.default_rng(args.seed)
    hands = {k: random_hands(rng, batch_n, k) for k in (5, 7)}
    rows: list[Row] = []
    evaluate_batch = capsa_fast.poker.evaluate_batch

    for k in (5, 7):
        batch = hands[k]
        as_ids = batch[:per_hand_n].tolist()

        # Sanity: the batch agrees with the per-hand call on the hands both see.
        check = np.asarray(capsa_fast.poker.evaluate_batch(batch[:1000]))
        assert [capsa_fast.poker.evaluate(h).strength for h in as_ids[:1000]] == check.tolist()

        runs: list[BatchRun] = []
        for i, external in enumerate(externals):
            sample = batch[:200_000]
            ours = np.asarray(evaluate_batch(sample))
            if not same_order(ours, external.evaluate(sample)):
                raise SystemExit(f"{external.name} orders {k}-card hands differently: not compared")
            runs.append(
                BatchRun(
                    f"{external.name} (external, batch)",
                    functools.partial(external.evaluate, batch),
                    external=i == 0,
                )
            )
        runs += [
            BatchRun("capsa_fast evaluate_batch", functools.partial(evaluate_batch, batch)),
            BatchRun(
                "capsa_fast evaluate_batch validate=False",
                functools.partial(evaluate_batch, batch, validate=False),
            ),
            BatchRun(
                "capsa_fast evaluate_batch threads=2",
                functools.partial(evaluate_batch, batch, threads=2),
            ),
        ]
        for path in paths:
            if path != default_path:
                runs.append(
                    BatchRun(
                        f"capsa_fast evaluate_batch path={path}",
                        functools.partial(evaluate_batch, batch),
                        path=path,
                    )
                )
                runs.append(
                    BatchRun(
                        f"capsa_fast evaluate_batch path={path} validate=False",
                        functools.partial(evaluate_batch, batch, validate=False),
                        path=path,
                    )
                )
        rows += measure_batches(k, batch_n, runs, batch_repeats)
        advance()
        if args.batch_only:
            continue

        per_hand: dict[str, Any] = {"repeats": per_hand_repeats, "target_s": target_s}
        rows.append(
            measure_per_hand(
                "capsa_fast evaluate (per hand)",
                k,
                capsa_fast.poker.evaluate,
                as_ids,
                star=False,
                **per_hand,
            )
        )

        try:
            import phevaluator  # type: ignore[import-untyped]
            from phevaluator import _pheval  # the native functions its wrappers call
        except ImportError:
            say("phevaluator not installed: no baseline column")
        else:
            rows.append(
                measure_per_hand(
                    "phevaluator evaluate_cards (per hand)",
                    k,
                    phevaluator.evaluate_cards,
                    as_ids,
                    star=True,
                    baseline=True,
                    phevaluator=True,
                    **per_hand,
                )
            )
            sized = {5: phevaluator.evaluate_5cards, 7: phevaluator.evaluate_7cards}[k]
            rows.append(
                measure_per_hand(
                    f"phevaluator evaluate_{k}cards (per hand)",
                    k,
                    sized,
                    as_ids,
                    star=True,
                    phevaluator=True,
                    **per_hand,
                )
            )
            native = {5: _pheval.evaluate_5cards, 7: _pheval.evaluate_7cards}[k]
            rows.append(
                measure_per_hand(
                    f"phevaluator _pheval.evaluate_{k}cards (private, per hand)",
                    k,
                    native,
                    as_ids,
                    star=True,
                    **per_hand,
                )
            )

        try:
            import eval7  # type: ignore[import-untyped]
        except ImportError:
            say("eval7 not installed: skipped")
        else:
            cards = [eval7.Card(name) for name in CARD_NAMES]
            eval7_hands = [[cards[c] for c in hand] for hand in as_ids]
            rows.append(
                measure_per_hand(
                    "eval7 evaluate (per hand)",
                    k,
                    eval7.evaluate,
                    eval7_hands,
                    star=False,
                    **per_hand,
                )
            )

        try:
            import treys  # type: ignore[import-untyped]
        except ImportError:
            say("treys not installed: skipped")
        else:
            treys_cards = [treys.Card.new(name) for name in CARD_NAMES]
            treys_hands = [
                ([treys_cards[c] for c in hand[:2]], [treys_cards[c] for c in hand[2:]])
                for hand in as_ids
            ]
            rows.append(
                measure_per_hand(
                    "treys Evaluator.evaluate (per hand)",
                    k,
                    treys.Evaluator().evaluate,
                    treys_hands,
                    star=True,
                    **per_hand,
                )
            )

        advance()

    say(format_table(rows))
    say()

    scaling = []
    for n in scaling_sizes:
        sample = random_hands(np.random.default_rng(args.seed + n), n, 7)
        measured = measure_scaling(7, sample, scaling_repeats)
        processes = measure_processes(sample, scaling_repeats * 3)
        if processes is not None:
            measured.one_process_ms, measured.two_processes_ms = processes
        scaling.append(measured)
    if not args.batch_only:
        advance()
    say(f"Thread scaling, 7-card evaluate_batch (medians of {scaling_repeats}, alternated):")
    say(format_scaling(scaling))
    say()

    result: dict[str, object] = {
        **header,
        "rows": [{**asdict(row), "m_hands_per_s": 1e3 / row.ns_per_hand} for row in rows],
        "thread_scaling": [
            {
                **asdict(s),
                "speedup": s.speedup,
                "process_speedup": s.process_speedup,
                "hot_speedup": s.hot_speedup,
            }
            for s in scaling
        ],
    }
    if not args.batch_only:
        loop_only = measure_per_hand(
            "empty loop",
            5,
            lambda _hand: None,
            hands[5][:per_hand_n].tolist(),
            False,
            per_hand_repeats,
            target_s,
        )
        say(f"Python loop + call overhead alone: {loop_only.ns_per_hand:,.1f} ns/hand")

        inside, whole = import_time("capsa_fast", import_repeats)
        numpy_inside, _ = import_time("numpy", import_repeats)
        bare = bare_interpreter_time(import_repeats)
        say(
            f"import capsa_fast (fresh interpreter, median of {import_repeats}): "
            f"{inside * 1e3:.1f} ms (numpy alone: {numpy_inside * 1e3:.1f} ms); "
            f"whole `python -c 'import capsa_fast'`: {whole * 1e3:.1f} ms "
            f"(bare interpreter: {bare * 1e3:.1f} ms)"
        )
        advance()
        result["python_loop_ns_per_hand"] = loop_only.ns_per_hand
        result["import_ms"] = {
            "capsa_fast": inside * 1e3,
            "numpy": numpy_inside * 1e3,
            "whole_process": whole * 1e3,
            "bare_interpreter": bare * 1e3,
        }
    return result
