"""The compact forms of legal plays for programs: counts and the action mask.

The mask must mark exactly the plays ``legal_plays`` lists, at the documented action
indices, for leading, first plays and answers to a table, under every preset.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from capsa_fast import banting


def random_hands(n: int, seed: int, size: int = 13, exclude: tuple[int, ...] = ()) -> np.ndarray:
    rng = np.random.default_rng(seed)
    pool = np.array([c for c in range(52) if c not in exclude])
    return pool[np.argsort(rng.random((n, len(pool))), axis=1)[:, :size]].astype(np.uint8)


def test_action_space_layout() -> None:
    assert banting.NUM_ACTIONS == len(banting.ACTIONS) == 13 + 78 + 286 + 1287
    assert banting.ACTIONS[0] == (0,)
    assert banting.ACTIONS[13] == (0, 1)
    assert banting.ACTIONS[13 + 78] == (0, 1, 2)
    assert banting.ACTIONS[13 + 78 + 286] == (0, 1, 2, 3, 4)
    assert banting.ACTIONS[-1] == (8, 9, 10, 11, 12)
    assert banting.action_index([4, 2]) == banting.ACTIONS.index((2, 4))
    with pytest.raises(ValueError, match="not an action"):
        banting.action_index([0, 1, 2, 3])


@pytest.mark.parametrize("preset", sorted(banting.PRESETS))
@pytest.mark.parametrize("situation", ["lead", "first", "single", "pair", "five"])
def test_mask_marks_exactly_the_legal_plays(preset: str, situation: str) -> None:
    rules = banting.Rules.preset(preset)
    table = {
        "lead": None,
        "first": None,
        "single": "9h",
        "pair": "9s 9d",
        "five": "3c 4d 5h 6s 7c",
    }[situation]
    table_ids = tuple(banting.classify(table, rules).cards) if table else ()
    hands = random_hands(300, seed=zlib.crc32(f"{preset}/{situation}".encode()), exclude=table_ids)
    first = situation == "first"
    mask = banting.legal_play_mask(hands, table=table, rules=rules, first_play=first)
    packed = banting.legal_play_mask(hands, table=table, rules=rules, first_play=first, packed=True)
    counts = banting.legal_play_counts(hands, table=table, rules=rules, first_play=first)
    assert mask.shape == (300, banting.NUM_ACTIONS) and mask.dtype == bool
    assert packed.shape == (300, banting.NUM_ACTIONS // 8)
    assert np.array_equal(np.unpackbits(packed, axis=1, bitorder="little").astype(bool), mask)
    assert np.array_equal(mask.sum(axis=1), counts)
    for i in range(0, 300, 7):
        row = hands[i].tolist()
        plays = banting.legal_plays(row, table=table, rules=rules, first_play=first)
        expected = {banting.action_index([row.index(c) for c in p.cards]) for p in plays}
        assert set(np.flatnonzero(mask[i]).tolist()) == expected


def test_mask_rejects_bad_rows() -> None:
    hands = random_hands(3, seed=1)
    hands[1, 4] = hands[1, 3]
    with pytest.raises(ValueError, match="row 1: duplicate card"):
        banting.legal_play_mask(hands)
    with pytest.raises(ValueError, match="at most 13 cards"):
        banting.legal_play_mask(random_hands(2, seed=2, size=14))
    with pytest.raises(ValueError, match="on the table"):
        banting.legal_play_mask(np.array([[0, 1, 2]]), table=[2])


def test_pass_locks_leave_no_plays_after_passing() -> None:
    hand = "3d 9s 9h Ks Kd As"
    locks = banting.Rules.preset("capsa-banting", pass_locks=True)
    free = banting.Rules.preset("capsa-banting")
    assert banting.legal_plays(hand, table="Qs Qh", rules=locks, passed=True) == []
    assert len(banting.legal_plays(hand, table="Qs Qh", rules=free, passed=True)) == 1
    # Leading starts a new trick: having passed the last one does not matter.
    assert banting.legal_plays(hand, rules=locks, passed=True)
    rows = np.array([banting.classify(hand.split()[0]).cards + [c for c in range(46, 51)]])
    assert banting.legal_play_counts(rows, table="Qs", rules=locks, passed=True).tolist() == [0]
    assert not banting.legal_play_mask(rows, table="Qs", rules=locks, passed=True).any()
