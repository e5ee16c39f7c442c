"""Regenerate the ``ev`` strategy's opponent models (``data/ev_<preset>_<n>p.npz``).

For each model preset (``capsa-susun`` for rows ordered with the suit tiebreak,
``classic`` and ``two-four`` without it) and each table size n = 2, 3, 4: deals random
n-player tables from a seed, arranges every hand with a baseline strategy (``percentile``,
then ``ev`` with the model of the previous pass at that table size), and counts the row
keys that appear in each position. Run from the project root:

    .venv/bin/python -m capsa_fast.susun.gen_ev_model --hands 300000 --iterations 2

``--hands`` is the number of hands per model (tables = hands / n). The counts depend only
on how opponents arrange, so a model serves every rule set close to its preset (see
:func:`capsa_fast.susun.ev.model_preset`); the bonus values are applied when it is loaded.
The models of the first version (``ev_tiebreak.npz``, ``ev_plain.npz``: 4-player tables,
``capsa-susun`` and ``classic``) are kept as the strategy ``ev-v1``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from .. import _core
from . import ev
from .rules import Rules


def deal(tables: int, players: int, seed: int) -> np.ndarray:
    """[tables * players, 13] hands: each table's hands come from one shuffled deck."""
    rng = np.random.default_rng(seed)
    decks = np.argsort(rng.random((tables, 52)), axis=1).astype(np.uint8)
    return decks[:, : 13 * players].reshape(tables * players, 13)


def count_rows(
    hands: np.ndarray, rules: Rules, strategy: str, players: int, threads: int
) -> np.ndarray:
    model = ev.ev_model(rules, players) if strategy == "ev" else None
    arranged, _ = _core.susun_arrange_batch(hands, rules.core, strategy, threads, model)
    keys, _, fouled, _ = _core.susun_row_keys_batch(arranged, rules.core)
    keys = np.asarray(keys)[~np.asarray(fouled)]
    return np.stack([np.bincount(keys[:, p], minlength=ev.NUM_KEYS) for p in range(3)])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300_000)
    parser.add_argument("--iterations", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--presets", default=",".join(ev.MODEL_PRESETS))
    parser.add_argument("--players", default="2,3,4")
    args = parser.parse_args(argv)
    ev.DATA_DIR.mkdir(exist_ok=True)
    for preset in [p.strip() for p in args.presets.split(",") if p.strip()]:
        rules = Rules.preset(preset)
        for players in [int(n) for n in args.players.split(",")]:
            tables = args.hands // players
            hands = deal(tables, players, args.seed + players)
            strategy = "percentile"
            for it in range(args.iterations):
                t0 = time.perf_counter()
                counts = count_rows(hands, rules, strategy, players, args.threads)
                np.savez_compressed(
                    ev.model_path(preset, players),
                    counts=counts.astype(np.uint32),
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
