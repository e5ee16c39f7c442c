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
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np

from .. import _core
from . import ev
from .rules import Rules


def deal(tables: int, seed: int) -> np.ndarray:
    """[tables * 4, 13] hands: each table's four hands come from one shuffled deck."""
    rng = np.random.default_rng(seed)
    decks = np.argsort(rng.random((tables, 52)), axis=1).astype(np.uint8)
    return decks.reshape(tables * 4, 13)


def count_rows(hands: np.ndarray, rules: Rules, strategy: str, threads: int) -> np.ndarray:
    model = ev.ev_model(rules) if strategy == "ev" else None
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
    args = parser.parse_args(argv)
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
        for it in range(args.iterations):
            t0 = time.perf_counter()
            counts = count_rows(hands, rules, strategy, args.threads)
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
