"""Regenerate the ``ev`` strategy's opponent model (``data/ev_*.npz``).

Deals random 4-player tables from a seed, arranges every hand with a baseline strategy
(``percentile``, then optionally ``ev`` with the model of the previous pass), and counts
the row keys that appear in each position:

    python -m capsa_fast.susun.gen_ev_model --out DIR --tables 100000 --iterations 2

It writes ``DIR/ev_tiebreak.npz`` (rows ordered with the suit tiebreak, baseline under
``capsa-susun``) and ``DIR/ev_plain.npz`` (without it, under ``classic``), never into the
installed package; to replace the shipped model of a checkout, give
``--out python/capsa_fast/susun/data``. The counts depend only on how opponents arrange,
so they serve every rule set with the same tiebreak; the bonus values are applied when the
model is loaded.

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


def deal(tables: int, seed: int) -> np.ndarray:
    """[tables * 4, 13] hands: each table's four hands come from one shuffled deck."""
    rng = np.random.default_rng(seed)
    decks = np.argsort(rng.random((tables, 52)), axis=1).astype(np.uint8)
    return decks.reshape(tables * 4, 13)


def count_rows(
    hands: np.ndarray,
    rules: Rules,
    strategy: str,
    threads: int,
    ray: str | None = None,
    chunk: int = 50_000,
    model_counts: np.ndarray | None = None,
) -> np.ndarray:
    """Row-key counts [3, NUM_KEYS] of ``hands`` arranged by ``strategy`` (``ev`` with the
    model built from ``model_counts``, else the shipped one). ``ray``: chunks of ``chunk``
    hands as Ray tasks (see :mod:`capsa_fast._ray`); the sum is the same."""
    if ray is None:
        return _count_chunk((hands, rules, strategy, threads, model_counts))
    from ..cli._common import progress

    rules_dict = rules.to_dict()
    chunks = [
        (hands[i : i + chunk], rules_dict, strategy, 1, model_counts)
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


def _count_chunk(chunk: tuple[np.ndarray, Any, str, int, np.ndarray | None]) -> np.ndarray:
    hands, rules_arg, strategy, threads, model_counts = chunk
    rules = rules_arg if isinstance(rules_arg, Rules) else Rules.from_dict(rules_arg)
    model = None
    if strategy == "ev":
        if model_counts is None:
            model = ev.ev_model(rules)
        else:
            win, tie, loss = ev.curves(rules, model_counts)
            model = _core.SusunEvModel(win.tolist(), tie.tolist(), loss.tolist(), 3, rules.core)
    arranged, _ = _core.susun_arrange_batch(hands, rules.core, strategy, threads, model)
    keys, _, fouled, _ = _core.susun_row_keys_batch(arranged, rules.core)
    keys = np.asarray(keys)[~np.asarray(fouled)]
    return np.stack([np.bincount(keys[:, p], minlength=ev.NUM_KEYS) for p in range(3)])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=Path, required=True, help="folder for ev_tiebreak.npz and ev_plain.npz"
    )
    parser.add_argument("--tables", type=int, default=100_000)
    parser.add_argument("--iterations", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--threads", type=int, default=2)
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
    if args.ray is not None:
        _ray.connect(args.ray)
    args.out.mkdir(parents=True, exist_ok=True)
    # Passes after the first arrange with `ev` built from the previous pass's counts, read
    # from --out (not from the shipped model).
    previous = os.environ.get("CAPSA_FAST_EV_DATA")
    os.environ["CAPSA_FAST_EV_DATA"] = str(args.out)
    try:
        generate(args)
    finally:
        if previous is None:
            os.environ.pop("CAPSA_FAST_EV_DATA", None)
        else:
            os.environ["CAPSA_FAST_EV_DATA"] = previous
        ev.load_counts.cache_clear()
        ev._MODELS.clear()


def generate(args: argparse.Namespace) -> None:
    for tiebreak, preset in ((True, "capsa-susun"), (False, "classic")):
        rules = Rules.preset(preset)
        hands = deal(args.tables, args.seed)
        strategy = "percentile"
        counts = None
        for it in range(args.iterations):
            t0 = time.perf_counter()
            counts = count_rows(
                hands,
                rules,
                strategy,
                args.threads,
                ray=args.ray,
                chunk=args.chunk,
                model_counts=counts,
            )
            np.savez_compressed(
                args.out / ev.data_name(tiebreak),
                counts=counts.astype(np.uint32),
                tables=args.tables,
                seed=args.seed,
                iteration=it,
                baseline=strategy,
            )
            ev.load_counts.cache_clear()
            ev._MODELS.clear()
            print(
                f"tiebreak={tiebreak} pass {it + 1} ({strategy}): {len(hands):,} hands "
                f"in {time.perf_counter() - t0:.1f}s"
            )
            strategy = "ev"


if __name__ == "__main__":
    main()
