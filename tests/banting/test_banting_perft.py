"""Perft for Capsa Banting: every distinct play from the full 52-card deck, counted by kind.

Like a chess "perft", the number of legal plays from a fixed position is a single figure
that catches almost any mistake in combo recognition: a missing straight, a forbidden run
let through, a flush under ``none``, a duplicated play. The position here is the whole
deck, leading (the functions are set-based, so 52 cards is a valid hand).

Three sources must agree: the engine's own ``legal_plays`` list, the oracle's ``classify``
(counted cleverly over rank patterns, see ``oracle_counts``), and the table below, derived
by hand. With S straight rank-sets in the ``straights`` list and flushes allowed:

    single                 52                 one per card
    pair                   78 = 13 * C(4,2)
    triple                 52 = 13 * C(4,3)   (0 with triples = false)
    full house           3744 = 13 * 4 * 12 * 6   (the triple's rank and suits, then the pair's)
    four of a kind        624 = 13 * 48        (the four, then any of the other 48 cards)
    straight         1020 * S = S * (4^5 - 4)  (every suit pattern but the 4 suited ones)
    straight flush      4 * S
    flush   4 * (1287 - S)    = 4 suits * (C(13,5) rank sets - the S runs that are straight
                                flushes); runs left out of the list are flushes when suited
    total          9698 + 1020 * S  (4550 + 1024 * S without flushes)

The issue's figures follow: S = 10 with flushes 19,898; JQKA2 order (S = 9) 18,878; no
straight with a 2 (S = 8) 17,858; Taiwan (S = 10, no flushes) 4550 + 10,240 = 14,790.

First play from the full deck must hold the lowest card, the 3 of the lowest suit (3d for
``dchs``, 3c for ``cdhs``). Plays containing that one card, with S3 = the number of listed
runs that contain a 3:

    single 1; pair 3; triple C(3,2) = 3;
    full house 3 * 72 (3d in the triple) + 3 * 48 (3d in the pair) = 360;
    four of a kind 48 (four 3s + a kicker) + 12 (3d as the kicker) = 60;
    straight 255 * S3 (4^4 suit patterns of the other four cards, minus all-diamond);
    straight flush S3; flush C(12,4) - S3 = 495 - S3 (diamond five-sets holding the 3).
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement
from math import comb, prod

import pytest

from tests.banting.oracle_banting import (
    KINDS,
    RANK_CHARS,
    SUIT_CHARS,
    classify,
    kind_of,
    legal_plays,
    make_rules,
    parse,
    with_twos_demoted,
)


@pytest.fixture(scope="module")
def banting():  # imported here so that the oracle's own perft runs without the engine
    from capsa_fast import banting

    return banting


ALL_RUNS_CUSTOM = [
    "KA234",
    "34567",
    "QKA23",
    "45678",
    "56789",
    "6789T",
    "789TJ",
    "89TJQ",
    "9TJQK",
    "TJQKA",
    "A2345",
    "JQKA2",
    "23456",
]


def expected(runs: int, flushes: bool = True, triples: bool = True) -> dict[str, int]:
    """Per-kind counts from the full deck when leading (derivation in the module docstring)."""
    return {
        "single": 52,
        "pair": 13 * comb(4, 2),
        "triple": 13 * comb(4, 3) if triples else 0,
        "straight": runs * (4**5 - 4),
        "flush": 4 * (comb(13, 5) - runs) if flushes else 0,
        "full_house": 13 * 4 * 12 * 6,
        "four_of_a_kind": 13 * 48,
        "straight_flush": 4 * runs,
    }


def expected_first_play(runs_with_3: int, flushes: bool = True) -> dict[str, int]:
    """Per-kind counts of full-deck plays holding the lowest 3 (module docstring)."""
    return {
        "single": 1,
        "pair": 3,
        "triple": 3,
        "straight": 255 * runs_with_3,
        "flush": comb(12, 4) - runs_with_3 if flushes else 0,
        "full_house": 3 * 72 + 3 * 48,
        "four_of_a_kind": 48 + 12,
        "straight_flush": runs_with_3,
    }


# (id, preset, overrides, per-kind counts leading, per-kind counts on the first play)
CASES = [
    ("capsa-banting", "capsa-banting", {}, expected(10), expected_first_play(3)),
    ("hong-kong", "hong-kong", {}, expected(10), expected_first_play(3)),
    ("pagat", "pagat", {}, expected(10), expected_first_play(3)),
    ("taiwan", "taiwan", {}, expected(10, flushes=False), expected_first_play(3, False)),
    (
        "ace-top-jqka2",
        "capsa-banting",
        {"straights": "ace-top-jqka2"},
        expected(9),
        expected_first_play(1),
    ),
    ("no-two", "capsa-banting", {"straights": "no-two"}, expected(8), expected_first_play(1)),
    # seed 000: no 2 in straights; top-card flushes are as many as any flushes
    ("capsa-klasik", "capsa-klasik", {}, expected(8), expected_first_play(1)),
    ("two-low", "capsa-banting", {"straights": "two-low"}, expected(10), expected_first_play(3)),
    (
        "taiwan-order-with-flushes",
        "capsa-banting",
        {"straights": "taiwan"},
        expected(10),
        expected_first_play(3),
    ),
    (
        "no-triples",
        "capsa-banting",
        {"triples": False},
        expected(10, triples=False),
        {**expected_first_play(3), "triple": 0},
    ),
    (
        "no-flushes",
        "capsa-banting",
        {"flush_compare": "none"},
        expected(10, flushes=False),
        expected_first_play(3, False),
    ),
    (
        # all 13 runs listed: KA234, QKA23, A2345, 23456, 34567 hold a 3
        "all-thirteen-runs",
        "capsa-banting",
        {"straights": ALL_RUNS_CUSTOM},
        expected(13),
        expected_first_play(5),
    ),
]

ISSUE_TOTALS = {
    "capsa-banting": 19_898,
    "hong-kong": 19_898,
    "pagat": 19_898,
    "taiwan": 14_790,
    "ace-top-jqka2": 18_878,
    "no-two": 17_858,
    "capsa-klasik": 17_858,
}


def engine_counts(plays: list) -> Counter[str]:
    return Counter(play.kind for play in plays)


def oracle_counts(rules: dict) -> Counter[str]:
    """Count every combo of the full deck by kind with the oracle's ``classify``.

    Which kind a card set is depends only on its ranks and on whether all five share a
    suit, so instead of 2.6 million subsets this walks the rank patterns: each multiset of
    1, 2, 3 or 5 ranks (no rank more than 4 times) is classified once on a representative
    card set and counted with the number of card sets that share it,
    prod(C(4, copies of each rank)). Five distinct ranks split into 4 suited card sets and
    4^5 - 4 unsuited ones, each classified on its own representative.
    """
    counts: Counter[str] = Counter()
    for size in (1, 2, 3, 5):
        for ranks in combinations_with_replacement(range(13), size):
            copies = Counter(ranks)
            if max(copies.values()) > 4:
                continue
            # a representative: each rank's cards take suits c, d, h, s in turn
            cards = [rank * 4 + i for rank, n in copies.items() for i in range(n)]
            if size == 5 and len(copies) == 5:
                suited = [rank * 4 + 1 for rank in ranks]
                unsuited = [*suited[:4], ranks[4] * 4 + 2]
                for representative, how_many in ((suited, 4), (unsuited, 4**5 - 4)):
                    combo = classify(representative, rules)
                    if combo is not None:
                        counts[combo[0]] += how_many
                continue
            combo = classify(cards, rules)
            if combo is not None:
                counts[combo[0]] += prod(comb(4, n) for n in copies.values())
    return counts


def test_derivation_matches_issue_totals() -> None:
    for case_id, _, _, per_kind, _ in CASES:
        if case_id in ISSUE_TOTALS:
            assert sum(per_kind.values()) == ISSUE_TOTALS[case_id], case_id


@pytest.mark.parametrize(
    ("preset", "overrides", "per_kind"),
    [pytest.param(p, o, k, id=i) for i, p, o, k, _ in CASES],
)
def test_oracle_perft_leading(preset: str, overrides: dict, per_kind: dict[str, int]) -> None:
    counts = oracle_counts(make_rules(preset, **overrides))
    assert {kind: counts[kind] for kind in KINDS} == per_kind


@pytest.mark.parametrize(
    ("preset", "overrides", "per_kind"),
    [pytest.param(p, o, k, id=i) for i, p, o, k, _ in CASES],
)
def test_engine_perft_leading(
    banting, preset: str, overrides: dict, per_kind: dict[str, int]
) -> None:
    rules = banting.Rules.preset(preset, **overrides)
    plays = banting.legal_plays(list(range(52)), rules=rules)
    distinct = {frozenset(play.cards) for play in plays}
    assert len(distinct) == len(plays), "legal_plays lists the same card set twice"
    counts = engine_counts(plays)
    assert {kind: counts[kind] for kind in KINDS} == per_kind
    assert set(counts) <= set(KINDS)
    assert len(plays) == sum(per_kind.values())


@pytest.mark.parametrize(
    ("preset", "overrides", "per_kind"),
    [pytest.param(p, o, f, id=i) for i, p, o, _, f in CASES],
)
def test_engine_perft_first_play(
    banting, preset: str, overrides: dict, per_kind: dict[str, int]
) -> None:
    rules = banting.Rules.preset(preset, **overrides)
    lowest = 1 * 4 + SUIT_CHARS.index(make_rules(preset, **overrides)["suit_order"][0])
    assert RANK_CHARS[lowest // 4] == "3"
    plays = banting.legal_plays(list(range(52)), rules=rules, first_play=True)
    assert all(lowest in play.cards for play in plays)
    assert len({frozenset(play.cards) for play in plays}) == len(plays)
    counts = engine_counts(plays)
    assert {kind: counts[kind] for kind in KINDS} == per_kind


def test_oracle_perft_first_play_brute_force() -> None:
    """The first-play table checked by brute force on the oracle for the default preset."""
    rules = make_rules("capsa-banting")
    lowest = 1 * 4 + 1  # 3d
    others = [card for card in range(52) if card != lowest]
    counts: Counter[str] = Counter()
    for size in (1, 2, 3, 5):
        for rest in combinations(others, size - 1):
            combo = classify([lowest, *rest], rules)
            if combo is not None:
                counts[combo[0]] += 1
    assert {kind: counts[kind] for kind in KINDS} == expected_first_play(3)


# Answering from the full deck: the hand is the other 52 - k cards, the table is fixed.
#   3d (the lowest single, dchs): every other card is a higher single -> 51.
#   2s (the highest single), no bombs -> 0.
#   2s under taiwan: no single is higher; bombs: a four of any rank but 2 (12 ranks) with a
#     kicker among the 51 - 4 = 47 other cards -> 564; straight flushes: 40 minus the two
#     spade runs holding the 2s (A2345, 23456) -> 38. Total 602.
#   2h 2s under taiwan: no pair is higher; fours 12 * (50 - 4) = 552; straight flushes 40
#     minus the four runs with 2h or 2s (A2345, 23456 in hearts and spades) = 36. Total 588.
#   3d 3c (the lowest pair, dchs): the 78 pairs minus the 5 that use 3d or 3c; all of them
#     are higher (3h 3s has the spade) -> 73.
#   3d 3c 3h (the lowest triple): only 3s is left of the 3s, so the 12 other ranks * 4 -> 48.
#   Ac Ad Ah under taiwan: the four triples of 2s; fours 12 * (49 - 4) = 540; straight
#     flushes 40 minus A2345 and TJQKA in clubs, diamonds and hearts = 34. Total 578.
#   As 2s 3s 4s 5s, the top straight flush under two-high: nothing is higher -> 0.
#   Ts Js Qs Ks As, the top straight flush under two-low (hong-kong) -> 0.
#   2c 2d 2h 2s Ac, the top four under taiwan: no higher four; straight flushes 40 minus
#     the 8 with a 2 (A2345, 23456 in every suit) and TJQKA in clubs -> 31.
ANSWERS = [
    ("capsa-banting", "3d", {"single": 51}),
    ("capsa-banting", "2s", {}),
    ("taiwan", "2s", {"four_of_a_kind": 564, "straight_flush": 38}),
    ("taiwan", "2h 2s", {"four_of_a_kind": 552, "straight_flush": 36}),
    ("capsa-banting", "3d 3c", {"pair": 73}),
    ("capsa-banting", "3d 3c 3h", {"triple": 48}),
    ("taiwan", "Ac Ad Ah", {"triple": 4, "four_of_a_kind": 540, "straight_flush": 34}),
    ("capsa-banting", "As 2s 3s 4s 5s", {}),
    ("hong-kong", "Ts Js Qs Ks As", {}),
    ("taiwan", "2c 2d 2h 2s Ac", {"straight_flush": 31}),
]


@pytest.mark.parametrize(
    ("preset", "table", "per_kind"),
    [pytest.param(*case, id=f"{case[0]}:{case[1]}") for case in ANSWERS],
)
def test_engine_perft_answering(banting, preset: str, table: str, per_kind: dict[str, int]) -> None:
    table_ids = parse(table)
    hand = [card for card in range(52) if card not in table_ids]
    rules = banting.Rules.preset(preset)
    plays = banting.legal_plays(hand, table=table_ids, rules=rules)
    assert len({frozenset(play.cards) for play in plays}) == len(plays)
    assert dict(engine_counts(plays)) == per_kind


# The oracle brute-forces only the tables without bombs in play: under taiwan every
# five-card subset of ~48 cards (2 million) would be tried, which only the derivation covers.
ORACLE_ANSWERS = [case for case in ANSWERS if len(case[1]) < 9 and case[0] != "taiwan"]


@pytest.mark.parametrize(
    ("preset", "table", "per_kind"),
    [pytest.param(*case, id=f"{case[0]}:{case[1]}") for case in ORACLE_ANSWERS],
)
def test_oracle_perft_answering_small_tables(
    preset: str, table: str, per_kind: dict[str, int]
) -> None:
    rules = make_rules(preset)
    table_ids = parse(table)
    hand = [card for card in range(52) if card not in table_ids]
    counts = Counter(kind_of(list(play), rules) for play in legal_plays(hand, table_ids, rules))
    assert dict(counts) == per_kind


# Answering a single from the full deck while a four of a kind has demoted the 2s
# (two_demotion, seed 000): the 2s are the lowest singles, the ace the highest.
#   2s (the highest 2, dchs): every card of another rank is higher -> 48.
#   2d (the lowest single of all): 51.
#   3d: the 47 other cards that are not 2s.
#   Ah: only As -> 1; As: the top single -> 0.
#   2h 2s (a pair): pairs keep their order, and no pair is above the 2s -> 0.
#   2s under taiwan with two_demotion: the 48 singles, and the bombs as without demotion.
DEMOTED_ANSWERS = [
    ("capsa-klasik", {}, "2s", {"single": 48}),
    ("capsa-klasik", {}, "2d", {"single": 51}),
    ("capsa-klasik", {}, "3d", {"single": 47}),
    ("capsa-klasik", {}, "Ah", {"single": 1}),
    ("capsa-klasik", {}, "As", {}),
    ("capsa-klasik", {}, "2h 2s", {}),
    (
        "taiwan",
        {"two_demotion": True},
        "2s",
        {"single": 48, "four_of_a_kind": 564, "straight_flush": 38},
    ),
]


@pytest.mark.parametrize(
    ("preset", "overrides", "table", "per_kind"),
    [pytest.param(*case, id=f"{case[0]}:{case[2]}") for case in DEMOTED_ANSWERS],
)
def test_engine_perft_answering_demoted_twos(
    banting, preset: str, overrides: dict, table: str, per_kind: dict[str, int]
) -> None:
    table_ids = parse(table)
    hand = [card for card in range(52) if card not in table_ids]
    rules = banting.Rules.preset(preset, **overrides)
    plays = banting.legal_plays(hand, table=table_ids, rules=rules, twos_demoted=True)
    assert dict(engine_counts(plays)) == per_kind
    counts = banting.legal_play_counts([hand], table=table_ids, rules=rules, twos_demoted=True)
    assert list(counts) == [sum(per_kind.values())]


@pytest.mark.parametrize(
    ("preset", "overrides", "table", "per_kind"),
    [pytest.param(*case, id=f"{case[0]}:{case[2]}") for case in DEMOTED_ANSWERS[:-1]],
)
def test_oracle_perft_answering_demoted_twos(
    preset: str, overrides: dict, table: str, per_kind: dict[str, int]
) -> None:
    rules = with_twos_demoted(make_rules(preset, **overrides))
    table_ids = parse(table)
    hand = [card for card in range(52) if card not in table_ids]
    counts = Counter(kind_of(list(play), rules) for play in legal_plays(hand, table_ids, rules))
    assert dict(counts) == per_kind
