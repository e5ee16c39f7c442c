"""pytest-benchmark timings of poker-order evaluation (run: pytest bench/).

Groups:

* ``evaluate_batch k=.. N=..``: one numpy batch of N random k-card hands (uint8), with
  validation (the default), without it, on two threads, and on each other batch loop this
  CPU runs (``path=portable`` ...); compare within a group, and across groups to see how
  the cost per hand changes with k and N.
* ``per hand k=..``: 1,000 single-hand Python calls: capsa_fast.poker.evaluate against
  phevaluator and eval7 on the same hands. These are bound by the cost of a Python call.

Absolute times move from run to run; quote medians and ratios. For a side-by-side table
with hands/s and ratios, use ``python bench/compare.py``.
"""

from __future__ import annotations

import capsa_fast
import numpy as np
import pytest

SEED = 12345
CARD_NAMES = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]


def random_hands(n: int, k: int, seed: int = SEED) -> np.ndarray:
    """n hands of k distinct cards, [n, k] uint8, the same for every run."""
    rng = np.random.default_rng(seed + k)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.uint8)


BATCH_VARIANTS: dict[str, dict[str, object]] = {
    "default": {},
    "validate=False": {"validate": False},
    "threads=2": {"threads": 2},
}
DEFAULT_PATH = capsa_fast.poker.batch_path()
OTHER_PATHS = [p for p in capsa_fast.poker.batch_paths() if p != DEFAULT_PATH]


@pytest.mark.parametrize("n", [1_000, 100_000, 1_000_000])
@pytest.mark.parametrize("k", [3, 5, 6, 7])
@pytest.mark.parametrize("variant", list(BATCH_VARIANTS) + [f"path={p}" for p in OTHER_PATHS])
def test_evaluate_batch(benchmark, k: int, n: int, variant: str) -> None:
    hands = random_hands(n, k)
    options = BATCH_VARIANTS.get(variant, {})
    benchmark.group = f"evaluate_batch k={k} N={n:,}"
    benchmark.extra_info["hands"] = n
    if variant.startswith("path="):
        capsa_fast.poker.set_batch_path(variant.removeprefix("path="))
    try:
        result = benchmark(capsa_fast.poker.evaluate_batch, hands, **options)
    finally:
        capsa_fast.poker.set_batch_path(DEFAULT_PATH)
    assert len(result) == n


PER_HAND = 1_000


def _run_capsa(hands: list[list[int]]) -> None:
    evaluate = capsa_fast.poker.evaluate
    for hand in hands:
        evaluate(hand)


def _run_phevaluator(hands: list[list[int]]) -> None:
    from phevaluator import evaluate_cards

    for hand in hands:
        evaluate_cards(*hand)


@pytest.mark.parametrize("k", [5, 7])
def test_per_hand_capsa_fast(benchmark, k: int) -> None:
    hands = random_hands(PER_HAND, k).tolist()
    benchmark.group = f"per hand k={k} ({PER_HAND} calls)"
    benchmark(_run_capsa, hands)


@pytest.mark.parametrize("k", [5, 7])
def test_per_hand_phevaluator(benchmark, k: int) -> None:
    pytest.importorskip("phevaluator")
    hands = random_hands(PER_HAND, k).tolist()
    benchmark.group = f"per hand k={k} ({PER_HAND} calls)"
    benchmark(_run_phevaluator, hands)


@pytest.mark.parametrize("k", [5, 7])
def test_per_hand_eval7(benchmark, k: int) -> None:
    eval7 = pytest.importorskip("eval7")
    cards = [eval7.Card(name) for name in CARD_NAMES]
    hands = [[cards[c] for c in hand] for hand in random_hands(PER_HAND, k).tolist()]
    evaluate = eval7.evaluate

    def run() -> None:
        for hand in hands:
            evaluate(hand)

    benchmark.group = f"per hand k={k} ({PER_HAND} calls)"
    benchmark(run)
