"""The Capsa Susun engine against the pure-Python oracle, on random and special material.

What a user would notice if these failed: a row judged stronger or weaker than the rules
say (so a valid arrangement is called fouled, or a head-to-head row goes to the wrong
player), a wrong bonus value, a wrong count of valid arrangements, a ``percentile``
arrangement that is not the best one or whose reported score is not its real score, and
table points, money or fees that differ from RULES.md 4.2 (or do not sum to zero).

All randomness is seeded, so a failure reproduces. The oracle (``tests/susun/oracle_susun.py``)
walks the 72,072 splits of a hand in pure Python (about 0.1 s a hand), so the amounts
below keep the whole file well under a minute. The first section checks the oracle's own
shortcut (counting hands per row key) against brute force.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from itertools import combinations, product
from math import comb
from typing import Any

import numpy as np
import pytest
from capsa_fast import susun

from tests.poker.oracle_poker import CATEGORIES
from tests.susun import oracle_susun as oracle
from tests.susun.oracle_susun import POSITIONS, cards_text

PRESETS = ["capsa-susun", "classic", "two-four"]
SEARCH_PRESETS = ["capsa-susun", "classic"]  # two-four orders rows exactly like classic
TOLERANCE = 1e-12


def both_rules(preset: str, **overrides: Any) -> tuple[Any, dict[str, Any]]:
    return susun.Rules.preset(preset, **overrides), oracle.make_rules(preset, **overrides)


def seed_of(*parts: object) -> int:
    return sum((i + 1) * ord(ch) for i, ch in enumerate(repr(parts)))


def report(mismatches: list[str], what: str) -> None:
    if mismatches:
        shown = "\n  ".join(mismatches[:12])
        pytest.fail(f"{len(mismatches)} {what} disagree with the oracle, e.g.\n  {shown}")


def ids(cards: Any) -> list[int]:
    return [int(card) for card in cards]


def split_text(split: Any) -> str:
    return " | ".join(cards_text(row) for row in split)


# ----------------------------------------------------------------------------- material


def card(rank_index: int, suit: int) -> int:
    return rank_index * 4 + suit


def _of_a_rank(rng: random.Random, n: int, rank_index: int | None = None) -> list[int]:
    rank_index = rng.randrange(13) if rank_index is None else rank_index
    return [card(rank_index, suit) for suit in rng.sample(range(4), n)]


def _run(rng: random.Random, suited: bool = False) -> list[int]:
    top = rng.randrange(3, 13)  # rank index of the top card: 5 (wheel) .. A
    ranks = [12, 0, 1, 2, 3] if top == 3 else list(range(top - 4, top + 1))
    suit = rng.randrange(4)
    return [card(r, suit if suited else rng.randrange(4)) for r in ranks]


def _flush(rng: random.Random, size: int = 5) -> list[int]:
    suit = rng.randrange(4)
    return [card(r, suit) for r in rng.sample(range(13), size)]


def _royal(rng: random.Random) -> list[int]:
    suit = rng.randrange(4)
    return [card(r, suit) for r in range(8, 13)]


def _groups(rng: random.Random, sizes: list[int]) -> list[int]:
    ranks = rng.sample(range(13), len(sizes))
    return [c for r, n in zip(ranks, sizes, strict=True) for c in _of_a_rank(rng, n, r)]


CORES = {
    "random": lambda rng: [],
    "pair": lambda rng: _of_a_rank(rng, 2),
    "two_pair": lambda rng: _groups(rng, [2, 2]),
    "trips": lambda rng: _of_a_rank(rng, 3),
    "straight": _run,
    "flush": _flush,
    "full_house": lambda rng: _groups(rng, [3, 2]),
    "quads": lambda rng: _of_a_rank(rng, 4),
    "straight_flush": lambda rng: _run(rng, suited=True),
    "royal": _royal,
}
ROW_CORES = {
    3: ["random", "random", "pair", "pair", "trips"],
    5: [*CORES, "random", "pair", "two_pair"],
}


def fill(rng: random.Random, cards: list[int], size: int) -> list[int]:
    """``cards`` completed with random other cards to ``size`` cards."""
    chosen = list(dict.fromkeys(cards))[:size]
    rest = [c for c in range(52) if c not in chosen]
    return chosen + rng.sample(rest, size - len(chosen))


def random_row(rng: random.Random, size: int) -> list[int]:
    shape = rng.choice(ROW_CORES[size])
    row = fill(rng, CORES[shape](rng)[:size], size)
    rng.shuffle(row)
    return row


def dragon_hand(rng: random.Random) -> list[int]:
    return [card(r, rng.randrange(4)) for r in range(13)]


HAND_SHAPES = {
    "quads": lambda rng: _of_a_rank(rng, 4),
    "two_quads": lambda rng: _groups(rng, [4, 4]),
    "straight_flush": lambda rng: _run(rng, suited=True),
    "royal": _royal,
    "dragon": dragon_hand,
    "six_pairs": lambda rng: _groups(rng, [2] * 6),
    "four_trips": lambda rng: _groups(rng, [3, 3, 3, 3]),
    "full_houses": lambda rng: _groups(rng, [3, 2, 3, 2]),
    "flushy": lambda rng: _flush(rng, 9),
    "two_flushes": lambda rng: [*_flush(rng, 5), *_flush(rng, 5)],
    "runs": lambda rng: [*_run(rng), *_run(rng)],
}


def random_hand(rng: random.Random, shape: str = "random") -> list[int]:
    core = [] if shape == "random" else HAND_SHAPES[shape](rng)
    return sorted(fill(rng, core, 13))


def random_split(rng: random.Random, hand: list[int]) -> tuple[list[int], ...]:
    cards = list(hand)
    rng.shuffle(cards)
    return cards[:3], cards[3:8], cards[8:]


def random_valid_split(rng: random.Random, hand: list[int], ours: dict[str, Any]) -> Any:
    for _ in range(200):
        split = random_split(rng, hand)
        if not oracle.check(*split, ours).fouled:
            return split
    return oracle.naive_split(hand, ours)


@functools.cache
def _survey(preset: str, hand: tuple[int, ...]) -> oracle.Survey:
    return oracle.survey(hand, oracle.make_rules(preset))


def search_hands(preset: str) -> list[tuple[str, list[int]]]:
    """Random hands plus two hands of every special shape, the same for every test."""
    rng = random.Random(seed_of("search", preset))
    hands = [("random", random_hand(rng)) for _ in range(28)]
    for shape in HAND_SHAPES:
        hands += [(shape, random_hand(rng, shape)) for _ in range(2)]
    return hands


# ----------------------------------------------------------------------------- the oracle itself


@pytest.mark.parametrize("suit_tiebreak", [True, False])
def test_oracle_three_card_counts_match_brute_force(suit_tiebreak: bool) -> None:
    rules = {"suit_tiebreak": suit_tiebreak}
    brute = Counter(oracle.row_order(row, rules) for row in combinations(range(52), 3))
    assert oracle.key_counts(3, suit_tiebreak) == dict(brute)


@pytest.mark.parametrize("suit_tiebreak", [True, False])
def test_oracle_five_card_counts_match_brute_force_per_rank_multiset(suit_tiebreak: bool) -> None:
    """Every suit pattern of sampled rank multisets, keyed one hand at a time."""
    rules = {"suit_tiebreak": suit_tiebreak}
    counts = oracle.key_counts(5, suit_tiebreak)
    rng = random.Random(seed_of("multisets", suit_tiebreak))
    multisets = oracle.rank_multisets(5)
    grouped = [m for m in multisets if len(set(m)) < 5]
    distinct = [m for m in multisets if len(set(m)) == 5]
    sample = rng.sample(grouped, 120) + rng.sample(distinct, 6)
    sample += [(2, 3, 4, 5, 14), (10, 11, 12, 13, 14), (2, 3, 4, 5, 7)]  # wheel, royal, 7-high
    for ranks in sample:
        brute: Counter[Any] = Counter()
        for suits in product(range(4), repeat=5):
            hand = [card(r - 2, s) for r, s in zip(ranks, suits, strict=True)]
            if len(set(hand)) == 5 and list(suits) == sorted_suits(ranks, suits):
                brute[oracle.row_order(hand, rules)] += 1
        # the shortcut for this multiset (key_counts adds these up over all multisets)
        assert oracle.multiset_key_counts(ranks, suit_tiebreak) == brute, ranks
    # textbook category totals of the 2,598,960 five-card hands
    totals: Counter[str] = Counter()
    for key, n in counts.items():
        totals[CATEGORIES[key[0]]] += n
    assert totals == {
        "high_card": 1_302_540,
        "pair": 1_098_240,
        "two_pair": 123_552,
        "three_of_a_kind": 54_912,
        "straight": 10_200,
        "flush": 5_108,
        "full_house": 3_744,
        "four_of_a_kind": 624,
        "straight_flush": 40,
    }
    assert sum(counts.values()) == comb(52, 5)


def sorted_suits(ranks: tuple[int, ...], suits: tuple[int, ...]) -> list[int]:
    """Suits in a canonical order within each rank (so each card set is counted once)."""
    result = list(suits)
    start = 0
    while start < len(ranks):
        end = start
        while end < len(ranks) and ranks[end] == ranks[start]:
            end += 1
        result[start:end] = sorted(result[start:end])
        start = end
    return result


def test_oracle_survey_matches_a_plain_walk() -> None:
    """The survey's precomputed row keys against ``all_splits`` + ``check``, on one hand."""
    ours = oracle.make_rules("classic")
    hand = random_hand(random.Random(seed_of("walk")), "six_pairs")
    survey = oracle.survey(hand, ours)
    valid = [s for s in oracle.all_splits(hand) if not oracle.check(*s, ours).fouled]
    assert survey.count_valid == len(valid)
    assert survey.best_units == max(oracle.arrangement_units(s, ours) for s in valid)


# ----------------------------------------------------------------------------- settings


@pytest.mark.parametrize("preset", PRESETS)
def test_presets_agree_with_the_rules_table(preset: str) -> None:
    rules, ours = both_rules(preset)
    for source in (dict(susun.PRESETS[preset]), rules.to_dict()):
        for name, value in ours.items():
            got = source[name]
            if name == "bonus_rows":
                got = {p: dict(got.get(p, {})) for p in POSITIONS}
            assert got == value, (preset, name)
    again = susun.Rules.from_dict(rules.to_dict())
    assert again.to_dict() == rules.to_dict()


# ----------------------------------------------------------------------------- rows


@pytest.mark.parametrize("preset", SEARCH_PRESETS)
def test_row_order_agrees(preset: str) -> None:
    rules, ours = both_rules(preset)
    rng = random.Random(seed_of("row_key", preset))
    mismatches = []
    outcomes = Counter()
    for _ in range(4000):
        a = random_row(rng, rng.choice([3, 5, 5]))
        roll = rng.random()
        if roll < 0.4:
            # the same ranks in other suits: equal in poker order, split by suit or tied
            b = [card(c // 4, rng.randrange(4)) for c in a]
            if len(set(b)) < len(b) or rng.random() < 0.2:
                b = [card(c // 4, (c + 1) % 4) for c in a]
        elif roll < 0.55:
            b = [card(c // 4, (c + 2) % 4) for c in a]  # flushes stay flushes, other suit
        else:
            b = random_row(rng, rng.choice([3, 5]))
        expected = oracle.compare_rows(a, b, ours)
        key_a, key_b = susun.row_key(a, rules), susun.row_key(b, rules)
        got = (key_a > key_b) - (key_a < key_b)
        outcomes[expected] += 1
        if got != expected:
            mismatches.append(f"[{cards_text(a)}] vs [{cards_text(b)}]: {got}, oracle {expected}")
    report(mismatches, "row comparisons")
    assert outcomes[0] > 50 and outcomes[1] > 500 and outcomes[-1] > 500


@pytest.mark.parametrize("preset", SEARCH_PRESETS)
def test_percentile_agrees(preset: str) -> None:
    rules, ours = both_rules(preset)
    rng = random.Random(seed_of("percentile", preset))
    mismatches = []
    for _ in range(3000):
        row = random_row(rng, rng.choice([3, 5]))
        expected = oracle.percentile(row, ours)
        got = susun.percentile(row, rules)
        if abs(got - expected) > TOLERANCE:
            mismatches.append(f"{cards_text(row)}: {got!r}, oracle {expected!r}")
    report(mismatches, "percentiles")


def trips_on_top_split(hand: list[int], ours: dict[str, Any]) -> Any:
    """The lowest three of a kind on top and the rest arranged strongest bottom first, or
    None when the hand has no triple or that arrangement is fouled (a bonus row on top
    is otherwise rare in random material)."""
    ranks = Counter(c // 4 for c in hand)
    triples = sorted(r for r, n in ranks.items() if n >= 3)
    if not triples:
        return None
    top = [c for c in hand if c // 4 == triples[0]][:3]
    rest = [c for c in hand if c not in top]
    bottom = list(max(combinations(rest, 5), key=lambda row: oracle.row_order(row, ours)))
    split = (top, [c for c in rest if c not in bottom], bottom)
    return None if oracle.check(*split, ours).fouled else split


@pytest.mark.parametrize("preset", PRESETS)
def test_check_agrees(preset: str) -> None:
    rules, ours = both_rules(preset)
    rng = random.Random(seed_of("check", preset))
    mismatches = []
    fouled_seen = Counter()
    bonus_seen: set[tuple[str, int]] = set()
    shapes = ["random"] * 6 + list(HAND_SHAPES)
    for i in range(1000):
        hand = random_hand(rng, rng.choice(shapes))
        roll = i % 4
        if roll == 0:
            split = random_split(rng, hand)
        elif roll == 1:
            split = random_valid_split(rng, hand, ours)
        elif roll == 2:
            split = oracle.naive_split(hand, ours)
        else:
            split = trips_on_top_split(hand, ours) or oracle.naive_split(hand, ours)
        expected = oracle.check(*split, ours)
        c = susun.check(*split, rules)
        problems = []
        if c.special != expected.special:
            problems.append(f"special {c.special}, oracle {expected.special}")
        if expected.special is None:
            fouled_seen[expected.fouled] += 1
            if bool(c.fouled) != expected.fouled:
                problems.append(f"fouled {c.fouled}, oracle {expected.fouled}")
            if sorted(c.out_of_order) != sorted(expected.out_of_order):
                problems.append(f"out_of_order {c.out_of_order}, oracle {expected.out_of_order}")
        if [r.position for r in c.rows] != list(POSITIONS):
            problems.append(f"positions {[r.position for r in c.rows]}")
        for p, row in enumerate(c.rows):
            if row.category != expected.categories[p]:
                problems.append(f"{POSITIONS[p]} {row.category}, oracle {expected.categories[p]}")
            if row.strength != susun.row_key(split[p], rules):
                problems.append(f"{POSITIONS[p]} strength is not row_key")
            if not expected.fouled and expected.special is None:
                bonus_seen.add((POSITIONS[p], expected.bonus[p]))
                if row.bonus != expected.bonus[p]:
                    problems.append(f"{POSITIONS[p]} bonus {row.bonus}, oracle {expected.bonus[p]}")
        if problems:
            mismatches.append(f"{split_text(split)}: {'; '.join(problems)}")
    report(mismatches, "checks")
    assert fouled_seen[True] > 100 and fouled_seen[False] > 100
    if preset == "capsa-susun":
        assert {("top", 5), ("middle", 3), ("bottom", 7), ("bottom", 9)} <= bonus_seen


# ----------------------------------------------------------------------------- the search


@pytest.mark.parametrize("preset", SEARCH_PRESETS)
def test_count_valid_and_best_percentile_agree(preset: str) -> None:
    rules, ours = both_rules(preset)
    mismatches = []
    for shape, hand in search_hands(preset):
        expected = _survey(preset, tuple(hand))
        where = f"{shape} {cards_text(hand)}"
        count = susun.count_valid(hand, rules)
        if count != expected.count_valid:
            mismatches.append(f"{where}: count_valid {count}, oracle {expected.count_valid}")
        a = susun.arrange(hand, rules, strategy="percentile")
        split = (ids(a.top), ids(a.middle), ids(a.bottom))
        if a.valid_arrangements != expected.count_valid:
            mismatches.append(f"{where}: valid_arrangements {a.valid_arrangements}")
        is_dragon = ours["dragon_points"] > 0 and oracle.is_dragon(hand)
        if a.special != ("dragon" if is_dragon else None):
            mismatches.append(f"{where}: special {a.special}")
        if is_dragon:
            continue  # a dragon is not arranged; what else it reports is not specified
        if sorted(split[0] + split[1] + split[2]) != hand or [len(r) for r in split] != [3, 5, 5]:
            mismatches.append(f"{where}: rows {split_text(split)} are not the hand")
            continue
        if oracle.check(*split, ours).fouled:
            mismatches.append(f"{where}: returned a fouled arrangement {split_text(split)}")
        claimed = oracle.arrangement_units(split, ours) / oracle.UNITS
        if abs(a.score - claimed) > TOLERANCE:
            mismatches.append(f"{where}: score {a.score!r} but its rows score {claimed!r}")
        if abs(a.score - expected.best_score) > TOLERANCE:
            mismatches.append(
                f"{where}: best {a.score!r} ({split_text(split)}), oracle "
                f"{expected.best_score!r} ({split_text(expected.best)})"
            )
    report(mismatches, "searches")


@pytest.mark.parametrize("preset", SEARCH_PRESETS)
def test_top_k_agrees(preset: str) -> None:
    rules, ours = both_rules(preset)
    mismatches = []
    hands = [h for shape, h in search_hands(preset) if shape != "dragon"]
    for hand in hands[::4]:
        expected = _survey(preset, tuple(hand)).top_scores(5)
        got = susun.arrange(hand, rules, strategy="percentile", top_k=5)
        where = cards_text(hand)
        if len(got) != 5:
            mismatches.append(f"{where}: {len(got)} arrangements")
            continue
        splits = [(tuple(sorted(ids(a.top))), tuple(sorted(ids(a.middle)))) for a in got]
        if len(set(splits)) != 5:
            mismatches.append(f"{where}: repeated arrangements")
        for a in got:
            split = (ids(a.top), ids(a.middle), ids(a.bottom))
            claimed = oracle.arrangement_units(split, ours) / oracle.UNITS
            if oracle.check(*split, ours).fouled or abs(a.score - claimed) > TOLERANCE:
                mismatches.append(f"{where}: {split_text(split)} fouled or not worth {a.score}")
        scores = [a.score for a in got]
        if any(abs(x - y) > TOLERANCE for x, y in zip(scores, expected, strict=True)):
            mismatches.append(f"{where}: scores {scores}, oracle {expected}")
    report(mismatches, "top-k lists")


@pytest.mark.parametrize("preset", SEARCH_PRESETS)
def test_arrange_batch_agrees(preset: str) -> None:
    rules, ours = both_rules(preset)
    hands = [h for shape, h in search_hands(preset) if shape != "dragon"]
    rows, scores = susun.arrange_batch(
        np.array(hands, dtype=np.uint8), rules, strategy="percentile"
    )
    rows, scores = np.asarray(rows), np.asarray(scores)
    assert rows.shape == (len(hands), 13) and scores.shape == (len(hands),)
    mismatches = []
    for hand, row, score in zip(hands, rows, scores, strict=True):
        split = (ids(row[:3]), ids(row[3:8]), ids(row[8:]))
        where = cards_text(hand)
        best = _survey(preset, tuple(hand)).best_score
        if sorted(ids(row)) != hand or oracle.check(*split, ours).fouled:
            mismatches.append(f"{where}: {split_text(split)} is not a valid arrangement of it")
        elif abs(oracle.arrangement_units(split, ours) / oracle.UNITS - float(score)) > TOLERANCE:
            mismatches.append(
                f"{where}: score {float(score)!r} is not what {split_text(split)} is worth"
            )
        elif abs(float(score) - best) > TOLERANCE:
            mismatches.append(f"{where}: {float(score)!r}, oracle best {best!r}")
    report(mismatches, "batch arrangements")


@pytest.mark.parametrize("preset", PRESETS)
def test_ev_and_naive_arrangements_are_valid(preset: str) -> None:
    rules, ours = both_rules(preset)
    rng = random.Random(seed_of("strategies", preset))
    mismatches = []
    for i in range(60):
        hand = random_hand(rng, "random" if i % 2 else rng.choice(list(HAND_SHAPES)))
        if ours["dragon_points"] > 0 and oracle.is_dragon(hand):
            continue
        for strategy in ("ev", "naive"):
            a = susun.arrange(hand, rules, strategy=strategy)
            split = (ids(a.top), ids(a.middle), ids(a.bottom))
            where = f"{strategy} {cards_text(hand)} -> {split_text(split)}"
            if sorted(split[0] + split[1] + split[2]) != hand:
                mismatches.append(f"{where}: not the hand")
            elif oracle.check(*split, ours).fouled:
                mismatches.append(f"{where}: fouled")
            elif strategy == "naive":
                # strongest bottom, then strongest middle of the rest (by category: whether a
                # suit-first flush order counts as "strongest" is left to the engine)
                bottom_best = max(
                    CATEGORIES.index(oracle.category(r)) for r in combinations(hand, 5)
                )
                rest = [c for c in hand if c not in split[2]]
                middle_best = max(
                    CATEGORIES.index(oracle.category(r)) for r in combinations(rest, 5)
                )
                if CATEGORIES.index(oracle.category(split[2])) != bottom_best:
                    mismatches.append(f"{where}: not the strongest bottom")
                elif CATEGORIES.index(oracle.category(split[1])) != middle_best:
                    mismatches.append(f"{where}: not the strongest middle")
    report(mismatches, "arrangements")


# ----------------------------------------------------------------------------- table scoring


def _strong_hand(rng: random.Random, deck: list[int]) -> list[int]:
    high = [c for c in deck if c >= card(7, 0)]  # nines and up
    return rng.sample(high, 13) if len(high) >= 13 else rng.sample(deck, 13)


def random_table(
    rng: random.Random, n: int, ours: dict[str, Any]
) -> tuple[list[dict[str, list[int]]], list[tuple[list[int], ...]]]:
    """n players as engine input and as oracle rows; fouls, sweeps and dragons on purpose."""
    deck = list(range(52))
    hands: list[list[int]] = []
    for seat in range(n):
        roll = rng.random()
        if roll < 0.08 and all(any(card(r, s) in deck for s in range(4)) for r in range(13)):
            hand = [
                card(r, rng.choice([s for s in range(4) if card(r, s) in deck])) for r in range(13)
            ]
        elif roll < 0.35 and seat == 0:
            hand = _strong_hand(rng, deck)
        else:
            hand = rng.sample(deck, 13)
        hand = sorted(hand)
        deck = [c for c in deck if c not in hand]
        hands.append(hand)
    engine_players, oracle_players = [], []
    for hand in hands:
        roll = rng.random()
        if roll < 0.3:
            split = random_split(rng, hand)  # mostly fouled
        elif roll < 0.7:
            split = random_valid_split(rng, hand, ours)
        else:
            split = oracle.naive_split(hand, ours)
        split = tuple(list(row) for row in split)
        oracle_players.append(split)
        engine_players.append(dict(zip(POSITIONS, split, strict=True)))
    return engine_players, oracle_players


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize(
    ("preset", "super_players"),
    [(preset, None) for preset in PRESETS] + [("capsa-susun", [3]), ("capsa-susun", [2, 3, 4])],
)
def test_score_agrees(preset: str, super_players: list[int] | None, n: int) -> None:
    overrides = {} if super_players is None else {"super_players": super_players}
    rules, ours = both_rules(preset, **overrides)
    rng = random.Random(seed_of("score", preset, n, super_players))
    mismatches = []
    seen: Counter[str] = Counter()
    for _ in range(250):
        players, rows = random_table(rng, n, ours)
        stake = rng.choice([1, 100, 2.5])
        expected = oracle.score(rows, ours, stake=stake)
        t = susun.score(players, rules, stake=stake)
        seen["foul"] += any(expected.fouled)
        seen["two_fouls"] += sum(expected.fouled) >= 2
        seen["dragon"] += any(expected.dragon)
        seen["super"] += any(expected.super_)
        seen["super_multiplied"] += any(
            expected.super_[i] and not any(expected.fouled[j] for j in range(n) if j != i)
            for i in range(n)
        )
        seen["sweep"] += any(
            not expected.fouled[i]
            and not expected.fouled[j]
            and not expected.dragon[i]
            and not expected.dragon[j]
            and oracle.sweeps(rows[i], rows[j], ours)
            for i, j in combinations(range(n), 2)
        )
        where = " || ".join(split_text(r) for r in rows) + f" stake {stake}"
        points = [int(p) for p in t.points]
        if sum(points) != 0:
            mismatches.append(f"{where}: points {points} do not sum to 0")
        if points != expected.points:
            mismatches.append(f"{where}: points {points}, oracle {expected.points}")
            continue
        if list(t.money) != pytest.approx(expected.money, abs=1e-9):
            mismatches.append(f"{where}: money {list(t.money)}, oracle {expected.money}")
        if list(t.fee) != pytest.approx(expected.fee, abs=1e-9) or t.fee_total != pytest.approx(
            expected.fee_total, abs=1e-9
        ):
            mismatches.append(f"{where}: fee {list(t.fee)} / {t.fee_total}, oracle {expected.fee}")
        mismatches += _pair_mismatches(t.pairs, expected, rows, ours, where)
    report(mismatches, "tables")
    assert seen["foul"] > 50 and seen["sweep"] > 20
    if n >= 3:
        assert seen["two_fouls"] > 10
    if ours["dragon_points"] > 0:
        assert seen["dragon"] > 5
    if ours["super_multiplier"] > 0 and n in ours["super_players"]:
        assert seen["super"] > 3 and seen["super_multiplied"] > 3


def _pair_mismatches(
    pairs: list[dict[str, Any]],
    expected: oracle.Table,
    rows: list[tuple[list[int], ...]],
    ours: dict[str, Any],
    where: str,
) -> list[str]:
    """Per-pair details: who won each row, the points between the two, the super flags.

    (The shape of a pair entry is the engine's: ``players``, ``rows`` with +1 / -1 / 0 for
    the first player / the second / a tie, ``points`` as [first, second], ``super``.)
    """
    found = {tuple(p["players"]): p for p in pairs}
    if set(found) != set(expected.pair_points):
        return [f"{where}: pairs {sorted(found)}"]
    problems = []
    for (i, j), net in expected.pair_points.items():
        p = found[(i, j)]
        if list(p["points"]) != [net, -net]:
            problems.append(f"{where}: pair {i},{j} points {p['points']}, oracle {net}")
        if list(p["super"]) != [expected.super_[i], expected.super_[j]]:
            problems.append(f"{where}: pair {i},{j} super {p['super']}")
        special = (
            expected.fouled[i] or expected.fouled[j] or expected.dragon[i] or expected.dragon[j]
        )
        winners = [p["rows"][position] for position in POSITIONS]
        if not special and winners != oracle.row_winners(rows[i], rows[j], ours):
            problems.append(f"{where}: pair {i},{j} row winners {winners}")
    return problems
