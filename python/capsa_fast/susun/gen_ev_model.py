"""Regenerate the ``ev`` strategy's opponent models (``ev_<preset>_<n>p.npz``).

For each model preset (``capsa-susun`` for rows ordered with the suit tiebreak,
``classic`` and ``two-four`` without it) and each table size n = 2, 3, 4: deals random
n-player tables from a seed, arranges every hand with a baseline strategy (``percentile``
in the first pass, then ``ev`` with the model the previous pass left at that table size),
and counts the row keys that appear in each position:

    python -m capsa_fast.susun.gen_ev_model --out DIR --hands 100000 --iterations 24

The model a pass leaves is the sum of the counts of every ``ev`` pass so far (fictitious
play: each pass answers the average of the earlier ones). A model of the last pass alone
(``--no-average``) is a best response to the one before it, and a run of such passes
swings between two styles, each exploitable by the other; the average settles.

It writes ``DIR/ev_<preset>_<n>p.npz``, never into the installed package; to replace the
shipped models of a checkout, give ``--out python/capsa_fast/susun/data`` (the shipped
ones were made so, with the defaults). ``--hands`` is the number of hands per model
(tables = hands / n). The counts depend only on how opponents arrange, so a model serves
every rule set close to its preset (see :func:`capsa_fast.susun.ev.model_preset`); the
bonus values are applied when it is loaded. The models of the first version
(``ev_tiebreak.npz``, ``ev_plain.npz``: 4-player tables, ``capsa-susun`` and ``classic``)
are kept, never regenerated, as the strategy ``ev-v1``.

``--ray [ADDRESS]`` counts chunks of ``--chunk`` hands as tasks on a Ray cluster (a local one
without an address); the counts are sums, so they equal the single-machine run's.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import Any

import numpy as np

from .. import _core, _ray
from . import ev
from .rules import Rules


def deal(tables: int, players: int, seed: int) -> np.ndarray:
    """[tables * players, 13] hands: each table's hands come from one shuffled deck."""
    rng = np.random.default_rng(seed)
    decks = np.argsort(rng.random((tables, 52)), axis=1).astype(np.uint8)
    return decks[:, : 13 * players].reshape(tables * players, 13)


def count_rows(
    hands: np.ndarray,
    rules: Rules,
    strategy: str,
    players: int,
    threads: int,
    ray: str | None = None,
    chunk: int = 50_000,
) -> np.ndarray:
    """Row-key counts [3, NUM_KEYS] of ``hands`` arranged by ``strategy`` (``ev`` with the
    model at ``players``). ``ray``: chunks of ``chunk`` hands as Ray tasks (see
    :mod:`capsa_fast._ray`), each given the model's counts as read here; the sum is the
    same."""
    if ray is None:
        model = ev.ev_model(rules, players) if strategy == "ev" else None
        return _count_chunk((hands, rules, strategy, players, threads, None, model))
    from .._terminal import progress

    model_counts = (
        ev.load_model_counts(ev.model_preset(rules), players) if strategy == "ev" else None
    )
    rules_dict = rules.to_dict()
    chunks = [
        (hands[i : i + chunk], rules_dict, strategy, players, 1, model_counts, None)
        for i in range(0, len(hands), chunk)
    ]
    with progress(len(hands), "hands") as advance:
        parts = _ray.run_chunks(
            _count_chunk,
            chunks,
            ray_address=ray,
            progress=lambda done, _total, _seconds: advance(done),
            units=lambda c: len(c[0]),
        )
    return np.sum(parts, axis=0)


def _count_chunk(chunk: tuple[Any, ...]) -> np.ndarray:
    hands, rules_arg, strategy, players, threads, model_counts, model = chunk
    rules = rules_arg if isinstance(rules_arg, Rules) else Rules.from_dict(rules_arg)
    if strategy == "ev" and model is None:
        model = ev.model_from_counts(rules, players, model_counts)  # as ev.ev_model() does
    arranged, _ = _core.susun_arrange_batch(hands, rules.core, strategy, threads, model)
    keys, _, fouled, _ = _core.susun_row_keys_batch(arranged, rules.core)
    keys = np.asarray(keys)[~np.asarray(fouled)]
    return np.stack([np.bincount(keys[:, p], minlength=ev.NUM_KEYS) for p in range(3)])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="folder for the models")
    parser.add_argument("--hands", type=int, default=100_000, help="hands per model")
    parser.add_argument("--iterations", type=int, default=24, help="passes (the first: percentile)")
    parser.add_argument(
        "--average",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="the model is the sum of every ev pass's counts (--no-average: the last pass's)",
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--presets", default=",".join(ev.MODEL_PRESETS))
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument(
        "--ray",
        nargs="?",
        const=_ray.LOCAL,
        default=None,
        metavar="ADDRESS",
        help="count chunks of hands on Ray: a local instance without an address, else the "
        "cluster at ADDRESS (auto, HOST:6379, ray://HOST:10001)",
    )
    parser.add_argument("--chunk", type=int, default=50_000, help="hands per Ray task")
    args = parser.parse_args(argv)
    if args.chunk < 1:
        parser.error("--chunk must be >= 1")
    presets = [p.strip() for p in args.presets.split(",") if p.strip()]
    for preset in presets:
        if preset not in ev.MODEL_PRESETS:
            parser.error(f"--presets: one of {', '.join(ev.MODEL_PRESETS)}, got {preset!r}")
    try:
        sizes = [int(n) for n in args.players.split(",")]
    except ValueError:
        parser.error(f"--players: table sizes 2 to 4, got {args.players!r}")
    if not sizes or any(n not in (2, 3, 4) for n in sizes):
        parser.error(f"--players: table sizes 2 to 4, got {args.players!r}")
    if args.hands < 4 or args.iterations < 1:
        parser.error("--hands must be at least 4 and --iterations at least 1")
    if args.ray is not None:
        _ray.connect(args.ray)
    args.out.mkdir(parents=True, exist_ok=True)
    # Passes after the first arrange with `ev` built from the previous pass's counts, read
    # from --out (not from the shipped model).
    previous = os.environ.get("CAPSA_FAST_EV_DATA")
    os.environ["CAPSA_FAST_EV_DATA"] = str(args.out)
    try:
        generate(args, presets, sizes)
    finally:
        if previous is None:
            os.environ.pop("CAPSA_FAST_EV_DATA", None)
        else:
            os.environ["CAPSA_FAST_EV_DATA"] = previous
        ev.clear_caches()


def generate(args: argparse.Namespace, presets: list[str], sizes: list[int]) -> None:
    for preset in presets:
        rules = Rules.preset(preset)
        for players in sizes:
            tables = args.hands // players
            hands = deal(tables, players, args.seed + players)
            strategy = "percentile"
            total: np.ndarray | None = None  # the ev passes' counts, summed
            for it in range(args.iterations):
                t0 = time.perf_counter()
                counts = count_rows(
                    hands, rules, strategy, players, args.threads, ray=args.ray, chunk=args.chunk
                ).astype(np.uint64)
                if strategy == "ev" and args.average:
                    total = counts if total is None else total + counts
                    counts = total
                np.savez_compressed(
                    args.out / ev.model_name(preset, players),
                    counts=counts.astype(np.uint32),
                    averaged=bool(args.average),
                    tables=tables,
                    players=players,
                    seed=args.seed + players,
                    iteration=it,
                    baseline=strategy,
                    preset=preset,
                )
                ev.clear_caches()
                print(
                    f"{preset}, {players} players, pass {it + 1} ({strategy}): "
                    f"{len(hands):,} hands in {time.perf_counter() - t0:.1f}s",
                    flush=True,
                )
                strategy = "ev"


if __name__ == "__main__":
    main()
