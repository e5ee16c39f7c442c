"""The Capsa Banting engine against the pure-Python oracle, on random material, per rule set.

What a user would notice if these failed: a combo recognised as the wrong kind (or a
forbidden run let through), a play judged higher or lower than the table rules say, a
legal play missing from (or an illegal one added to) the move list a bot or a UI shows,
the batch counts disagreeing with the lists, or a rejection with the wrong reason code.

Every rule set of ``CONFIGS`` (the four presets and overrides touching each setting the
engine reads) gets the same battery; all randomness is seeded, so a failure reproduces.
The oracle (``tests/banting/oracle_banting.py``) is slow, so the amounts below are sized to keep
the whole file near a minute.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from capsa_fast import banting

from tests.banting import oracle_banting as oracle
from tests.banting.oracle_banting import ALL_RUNS, RANK_CHARS, cards_text

TWOS_DEMOTED = "twos_demoted"  # not a setting: the state passed to the stateless calls

# (id, preset, overrides)
CONFIGS: list[tuple[str, str, dict[str, Any]]] = [
    ("capsa-banting", "capsa-banting", {}),
    ("hong-kong", "hong-kong", {}),
    ("taiwan", "taiwan", {}),
    ("pagat", "pagat", {}),
    ("pass-locks", "capsa-banting", {"pass_locks": True}),
    ("no-triples", "capsa-banting", {"triples": False}),
    ("bombs", "capsa-banting", {"bombs": "quads-and-straight-flush"}),
    ("taiwan-no-bombs", "taiwan", {"bombs": "none"}),
    ("two-low", "capsa-banting", {"straights": "two-low"}),
    ("taiwan-order", "pagat", {"straights": "taiwan"}),
    ("ace-top-jqka2", "capsa-banting", {"straights": "ace-top-jqka2"}),
    ("no-two", "hong-kong", {"straights": "no-two"}),
    (
        "explicit-all-runs",
        "capsa-banting",
        {"straights": ["KA234", "34567", "QKA23", *ALL_RUNS[3:10], "A2345", "JQKA2", "23456"]},
    ),
    ("sequence-top", "capsa-banting", {"straight_tiebreak": "sequence-top"}),
    ("hk-all-runs", "hong-kong", {"straights": ALL_RUNS[::-1]}),
    ("hk-highest-card", "hong-kong", {"straight_tiebreak": "highest-card"}),
    ("rank-first", "capsa-banting", {"flush_compare": "rank-first"}),
    ("no-flushes", "capsa-banting", {"flush_compare": "none"}),
    ("taiwan-suit-first", "taiwan", {"flush_compare": "suit-first"}),
    ("suit-order-shdc", "pagat", {"suit_order": "shdc", "bombs": "quads-and-straight-flush"}),
    ("top-card", "capsa-banting", {"flush_compare": "top-card"}),
    ("capsa-klasik", "capsa-klasik", {}),
    # The round state of seed 000's two_demotion: a four of a kind has demoted the 2s.
    ("klasik-twos-demoted", "capsa-klasik", {TWOS_DEMOTED: True}),
    ("bombs-twos-demoted", "taiwan", {"two_demotion": True, TWOS_DEMOTED: True}),
]
PRESETS_ONLY = {"capsa-banting", "hong-kong", "taiwan", "pagat"}


def config_params() -> list[Any]:
    return [pytest.param(preset, overrides, id=name) for name, preset, overrides in CONFIGS]


def both_rules(preset: str, overrides: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    settings = {k: v for k, v in overrides.items() if k != TWOS_DEMOTED}
    ours = oracle.make_rules(preset, **settings)
    if overrides.get(TWOS_DEMOTED):
        ours = oracle.with_twos_demoted(ours)
    return banting.Rules.preset(preset, **settings), ours


def state(ours: dict[str, Any]) -> dict[str, bool]:
    """The round state to hand to the engine's stateless calls along with the rules."""
    return {TWOS_DEMOTED: True} if ours.get(oracle.DEMOTED) else {}


def seed_of(*parts: object) -> int:
    return sum((i + 1) * ord(ch) for i, ch in enumerate(repr(parts)))


def report(mismatches: list[str], what: str) -> None:
    if mismatches:
        shown = "\n  ".join(mismatches[:12])
        pytest.fail(f"{len(mismatches)} {what} disagree with the oracle, e.g.\n  {shown}")


# ----------------------------------------------------------------------------- material


def card(rank: int, suit: int) -> int:
    return rank * 4 + suit


def _run(rng: random.Random) -> list[int]:
    run = rng.choice(ALL_RUNS)
    if rng.random() < 0.3:
        suit = rng.randrange(4)
        return [card(RANK_CHARS.index(ch), suit) for ch in run]
    return [card(RANK_CHARS.index(ch), rng.randrange(4)) for ch in run]


def _flush(rng: random.Random) -> list[int]:
    suit = rng.randrange(4)
    return [card(rank, suit) for rank in rng.sample(range(13), 5)]


def _of_a_rank(rng: random.Random, n: int, rank: int | None = None) -> list[int]:
    rank = rng.randrange(13) if rank is None else rank
    return [card(rank, suit) for suit in rng.sample(range(4), n)]


def _groups(rng: random.Random, sizes: list[int]) -> list[int]:
    ranks = rng.sample(range(13), len(sizes))
    return [c for rank, n in zip(ranks, sizes, strict=True) for c in _of_a_rank(rng, n, rank)]


SHAPES: dict[str, Callable[[random.Random], list[int]]] = {
    "single": lambda rng: [rng.randrange(52)],
    "pair": lambda rng: _of_a_rank(rng, 2),
    "triple": lambda rng: _of_a_rank(rng, 3),
    "run": _run,
    "flush": _flush,
    "full_house": lambda rng: _groups(rng, [3, 2]),
    "quads": lambda rng: _groups(rng, [4, 1]),
    # not combos (or only sometimes)
    "junk2": lambda rng: rng.sample(range(52), 2),
    "junk3": lambda rng: rng.sample(range(52), 3),
    "junk5": lambda rng: rng.sample(range(52), 5),
    "four_alone": lambda rng: _of_a_rank(rng, 4),
    "two_pairs": lambda rng: _groups(rng, [2, 2]),
    "two_pairs_kicker": lambda rng: _groups(rng, [2, 2, 1]),
    "triple_two_odd": lambda rng: _groups(rng, [3, 1, 1]),
    "pair_three_odd": lambda rng: _groups(rng, [2, 1, 1, 1]),
    "four_cards": lambda rng: rng.sample(range(52), 4),
    "six_cards": lambda rng: rng.sample(range(52), 6),
    "empty": lambda rng: [],
}
COMBO_SHAPES_BY_SIZE = {
    1: ["single"],
    2: ["pair"],
    3: ["triple"],
    5: ["run", "run", "flush", "full_house", "quads"],
}


def draw(
    rng: random.Random, shape: str, avoid: set[int] | frozenset[int] = frozenset()
) -> list[int]:
    """A card set of the given shape sharing no card with ``avoid``."""
    for _ in range(200):
        cards = SHAPES[shape](rng)
        if not avoid.intersection(cards):
            return cards
    raise AssertionError(f"could not draw a {shape} avoiding {cards_text(avoid)}")


def draw_combo(
    rng: random.Random, size: int, rules: dict[str, Any], avoid: set[int] | frozenset[int]
) -> list[int]:
    """A card set of ``size`` cards that is a combo under ``rules``, avoiding ``avoid``."""
    for _ in range(200):
        cards = draw(rng, rng.choice(COMBO_SHAPES_BY_SIZE[size]), avoid)
        if oracle.classify(cards, rules) is not None:
            return cards
    raise AssertionError(f"no {size}-card combo drawn")


def combo_sizes(rules: dict[str, Any]) -> list[int]:
    """Sizes a combo can have under ``rules`` (no lone triples with triples = false)."""
    return [1, 2, 3, 5] if rules["triples"] else [1, 2, 5]


def random_hand(rng: random.Random, size: int = 13) -> list[int]:
    """A hand; half the time built around a five-card combo so bombs and runs show up."""
    hand: set[int] = set()
    if size >= 5 and rng.random() < 0.5:
        hand.update(draw(rng, rng.choice(["run", "flush", "quads", "full_house"])))
    while len(hand) < size:
        hand.add(rng.randrange(52))
    return sorted(hand)


# ----------------------------------------------------------------------------- rules


@pytest.mark.parametrize(("preset", "overrides"), config_params())
def test_settings_agree_with_the_oracle(preset: str, overrides: dict[str, Any]) -> None:
    rules, ours = both_rules(preset, overrides)
    theirs = rules.to_dict()
    for name, value in ours.items():
        if name == oracle.DEMOTED:
            continue
        got = theirs[name]
        if name == "straights":
            got = list(got)
        if name == "scoring":
            got = [list(tier) for tier in got]
        assert got == value, name
        attribute = getattr(rules, name)
        if name == "straights":
            assert list(attribute) == value
        elif name != "scoring":
            assert attribute == value, name


# ----------------------------------------------------------------------------- classify


@pytest.mark.parametrize(("preset", "overrides"), config_params())
def test_classify_agrees(preset: str, overrides: dict[str, Any]) -> None:
    rules, ours = both_rules(preset, overrides)
    rng = random.Random(seed_of("classify", preset, overrides))
    shapes = list(SHAPES)
    weights = [6 if shape in ("run", "flush", "junk5") else 2 for shape in shapes]
    amount = 3000 if preset in PRESETS_ONLY and not overrides else 1500
    mismatches = []
    for _ in range(amount):
        cards = draw(rng, rng.choices(shapes, weights)[0])
        expected_kind = oracle.kind_of(cards, ours)
        expected_reason = oracle.why_not(cards, ours)
        combo = banting.classify(cards, rules, **state(ours))
        kind = None if combo is None else combo.kind
        reason = banting.why_not(cards, rules)
        code = None if reason is None else reason[0]
        if kind != expected_kind or code != expected_reason:
            mismatches.append(
                f"{cards_text(cards)}: engine {kind}/{code}, oracle {expected_kind}/"
                f"{expected_reason}"
            )
        elif combo is not None and sorted(combo.cards) != sorted(cards):
            mismatches.append(f"{cards_text(cards)}: combo.cards = {combo.cards}")
    report(mismatches, "classifications")


# ----------------------------------------------------------------------------- compare


def _pair_for_compare(rng: random.Random, ours: dict[str, Any]) -> tuple[list[int], list[int]]:
    """Two disjoint card sets, mostly same-size combos, with near-ties on purpose."""
    roll = rng.random()
    if roll < 0.70:
        size = rng.choice([*combo_sizes(ours), 5, 5])
        a = draw_combo(rng, size, ours, frozenset())
        if size == 5 and rng.random() < 0.3:
            # the same ranks in other suits: equal runs, flushes split by suit
            ranks = [c // 4 for c in a]
            if len(set(ranks)) == 5:
                for _ in range(50):
                    b = [card(rank, rng.randrange(4)) for rank in ranks]
                    if rng.random() < 0.3:
                        suit = rng.randrange(4)
                        b = [card(rank, suit) for rank in ranks]
                    if not set(a) & set(b):
                        return a, b
        if size == 2 and rng.random() < 0.4:
            rest = [card(a[0] // 4, s) for s in range(4) if card(a[0] // 4, s) not in a]
            return a, rest  # the same rank: the highest suit decides
        if size == 1 and rng.random() < 0.3:
            return a, [card(a[0] // 4, rng.choice([s for s in range(4) if s != a[0] % 4]))]
        return a, draw_combo(rng, size, ours, set(a))
    if roll < 0.85:
        # different sizes: only bombs (under bombs) over 1-3 cards are comparable
        a = draw(rng, rng.choice(["quads", "run", "flush", "full_house"]))
        b = draw_combo(rng, rng.choice(combo_sizes(ours)[:-1]), ours, set(a))
        return (a, b) if rng.random() < 0.5 else (b, a)
    a = draw(rng, rng.choice(list(SHAPES)))
    b = draw(rng, rng.choice(list(SHAPES)), set(a))
    return a, b


@pytest.mark.parametrize(("preset", "overrides"), config_params())
def test_compare_agrees(preset: str, overrides: dict[str, Any]) -> None:
    rules, ours = both_rules(preset, overrides)
    rng = random.Random(seed_of("compare", preset, overrides))
    amount = 4000 if preset in PRESETS_ONLY and not overrides else 2000
    mismatches = []
    outcomes = set()
    for _ in range(amount):
        a, b = _pair_for_compare(rng, ours)
        try:
            expected: int | str = oracle.compare(a, b, ours)
        except ValueError:
            expected = "ValueError"
        try:
            got: int | str = banting.compare(a, b, rules, **state(ours))
        except ValueError:
            got = "ValueError"
        outcomes.add(expected)
        if got != expected:
            mismatches.append(
                f"compare({cards_text(a)} | {cards_text(b)}): {got}, oracle {expected}"
            )
    report(mismatches, "comparisons")
    # (0 cannot happen between disjoint card sets: equal combos would share their
    # tie-break card; compare(a, a) is a property test)
    assert outcomes == {1, -1, "ValueError"}, "the sample should reach every outcome"


# ----------------------------------------------------------------------------- legal plays


def _as_set(combos: list[Any]) -> set[frozenset[int]]:
    return {frozenset(int(c) for c in combo.cards) for combo in combos}


def _diff(got: set[frozenset[int]], expected: set[frozenset[int]]) -> str:
    extra = sorted(cards_text(p) for p in got - expected)[:4]
    missing = sorted(cards_text(p) for p in expected - got)[:4]
    return f"extra {extra} missing {missing}"


@pytest.mark.parametrize(("preset", "overrides"), config_params())
def test_legal_plays_agree(preset: str, overrides: dict[str, Any]) -> None:
    rules, ours = both_rules(preset, overrides)
    rng = random.Random(seed_of("legal", preset, overrides))
    many = preset in PRESETS_ONLY and not overrides
    mismatches = []
    cases: list[tuple[list[int], list[int] | None, bool]] = []
    for _ in range(12 if many else 6):
        cases.append((random_hand(rng), None, False))
        cases.append((random_hand(rng), None, True))
        cases.append((random_hand(rng, rng.randrange(1, 13)), None, rng.random() < 0.5))
        for size in combo_sizes(ours):
            hand = random_hand(rng)
            cases.append((hand, draw_combo(rng, size, ours, set(hand)), False))
    cases.append((random_hand(rng, 17), None, rng.random() < 0.5))  # bigger than a deal
    for hand, table, first_play in cases:
        expected = oracle.legal_plays(hand, table, ours, first_play)
        combos = banting.legal_plays(
            hand, table=table, rules=rules, first_play=first_play, **state(ours)
        )
        got = _as_set(combos)
        if got != expected or len(combos) != len(got):
            mismatches.append(
                f"hand {cards_text(hand)} table {table and cards_text(table)} "
                f"first_play={first_play}: {len(combos)} plays ({len(got)} distinct), "
                f"oracle {len(expected)}; {_diff(got, expected)}"
            )
            continue
        for combo in combos:
            if combo.kind != oracle.kind_of(list(combo.cards), ours):
                mismatches.append(f"{cards_text(combo.cards)} listed as {combo.kind}")
                break
    report(mismatches, "legal-play lists")


@pytest.mark.parametrize(("preset", "overrides"), config_params())
def test_legal_play_counts_agree(preset: str, overrides: dict[str, Any]) -> None:
    rules, ours = both_rules(preset, overrides)
    rng = random.Random(seed_of("counts", preset, overrides))
    batches: list[tuple[list[list[int]], list[int] | None, bool]] = []
    for first_play in (False, True):
        batches.append(([random_hand(rng) for _ in range(100)], None, first_play))
    for size in combo_sizes(ours):
        # the hands of a batch share no card with its table
        table = draw_combo(rng, size, ours, frozenset())
        rest = [c for c in range(52) if c not in table]
        batches.append(([sorted(rng.sample(rest, 13)) for _ in range(60)], table, False))
    mismatches = []
    for hands, table, first_play in batches:
        array = np.array(hands, dtype=np.uint8)
        counts = banting.legal_play_counts(
            array, table=table, rules=rules, first_play=first_play, **state(ours)
        )
        assert np.asarray(counts).shape == (len(hands),)
        for i, hand in enumerate(hands):
            listed = len(
                banting.legal_plays(
                    hand, table=table, rules=rules, first_play=first_play, **state(ours)
                )
            )
            if i < 4:
                oracle_count = len(oracle.legal_plays(hand, table, ours, first_play))
                if oracle_count != listed:
                    mismatches.append(f"{cards_text(hand)}: list {listed}, oracle {oracle_count}")
            if int(counts[i]) != listed:
                mismatches.append(
                    f"{cards_text(hand)} table {table and cards_text(table)} "
                    f"first_play={first_play}: count {int(counts[i])}, list {listed}"
                )
    report(mismatches, "legal play counts")


# ----------------------------------------------------------------------------- validate


def _validate_case(
    rng: random.Random, ours: dict[str, Any]
) -> tuple[list[int], list[int] | str, list[int] | None, bool, bool]:
    hand = random_hand(rng, rng.choice([13, 13, 13, rng.randrange(1, 14)]))
    table = None
    if rng.random() < 0.6:
        table = draw_combo(rng, rng.choice(combo_sizes(ours)), ours, set(hand))
    first_play = table is None and rng.random() < 0.4
    # ``passed`` with pass_locks is only meaningful while a trick is on the table
    passed = rng.random() < 0.25 and (table is not None or not ours["pass_locks"])
    roll = rng.random()
    play: list[int] | str
    if roll < 0.05:
        play = "pass"
        if passed and ours["pass_locks"]:
            passed = False  # passing again while locked out: the spec leaves it open
    elif roll < 0.30:
        legal = sorted(oracle.legal_plays(hand, table, ours, first_play), key=sorted)
        play = sorted(rng.choice(legal)) if legal else sorted(rng.sample(hand, 1))
    elif roll < 0.50:
        # a combo from the hand that ignores the table and the lowest card: mostly
        # DOES_NOT_BEAT or MUST_INCLUDE_LOWEST
        combos = [
            sorted(p)
            for p in oracle.legal_plays(hand, None, ours)
            if table is None or len(p) == len(table)
        ]
        play = rng.choice(combos) if combos else sorted(rng.sample(hand, 1))
    elif roll < 0.80:
        size = rng.choice([1, 2, 3, 4, 5, 5, 6])
        play = sorted(rng.sample(hand, min(size, len(hand))))
    elif roll < 0.90:
        shape = rng.choice(["run", "flush", "quads", "full_house", "pair", "triple"])
        play = draw(rng, shape, set(table or []))
    else:
        outside = [c for c in range(52) if c not in hand and c not in (table or [])]
        size = rng.choice([1, 2, 3, 5])
        play = sorted([*rng.sample(hand, min(size - 1, len(hand))), rng.choice(outside)])
    return hand, play, table, first_play, passed


@pytest.mark.parametrize(("preset", "overrides"), config_params())
def test_validate_agrees(preset: str, overrides: dict[str, Any]) -> None:
    rules, ours = both_rules(preset, overrides)
    rng = random.Random(seed_of("validate", preset, overrides))
    amount = 800 if preset in PRESETS_ONLY and not overrides else 400
    mismatches = []
    seen = set()
    for _ in range(amount):
        hand, play, table, first_play, passed = _validate_case(rng, ours)
        ok, code = oracle.validate(hand, play, table, ours, first_play, passed)
        seen.add(code)
        verdict = banting.validate(
            hand,
            play,
            table=table,
            rules=rules,
            first_play=first_play,
            passed=passed,
            **state(ours),
        )
        got_code = None if verdict.ok else verdict.code
        if verdict.ok != ok or got_code != code:
            shown = play if isinstance(play, str) else cards_text(play)
            mismatches.append(
                f"hand {cards_text(hand)} play {shown} table {table and cards_text(table)} "
                f"first_play={first_play} passed={passed}: engine {verdict.ok}/{verdict.code}, "
                f"oracle {ok}/{code}"
            )
            continue
        if ok and not isinstance(play, str):
            kind = None if verdict.combo is None else verdict.combo.kind
            if kind != oracle.kind_of(play, ours):
                mismatches.append(f"{cards_text(play)} accepted as {kind}")
        if not ok and not verdict.message:
            mismatches.append(f"{code} without a message")
    report(mismatches, "verdicts")
    expected_codes = {None, "CANNOT_PASS_WHEN_LEADING", "NOT_IN_HAND", "NOT_A_COMBO"}
    expected_codes |= {"WRONG_CARD_COUNT", "DOES_NOT_BEAT", "MUST_INCLUDE_LOWEST"}
    assert expected_codes <= seen, f"the sample missed {expected_codes - seen}"
    if ours["pass_locks"]:
        assert "PASSED_THIS_TRICK" in seen
