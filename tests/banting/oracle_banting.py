"""A slow, obviously correct pure-Python model of Capsa Banting (RULES.md 3.1, 3.2, 3.4).

The C++ Banting engine is checked against this module, so it is written to be read, not to
be fast. It imports nothing from ``capsa_fast``: it has its own card names, its own preset
table and its own copy of every rule, taken line by line from the rules text.

Cards are ids ``rank_index * 4 + suit_index`` (rank_index 0..12 for ``2..A``, suit_index
0..3 for ``c d h s``). A rule set is a plain dict with the setting names of RULES.md 3.2;
``make_rules(preset, **overrides)`` builds one, always with ``straights`` spelled out as a
list of rank-set strings, low to high.

Main functions:

* ``classify(cards, rules)`` -> ``(kind, key)`` or ``None``; ``why_not(cards, rules)`` ->
  ``None`` for a combo, else ``"NOT_A_COMBO"`` or ``"RULE_FORBIDS"``.
* ``compare(a, b, rules)`` -> 1 / 0 / -1, or ``ValueError`` when a and b are not comparable.
* ``legal_plays(hand, table, rules, first_play)`` -> set of frozensets of ids, by trying
  every subset of 1, 2, 3 and 5 cards of the hand.
* ``validate(hand, play, table, rules, first_play, passed)`` -> ``(ok, code)``.
* ``score(cards_left, rules)`` -> list of points.

Points where the rules text had to be interpreted (the tests avoid the ones marked
"untested", because the spec does not settle them):

1. A *run* is five ranks consecutive in the circular order ``2 3 4 ... K A 2 ...``; there
   are 13 of them and each is named by its ranks read upward from its lowest card:
   ``A2345 23456 34567 ... TJQKA JQKA2 QKA23 KA234``. A run is a straight only if its name
   is in ``rules["straights"]``; its position there is its strength. Any other five
   distinct ranks are not a run (so e.g. ``Q K A 2 4`` is never a straight).
2. A run left out of the list: suited and flushes allowed -> a flush (compared like any
   flush); suited under ``flush_compare = none`` or unsuited -> RULE_FORBIDS.
3. A suited run in the list is a straight flush even under ``flush_compare = none``.
4. Five suited cards that are not a run under ``flush_compare = none`` -> RULE_FORBIDS.
   A lone triple with ``triples = false`` -> RULE_FORBIDS (a full house is still fine).
   Everything else that is not a combo (0, 4 or 6+ cards, two different ranks in a
   pair, two pairs, a triple with two odd cards, five unsuited non-run cards, ...) ->
   NOT_A_COMBO.
5. Straight tie-break card: ``highest-card`` = the card highest in Big Two rank order (the
   2 whenever the run has a 2, e.g. in A2345, 23456, JQKA2, QKA23, KA234);
   ``sequence-top`` = the card whose rank is the last letter of the run's name (5 in A2345,
   6 in 23456, 2 in JQKA2, 3 in QKA23, 4 in KA234). Two straights (or straight flushes)
   with the same run and the same tie-break suit are equal (compare -> 0).
6. Flush ``suit-first``: (suit of the flush, then the five ranks from the highest in Big
   Two order down); ``rank-first``: (the five ranks from the highest in Big Two order down,
   then the suit). A 2 counts as the highest rank, so a 2-high flush beats an A-high one
   under ``rank-first``.
7. Bombs (``quads-and-straight-flush``): a four of a kind or straight flush beats any
   single, pair or triple, so ``compare(bomb, small) = 1`` and ``compare(small, bomb) = -1``.
   Any other pair of different sizes is not comparable (ValueError). With ``bombs =
   none`` different sizes are never comparable.
8. ``legal_plays``: a subset is legal when it is a combo, beats the table if there is one
   (``compare(play, table) == 1``: equal is not enough), and holds the hand's lowest card
   (lowest Big Two rank, then lowest suit in ``suit_order``) when ``first_play``. The
   table is assumed to share no card with the hand.
9. ``validate`` codes, first applicable wins, in the API.md order:
   "pass" with no table -> CANNOT_PASS_WHEN_LEADING; "pass" with a table -> ok (also when
   ``passed`` is set: passing again is what a locked-out player does; untested).
   Cards while ``passed`` and ``pass_locks`` -> PASSED_THIS_TRICK (only meaningful with a
   table: a cleared trick unlocks everyone; ``passed`` when leading is untested).
   A card not in the hand -> NOT_IN_HAND. A table whose size differs from the play's,
   unless the play is a bomb under ``bombs`` and the table has 1-3 cards ->
   WRONG_CARD_COUNT (the size test uses only the number of cards, except that the bomb
   exception needs the play to be a real bomb). Not a combo -> NOT_A_COMBO or
   RULE_FORBIDS as in ``why_not``. ``first_play`` without the hand's lowest card ->
   MUST_INCLUDE_LOWEST. Not strictly higher than the table -> DOES_NOT_BEAT.
   ``first_play`` together with a table is untested.
10. ``score``: the multiplier for n cards is that of the tier with the largest threshold
    <= n (0 if there is none; untested); the player with 0 cards receives the sum of what
    the others pay. Input must have 2-4 counts, each 0..13, exactly one of them 0.
11. ``flush_compare = top-card`` (seed 000): a flush is worth its highest card alone, its
    rank in Big Two order, then that card's suit; the other four cards never count.
12. ``two_demotion``: while the 2s are demoted (round state, passed here as
    ``with_twos_demoted(rules)``), a single 2 is below a single 3 and the ace is the
    highest single; a 2 among the singles keeps its suit order. Pairs, triples, five-card
    combos and the lowest card of a first play are unchanged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any

Rules = dict[str, Any]
Key = tuple[Any, ...]

RANK_CHARS = "23456789TJQKA"  # rank_index order of the card ids
SUIT_CHARS = "cdhs"  # suit_index order of the card ids
SUIT_SYMBOLS = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}
BIG_TWO_ORDER = "3456789TJQKA2"  # Big Two rank order, low to high

# The 13 runs, named from their lowest card upward (interpretation 1).
ALL_RUNS = [(RANK_CHARS * 2)[start : start + 5] for start in range(len(RANK_CHARS))]
ALL_RUNS = [*ALL_RUNS[-1:], *ALL_RUNS[:-1]]  # put A2345 first: A2345, 23456, ..., KA234
PLAIN_RUNS = ["34567", "45678", "56789", "6789T", "789TJ", "89TJQ", "9TJQK", "TJQKA"]

NAMED_STRAIGHTS: dict[str, list[str]] = {
    "two-high": [*PLAIN_RUNS, "23456", "A2345"],
    "two-low": ["A2345", "23456", *PLAIN_RUNS],
    "taiwan": ["A2345", *PLAIN_RUNS, "23456"],
    "ace-top-jqka2": [*PLAIN_RUNS, "JQKA2"],
    "no-two": list(PLAIN_RUNS),
}

KINDS = (
    "single",
    "pair",
    "triple",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
)
FIVE_CARD_ORDER = ("straight", "flush", "full_house", "four_of_a_kind", "straight_flush")
BOMB_KINDS = ("four_of_a_kind", "straight_flush")

DEFAULT_SCORING = [[1, 1], [10, 2], [13, 3]]

_DEFAULTS: Rules = {
    "suit_order": "dchs",
    "straights": "two-high",
    "straight_tiebreak": "highest-card",
    "flush_compare": "suit-first",
    "triples": True,
    "bombs": "none",
    "first_lead": "lowest-card",
    "pass_locks": False,
    "two_demotion": False,
    "ending": "first-out",
    "dragon": True,
    "scoring": DEFAULT_SCORING,
}

# RULES.md 3.4, row by row (only the columns that differ from the defaults above).
_PRESET_CHANGES: dict[str, Rules] = {
    "capsa-banting": {},
    "hong-kong": {
        "straights": "two-low",
        "straight_tiebreak": "sequence-top",
        "flush_compare": "rank-first",
    },
    "taiwan": {
        "suit_order": "cdhs",
        "straights": "taiwan",
        "flush_compare": "none",
        "bombs": "quads-and-straight-flush",
    },
    "pagat": {"flush_compare": "rank-first"},
    "capsa-klasik": {
        "straights": "no-two",
        "flush_compare": "top-card",
        "pass_locks": True,
        "two_demotion": True,
    },
}
PRESET_NAMES = tuple(_PRESET_CHANGES)

# Codes of API.md, in their order of precedence.
CODES = (
    "CANNOT_PASS_WHEN_LEADING",
    "PASSED_THIS_TRICK",
    "NOT_IN_HAND",
    "WRONG_CARD_COUNT",
    "NOT_A_COMBO",
    "RULE_FORBIDS",
    "MUST_INCLUDE_LOWEST",
    "DOES_NOT_BEAT",
)


# ----------------------------------------------------------------------------- rules


def make_rules(preset: str = "capsa-banting", **overrides: Any) -> Rules:
    """The settings of a preset with overrides, ``straights`` spelled out as a list."""
    if preset not in _PRESET_CHANGES:
        raise ValueError(f"unknown preset {preset!r}")
    rules = {**_DEFAULTS, **_PRESET_CHANGES[preset]}
    for name, value in overrides.items():
        if name not in rules:
            raise ValueError(f"unknown setting {name!r}")
        rules[name] = value
    straights = rules["straights"]
    if isinstance(straights, str):
        straights = NAMED_STRAIGHTS[straights]
    rules["straights"] = [str(run) for run in straights]
    rules["scoring"] = [[int(t), int(m)] for t, m in rules["scoring"]]
    for run in rules["straights"]:
        if run not in ALL_RUNS:
            raise ValueError(f"{run!r} is not five consecutive ranks")
    if sorted(rules["suit_order"]) != sorted(SUIT_CHARS):
        raise ValueError(f"suit order {rules['suit_order']!r} is not a permutation of dchs")
    return rules


# ----------------------------------------------------------------------------- cards


def parse(text: str | Iterable[str]) -> list[int]:
    """Card ids of ``"3d 4c Ts"`` or ``["3d", "10s", "A♠"]`` (no duplicate check)."""
    tokens = text.split() if isinstance(text, str) else list(text)
    cards = []
    for token in tokens:
        rank_text, suit_text = token[:-1].upper(), token[-1]
        rank_text = "T" if rank_text == "10" else rank_text
        suit_text = SUIT_SYMBOLS.get(suit_text, suit_text.lower())
        cards.append(RANK_CHARS.index(rank_text) * 4 + SUIT_CHARS.index(suit_text))
    return cards


def card_name(card: int) -> str:
    return RANK_CHARS[card // 4] + SUIT_CHARS[card % 4]


def cards_text(cards: Iterable[int]) -> str:
    return " ".join(card_name(card) for card in sorted(cards))


def rank_char(card: int) -> str:
    return RANK_CHARS[card // 4]


def big_two_rank(card: int) -> int:
    """0 for a 3 ... 11 for an ace, 12 for a 2."""
    return BIG_TWO_ORDER.index(rank_char(card))


def suit_value(card: int, rules: Rules) -> int:
    """0 for the lowest suit of ``suit_order`` ... 3 for the highest."""
    return rules["suit_order"].index(SUIT_CHARS[card % 4])


def card_strength(card: int, rules: Rules) -> tuple[int, int]:
    """A single card's place in Big Two order: rank first, then suit."""
    return big_two_rank(card), suit_value(card, rules)


DEMOTED = "twos demoted now"  # the round-state flag, never a setting


def with_twos_demoted(rules: Rules, demoted: bool = True) -> Rules:
    """The same rules while a four of a kind has (or has not) demoted the 2s."""
    if demoted and not rules["two_demotion"]:
        raise ValueError("only rules with two_demotion demote the 2s")
    return {**rules, DEMOTED: demoted}


def single_strength(card: int, rules: Rules) -> tuple[int, int]:
    """A card played alone: Big Two order, except that demoted 2s are lowest."""
    rank, suit = card_strength(card, rules)
    if rules.get(DEMOTED):
        rank = -1 if rank_char(card) == "2" else rank
    return rank, suit


def lowest_card(hand: Iterable[int], rules: Rules) -> int:
    return min(hand, key=lambda card: card_strength(card, rules))


# ----------------------------------------------------------------------------- combos


def _judge(cards: Sequence[int], rules: Rules) -> tuple[str, Key] | str:
    """``(kind, key)`` for a combo, else the reason code. Keys compare within a kind."""
    cards = list(cards)
    if len(set(cards)) != len(cards):
        raise ValueError(f"duplicate card in {cards}")
    rank_counts = sorted(Counter(rank_char(card) for card in cards).values(), reverse=True)
    highest_suit = max((suit_value(card, rules) for card in cards), default=-1)

    if len(cards) == 1:
        return "single", single_strength(cards[0], rules)
    if len(cards) == 2:
        if rank_counts == [2]:
            return "pair", (big_two_rank(cards[0]), highest_suit)
        return "NOT_A_COMBO"
    if len(cards) == 3:
        if rank_counts != [3]:
            return "NOT_A_COMBO"
        if not rules["triples"]:
            return "RULE_FORBIDS"
        return "triple", (big_two_rank(cards[0]), highest_suit)
    if len(cards) != 5:
        return "NOT_A_COMBO"

    by_count = Counter(rank_char(card) for card in cards)
    if rank_counts == [4, 1]:
        four = next(rank for rank, count in by_count.items() if count == 4)
        return "four_of_a_kind", (BIG_TWO_ORDER.index(four),)
    if rank_counts == [3, 2]:
        three = next(rank for rank, count in by_count.items() if count == 3)
        return "full_house", (BIG_TWO_ORDER.index(three),)
    if rank_counts != [1, 1, 1, 1, 1]:
        return "NOT_A_COMBO"  # two pairs, a triple with two odd cards, a pair with three

    suited = len({card % 4 for card in cards}) == 1
    flushes_allowed = rules["flush_compare"] != "none"
    run = next((run for run in ALL_RUNS if set(run) == set(by_count)), None)

    if run is not None and run in rules["straights"]:
        if rules["straight_tiebreak"] == "highest-card":
            tiebreak = max(cards, key=big_two_rank)
        else:  # sequence-top: the last rank of the run read upward from its lowest card
            tiebreak = next(card for card in cards if rank_char(card) == run[-1])
        key = (rules["straights"].index(run), suit_value(tiebreak, rules))
        return ("straight_flush" if suited else "straight"), key

    if suited:
        if not flushes_allowed:
            return "RULE_FORBIDS"
        ranks = tuple(sorted((big_two_rank(card) for card in cards), reverse=True))
        suit = suit_value(cards[0], rules)
        if rules["flush_compare"] == "suit-first":
            return "flush", (suit, ranks)
        if rules["flush_compare"] == "top-card":
            return "flush", (ranks[0], suit)
        return "flush", (ranks, suit)
    if run is not None:
        return "RULE_FORBIDS"  # a run the straights list leaves out
    return "NOT_A_COMBO"


def classify(cards: Sequence[int], rules: Rules) -> tuple[str, Key] | None:
    verdict = _judge(cards, rules)
    return None if isinstance(verdict, str) else verdict


def why_not(cards: Sequence[int], rules: Rules) -> str | None:
    """None for a combo, else "NOT_A_COMBO" or "RULE_FORBIDS"."""
    verdict = _judge(cards, rules)
    return verdict if isinstance(verdict, str) else None


def kind_of(cards: Sequence[int], rules: Rules) -> str | None:
    combo = classify(cards, rules)
    return None if combo is None else combo[0]


def _sign(x: Any, y: Any) -> int:
    return (x > y) - (x < y)


def compare(a: Sequence[int], b: Sequence[int], rules: Rules) -> int:
    """1 if a beats b, -1 if b beats a, 0 if equal; ValueError if not comparable."""
    combo_a, combo_b = classify(a, rules), classify(b, rules)
    if combo_a is None or combo_b is None:
        raise ValueError("not a combo")
    (kind_a, key_a), (kind_b, key_b) = combo_a, combo_b
    if len(a) != len(b):
        bombs = rules["bombs"] == "quads-and-straight-flush"
        if bombs and kind_a in BOMB_KINDS and len(b) < 5:
            return 1
        if bombs and kind_b in BOMB_KINDS and len(a) < 5:
            return -1
        raise ValueError(f"a {kind_a} and a {kind_b} are not comparable")
    if len(a) == 5 and kind_a != kind_b:
        return _sign(FIVE_CARD_ORDER.index(kind_a), FIVE_CARD_ORDER.index(kind_b))
    return _sign(key_a, key_b)


def beats(play: Sequence[int], table: Sequence[int], rules: Rules) -> bool:
    """Whether ``play`` is a combo that may be played on ``table`` (strictly higher)."""
    try:
        return compare(play, table, rules) == 1
    except ValueError:
        return False


# ----------------------------------------------------------------------------- plays


def legal_plays(
    hand: Iterable[int],
    table: Sequence[int] | None = None,
    rules: Rules | None = None,
    first_play: bool = False,
) -> set[frozenset[int]]:
    """Every subset of the hand of 1, 2, 3 or 5 cards that may be played now."""
    rules = make_rules() if rules is None else rules
    hand = sorted(hand)
    lowest = lowest_card(hand, rules) if hand else None
    plays = set()
    for size in (1, 2, 3, 5):
        # Shortcut, not a rule: a play of another size than the table's can only be legal
        # as a five-card bomb (with bombs on) on a smaller table; skip sizes that cannot win.
        bomb_size = size == 5 and len(table or ()) < 5 and rules["bombs"] != "none"
        if table is not None and size != len(table) and not bomb_size:
            continue
        for subset in combinations(hand, size):
            if classify(subset, rules) is None:
                continue
            if first_play and lowest not in subset:
                continue
            if table is not None and not beats(subset, table, rules):
                continue
            plays.add(frozenset(subset))
    return plays


def validate(
    hand: Iterable[int],
    play: Sequence[int] | str,
    table: Sequence[int] | None = None,
    rules: Rules | None = None,
    first_play: bool = False,
    passed: bool = False,
) -> tuple[bool, str | None]:
    """``(True, None)`` for an allowed play, else ``(False, code)``."""
    rules = make_rules() if rules is None else rules
    hand = set(hand)
    if isinstance(play, str):
        if play != "pass":
            raise ValueError(f"a play is cards or 'pass', not {play!r}")
        if table is None:
            return False, "CANNOT_PASS_WHEN_LEADING"
        return True, None
    play = list(play)
    if passed and rules["pass_locks"]:
        return False, "PASSED_THIS_TRICK"
    if any(card not in hand for card in play):
        return False, "NOT_IN_HAND"
    if table is not None and len(play) != len(table):
        bomb = (
            rules["bombs"] == "quads-and-straight-flush"
            and len(table) < 5
            and kind_of(play, rules) in BOMB_KINDS
        )
        if not bomb:
            return False, "WRONG_CARD_COUNT"
    reason = why_not(play, rules)
    if reason is not None:
        return False, reason
    if first_play and lowest_card(hand, rules) not in play:
        return False, "MUST_INCLUDE_LOWEST"
    if table is not None and not beats(play, table, rules):
        return False, "DOES_NOT_BEAT"
    return True, None


# ----------------------------------------------------------------------------- scoring


def multiplier(cards_left: int, rules: Rules) -> int:
    """The multiplier of the tier with the largest threshold <= cards_left (0 if none)."""
    eligible = [
        (threshold, mult) for threshold, mult in rules["scoring"] if threshold <= cards_left
    ]
    return max(eligible)[1] if eligible else 0


def score(cards_left: Sequence[int], rules: Rules | None = None) -> list[int]:
    rules = make_rules() if rules is None else rules
    if not 2 <= len(cards_left) <= 4:
        raise ValueError("2 to 4 players")
    if any(not 0 <= n <= 13 for n in cards_left) or list(cards_left).count(0) != 1:
        raise ValueError("counts are 0..13 with exactly one 0")
    paid = [n * multiplier(n, rules) for n in cards_left]
    return [sum(paid) if n == 0 else -paid[i] for i, n in enumerate(cards_left)]
