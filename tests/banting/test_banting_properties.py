"""Properties of the Capsa Banting engine that must hold under every rule set (hypothesis).

What a user would notice if these failed: a play judged both higher and lower than
another (so the winner of a trick depends on who played first), a cycle of combos each
beating the next, a move list offering a play the table then refuses, validate refusing a
play the move list offers (or accepting one it leaves out), and scores that do not sum to
zero or do not follow the tier table.

These check the engine against itself and against the rules text; the oracle comparison
on random material is in ``test_banting_oracle.py``.
"""

from __future__ import annotations

import functools
from itertools import combinations
from typing import Any

import numpy as np
from capsa_fast import banting
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.banting.oracle_banting import ALL_RUNS, RANK_CHARS, cards_text

RULE_SETS: list[tuple[str, dict[str, Any]]] = [
    ("capsa-banting", {}),
    ("hong-kong", {}),
    ("taiwan", {}),
    ("pagat", {}),
    ("capsa-banting", {"bombs": "quads-and-straight-flush", "flush_compare": "rank-first"}),
    ("capsa-banting", {"straights": "ace-top-jqka2", "straight_tiebreak": "sequence-top"}),
    ("hong-kong", {"straights": "no-two", "triples": False, "pass_locks": True}),
    ("taiwan", {"straights": ALL_RUNS[::-1], "suit_order": "hsdc"}),
]


@functools.cache
def engine_rules(index: int) -> Any:
    preset, overrides = RULE_SETS[index]
    return banting.Rules.preset(preset, **overrides)


rule_indexes = st.integers(0, len(RULE_SETS) - 1)
common = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much]
)

# ----------------------------------------------------------------------------- strategies


def _card(rank: int, suit: int) -> int:
    return rank * 4 + suit


@st.composite
def card_sets(draw: st.DrawFn, size: int) -> list[int]:
    """A card set of ``size`` cards shaped like a combo (it may still be forbidden)."""
    suits = st.integers(0, 3)
    if size in (1, 2, 3):
        rank = draw(st.integers(0, 12))
        chosen = draw(st.lists(suits, min_size=size, max_size=size, unique=True))
        return [_card(rank, suit) for suit in chosen]
    shape = draw(st.sampled_from(["run", "suited_run", "flush", "full_house", "quads"]))
    if shape in ("run", "suited_run"):
        ranks = [RANK_CHARS.index(ch) for ch in draw(st.sampled_from(ALL_RUNS))]
        if shape == "suited_run":
            suit = draw(suits)
            return [_card(rank, suit) for rank in ranks]
        return [_card(rank, draw(suits)) for rank in ranks]
    if shape == "flush":
        suit = draw(suits)
        ranks = draw(st.lists(st.integers(0, 12), min_size=5, max_size=5, unique=True))
        return [_card(rank, suit) for rank in ranks]
    big, small = draw(st.lists(st.integers(0, 12), min_size=2, max_size=2, unique=True))
    big_size, small_size = (3, 2) if shape == "full_house" else (4, 1)
    big_suits = draw(st.lists(suits, min_size=big_size, max_size=big_size, unique=True))
    small_suits = draw(st.lists(suits, min_size=small_size, max_size=small_size, unique=True))
    return [_card(big, s) for s in big_suits] + [_card(small, s) for s in small_suits]


def combos_of(rules: Any, size: int, draw: st.DrawFn, avoid: set[int]) -> list[int]:
    cards = draw(card_sets(size))
    assume(not avoid.intersection(cards))
    assume(banting.classify(cards, rules) is not None)
    return cards


hands = st.lists(st.integers(0, 51), min_size=1, max_size=13, unique=True).map(sorted)


# ----------------------------------------------------------------------------- compare


@common
@given(rule_indexes, st.sampled_from([1, 2, 3, 5]), st.data())
def test_compare_is_antisymmetric(index: int, size: int, data: st.DataObject) -> None:
    rules = engine_rules(index)
    a = combos_of(rules, size, data.draw, set())
    b = combos_of(rules, size, data.draw, set(a))
    assert banting.compare(a, b, rules) == -banting.compare(b, a, rules)
    assert banting.compare(a, b, rules) != 0  # disjoint combos never tie
    assert banting.compare(a, a, rules) == 0


@common
@given(rule_indexes, st.sampled_from([1, 2, 3, 5]), st.data())
def test_compare_is_a_strict_order_within_a_size(
    index: int, size: int, data: st.DataObject
) -> None:
    """Sort several disjoint combos with compare; every pair must then agree with the sort.

    That holds only if compare is transitive (no a > b > c > a) and antisymmetric.
    """
    rules = engine_rules(index)
    chosen: list[list[int]] = []
    used: set[int] = set()
    for _ in range(data.draw(st.integers(3, 6))):
        cards = data.draw(card_sets(size))
        if used.isdisjoint(cards) and banting.classify(cards, rules) is not None:
            chosen.append(cards)
            used.update(cards)
    assume(len(chosen) >= 3)
    ordered = sorted(chosen, key=functools.cmp_to_key(lambda a, b: banting.compare(a, b, rules)))
    for i, j in combinations(range(len(ordered)), 2):
        assert banting.compare(ordered[i], ordered[j], rules) == -1, (
            f"{cards_text(ordered[i])} / {cards_text(ordered[j])} in {ordered}"
        )


@common
@given(rule_indexes, st.data())
def test_bombs_beat_every_small_combo_and_only_bombs_do(index: int, data: st.DataObject) -> None:
    rules = engine_rules(index)
    bombs = rules.bombs == "quads-and-straight-flush"
    small = combos_of(rules, data.draw(st.sampled_from([1, 2, 3])), data.draw, set())
    five = combos_of(rules, 5, data.draw, set(small))
    kind = banting.classify(five, rules).kind
    if bombs and kind in ("four_of_a_kind", "straight_flush"):
        assert banting.compare(five, small, rules) == 1
        assert banting.compare(small, five, rules) == -1
    else:
        for a, b in ((five, small), (small, five)):
            try:
                banting.compare(a, b, rules)
            except ValueError:
                continue
            raise AssertionError(f"{cards_text(a)} vs {cards_text(b)} should not compare")


# ----------------------------------------------------------------------------- plays


@common
@given(rule_indexes, hands, st.sampled_from([1, 2, 3, 5]), st.data())
def test_every_legal_play_beats_the_table(
    index: int, hand: list[int], size: int, data: st.DataObject
) -> None:
    rules = engine_rules(index)
    table = combos_of(rules, size, data.draw, set(hand))
    plays = banting.legal_plays(hand, table=table, rules=rules)
    for play in plays:
        assert set(play.cards) <= set(hand)
        assert banting.compare(list(play.cards), table, rules) == 1, cards_text(play.cards)
        verdict = banting.validate(hand, list(play.cards), table=table, rules=rules)
        assert verdict.ok, (cards_text(play.cards), verdict.code, verdict.message)
    assert len({frozenset(play.cards) for play in plays}) == len(plays)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    rule_indexes,
    st.lists(st.integers(0, 51), min_size=1, max_size=10, unique=True).map(sorted),
    st.sampled_from([None, None, 1, 2, 3, 5]),
    st.booleans(),
    st.data(),
)
def test_validate_accepts_exactly_the_legal_plays(
    index: int,
    hand: list[int],
    table_size: int | None,
    first_play: bool,
    data: st.DataObject,
) -> None:
    rules = engine_rules(index)
    table = None if table_size is None else combos_of(rules, table_size, data.draw, set(hand))
    first_play = first_play and table is None
    legal = {
        frozenset(play.cards)
        for play in banting.legal_plays(hand, table=table, rules=rules, first_play=first_play)
    }
    accepted = set()
    for size in range(1, min(6, len(hand)) + 1):
        for subset in combinations(hand, size):
            verdict = banting.validate(
                hand, list(subset), table=table, rules=rules, first_play=first_play
            )
            assert verdict.ok == (verdict.code is None)
            if verdict.ok:
                accepted.add(frozenset(subset))
    assert accepted == legal, (
        f"accepted but not listed {[cards_text(p) for p in accepted - legal][:5]}, "
        f"listed but refused {[cards_text(p) for p in legal - accepted][:5]}"
    )
    passing = banting.validate(hand, "pass", table=table, rules=rules, first_play=first_play)
    assert passing.ok == (table is not None)


@common
@given(rule_indexes, hands, st.booleans())
def test_counts_match_lists(index: int, hand: list[int], first_play: bool) -> None:
    rules = engine_rules(index)
    listed = banting.legal_plays(hand, rules=rules, first_play=first_play)
    if len(hand) == 13:
        counts = banting.legal_play_counts(
            np.array([hand], dtype=np.uint8), rules=rules, first_play=first_play
        )
        assert int(counts[0]) == len(listed)
    assert listed, "a leader always has at least a single to play"
    if first_play:
        assert len(listed) == len(
            [p for p in banting.legal_plays(hand, rules=rules) if _holds_lowest(p, hand, rules)]
        )


def _holds_lowest(play: Any, hand: list[int], rules: Any) -> bool:
    order = "3456789TJQKA2"
    suit_order = rules.suit_order

    def strength(card: int) -> tuple[int, int]:
        return order.index(RANK_CHARS[card // 4]), suit_order.index("cdhs"[card % 4])

    return min(hand, key=strength) in play.cards


# ----------------------------------------------------------------------------- scoring


@st.composite
def cards_left_lists(draw: st.DrawFn) -> list[int]:
    players = draw(st.integers(2, 4))
    losers = draw(st.lists(st.integers(1, 13), min_size=players - 1, max_size=players - 1))
    winner = draw(st.integers(0, players - 1))
    return [*losers[:winner], 0, *losers[winner:]]


def _tier_multiplier(n: int, tiers: list[list[int]]) -> int:
    return max((t, m) for t, m in tiers if t <= n)[1]


@common
@given(cards_left_lists())
def test_default_score_is_zero_sum_and_follows_the_tiers(cards_left: list[int]) -> None:
    scores = list(banting.score(cards_left, engine_rules(0)))
    assert sum(scores) == 0
    for n, points in zip(cards_left, scores, strict=True):
        if n:
            # RULES.md 3.2 default tiers: 1-9 cards x1, 10-12 x2, 13 x3
            multiplier = 3 if n == 13 else 2 if n >= 10 else 1
            assert points == -n * multiplier
        else:
            assert points > 0


@common
@given(
    cards_left_lists(),
    st.lists(
        st.tuples(st.integers(2, 13), st.integers(1, 9)), max_size=3, unique_by=lambda t: t[0]
    ),
)
def test_custom_score_tiers(cards_left: list[int], extra: list[tuple[int, int]]) -> None:
    tiers = [[1, 1], *sorted([list(tier) for tier in extra])]
    rules = banting.Rules.preset("capsa-banting", scoring=tiers)
    scores = list(banting.score(cards_left, rules))
    assert sum(scores) == 0
    for n, points in zip(cards_left, scores, strict=True):
        if n:
            assert points == -n * _tier_multiplier(n, tiers)
