"""Every one of the 2,598,960 five-card hands, checked against independent evaluators.

A wrong entry in a lookup table shows up for only a handful of hands, so sampling is not
enough: here each five-card hand is evaluated by ``capsa_fast.poker.evaluate_batch`` and

* against the pure-Python oracle in ``tests/poker/oracle_poker.py``: the order of the strengths
  must be exactly the order of the oracle keys (equal key <=> equal strength, greater key
  <=> greater strength) and the categories must match;
* the category counts must be the textbook ones and there must be exactly 7462 distinct
  strengths (the number of distinct five-card poker hands);
* against eval7 and phevaluator (outside evaluators from PyPI), hand by hand: the orders
  must agree exactly;
* the per-hand ``evaluate`` must give the batch's strength for every hand.

Each of these runs once per batch loop this CPU can run (``capsa_fast.poker.batch_paths()``:
the portable reference, x86-64-v3, avx512), and each loop's strengths are also taken
without validation and on two threads, which must not change them.

6- and 7-card hands are checked against phevaluator on a large random sample and against
pokerkit on a smaller one.

The oracle is slow (~13 s for all hands), so it is run once per *class* of hands: the oracle
looks only at the sorted ranks and at whether all five suits are equal, so every hand of a
class (ranks, is_flush) has the same oracle key. The class of each hand is computed with
numpy, and capsa_fast's strength is checked for every hand, not one per class. A random
sample is also run through the oracle directly to confirm the class shortcut.
"""

from __future__ import annotations

from itertools import chain, combinations, starmap

import capsa_fast
import numpy as np
import pytest

from tests.poker.helpers import (
    assert_same_order,
    batch_on_every_path,
    batch_path_set,
    dense_ranks,
    hand_text,
    random_hands,
)
from tests.poker.oracle_poker import CATEGORIES, card_name, oracle_key

N_FIVE_CARD_HANDS = 2_598_960

EXPECTED_CATEGORY_COUNTS = {
    "straight_flush": 40,  # includes the 4 royal flushes
    "four_of_a_kind": 624,
    "full_house": 3744,
    "flush": 5108,
    "straight": 10200,
    "three_of_a_kind": 54912,
    "two_pair": 123552,
    "pair": 1098240,
    "high_card": 1302540,
}

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def all_hands() -> np.ndarray:
    """All five-card hands, [2598960, 5] uint8, in itertools.combinations order."""
    flat = np.fromiter(
        chain.from_iterable(combinations(range(52), 5)),
        dtype=np.uint8,
        count=N_FIVE_CARD_HANDS * 5,
    )
    return flat.reshape(N_FIVE_CARD_HANDS, 5)


@pytest.fixture(scope="module", params=capsa_fast.poker.batch_paths())
def strengths(all_hands: np.ndarray, request: pytest.FixtureRequest) -> np.ndarray:
    """Every hand's strength from one batch loop: each test below runs once per loop."""
    with batch_path_set(request.param):
        result = np.asarray(capsa_fast.poker.evaluate_batch(all_hands))
        unchecked = np.asarray(capsa_fast.poker.evaluate_batch(all_hands, validate=False))
        threaded = np.asarray(capsa_fast.poker.evaluate_batch(all_hands, threads=2))
    assert result.shape == (N_FIVE_CARD_HANDS,)
    assert np.issubdtype(result.dtype, np.integer)
    assert np.array_equal(result, unchecked)
    assert np.array_equal(result, threaded)
    return result.astype(np.int64)


@pytest.fixture(scope="module")
def oracle_classes(all_hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(representative hand index per class, class index per hand).

    A class is (sorted ranks, is_flush). Hands come from combinations() in increasing id
    order and id = rank_index * 4 + suit, so each row's ranks are already sorted.
    """
    rank_index = (all_hands // 4).astype(np.int64)
    suit = all_hands % 4
    is_flush = np.all(suit == suit[:, :1], axis=1)
    code = np.zeros(N_FIVE_CARD_HANDS, dtype=np.int64)
    for column in range(5):
        code = code * 13 + rank_index[:, column]
    code = code * 2 + is_flush
    _, representative, class_of_hand = np.unique(code, return_index=True, return_inverse=True)
    return representative, class_of_hand.ravel()


@pytest.fixture(scope="module")
def oracle_class_keys(all_hands: np.ndarray, oracle_classes: tuple[np.ndarray, np.ndarray]):
    representative, _ = oracle_classes
    return [oracle_key([int(c) for c in all_hands[i]]) for i in representative]


def test_class_shortcut_matches_the_oracle_hand_by_hand(
    all_hands: np.ndarray, oracle_classes: tuple[np.ndarray, np.ndarray], oracle_class_keys
) -> None:
    _, class_of_hand = oracle_classes
    rng = np.random.default_rng(20240501)
    for i in rng.choice(N_FIVE_CARD_HANDS, size=20_000, replace=False):
        hand = [int(c) for c in all_hands[i]]
        assert oracle_key(hand) == oracle_class_keys[class_of_hand[i]], hand_text(hand)


def test_every_five_card_hand_orders_like_the_oracle(
    all_hands: np.ndarray,
    strengths: np.ndarray,
    oracle_classes: tuple[np.ndarray, np.ndarray],
    oracle_class_keys,
) -> None:
    representative, class_of_hand = oracle_classes
    assert len(oracle_class_keys) == 7462

    # Every hand of a class has the oracle key of the class, so it must have the strength
    # of the class representative.
    class_strength = strengths[representative]
    differs = np.flatnonzero(strengths != class_strength[class_of_hand])
    if differs.size:
        i = differs[0]
        j = representative[class_of_hand[i]]
        raise AssertionError(
            f"{differs.size} hands differ from an oracle-equal hand; first: "
            f"[{hand_text(all_hands[i])}] = {strengths[i]} but "
            f"[{hand_text(all_hands[j])}] = {strengths[j]}"
        )

    # Between classes: rank the oracle keys densely and compare orders.
    oracle_rank = dense_ranks(oracle_class_keys)
    assert_same_order(class_strength, oracle_rank, all_hands[representative], "oracle")


def test_every_five_card_category_matches_the_oracle(
    all_hands: np.ndarray,
    strengths: np.ndarray,
    oracle_classes: tuple[np.ndarray, np.ndarray],
    oracle_class_keys,
) -> None:
    _, class_of_hand = oracle_classes
    oracle_category = np.array([key[0] for key in oracle_class_keys], dtype=np.int64)
    ours = np.asarray(capsa_fast.poker.category_index(strengths), dtype=np.int64)
    assert tuple(capsa_fast.poker.CATEGORIES) == CATEGORIES
    bad = np.flatnonzero(ours != oracle_category[class_of_hand])
    if bad.size:
        i = bad[0]
        raise AssertionError(
            f"{bad.size} hands have the wrong category; first: [{hand_text(all_hands[i])}] "
            f"capsa={CATEGORIES[ours[i]]} oracle={CATEGORIES[oracle_category[class_of_hand[i]]]}"
        )
    # categories_of (the list form) must agree with category_index on every hand.
    names = capsa_fast.poker.categories_of(strengths)
    assert len(names) == N_FIVE_CARD_HANDS
    assert np.array_equal(np.array(names), np.array(CATEGORIES)[ours])


@pytest.fixture(scope="module")
def alone(all_hands: np.ndarray) -> np.ndarray:
    """Every hand through the per-hand call, a separate entry point."""
    evaluate = capsa_fast.poker.evaluate
    return np.fromiter(
        (evaluate(hand).strength for hand in all_hands.tolist()),
        dtype=np.int64,
        count=N_FIVE_CARD_HANDS,
    )


def test_every_five_card_hand_evaluates_alone_as_in_the_batch(
    all_hands: np.ndarray, strengths: np.ndarray, alone: np.ndarray
) -> None:
    # The per-hand call must give the batch's answer everywhere.
    bad = np.flatnonzero(alone != strengths)
    assert not bad.size, [(hand_text(all_hands[i]), alone[i], strengths[i]) for i in bad[:5]]


def test_category_counts_and_distinct_strengths(strengths: np.ndarray) -> None:
    index = np.asarray(capsa_fast.poker.category_index(strengths), dtype=np.int64)
    counts = np.bincount(index, minlength=len(CATEGORIES))
    assert {name: int(counts[i]) for i, name in enumerate(CATEGORIES)} == (EXPECTED_CATEGORY_COUNTS)
    assert len(np.unique(strengths)) == 7462


@pytest.fixture(scope="module")
def eval7_values() -> np.ndarray:
    eval7 = pytest.importorskip("eval7")
    cards = [eval7.Card(card_name(card_id)) for card_id in range(52)]
    # One eval7 call per hand (about 0.3 us each): eval7 sees all 2,598,960 hands.
    return np.fromiter(
        map(eval7.evaluate, combinations(cards, 5)), dtype=np.int64, count=N_FIVE_CARD_HANDS
    )


@pytest.fixture(scope="module")
def phevaluator_values() -> np.ndarray:
    phevaluator = pytest.importorskip("phevaluator")
    # phevaluator: 1 is the best hand, 7462 the worst; negate so larger = stronger.
    return -np.fromiter(
        starmap(phevaluator.evaluate_cards, combinations(range(52), 5)),
        dtype=np.int64,
        count=N_FIVE_CARD_HANDS,
    )


def test_every_five_card_hand_orders_like_eval7(
    all_hands: np.ndarray, strengths: np.ndarray, eval7_values: np.ndarray
) -> None:
    assert_same_order(strengths, eval7_values, all_hands, "eval7")


def test_every_five_card_hand_orders_like_phevaluator(
    all_hands: np.ndarray, strengths: np.ndarray, phevaluator_values: np.ndarray
) -> None:
    assert_same_order(strengths, phevaluator_values, all_hands, "phevaluator")


@pytest.mark.parametrize("k", [5, 6, 7])
def test_random_hands_order_like_phevaluator(k: int) -> None:
    phevaluator = pytest.importorskip("phevaluator")
    rng = np.random.default_rng(1000 + k)
    hands = random_hands(rng, 300_000, k)
    ours = batch_on_every_path(hands)
    theirs = np.fromiter(
        starmap(phevaluator.evaluate_cards, hands.tolist()), dtype=np.int64, count=len(hands)
    )
    assert_same_order(ours, -theirs, hands, "phevaluator")


@pytest.mark.parametrize("k", [5, 6, 7])
def test_random_hands_order_like_pokerkit(k: int) -> None:
    pokerkit = pytest.importorskip("pokerkit")
    rng = np.random.default_rng(2000 + k)
    hands = random_hands(rng, 4_000, k)
    ours = batch_on_every_path(hands)
    theirs = []
    for hand in hands.tolist():
        text = "".join(card_name(card) for card in hand)
        # from_game picks the best five of the hole cards + board; the split is arbitrary.
        best = pokerkit.StandardHighHand.from_game(text[:4], text[4:])
        theirs.append(best.entry.index)
    assert_same_order(ours, np.array(theirs), hands, "pokerkit")
