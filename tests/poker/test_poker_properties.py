"""Poker-order evaluation beyond five cards: 3-card rows, one 3/5 scale, 6/7 cards, batches.

What a user would notice if these failed:

* a Susun top row (3 cards) ranked wrongly, or compared wrongly with a middle row: every
  3-card hand and every distinct 5-card hand are checked together against the oracle
  (``tests/poker/oracle_poker.py``), so the shared 3/5-card scale is verified exhaustively;
* a Hold'em hand (6 or 7 cards) valued as something other than its best five: hypothesis
  against the oracle, and a large random sample against eval7;
* ``evaluate_batch`` disagreeing with ``evaluate``, depending on the dtype or memory layout
  of the input, or letting a bad row through silently;
* the wrong ``best`` five, a wrong label, or a wrong showdown winner.
"""

from __future__ import annotations

import os
import signal
import threading
import time
import warnings
from collections.abc import Callable
from itertools import combinations, combinations_with_replacement

import capsa_fast
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.poker.helpers import (
    assert_same_order,
    batch_on_every_path,
    batch_path_set,
    dense_ranks,
    hand_text,
    random_hands,
)
from tests.poker.oracle_poker import (
    CATEGORIES,
    card_name,
    oracle_best_fives,
    oracle_category,
    oracle_key,
)

poker = capsa_fast.poker

ALL_CARDS = list(range(52))


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def hands_of(*sizes: int) -> st.SearchStrategy[list[int]]:
    """Hands of distinct card ids, of one of the given sizes."""
    return st.sampled_from(sizes).flatmap(
        lambda k: st.lists(st.sampled_from(ALL_CARDS), min_size=k, max_size=k, unique=True)
    )


def ids(text: str) -> list[int]:
    """Card ids from text like 'As Kd Th', without using capsa_fast's parser."""
    ranks, suits = "23456789TJQKA", "cdhs"
    return [ranks.index(token[0]) * 4 + suits.index(token[1]) for token in text.split()]


def strength(text: str) -> int:
    return poker.evaluate(ids(text)).strength


# ---------------------------------------------------------------- 3-card hands, one scale


def all_distinct_five_card_hands() -> np.ndarray:
    """One hand for each of the 7462 distinct five-card values.

    Non-flush hands: every rank multiset (at most 4 of a rank), suits dealt round-robin
    over the sorted ranks, which never makes a flush and never repeats a card. Flush hands:
    every set of 5 distinct ranks in clubs.
    """
    hands = []
    for ranks in combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in ranks) <= 4:
            hands.append([rank * 4 + position % 4 for position, rank in enumerate(ranks)])
    for ranks in combinations(range(13), 5):
        hands.append([rank * 4 for rank in ranks])
    return np.array(hands, dtype=np.uint8)


def test_every_three_card_hand_orders_like_the_oracle() -> None:
    hands = np.array(list(combinations(ALL_CARDS, 3)), dtype=np.uint8)
    assert len(hands) == 22_100
    ours = batch_on_every_path(hands).astype(np.int64)
    keys = [oracle_key(hand) for hand in hands.tolist()]
    assert_same_order(ours, dense_ranks(keys), hands, "oracle")

    # Only high card, pair and three of a kind exist with three cards.
    categories = poker.categories_of(ours)
    expected = [CATEGORIES[key[0]] for key in keys]
    bad = [i for i in range(len(hands)) if categories[i] != expected[i]]
    assert not bad, [(hand_text(hands[i]), categories[i], expected[i]) for i in bad[:5]]
    assert sorted(set(categories)) == ["high_card", "pair", "three_of_a_kind"]
    assert len(np.unique(ours)) == 455  # 13 trips + 13*12 pairs + C(13,3) high cards


def test_three_and_five_card_hands_share_one_scale_exhaustively() -> None:
    threes = np.array(list(combinations(ALL_CARDS, 3)), dtype=np.uint8)
    fives = all_distinct_five_card_hands()
    assert len(fives) == 7462
    ours = np.concatenate(
        [
            batch_on_every_path(threes).astype(np.int64),
            batch_on_every_path(fives).astype(np.int64),
        ]
    )
    keys = [oracle_key(h) for h in threes.tolist()] + [oracle_key(h) for h in fives.tolist()]
    # The rows differ in width, so hand them over as an object array (for messages only).
    shown = np.array(threes.tolist() + fives.tolist(), dtype=object)
    assert_same_order(ours, dense_ranks(keys), shown, "oracle")


@pytest.mark.parametrize(
    ("three", "five", "expected"),
    [
        # a missing kicker is lower than any card
        ("As Kd Qh", "Ac Kc Qd 3h 2s", -1),
        ("As Kd Qh", "Ac Kc Jd 9h 8s", +1),
        ("As Ad Kh", "Ac Ah Kd 3h 2s", -1),
        ("As Ad Kh", "Ac Ah Qd Jh Ts", +1),
        ("As Ad Ah", "Ac Kh Kd 3h 2s", +1),
        ("As Ad Ah", "Kc Kh Kd Ah Qs", +1),
        ("Ks Kd Kh", "Ac Ah Ad 3h 2s", -1),
        # category first: trips beat any two pair and lose to any straight
        ("2s 2d 2h", "Ac Ad Kh Ks Qc", +1),
        ("As Ad Ah", "5c 4d 3h 2s 6c", -1),
        ("2s 2d 2h", "Ac Ad Kh Qs Jc", +1),
        ("2s 3d 4h", "7c 5d 4s 3h 2c", -1),
        # 3 cards: no straights or flushes, so A-K-Q suited is just ace high
        ("As Ks Qs", "Ac Kd Jh Tc 9s", +1),
        ("As Ks Qs", "Ac Kd Qh Jc 9s", -1),
        ("As Ks Qs", "2c 2d 5h 4c 3s", -1),
    ],
)
def test_three_card_hand_against_five_card_hand(three: str, five: str, expected: int) -> None:
    assert sign(strength(three) - strength(five)) == expected
    assert sign(strength(five) - strength(three)) == -expected
    # The examples themselves follow the rules as the oracle reads them.
    oracle_three, oracle_five = oracle_key(ids(three)), oracle_key(ids(five))
    assert sign((oracle_three > oracle_five) - (oracle_three < oracle_five)) == expected


@given(hands_of(3), hands_of(5))
def test_three_versus_five_cards_like_the_oracle(three: list[int], five: list[int]) -> None:
    ours = sign(poker.evaluate(three).strength - poker.evaluate(five).strength)
    expected = sign((oracle_key(three) > oracle_key(five)) - (oracle_key(three) < oracle_key(five)))
    assert ours == expected, (hand_text(three), hand_text(five))


def test_three_card_categories_and_no_three_card_straights_or_flushes() -> None:
    assert poker.evaluate(ids("As Ks Qs")).category == "high_card"
    assert poker.evaluate(ids("4h 3h 2h")).category == "high_card"
    assert poker.evaluate(ids("7c 7d Ks")).category == "pair"
    assert poker.evaluate(ids("9c 9d 9s")).category == "three_of_a_kind"


# ---------------------------------------------------------------- 6 and 7 cards


@settings(max_examples=300, deadline=None)
@given(hands_of(6, 7))
def test_six_and_seven_cards_value_the_best_five(hand: list[int]) -> None:
    value = poker.evaluate(hand)
    assert value.category == oracle_category(hand)
    # The strength is that of the best 5-card subset, evaluated by capsa_fast itself...
    assert value.strength == max(
        poker.evaluate(list(five)).strength for five in combinations(hand, 5)
    )
    # ...and `best` is five of the input cards forming one of the oracle's best fives.
    best = list(value.best)
    assert len(best) == 5
    assert set(best) <= set(hand)
    assert tuple(sorted(best)) in oracle_best_fives(hand)
    assert poker.evaluate(best).strength == value.strength


@settings(max_examples=500, deadline=None)
@given(hands_of(5, 6, 7), hands_of(5, 6, 7))
def test_five_six_seven_card_comparisons_like_the_oracle(a: list[int], b: list[int]) -> None:
    ours = sign(poker.evaluate(a).strength - poker.evaluate(b).strength)
    ka, kb = oracle_key(a), oracle_key(b)
    assert ours == sign((ka > kb) - (ka < kb)), (hand_text(a), hand_text(b))


@settings(max_examples=300, deadline=None)
@given(hands_of(5, 6, 7), hands_of(5, 6, 7))
def test_five_six_seven_card_comparisons_like_eval7(a: list[int], b: list[int]) -> None:
    eval7 = pytest.importorskip("eval7")

    def theirs(hand: list[int]) -> int:
        return eval7.evaluate([eval7.Card(card_name(card)) for card in hand])

    ours = sign(poker.evaluate(a).strength - poker.evaluate(b).strength)
    assert ours == sign(theirs(a) - theirs(b)), (hand_text(a), hand_text(b))


@pytest.mark.slow
@pytest.mark.parametrize("k", [6, 7])
def test_random_six_and_seven_card_hands_order_like_eval7(k: int) -> None:
    eval7 = pytest.importorskip("eval7")
    cards = [eval7.Card(card_name(card)) for card in ALL_CARDS]
    hands = random_hands(np.random.default_rng(3000 + k), 300_000, k)
    ours = batch_on_every_path(hands)
    theirs = np.fromiter(
        (eval7.evaluate([cards[c] for c in hand]) for hand in hands.tolist()),
        dtype=np.int64,
        count=len(hands),
    )
    assert_same_order(ours, theirs, hands, "eval7")


def test_six_and_seven_card_hands_share_the_five_card_scale() -> None:
    # The best five of a 7-card hand has exactly the 7-card strength.
    assert strength("As Ks Qs Js Ts 2d 3c") == strength("As Ks Qs Js Ts")
    assert strength("2c 3d 4h 5s 7c Kd Ad") == strength("Ad 2c 3d 4h 5s")
    assert strength("Kc Kd Kh 5s 5c 5d Ah") == strength("Kc Kd Kh 5s 5c")
    assert strength("Kc Kd Kh 5s 5c 2d") == strength("Kc Kd Kh 5s 5c")
    assert strength("9c 9d 4h 4s 2c 2d Ah") == strength("9c 9d 4h 4s Ah")


# ---------------------------------------------------------------- evaluate_batch


DTYPES = [np.uint8, np.int8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]


@pytest.mark.parametrize("k", [3, 5, 6, 7])
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_batch_agrees_with_evaluate_for_every_dtype_and_layout(
    k: int, dtype: type, each_batch_path: str
) -> None:
    hands = random_hands(np.random.default_rng(k), 2_000, k)
    expected = np.array([poker.evaluate(hand).strength for hand in hands.tolist()])

    contiguous = np.ascontiguousarray(hands, dtype=dtype)
    assert np.array_equal(np.asarray(poker.evaluate_batch(contiguous)), expected)

    # Every other row of a bigger array: rows are not adjacent in memory.
    spaced = np.zeros((2 * len(hands), k), dtype=dtype)
    spaced[::2] = hands
    assert not spaced[::2].flags.c_contiguous
    assert np.array_equal(np.asarray(poker.evaluate_batch(spaced[::2])), expected)

    # Fortran order and reversed columns: the cards of a hand are not adjacent.
    fortran = np.asfortranarray(hands, dtype=dtype)
    assert np.array_equal(np.asarray(poker.evaluate_batch(fortran)), expected)
    reversed_columns = contiguous[:, ::-1]
    assert np.array_equal(np.asarray(poker.evaluate_batch(reversed_columns)), expected)


@pytest.mark.parametrize("k", [3, 5, 6, 7])
def test_batch_result_shape_dtype_and_threads(k: int, each_batch_path: str) -> None:
    hands = random_hands(np.random.default_rng(10 + k), 50_001, k)
    one = np.asarray(poker.evaluate_batch(hands))
    assert one.shape == (len(hands),)
    assert np.issubdtype(one.dtype, np.integer)
    two = np.asarray(poker.evaluate_batch(hands, threads=2))
    unchecked = np.asarray(poker.evaluate_batch(hands, validate=False))
    assert np.array_equal(one, two)
    assert np.array_equal(one, unchecked)


@pytest.mark.parametrize("threads", [1, 2])
def test_batch_writes_into_out_and_returns_it(threads: int, each_batch_path: str) -> None:
    hands = random_hands(np.random.default_rng(12), 40_000, 7)
    expected = np.asarray(poker.evaluate_batch(hands))
    results = np.full(2 * len(hands), -1, dtype=np.int32)
    out = results[len(hands) // 2 : len(hands) // 2 + len(hands)]  # a slice of a bigger array
    returned = poker.evaluate_batch(hands, threads=threads, out=out)
    assert returned is out
    assert np.array_equal(out, expected)
    assert (results[: len(hands) // 2] == -1).all()
    assert (results[len(hands) // 2 + len(hands) :] == -1).all()
    # Any layout and dtype of the hands, into the same array again.
    out[:] = 0
    poker.evaluate_batch(np.asfortranarray(hands, dtype=np.int64), out=out)
    assert np.array_equal(out, expected)


def test_batch_out_may_be_empty() -> None:
    out = np.empty(0, dtype=np.int32)
    assert poker.evaluate_batch(np.zeros((0, 5), dtype=np.uint8), out=out) is out
    with pytest.raises(ValueError, match=r"shape \(0,\)"):
        poker.evaluate_batch(np.zeros((0, 5), dtype=np.uint8), out=np.empty(3, dtype=np.int32))


def _read_only(n: int) -> np.ndarray:
    out = np.empty(n, dtype=np.int32)
    out.flags.writeable = False
    return out


@pytest.mark.parametrize(
    ("make_out", "message"),
    [
        (lambda n: np.empty(n, dtype=np.int64), "dtype int32"),
        (lambda n: np.empty(n, dtype=">i4"), "dtype int32"),
        (lambda n: np.empty(n - 1, dtype=np.int32), r"shape \(200,\).*\(199,\)"),
        (lambda n: np.empty((n, 1), dtype=np.int32), r"shape \(200,\).*\(200, 1\)"),
        (lambda n: np.empty(2 * n, dtype=np.int32)[::2], "contiguous"),
        (lambda n: np.zeros(4 * n + 1, dtype=np.uint8)[1:].view(np.int32), "aligned"),
        (_read_only, "read-only"),
        (lambda n: [0] * n, "numpy int32 array"),
    ],
)
def test_batch_rejects_an_unfit_out(make_out: Callable[[int], object], message: str) -> None:
    hands = random_hands(np.random.default_rng(13), 200, 5)
    with pytest.raises(ValueError, match=message):
        poker.evaluate_batch(hands, out=make_out(len(hands)))  # type: ignore[arg-type]


def test_batch_rejects_an_out_overlapping_the_hands() -> None:
    hands = random_hands(np.random.default_rng(14), 1_000, 7)
    memory = np.zeros(7_000 + 4_000, dtype=np.uint8)
    inside = memory[:7_000].reshape(1_000, 7)
    inside[:] = hands
    with pytest.raises(ValueError, match="overlaps"):
        poker.evaluate_batch(inside, out=memory[4_000:8_000].view(np.int32))
    # Backwards rows span the same bytes; just past the hands is fine.
    with pytest.raises(ValueError, match="overlaps"):
        poker.evaluate_batch(inside[::-1], out=memory[4_000:8_000].view(np.int32))
    out = memory[7_000:11_000].view(np.int32)
    poker.evaluate_batch(inside, out=out)
    assert np.array_equal(out, poker.evaluate_batch(hands))


@pytest.mark.parametrize("k", [3, 5, 7])
def test_batch_of_no_hands_is_empty(k: int) -> None:
    result = np.asarray(poker.evaluate_batch(np.zeros((0, k), dtype=np.uint8)))
    assert result.shape == (0,)


BAD_ROW = 137


@pytest.mark.parametrize(
    ("bad_hand", "dtype"),
    [
        ([0, 1, 2, 3, 52], np.uint8),
        ([0, 1, 2, 3, 255], np.uint8),
        ([0, 1, 2, 3, -1], np.int16),
        ([0, 1, 2, 3, 52], np.int64),
        ([0, 1, 2, 3, 1 << 40], np.int64),
        # Ids that a truncating narrowing would turn into valid cards (5, 7 and 44):
        ([0, 1, 2, 3, 256 + 5], np.int16),
        ([0, 1, 2, 3, (1 << 16) + 7], np.int32),
        ([0, 1, 2, 3, 300], np.uint16),
        ([10, 20, 30, 40, 20], np.uint8),
        ([10, 20, 30, 40, 20], np.int32),
        # Two ids past 51 (equal or not), a card three or five times, both faults at once:
        # the scalar loop checks the sum of the cards' bits against their OR, so carries
        # between invalid bits must not cancel out.
        ([52, 52, 1, 2, 3], np.uint8),
        ([60, 200, 1, 2, 3], np.uint8),
        ([7, 7, 7, 1, 2], np.uint8),
        ([9, 9, 9, 9, 9], np.uint8),
        ([255, 4, 4, 1, 2], np.uint8),
    ],
)
@pytest.mark.parametrize("bad_row", [BAD_ROW, 499], ids=["in-a-vector-step", "in-the-tail"])
def test_batch_rejects_a_bad_row_and_names_it(
    bad_hand: list[int], dtype: type, bad_row: int, each_batch_path: str
) -> None:
    hands = random_hands(np.random.default_rng(5), 500, 5).astype(dtype)
    hands[bad_row] = bad_hand
    with pytest.raises(ValueError, match=rf"(?i)row\D*{bad_row}\b"):
        poker.evaluate_batch(hands)


@pytest.mark.parametrize("k", [3, 6, 7])
def test_batch_rejects_a_duplicate_in_any_width(k: int, each_batch_path: str) -> None:
    hands = random_hands(np.random.default_rng(6), 300, k)
    hands[BAD_ROW, -1] = hands[BAD_ROW, 0]
    with pytest.raises(ValueError, match=rf"(?i)row\D*{BAD_ROW}\b"):
        poker.evaluate_batch(hands)


@pytest.mark.parametrize("k", [1, 2, 4, 8])
def test_batch_rejects_a_width_that_is_not_a_hand(k: int) -> None:
    hands = random_hands(np.random.default_rng(7), 10, k)
    with pytest.raises(ValueError, match=rf"\b{k}\b"):
        poker.evaluate_batch(hands)


def test_batch_rejects_a_flat_array() -> None:
    with pytest.raises(ValueError):
        poker.evaluate_batch(np.arange(5, dtype=np.uint8))


@st.composite
def batches_with_bad_rows(draw: st.DrawFn) -> tuple[np.ndarray, list[int]]:
    """A uint8 batch of 0..70 hands (around the 16-hand steps of the vector loop), some
    rows spoiled by an id past 51 (up to 255) or a repeated card; returns the bad rows."""
    k = draw(st.sampled_from([3, 5, 6, 7]))
    n = draw(st.integers(min_value=1, max_value=70))
    seed = draw(st.integers(min_value=0, max_value=2**32 - 1))
    hands = random_hands(np.random.default_rng(seed), n, k)
    bad_rows = sorted(draw(st.sets(st.integers(min_value=0, max_value=n - 1), max_size=3)))
    for row in bad_rows:
        column = draw(st.integers(min_value=0, max_value=k - 1))
        if draw(st.booleans()):
            hands[row, column] = draw(st.integers(min_value=52, max_value=255))
        else:
            hands[row, column] = hands[row, (column + 1) % k]
    return hands, bad_rows


@settings(max_examples=300, deadline=None)
@given(batches_with_bad_rows())
def test_every_batch_path_judges_rows_alike(batch: tuple[np.ndarray, list[int]]) -> None:
    hands, bad_rows = batch
    for name in poker.batch_paths():
        with batch_path_set(name):
            if bad_rows:
                with pytest.raises(ValueError, match=rf"^row {bad_rows[0]}: "):
                    poker.evaluate_batch(hands)
                unchecked = np.asarray(poker.evaluate_batch(hands, validate=False))
                assert unchecked.shape == (len(hands),)
            else:
                ours = np.asarray(poker.evaluate_batch(hands))
                expected = [poker.evaluate(hand).strength for hand in hands.tolist()]
                assert ours.tolist() == expected, name
            good = [i for i in range(len(hands)) if i not in bad_rows]
            unchecked = np.asarray(poker.evaluate_batch(hands, validate=False))
            assert unchecked[good].tolist() == [
                poker.evaluate(hands[i].tolist()).strength for i in good
            ], name


def test_batch_paths_are_listed_and_chosen() -> None:
    paths = poker.batch_paths()
    assert paths[0] == "portable"
    assert poker.batch_path() == paths[-1]  # the fastest this CPU runs, by default
    for name in paths:
        with batch_path_set(name):
            assert poker.batch_path() == name
    assert poker.batch_path() == paths[-1]
    with pytest.raises(ValueError, match="not a batch path: 'sse9'"):
        poker.set_batch_path("sse9")
    assert poker.batch_path() == paths[-1]


def test_the_environment_chooses_the_batch_path() -> None:
    import subprocess
    import sys

    code = "import capsa_fast; print(capsa_fast.poker.batch_path())"
    env = dict(os.environ, CAPSA_FAST_BATCH_PATH="portable")
    chosen = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert chosen.stdout.strip() == "portable"
    env["CAPSA_FAST_BATCH_PATH"] = "turbo"
    refused = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert refused.returncode != 0
    assert "CAPSA_FAST_BATCH_PATH: not a batch path: 'turbo'" in refused.stderr


@pytest.mark.parametrize("threads", [1, 2, 3, 8, None])
@pytest.mark.parametrize("n", [600_000, 40_000])
def test_threads_never_change_the_strengths(threads: int | None, n: int) -> None:
    # Enough hands for several threads (each takes at least 16,384), and for two only.
    hands = random_hands(np.random.default_rng(77), n, 7)
    one = np.asarray(poker.evaluate_batch(hands))
    assert np.array_equal(np.asarray(poker.evaluate_batch(hands, threads=threads)), one)
    hands[n - 1, 6] = hands[n - 1, 0]
    bad = n * 2 // 3
    hands[bad, 3] = 60
    with pytest.raises(ValueError, match=rf"^row {bad}: not a card id: 60"):
        poker.evaluate_batch(hands, threads=threads)


def test_batches_called_back_to_back_with_other_thread_counts() -> None:
    # The kept threads spin a moment after each batch to catch the next one; a batch that
    # needs fewer of them than the pool holds leaves the others out (they go back to sleep).
    big = random_hands(np.random.default_rng(78), 140_000, 7)
    small = big[:40_000]
    expected = {len(h): np.asarray(poker.evaluate_batch(h)) for h in (big, small)}
    for i in range(60):
        hands = big if i % 3 else small
        threads = (8, 2, 3, 1, None)[i % 5]
        got = np.asarray(poker.evaluate_batch(hands, threads=threads))
        assert np.array_equal(got, expected[len(hands)])


def test_batches_from_several_python_threads_at_once() -> None:
    # The GIL is released, so these batches overlap; each uses the worker threads or, when
    # another batch holds them, threads of its own.
    hands = [random_hands(np.random.default_rng(80 + i), 300_000, 7) for i in range(4)]
    expected = [np.asarray(poker.evaluate_batch(h)) for h in hands]
    results: dict[int, list[np.ndarray]] = {i: [] for i in range(4)}

    def work(i: int) -> None:
        for _ in range(5):
            results[i].append(np.asarray(poker.evaluate_batch(hands[i], threads=2)))

    workers = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    for i in range(4):
        assert len(results[i]) == 5
        assert all(np.array_equal(r, expected[i]) for r in results[i])


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")
def test_threads_work_in_a_forked_child() -> None:
    # gunicorn forks its workers: the worker threads do not survive a fork, so a child
    # must not wait for them.
    hands = random_hands(np.random.default_rng(90), 300_000, 7)
    expected = np.asarray(poker.evaluate_batch(hands, threads=2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # fork() with threads running
        pid = os.fork()
    if pid == 0:
        ok = np.array_equal(np.asarray(poker.evaluate_batch(hands, threads=2)), expected)
        os._exit(0 if ok else 1)
    deadline = time.monotonic() + 60
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise AssertionError("the forked child did not finish its batch in 60 s")
        time.sleep(0.01)
    assert os.waitstatus_to_exitcode(status) == 0


def test_rows_that_start_between_items_are_read_right() -> None:
    # int32 rows 30 bytes apart (a strided view of a byte buffer): the C++ loop steps by
    # whole items, so such a view is read from a copy (it once read wrong cards).
    hands = random_hands(np.random.default_rng(79), 200, 7).astype(np.int32)
    buf = bytearray(30 * len(hands) + 8)
    for i, row in enumerate(hands):
        buf[30 * i : 30 * i + 28] = row.astype("<i4").tobytes()
    view = np.ndarray(shape=hands.shape, dtype=np.int32, buffer=buf, strides=(30, 4))
    assert not view.flags.aligned and np.array_equal(view, hands)
    want = poker.evaluate_batch(hands)
    assert np.array_equal(poker.evaluate_batch(view), want)
    assert np.array_equal(poker.evaluate_batch(view, validate=False), want)


def test_the_module_refuses_rows_between_items_itself() -> None:
    # The wrapper above copies such a view; the module checks too (called directly it read
    # misaligned int16 items: undefined behaviour that UBSan reports under make py-asan).
    view = np.ndarray((10, 5), dtype=np.int16, buffer=np.zeros(101, dtype=np.uint8), offset=1)
    with pytest.raises(ValueError, match="aligned"):
        capsa_fast._core.evaluate_batch(view, True, 1, None)
    rows = np.lib.stride_tricks.as_strided(np.zeros(60, dtype=np.int16), (10, 5), (11, 2))
    with pytest.raises(ValueError, match="aligned"):
        capsa_fast._core.evaluate_batch(rows, True, 1, None)


@pytest.mark.parametrize("threads", [0, -1, 2.5, "2", True])
def test_threads_must_be_a_positive_integer(threads: object) -> None:
    hands = random_hands(np.random.default_rng(78), 10, 5)
    with pytest.raises(ValueError, match="threads"):
        poker.evaluate_batch(hands, threads=threads)  # type: ignore[arg-type]


# ---------------------------------------------------------------- values, labels, best


@pytest.mark.parametrize(
    ("text", "category", "label"),
    [
        ("As Kd Qh Jc Ts", "straight", "Straight, ace high"),
        ("5c 4d 3h 2s Ac", "straight", "Straight, five high"),
        ("Kc Kd 5h 5s 9c", "two_pair", "Two pair, kings and fives"),
        ("Ah Kh Qh Jh Th", "straight_flush", "Royal flush"),
        ("Kc Kd Kh 5s 5c", "full_house", "Full house, kings over fives"),
    ],
)
def test_labels(text: str, category: str, label: str) -> None:
    value = poker.evaluate(ids(text))
    assert value.category == category
    assert value.label == label


def test_known_order_at_category_edges() -> None:
    # The wheel is the lowest straight, the royal flush the top hand.
    assert strength("5c 4d 3h 2s Ac") < strength("6c 5d 4h 3s 2c")
    assert strength("5c 4d 3h 2s Ac") > strength("Ac Ad Ah Ks Qc")
    assert strength("5h 4h 3h 2h Ah") < strength("6h 5h 4h 3h 2h")
    assert strength("5h 4h 3h 2h Ah") > strength("Ac Ad Ah As Kc")
    assert strength("Ah Kh Qh Jh Th") == max(
        poker.evaluate(list(hand)).strength for hand in combinations(range(32, 52), 5)
    )
    # Suits never break ties in poker order.
    assert strength("Ah Kh Qh Jh Th") == strength("Ac Kc Qc Jc Tc")
    assert strength("Ac Kd 9h 5s 3c") == strength("As Kh 9d 5c 3s")


@given(hands_of(3, 5, 6, 7))
def test_evaluate_reports_a_consistent_value(hand: list[int]) -> None:
    value = poker.evaluate(hand)
    assert value.category == oracle_category(hand)
    assert value.category in poker.CATEGORIES
    assert poker.categories_of([value.strength]) == [value.category]
    assert poker.CATEGORIES[int(poker.category_index([value.strength])[0])] == value.category
    assert isinstance(value.label, str) and value.label
    best = list(value.best)
    assert set(best) <= set(hand)
    assert len(best) == min(len(hand), 5)
    assert poker.evaluate(best).strength == value.strength
    assert poker.evaluate_batch(np.array([hand], dtype=np.uint8))[0] == value.strength


@pytest.mark.parametrize("bad", [[0, 1, 2, 3], [0, 1], [], list(range(8)), list(range(13))])
def test_evaluate_names_a_wrong_count(bad: list[int]) -> None:
    with pytest.raises(ValueError, match=rf"\b{len(bad)}\b"):
        poker.evaluate(bad)


def test_evaluate_rejects_duplicates_and_bad_ids() -> None:
    # The message names the repeated card, as text (As) or as its id (51).
    with pytest.raises(ValueError, match=r"\bAs\b|\b51\b"):
        poker.evaluate([51, 47, 43, 39, 51])
    with pytest.raises(ValueError, match=r"\b52\b"):
        poker.evaluate([0, 1, 2, 3, 52])
    with pytest.raises(ValueError, match=r"-1\b"):
        poker.evaluate([0, 1, 2, 3, -1])


# ---------------------------------------------------------------- showdown


@st.composite
def deals(draw: st.DrawFn) -> tuple[list[int], list[list[int]]]:
    players = draw(st.integers(min_value=2, max_value=9))
    cards = draw(st.permutations(ALL_CARDS))
    board = cards[:5]
    holes = [cards[5 + 2 * p : 7 + 2 * p] for p in range(players)]
    return board, holes


@settings(max_examples=200, deadline=None)
@given(deals())
def test_showdown_winners_are_the_oracle_best_hands(
    deal: tuple[list[int], list[list[int]]],
) -> None:
    board, holes = deal
    result = poker.showdown(board, holes)
    keys = [oracle_key(board + hole) for hole in holes]
    assert sorted(result.winners) == [i for i, key in enumerate(keys) if key == max(keys)]
    assert [hand.strength for hand in result.hands] == [
        poker.evaluate(board + hole).strength for hole in holes
    ]


def test_showdown_splits_a_board_that_plays() -> None:
    board = ids("Ah Kh Qh Jh Th")
    result = poker.showdown(board, [ids("2c 3d"), ids("4s 5s"), ids("9h 8h")])
    assert sorted(result.winners) == [0, 1, 2]
    assert all(hand.label == "Royal flush" for hand in result.hands)


def test_showdown_kicker_decides() -> None:
    board = ids("Ac Ad 7h 5s 2c")
    result = poker.showdown(board, [ids("Kc 3d"), ids("Qs Jd")])
    assert result.winners == [0]
