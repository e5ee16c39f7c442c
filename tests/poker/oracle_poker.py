"""A slow, obviously correct pure-Python oracle for poker order (RULES.md section 2).

The fast evaluator in ``capsa_fast`` is checked against this module, so this module is
written to be read, not to be fast: it follows the rules text line by line and shares no
code, tables or tricks with the C++ core.

``oracle_key(cards)`` returns a tuple; comparing two keys with ``<`` / ``==`` compares the
two hands. The key is ``(category_index, ranks)``:

* ``category_index`` is the position in ``CATEGORIES`` (high card = 0 ... straight flush = 8).
* ``ranks`` lists the card ranks (2..14, ace = 14) in the order poker compares them: the
  biggest group first (four, then three, then pairs), larger ranks first within a group
  size, then the kickers high to low. A five-high straight (A-2-3-4-5) lists the ace as 1.

Python compares tuples element by element and a tuple that runs out first is the smaller
one, which is exactly the rule for 3-card hands against 5-card hands: category first, then
ranks in order, a missing kicker counting lower than any card. So 3- and 5-card keys live
on one scale. 6- and 7-card hands take the best key over all of their 5-card subsets.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations

CATEGORIES = (
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
)

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"

OracleKey = tuple[int, tuple[int, ...]]


def card_rank(card_id: int) -> int:
    """Rank of a card id as a number 2..14 (ace = 14). id = rank_index * 4 + suit_index."""
    return card_id // 4 + 2


def card_suit(card_id: int) -> str:
    """Suit letter of a card id: c, d, h or s."""
    return SUIT_CHARS[card_id % 4]


def card_name(card_id: int) -> str:
    """Canonical text of a card id, e.g. 'As', 'Td', '2c' (for failure messages)."""
    return RANK_CHARS[card_id // 4] + SUIT_CHARS[card_id % 4]


def _check_cards(cards: Sequence[int]) -> None:
    for card in cards:
        if not 0 <= card < 52:
            raise ValueError(f"card id {card} is not in 0..51")
    if len(set(cards)) != len(cards):
        raise ValueError(f"duplicate card in {list(cards)}")


def _ranks_by_group(ranks: Iterable[int]) -> tuple[int, ...]:
    """Ranks ordered for comparison: bigger groups first, then higher ranks first.

    E.g. K K 5 5 9 -> (13, 13, 5, 5, 9); 7 7 7 A 2 -> (7, 7, 7, 14, 2).
    """
    counts = Counter(ranks)
    ordered = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    result: list[int] = []
    for rank, count in ordered:
        result.extend([rank] * count)
    return tuple(result)


def _straight_high(ranks: Sequence[int]) -> int | None:
    """Top rank of a 5-card straight, or None. A-2-3-4-5 is a straight with top 5."""
    distinct = sorted(set(ranks))
    if len(distinct) != 5:
        return None
    if distinct == [2, 3, 4, 5, 14]:
        return 5
    if distinct[4] - distinct[0] == 4:
        return distinct[4]
    return None


def _five_card_key(cards: Sequence[int]) -> OracleKey:
    ranks = [card_rank(card) for card in cards]
    suits = [card_suit(card) for card in cards]
    is_flush = len(set(suits)) == 1
    straight_high = _straight_high(ranks)
    group_sizes = sorted(Counter(ranks).values(), reverse=True)

    if straight_high is not None:
        # List the ranks of the straight from its top down; the ace of a wheel counts as 1.
        straight_ranks = tuple(range(straight_high, straight_high - 5, -1))
        if is_flush:
            return CATEGORIES.index("straight_flush"), straight_ranks
        return CATEGORIES.index("straight"), straight_ranks

    if group_sizes == [4, 1]:
        category = "four_of_a_kind"
    elif group_sizes == [3, 2]:
        category = "full_house"
    elif is_flush:
        category = "flush"
    elif group_sizes == [3, 1, 1]:
        category = "three_of_a_kind"
    elif group_sizes == [2, 2, 1]:
        category = "two_pair"
    elif group_sizes == [2, 1, 1, 1]:
        category = "pair"
    else:
        category = "high_card"
    return CATEGORIES.index(category), _ranks_by_group(ranks)


def _three_card_key(cards: Sequence[int]) -> OracleKey:
    # Three cards never make a straight or a flush; only the rank groups count.
    ranks = [card_rank(card) for card in cards]
    group_sizes = sorted(Counter(ranks).values(), reverse=True)
    if group_sizes == [3]:
        category = "three_of_a_kind"
    elif group_sizes == [2, 1]:
        category = "pair"
    else:
        category = "high_card"
    return CATEGORIES.index(category), _ranks_by_group(ranks)


def oracle_key(cards: Sequence[int]) -> OracleKey:
    """Comparable key of a 3-, 5-, 6- or 7-card hand given as card ids (larger = stronger)."""
    cards = list(cards)
    _check_cards(cards)
    if len(cards) == 3:
        return _three_card_key(cards)
    if len(cards) == 5:
        return _five_card_key(cards)
    if len(cards) in (6, 7):
        return max(_five_card_key(five) for five in combinations(cards, 5))
    raise ValueError(f"a hand has 3, 5, 6 or 7 cards, not {len(cards)}")


def oracle_category(cards: Sequence[int]) -> str:
    """Category name (as in CATEGORIES) of a 3-, 5-, 6- or 7-card hand."""
    return CATEGORIES[oracle_key(cards)[0]]


def oracle_best_fives(cards: Sequence[int]) -> set[tuple[int, ...]]:
    """Every 5-card subset (as a sorted tuple of ids) that achieves the key of the hand."""
    best = oracle_key(cards)
    return {tuple(sorted(five)) for five in combinations(cards, 5) if _five_card_key(five) == best}
