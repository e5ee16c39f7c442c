"""Small helpers shared by the poker tests: order comparison, random hands, hand text.

Kept apart from ``oracle_poker.py`` so the oracle stays only the rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import capsa_fast
import numpy as np

from tests.poker.oracle_poker import card_name


def hand_text(hand: Iterable[int]) -> str:
    return " ".join(card_name(int(card)) for card in hand)


def assert_same_order(ours: np.ndarray, theirs: np.ndarray, hands: np.ndarray, who: str) -> None:
    """Assert that sorting by `ours` and sorting by `theirs` give the same weak order.

    Sort by our strength; then along that order our strength never decreases, and the
    other evaluator's value must rise exactly where ours rises and stay equal exactly where
    ours stays equal. Checking neighbours is enough: it makes theirs a strictly increasing
    function of ours, hence a < b <=> a' < b' and a == b <=> a' == b' for every pair.
    """
    ours = np.asarray(ours, dtype=np.int64)
    theirs = np.asarray(theirs, dtype=np.int64)
    assert ours.shape == theirs.shape == (len(hands),)
    order = np.argsort(ours, kind="stable")
    step_ours = np.sign(np.diff(ours[order]))
    step_theirs = np.sign(np.diff(theirs[order]))
    bad = np.flatnonzero(step_ours != step_theirs)
    if bad.size:
        i = bad[0]
        lo, hi = order[i], order[i + 1]
        raise AssertionError(
            f"{bad.size} neighbouring pairs disagree with {who}; first: "
            f"[{hand_text(hands[lo])}] capsa={ours[lo]} {who}={theirs[lo]} vs "
            f"[{hand_text(hands[hi])}] capsa={ours[hi]} {who}={theirs[hi]}"
        )


def dense_ranks(keys: list) -> np.ndarray:
    """Position of each key among the distinct sorted keys (equal keys, equal rank)."""
    position = {key: i for i, key in enumerate(sorted(set(keys)))}
    return np.array([position[key] for key in keys], dtype=np.int64)


def random_hands(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    """n hands of k distinct cards each, [n, k] uint8, uniformly random."""
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.uint8)


@contextmanager
def batch_path_set(name: str) -> Iterator[None]:
    """evaluate_batch runs loop `name` inside the block; the previous loop is restored."""
    previous = capsa_fast.poker.batch_path()
    capsa_fast.poker.set_batch_path(name)
    try:
        yield
    finally:
        capsa_fast.poker.set_batch_path(previous)


def batch_on_every_path(hands: np.ndarray) -> np.ndarray:
    """evaluate_batch(hands) on every batch loop; asserts they agree, returns the strengths."""
    results = {}
    for name in capsa_fast.poker.batch_paths():
        with batch_path_set(name):
            results[name] = np.asarray(capsa_fast.poker.evaluate_batch(hands))
    reference = results["portable"]
    for name, result in results.items():
        differs = np.flatnonzero(result != reference)
        if differs.size:
            i = differs[0]
            raise AssertionError(
                f"{name} differs from portable on {differs.size} hands; first: "
                f"[{hand_text(hands[i])}] {name}={result[i]} portable={reference[i]}"
            )
    return reference
