"""A slow, obviously correct pure-Python model of Capsa Susun (RULES.md section 4).

The C++ Susun engine is checked against this module, so it is written to be read, not to be
fast. It imports nothing from ``capsa_fast``; poker order comes from ``tests/poker/oracle_poker``
(itself checked against every 5-card hand), and every Susun rule is copied here from the
rules text.

Cards are ids ``rank_index * 4 + suit_index`` (``2c`` = 0, ``2d`` = 1, ``As`` = 51). A rule
set is a plain dict with the setting names of RULES.md 4.3; ``make_rules(preset,
**overrides)`` builds one.

Main functions:

* ``row_order(cards, rules)`` -> a tuple key of a 3- or 5-card row; ``<`` / ``==`` on keys
  compare rows (3 and 5 cards on one scale).
* ``percentile(cards, rules)`` -> P(row) as a float; ``percentile_units`` gives it exactly.
* ``check(top, middle, bottom, rules)`` -> ``Check`` (fouled, out_of_order, categories,
  bonus values, special).
* ``survey(hand13, rules)`` -> ``Survey``: every one of the 72,072 splits walked the slow way
  (count of valid splits, exact percentile scores of the valid ones, a best one).
* ``score(players, rules, stake)`` -> ``Table``: points, money, fees and the pairwise points.

Points where the rules text had to be interpreted (the tests avoid the ones marked
"untested", because the spec does not settle them):

1. Row order without ``suit_tiebreak``: poker order (``oracle_poker.oracle_key``); rows equal
   in it tie. A 3-card row never ties a 5-card row: the key lists 3 ranks against 5 and a
   missing kicker counts lower than any card, so top AAK < middle AAK32.
2. Row order with ``suit_tiebreak`` (RULES.md 4.1, seed 001: "kartu kicker hanya sebagai
   kartu pelengkap", kickers only complete a hand): rows of one category compare by the
   ranks of their *groups* (cards sharing a rank: the four; the triple and then the pair of
   a full house; the triple; both pairs, the higher first; the pair; for straights only the
   top card, the 5 of A-2-3-4-5; for high-card hands every rank, a 3-card row against a
   5-card one by ranks in order, a missing rank lower than any card), then by the suit, in
   the order d < c < h < s, of the *deciding card*: the highest-suited card of the rank
   compared first (the four, the triple, the higher pair, the pair, the top card of a
   straight, the highest card). Nothing else: a kicker never decides, so rows equal in
   groups and deciding suit tie (AsAd 2 3 4 and AsAh K Q J; AsAd K on top and AsAc Q J T
   in the middle cannot meet, but their keys are equal). So As Ad 2c 3c 4h beats
   Ah Ac Kd Qd Js, and Qs Qd 8c 8d 5c beats Qh Qc 8s 8h Ad. A full house's pair is a group,
   not a kicker (it only matters for percentiles: one deck holds no two equal triples).
3. Flushes (tiebreak on only): "compare the suit first, then ranks card by card", read
   literally: a spade 7-high flush beats a diamond ace-high flush. A straight flush is
   ordered as a straight (top card, then the suit of its top card, which is the flush
   suit), since the flush clause talks about flushes. Without the tiebreak a flush is
   ordered by ranks.
4. Two disjoint rows never tie under the tiebreak (the deciding cards of rows equal in
   groups are different cards of one rank, or for flushes the rows would be the same
   cards), so with ``suit_tiebreak`` every head-to-head row has a winner; without it equal
   rows tie and the row is won by nobody.
5. Fouls: valid when bottom >= middle >= top in the full order (equal is fine; equal only
   happens without the tiebreak). ``out_of_order`` lists "top>middle" when top > middle and
   "middle>bottom" when middle > bottom.
6. Dragon: 13 cards holding all 13 ranks. With ``dragon_points`` > 0 such a hand is special
   whether it comes as a raw hand or as three rows (its rows are then not judged: a dragon
   is never fouled). With ``dragon_points`` 0 it is an ordinary hand.
7. Bonus rows: the row's poker category looked up in ``bonus_rows[position]``; an ace-high
   straight flush is a ``royal_flush`` and takes the royal value (when the table has no
   royal entry it falls back to the straight-flush value; untested). A category not in the
   position's table (a full house on the bottom, trips in the middle) is a plain row.
   ``check`` reports the bonus values of a valid arrangement; for a fouled one the tests
   do not look at them (untested).
8. Percentile: P(row) = (hands it beats + hands it ties / 2) / all hands of its size, over
   all 22,100 three-card or 2,598,960 five-card hands of one deck, the row itself among the
   ties. The best score is the maximum of P(top) + P(middle) + P(bottom) over the valid
   splits, computed exactly as an integer over the common denominator ``UNITS``.
9. Counting hands per key without walking 2.6 million hands: a row's key depends only on
   its multiset of ranks, on whether it is a flush, and (tiebreak on) on the set of suits
   held in the deciding rank. So for every rank multiset and every suit set of its deciding
   rank, one representative hand is built and keyed with ``row_order`` itself, weighted by
   the number of ways to pick the suits of the other ranks; the 4 flushes of each
   five-distinct-rank multiset are moved to their own keys. (With the tiebreak a key spans
   many rank multisets, the kickers' ranks being left out; the counts add up per key.)
   The tests check this against brute force (all 3-card hands, every suit pattern of
   sampled 5-card rank multisets, the textbook category counts).
10. Pair scoring (i against j, ``pair_points``):
    - both dragons: 0; one dragon: it wins ``dragon_points`` (fouled opponent or not;
      nothing else is added).
    - both fouled: 0; one fouled: the other wins ``foul_points`` + the sum of the bonus
      values of its own bonus rows, never multiplied, no majority bonus.
    - otherwise each row is won by the stronger row (ties: nobody) and is worth its bonus
      value if the winner's row is a bonus row for that position, else 1 plain point.
      A player who wins all 3 rows sweeps: plain points x ``sweep_multiplier`` (x
      ``super_multiplier`` with a super), bonus values added unmultiplied. Then
      ``majority_bonus`` goes to the player who won more rows (not on equal counts).
    - super: a player who is neither fouled nor a dragon, at a table whose number of
      seated players (fouled and dragon players count) is in ``super_players`` (seed 001:
      not when only 3 play), with ``super_multiplier`` > 0, whose every opponent is fouled
      (counts as swept) or swept by them; a dragon opponent prevents it.
11. Table: net points = sum over opponents (zero-sum); money = points x stake (gross);
    fee = ``room_fee`` x max(money, 0) per player; ``fee_total`` = their sum.
12. Optional specials (RULES.md 4.4), listed in ``specials`` with their ``special_points``:
    ``six_pairs`` is six pairs and a single card, where a rank held three times gives one
    pair and four times two; ``three_flushes`` and ``three_straights`` are tried on every
    one of the 72,072 splits (a 3-card run is any three consecutive ranks from A-2-3 to
    Q-K-A; a 5-card straight runs from A-2-3-4-5 to 10-J-Q-K-A). A declared special (or a
    dragon) is not compared row by row: between two players holding specials the one of
    higher rank wins its own points (the dragon ranks above all, the others by their
    points; equal ranks score 0); a special against a player without one wins its points,
    fouled opponent or not. A special player neither sweeps nor can be swept, so it stops
    every super at the table.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import comb
from typing import Any

from tests.poker.oracle_poker import CATEGORIES, OracleKey, card_name, card_rank, oracle_key

Rules = dict[str, Any]
RowKey = tuple[Any, ...]

RANK_CHARS = "23456789TJQKA"  # rank_index order of the card ids
SUIT_CHARS = "cdhs"  # suit_index order of the card ids
TIEBREAK_SUITS = "dchs"  # RULES.md 4.1: d < c < h < s
POSITIONS = ("top", "middle", "bottom")
ROW_SIZES = {"top": 3, "middle": 5, "bottom": 5}

HANDS_OF_SIZE = {3: comb(52, 3), 5: comb(52, 5)}  # 22,100 and 2,598,960
# P(row) = units / (2 * all hands): 2 * beaten + tied is an integer. UNITS is a common
# denominator of both sizes, so a whole arrangement's score is an exact integer / UNITS.
UNITS = 25_989_600
_UNIT_SCALE = {size: UNITS // (2 * total) for size, total in HANDS_OF_SIZE.items()}
assert all(UNITS % (2 * total) == 0 for total in HANDS_OF_SIZE.values())

DEFAULT_BONUS_ROWS: dict[str, dict[str, int]] = {
    "top": {"three_of_a_kind": 5},
    "middle": {"full_house": 3, "four_of_a_kind": 14, "straight_flush": 18, "royal_flush": 22},
    "bottom": {"four_of_a_kind": 7, "straight_flush": 9, "royal_flush": 11},
}
NO_BONUS_ROWS: dict[str, dict[str, int]] = {"top": {}, "middle": {}, "bottom": {}}

# RULES.md 4.3, row by row. classic and two-four have no super (super_players unused).
PRESETS: dict[str, Rules] = {
    "capsa-susun": {
        "suit_tiebreak": True,
        "bonus_rows": DEFAULT_BONUS_ROWS,
        "sweep_multiplier": 2,
        "super_multiplier": 4,
        "super_players": [2, 4],
        "majority_bonus": 0,
        "foul_points": 12,
        "dragon_points": 208,
        "room_fee": 0.03,
        "specials": [],
        "special_points": {"six_pairs": 6, "three_flushes": 6, "three_straights": 6},
    },
    "classic": {
        "suit_tiebreak": False,
        "bonus_rows": NO_BONUS_ROWS,
        "sweep_multiplier": 2,
        "super_multiplier": 0,
        "super_players": [2, 4],
        "majority_bonus": 0,
        "foul_points": 6,
        "dragon_points": 0,
        "room_fee": 0.0,
        "specials": [],
        "special_points": {"six_pairs": 6, "three_flushes": 6, "three_straights": 6},
    },
    "two-four": {
        "suit_tiebreak": False,
        "bonus_rows": NO_BONUS_ROWS,
        "sweep_multiplier": 1,
        "super_multiplier": 0,
        "super_players": [2, 4],
        "majority_bonus": 1,
        "foul_points": 4,
        "dragon_points": 0,
        "room_fee": 0.0,
        "specials": [],
        "special_points": {"six_pairs": 6, "three_flushes": 6, "three_straights": 6},
    },
}
PRESETS["susun-specials"] = {
    **PRESETS["capsa-susun"],
    "specials": ["six_pairs", "three_flushes", "three_straights"],
}
PRESET_NAMES = tuple(PRESETS)
SETTING_NAMES = tuple(PRESETS["capsa-susun"])


# ----------------------------------------------------------------------------- rules


def make_rules(preset: str = "capsa-susun", **overrides: Any) -> Rules:
    """The settings of a preset with overrides (an override of bonus_rows replaces it)."""
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}")
    rules = dict(PRESETS[preset])
    for name, value in overrides.items():
        if name not in rules:
            raise ValueError(f"unknown setting {name!r}")
        rules[name] = value
    rules["bonus_rows"] = {
        position: dict(rules["bonus_rows"].get(position, {})) for position in POSITIONS
    }
    return rules


# ----------------------------------------------------------------------------- cards


def parse(text: str | Iterable[str]) -> list[int]:
    """Card ids of ``"As Kd Th"`` or ``["As", "Kd"]`` (no duplicate check)."""
    tokens = text.split() if isinstance(text, str) else list(text)
    return [RANK_CHARS.index(t[0].upper()) * 4 + SUIT_CHARS.index(t[1].lower()) for t in tokens]


def cards_text(cards: Iterable[int]) -> str:
    return " ".join(card_name(int(card)) for card in cards)


def tiebreak_suit(card: int) -> int:
    """Position of the card's suit in the tiebreak order d < c < h < s (0..3)."""
    return TIEBREAK_SUITS.index(SUIT_CHARS[card % 4])


def is_dragon(hand: Sequence[int]) -> bool:
    """13 cards holding all 13 ranks."""
    return len(hand) == 13 and len({card_rank(card) for card in hand}) == 13


# ----------------------------------------------------------------------------- row order


def category(cards: Sequence[int]) -> str:
    """Poker category name of a 3- or 5-card row."""
    return CATEGORIES[oracle_key(cards)[0]]


def deciding_card(cards: Sequence[int], key: OracleKey | None = None) -> int:
    """The card whose suit splits rows equal in their groups (interpretation 2); ``key``
    is oracle_key(cards) when the caller has it."""
    # a straight's key lists its ranks from the top down (A-2-3-4-5 as 5 4 3 2 1), so the
    # first entry is the top card, the 5 of a five-high straight
    deciding_rank = (key or oracle_key(cards))[1][0]
    group = [card for card in cards if card_rank(card) == deciding_rank]
    return max(group, key=tiebreak_suit)


def group_ranks(cards: Sequence[int], key: OracleKey | None = None) -> tuple[int, ...]:
    """The ranks a row is compared by before the suit, with the tiebreak (interpretation 2).

    Groups are the ranks held two or more times, bigger groups first, then higher ranks;
    a straight counts its top card only; a high-card hand or a flush every rank. ``key``
    is oracle_key(cards) when the caller has it.
    """
    category_index, ranks = key or oracle_key(cards)
    name = CATEGORIES[category_index]
    if name in ("high_card", "flush"):
        return ranks
    if name in ("straight", "straight_flush"):
        return ranks[:1]
    counts = Counter(card_rank(card) for card in cards)
    groups = sorted(((n, rank) for rank, n in counts.items() if n >= 2), reverse=True)
    return tuple(rank for _, rank in groups)


def row_order(cards: Sequence[int], rules: Rules) -> RowKey:
    """Comparable key of a 3- or 5-card row under the rules (larger = stronger).

    Without the tiebreak: (category, 0, poker ranks, 0), poker order. With it:
    (category, flush suit, group ranks, deciding suit), the flush suit 0 except for a flush
    and the deciding suit 0 for a flush (whose ranks are all its group ranks).
    """
    if len(cards) not in (3, 5):
        raise ValueError(f"a row has 3 or 5 cards, not {len(cards)}")
    key = oracle_key(cards)
    category_index, ranks = key
    if not rules["suit_tiebreak"]:
        return (category_index, 0, ranks, 0)
    if CATEGORIES[category_index] == "flush":
        return (category_index, tiebreak_suit(cards[0]), ranks, 0)
    return (category_index, 0, group_ranks(cards, key), tiebreak_suit(deciding_card(cards, key)))


def compare_rows(a: Sequence[int], b: Sequence[int], rules: Rules) -> int:
    """1 if row a is stronger, -1 if weaker, 0 if they tie."""
    key_a, key_b = row_order(a, rules), row_order(b, rules)
    return (key_a > key_b) - (key_a < key_b)


# ----------------------------------------------------------------------------- percentiles


def rank_multisets(size: int) -> list[tuple[int, ...]]:
    """Every multiset of ``size`` ranks (2..14) with at most 4 cards of a rank."""
    return [
        ranks
        for ranks in combinations_with_replacement(range(2, 15), size)
        if max(Counter(ranks).values()) <= 4
    ]


def _hand_of(groups: dict[int, tuple[int, ...]]) -> list[int]:
    """Card ids for rank -> suit indexes."""
    return [(rank - 2) * 4 + suit for rank, suits in groups.items() for suit in suits]


def multiset_key_counts(ranks: tuple[int, ...], suit_tiebreak: bool) -> Counter[RowKey]:
    """How many hands with exactly these ranks (2..14) have each key (interpretation 9)."""
    rules = {"suit_tiebreak": suit_tiebreak}
    counts: Counter[RowKey] = Counter()
    multiplicity = Counter(ranks)
    # the deciding rank depends on the ranks only (a flush and the same ranks unsuited
    # start their keys with the same rank), so any suits will do to find it
    plain = {rank: tuple(range(n)) for rank, n in multiplicity.items()}
    deciding = deciding_card(_hand_of(plain)) // 4 + 2
    others = [rank for rank in multiplicity if rank != deciding]
    ways_for_others = 1
    for rank in others:
        ways_for_others *= comb(4, multiplicity[rank])
    for suits in combinations(range(4), multiplicity[deciding]):
        groups = {deciding: suits}
        # the other ranks take a suit the deciding card does not have, so no flush
        for rank in others:
            free = [s for s in range(4) if s != suits[0]] + [suits[0]]
            groups[rank] = tuple(free[: multiplicity[rank]])
        hand = _hand_of(groups)
        assert len(ranks) == 3 or category(hand) != "flush"
        counts[row_order(hand, rules)] += ways_for_others
    if len(ranks) == 5 and len(multiplicity) == 5:
        for suit in range(4):
            # one of the ways counted above with the deciding card in this suit is the
            # flush: move it to its own key
            flush = _hand_of({rank: (suit,) for rank in ranks})
            mixed = _hand_of(
                {rank: (suit if rank == deciding else (suit + 1) % 4,) for rank in ranks}
            )
            counts[row_order(mixed, rules)] -= 1
            counts[row_order(flush, rules)] += 1
    return counts


@cache
def key_counts(size: int, suit_tiebreak: bool) -> dict[RowKey, int]:
    """How many hands of ``size`` cards have each key (interpretation 9)."""
    counts: Counter[RowKey] = Counter()
    for ranks in rank_multisets(size):
        counts.update(multiset_key_counts(ranks, suit_tiebreak))
    assert sum(counts.values()) == HANDS_OF_SIZE[size]
    return dict(counts)


@cache
def _cumulative(size: int, suit_tiebreak: bool) -> tuple[list[RowKey], list[int]]:
    """Sorted keys and, for each, how many hands have a smaller key."""
    counts = key_counts(size, suit_tiebreak)
    keys = sorted(counts)
    below, running = [], 0
    for key in keys:
        below.append(running)
        running += counts[key]
    return keys, below


def beaten_and_tied(cards: Sequence[int], rules: Rules) -> tuple[int, int]:
    """(hands of the row's size it beats, hands it ties, itself included)."""
    size = len(cards)
    key = row_order(cards, rules)
    keys, below = _cumulative(size, bool(rules["suit_tiebreak"]))
    index = bisect.bisect_left(keys, key)
    assert keys[index] == key
    return below[index], key_counts(size, bool(rules["suit_tiebreak"]))[key]


def percentile_units(cards: Sequence[int], rules: Rules) -> int:
    """P(row) x UNITS, an exact integer."""
    beaten, tied = beaten_and_tied(cards, rules)
    return (2 * beaten + tied) * _UNIT_SCALE[len(cards)]


def percentile(cards: Sequence[int], rules: Rules) -> float:
    beaten, tied = beaten_and_tied(cards, rules)
    return float(Fraction(2 * beaten + tied, 2 * HANDS_OF_SIZE[len(cards)]))


# ----------------------------------------------------------------------------- one hand


def bonus_value(cards: Sequence[int], position: str, rules: Rules) -> int:
    """Bonus value of a row in a position, 0 for a plain row (interpretation 7)."""
    table = rules["bonus_rows"].get(position, {})
    category_index, ranks = oracle_key(cards)
    name = CATEGORIES[category_index]
    if name == "straight_flush" and ranks[0] == 14 and "royal_flush" in table:
        return int(table["royal_flush"])
    return int(table.get(name, 0))


@dataclass
class Check:
    fouled: bool
    out_of_order: list[str]
    categories: list[str]
    keys: list[RowKey]
    bonus: list[int]
    special: str | None


def check(top: Sequence[int], middle: Sequence[int], bottom: Sequence[int], rules: Rules) -> Check:
    rows = [list(top), list(middle), list(bottom)]
    for position, row in zip(POSITIONS, rows, strict=True):
        if len(row) != ROW_SIZES[position]:
            raise ValueError(f"{position} row has {len(row)} cards")
    hand = [card for row in rows for card in row]
    if len(set(hand)) != 13 or not all(0 <= card < 52 for card in hand):
        raise ValueError(f"not 13 distinct cards: {hand}")
    keys = [row_order(row, rules) for row in rows]
    out_of_order = []
    if keys[0] > keys[1]:
        out_of_order.append("top>middle")
    if keys[1] > keys[2]:
        out_of_order.append("middle>bottom")
    special = "dragon" if rules["dragon_points"] > 0 and is_dragon(hand) else None
    return Check(
        fouled=bool(out_of_order) and special is None,
        out_of_order=out_of_order,
        categories=[category(row) for row in rows],
        keys=keys,
        bonus=[bonus_value(row, p, rules) for p, row in zip(POSITIONS, rows, strict=True)],
        special=special,
    )


Split = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


@dataclass
class Survey:
    """Every split of a 13-card hand, walked one by one."""

    splits: int  # always 72,072
    count_valid: int
    valid_scores: list[int] = field(repr=False)  # percentile units of each valid split
    best_units: int
    best: Split

    @property
    def best_score(self) -> float:
        return float(Fraction(self.best_units, UNITS))

    def top_scores(self, k: int) -> list[float]:
        """The k best percentile scores over valid splits (with repeats), best first."""
        return [float(Fraction(units, UNITS)) for units in sorted(self.valid_scores)[::-1][:k]]


def survey(hand: Sequence[int], rules: Rules) -> Survey:
    """Walk all 286 x 252 = 72,072 (top, middle, bottom) splits of a 13-card hand."""
    hand = sorted(hand)
    if len(hand) != 13 or len(set(hand)) != 13:
        raise ValueError("a Susun hand has 13 distinct cards")
    # each row's key and percentile, once per subset
    key3 = {row: row_order(row, rules) for row in combinations(hand, 3)}
    key5 = {row: row_order(row, rules) for row in combinations(hand, 5)}
    units3 = {row: percentile_units(row, rules) for row in key3}
    units5 = {row: percentile_units(row, rules) for row in key5}
    splits = count_valid = 0
    valid_scores: list[int] = []
    best_units, best = -1, ((), (), ())
    for top in combinations(hand, 3):
        rest = [card for card in hand if card not in top]
        for middle in combinations(rest, 5):
            bottom = tuple(card for card in rest if card not in middle)
            splits += 1
            if not key5[bottom] >= key5[middle] >= key3[top]:
                continue
            count_valid += 1
            units = units3[top] + units5[middle] + units5[bottom]
            valid_scores.append(units)
            if units > best_units:
                best_units, best = units, (top, middle, bottom)
    assert splits == 72_072
    return Survey(splits, count_valid, valid_scores, best_units, best)


def arrangement_units(split: Sequence[Sequence[int]], rules: Rules) -> int:
    """Percentile score of (top, middle, bottom) x UNITS."""
    return sum(percentile_units(row, rules) for row in split)


# ----------------------------------------------------------------------------- scoring


Rows = Sequence[Sequence[int]]  # (top, middle, bottom)


@dataclass
class Table:
    points: list[int]
    money: list[float]
    fee: list[float]
    fee_total: float
    pair_points: dict[tuple[int, int], int]  # (i, j), i < j -> points i wins from j
    fouled: list[bool]
    dragon: list[bool]
    super_: list[bool]


def row_winners(a: Rows, b: Rows, rules: Rules) -> list[int]:
    """Per position: 1 if a's row wins, -1 if b's, 0 for a tie."""
    return [compare_rows(x, y, rules) for x, y in zip(a, b, strict=True)]


def sweeps(a: Rows, b: Rows, rules: Rules) -> bool:
    return row_winners(a, b, rules) == [1, 1, 1]


def _points_of_rows(
    a: Rows, b: Rows, rules: Rules, super_a: bool, super_b: bool
) -> tuple[int, int]:
    """Points each of two valid, non-dragon players takes from the other's rows."""
    winners = row_winners(a, b, rules)
    totals = []
    for rows, side, has_super in ((a, 1, super_a), (b, -1, super_b)):
        won = [p for p, winner in enumerate(winners) if winner == side]
        bonus = plain = 0
        for p in won:
            value = bonus_value(rows[p], POSITIONS[p], rules)
            if value:
                bonus += value
            else:
                plain += 1
        if len(won) == 3:
            plain *= rules["super_multiplier"] if has_super else rules["sweep_multiplier"]
        totals.append(plain + bonus)
    if winners.count(1) > winners.count(-1):
        totals[0] += rules["majority_bonus"]
    elif winners.count(-1) > winners.count(1):
        totals[1] += rules["majority_bonus"]
    return totals[0], totals[1]


THREE_RUNS = [{(start + k) % 13 for k in range(3)} for start in [12, *range(11)]]
FIVE_RUNS = [{(start + k) % 13 for k in range(5)} for start in [12, *range(9)]]


def _is_run(row: Sequence[int]) -> bool:
    ranks = {card // 4 for card in row}
    return ranks in (THREE_RUNS if len(row) == 3 else FIVE_RUNS)


def holds_special(hand: Sequence[int], special: str) -> bool:
    """Whether the 13 cards hold the special (interpretations 6 and 12), by brute force."""
    if special == "dragon":
        return is_dragon(hand)
    if special == "six_pairs":
        return sum(n // 2 for n in Counter(card // 4 for card in hand).values()) >= 6
    if special == "three_flushes":
        return _some_split(hand, lambda row: len({card % 4 for card in row}) == 1)
    if special == "three_straights":
        return _some_split(hand, _is_run)
    raise ValueError(f"unknown special {special!r}")


def _some_split(hand: Sequence[int], good: Any) -> bool:
    """Whether some top 3 / middle 5 / bottom 5 split has every row ``good`` (every split
    is tried; a top row that is not good skips its middles)."""
    hand = sorted(hand)
    for top in combinations(hand, 3):
        if not good(top):
            continue
        rest = [card for card in hand if card not in top]
        for middle in combinations(rest, 5):
            bottom = [card for card in rest if card not in middle]
            if good(middle) and good(bottom):
                return True
    return False


def special_points(special: str | None, rules: Rules) -> int:
    if special is None:
        return 0
    if special == "dragon":
        return rules["dragon_points"]
    return rules["special_points"][special] if special in rules["specials"] else 0


def special_rank(special: str | None, rules: Rules) -> float:
    points = special_points(special, rules)
    if points <= 0:
        return 0
    return float("inf") if special == "dragon" else points


def score(
    players: Sequence[Rows],
    rules: Rules,
    stake: float = 1,
    declared: Sequence[str | None] | None = None,
) -> Table:
    """Table scoring of RULES.md 4.2 for 2-4 arranged players (interpretations 6, 10, 11),
    and with ``declared`` the special each player declared instead (12)."""
    n = len(players)
    if not 2 <= n <= 4:
        raise ValueError(f"{n} players; a table has 2 to 4")
    seen: set[int] = set()
    for rows in players:
        for position, row in zip(POSITIONS, rows, strict=True):
            if len(row) != ROW_SIZES[position]:
                raise ValueError(f"{position} row has {len(row)} cards")
            for card in row:
                if card in seen:
                    raise ValueError(f"{card_name(card)} dealt twice")
                seen.add(card)
    hands = [[card for row in rows for card in row] for rows in players]
    declared = list(declared) if declared is not None else [None] * n
    specials: list[str | None] = [
        "dragon"
        if rules["dragon_points"] > 0 and is_dragon(hand)
        else (claim if special_rank(claim, rules) > 0 else None)
        for hand, claim in zip(hands, declared, strict=True)
    ]
    # "dragon" below stands for any special: scored apart from the rows.
    dragon = [special is not None for special in specials]
    fouled = [not dragon[i] and check(*players[i], rules).fouled for i in range(n)]

    def gets_super(i: int) -> bool:
        if rules["super_multiplier"] <= 0 or n not in rules["super_players"]:
            return False
        if fouled[i] or dragon[i]:
            return False
        for j in range(n):
            if j == i:
                continue
            if dragon[j]:
                return False
            if not fouled[j] and not sweeps(players[i], players[j], rules):
                return False
        return True

    super_ = [gets_super(i) for i in range(n)]

    def own_bonus(i: int) -> int:
        return sum(bonus_value(row, p, rules) for p, row in zip(POSITIONS, players[i], strict=True))

    pair_points: dict[tuple[int, int], int] = {}
    for i, j in combinations(range(n), 2):
        if dragon[i] or dragon[j]:
            rank_i, rank_j = special_rank(specials[i], rules), special_rank(specials[j], rules)
            if rank_i == rank_j:
                net = 0
            elif rank_i > rank_j:
                net = special_points(specials[i], rules)
            else:
                net = -special_points(specials[j], rules)
        elif fouled[i] and fouled[j]:
            net = 0
        elif fouled[j]:
            net = rules["foul_points"] + own_bonus(i)
        elif fouled[i]:
            net = -(rules["foul_points"] + own_bonus(j))
        else:
            got_i, got_j = _points_of_rows(players[i], players[j], rules, super_[i], super_[j])
            net = got_i - got_j
        pair_points[(i, j)] = net

    points = [0] * n
    for (i, j), net in pair_points.items():
        points[i] += net
        points[j] -= net
    money = [p * stake for p in points]
    fee = [rules["room_fee"] * max(m, 0) for m in money]
    return Table(points, money, fee, sum(fee), pair_points, fouled, dragon, super_)


def naive_split(hand: Sequence[int], rules: Rules) -> Split:
    """Strongest bottom, then the strongest middle from the rest (one of them on ties)."""
    hand = sorted(hand)
    bottom = max(combinations(hand, 5), key=lambda row: row_order(row, rules))
    rest = [card for card in hand if card not in bottom]
    middle = max(combinations(rest, 5), key=lambda row: row_order(row, rules))
    top = tuple(card for card in rest if card not in middle)
    return top, middle, bottom


def all_splits(hand: Sequence[int]) -> Iterable[Split]:
    hand = sorted(hand)
    for top in combinations(hand, 3):
        rest = [card for card in hand if card not in top]
        for middle in combinations(rest, 5):
            yield top, middle, tuple(card for card in rest if card not in middle)
