"""Capsa Susun edge cases, each spelled out by hand from RULES.md section 4 and API.md.

These are the places where Susun engines disagree or go wrong: rows equal in their groups
(split by suit before any kicker, or tied), a 3-card top against a 5-card middle with
missing kickers, bonus rows in the wrong position, sweeps, the super at two and four
players and not at three, fouled players against a sweeper and against each other,
dragons, the worked example of RULES.md 4.2, the room fee, and bad input. The expected
values come from reading the rules, not from the oracle, so a misreading shared by the
oracle and the engine would still show up.

Reading of the suit tiebreak used here (RULES.md 4.1, as in ``tests/susun/oracle_susun.py``):
rows of one category compare by the ranks of their groups (the four, the triple, the
pairs from the higher down, a straight's top card, every rank of a high-card hand), then
by the highest-suited card (d < c < h < s) of the group compared first (the pair, the
higher pair, the triple, the top card of a straight, the 5 of A-2-3-4-5, the highest
card), and never by a kicker; flushes compare the suit before the ranks.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from capsa_fast import susun

from tests.susun.oracle_susun import parse

ROYAL_SPADES = "Ts Js Qs Ks As"
FIVE_CARD_HANDS = 2_598_960
THREE_CARD_HANDS = 22_100


def rules_of(preset: str = "capsa-susun", **overrides: Any) -> Any:
    return susun.Rules.preset(preset, **overrides)


def rows(top: str, middle: str, bottom: str) -> dict[str, list[int]]:
    return {"top": parse(top), "middle": parse(middle), "bottom": parse(bottom)}


def check(top: str, middle: str, bottom: str, rules: Any) -> Any:
    return susun.check(parse(top), parse(middle), parse(bottom), rules)


def points(rules: Any, *players: dict[str, list[int]], stake: float = 1) -> list[int]:
    t = susun.score(list(players), rules, stake=stake)
    result = [int(p) for p in t.points]
    assert sum(result) == 0
    return result


def ids(cards: Any) -> list[int]:
    return [int(card) for card in cards]


def key(text: str, rules: Any) -> int:
    return susun.row_key(parse(text), rules)


# ----------------------------------------------------------------------------- presets


def test_presets_are_the_rules_table() -> None:
    assert {"capsa-susun", "classic", "two-four"} <= set(susun.PRESETS)
    default = rules_of().to_dict()
    assert default["suit_tiebreak"] is True
    assert default["bonus_rows"]["middle"]["royal_flush"] == 22
    assert (default["sweep_multiplier"], default["super_multiplier"]) == (2, 4)
    assert (default["super_players"], default["foul_points"]) == ([2, 4], 12)
    assert (default["dragon_points"], default["room_fee"]) == (208, 0.03)
    two_four = susun.Rules.from_dict({"preset": "two-four"}).to_dict()
    assert (two_four["sweep_multiplier"], two_four["majority_bonus"]) == (1, 1)
    assert (two_four["foul_points"], two_four["dragon_points"]) == (4, 0)


def test_overrides_apply_and_bonus_rows_replace_the_table() -> None:
    rules = rules_of("capsa-susun", sweep_multiplier=3, bonus_rows={"top": {"three_of_a_kind": 2}})
    settings = rules.to_dict()
    assert settings["sweep_multiplier"] == 3
    assert settings["foul_points"] == 12  # untouched
    assert settings["bonus_rows"]["top"] == {"three_of_a_kind": 2}
    assert not settings["bonus_rows"].get("middle")  # the whole table was replaced
    same = susun.Rules.from_dict({"preset": "capsa-susun", "sweep_multiplier": 3})
    assert same.to_dict()["sweep_multiplier"] == 3


# ----------------------------------------------------------------------------- row order and fouls


# (top, middle, bottom, fouled under capsa-susun, fouled under classic)
EQUAL_ROWS = {
    "straights, bottom's king higher": (
        "2c 3d 5h",
        "9c Tc Jd Qd Kh",
        "9d Th Jh Qs Ks",
        False,
        False,
    ),
    "straights, middle's king higher": (
        "2c 3d 5h",
        "9c Tc Jd Qd Ks",
        "9d Th Jh Qs Kh",
        True,
        False,
    ),
    "wheels: the 5 decides, not the ace": (
        "9c 8d 7h",
        "Ad 2c 3c 4c 5s",
        "As 2d 3d 4d 5h",
        True,
        False,
    ),
    "pairs of aces, middle holds the spade": (
        "2c 3d 5h",
        "As Ac 9d 7d 4c",
        "Ah Ad 9c 7c 4d",
        True,
        False,
    ),
    "pairs of aces, bottom holds the spade": (
        "2c 3d 5h",
        "Ah Ad 9c 7c 4d",
        "As Ac 9d 7d 4c",
        False,
        False,
    ),
    "two pair: the higher pair decides": (
        "2c 3d 5h",
        "Kh Kc 4s 4h 9c",
        "Ks Kd 4c 4d 9d",
        False,
        False,
    ),
    "two pair: middle's higher pair holds the spade": (
        "2c 3d 5h",
        "Ks Kd 4c 4d 9d",
        "Kh Kc 4s 4h 9c",
        True,
        False,
    ),
    "high cards: the top card decides": (
        "2c 3d 6h",
        "Ks Jc 9c 7c 5d",
        "Kh Js 9s 7s 5s",
        True,
        False,
    ),
    "flushes: suit first (spade 7-high over diamond ace-high)": (
        "2c 3d 4h",
        "7s 5s 4s 3s 2s",
        "Ad Kd 9d 8d 6d",
        True,
        False,
    ),
    "flushes of one suit: ranks": ("2c 3d 4h", "9s 7s 5s 3s 2s", "As Ks Js 8s 6s", False, False),
    "flushes of one suit, reversed": (
        "2c 3d 4h",
        "As Ks Js 8s 6s",
        "9s 7s 5s 3s 2s",
        True,
        True,
    ),
    "royal flushes: spades over hearts": ("2c 3d 4h", "Th Jh Qh Kh Ah", ROYAL_SPADES, False, False),
    "royal flushes: hearts under spades": ("2c 3d 4h", ROYAL_SPADES, "Th Jh Qh Kh Ah", True, False),
}


@pytest.mark.parametrize("case", list(EQUAL_ROWS))
def test_rows_equal_in_poker_order(case: str) -> None:
    top, middle, bottom, fouled_with_tiebreak, fouled_without = EQUAL_ROWS[case]
    with_tiebreak = check(top, middle, bottom, rules_of("capsa-susun"))
    assert with_tiebreak.fouled is fouled_with_tiebreak
    assert list(with_tiebreak.out_of_order) == (["middle>bottom"] if fouled_with_tiebreak else [])
    for preset in ("classic", "two-four"):
        without = check(top, middle, bottom, rules_of(preset))
        assert without.fouled is fouled_without
    # the tiebreak is a setting, not a preset: switching it flips the verdict
    switched = check(top, middle, bottom, rules_of("classic", suit_tiebreak=True))
    assert switched.fouled is fouled_with_tiebreak


def test_equal_rows_tie_in_row_key_only_without_tiebreak() -> None:
    a, b = "9c Tc Jd Qd Kh", "9d Th Jh Qs Ks"
    assert key(a, rules_of("classic")) == key(b, rules_of("classic"))
    assert key(a, rules_of("capsa-susun")) < key(b, rules_of("capsa-susun"))
    # same cards but a kicker in another suit: equal even with the tiebreak
    assert key("As Ad Kc Qc Jc", rules_of()) == key("As Ah Kd Qh Jc", rules_of())


# RULES.md 4.1, seed 001: "kartu kicker hanya sebagai kartu pelengkap" (kicker cards only
# complete the hand): after the ranks of the groups the suit of the deciding card decides,
# before any kicker.
KICKER_NEVER_DECIDES = [
    # (stronger with the tiebreak, weaker with it; poker order's kickers say the opposite)
    ("As Ad 2c 3c 4h", "Ah Ac Kd Qd Js"),  # the RULES.md example: the ace of spades
    ("Qs Qd 8c 8d 5c", "Qh Qc 8s 8h Ad"),  # the RULES.md example: the higher pair's spade
    ("Js Jd 4c 3c 2h", "Jh Jc Ad Kd Qs"),  # a pair of jacks, kickers A K Q against 4 3 2
    ("As Ad 2c", "Ah Ac Kd Qd Js"),  # a top row against a middle row (a foul check)
    ("Ts Td 7c 7d 2c", "Th Tc 7s 7h Ad"),  # two pair, kicker two against ace
]


@pytest.mark.parametrize(("stronger", "weaker"), KICKER_NEVER_DECIDES)
def test_kicker_never_decides(stronger: str, weaker: str) -> None:
    with_tiebreak, without = rules_of(), rules_of("classic")
    assert key(stronger, with_tiebreak) > key(weaker, with_tiebreak)
    assert key(stronger, without) < key(weaker, without)  # poker order reads the kickers


def test_seed_examples_decide_rows_at_a_table() -> None:
    # the two RULES.md 4.1 examples head to head in the middle and the bottom
    a = rows("2c 3d 5h", "As Ad 2s 3s 4h", "Qs Qd 8c 8d 5c")
    b = rows("2d 3c 6h", "Ah Ac Kd Jd Ts", "Qh Qc 8s 8h 9d")
    for player in (a, b):
        assert not susun.check(player["top"], player["middle"], player["bottom"], rules_of()).fouled
    t = susun.score([a, b], rules_of())
    assert t.pairs[0]["rows"] == {"top": -1, "middle": 1, "bottom": 1}
    assert [int(p) for p in t.points] == [1, -1]
    # poker order gives both rows to b's kickers: b sweeps (x2 in classic)
    assert points(rules_of("classic"), a, b) == [-6, 6]


def test_a_three_card_top_has_fewer_ranks_than_a_five_card_middle() -> None:
    # The README's reading of RULES.md 4.1 for high cards: all the ranks a row has, a
    # missing one lower than any card (section 2), before the suit: A K Q under A K Q J 9
    # is not a foul, though the top's ace is the spade.
    rules = rules_of()
    assert key("As Kh Qc", rules) < key("Ad Kd Qd Jc 9h", rules)
    assert not susun.check("As Kh Qc", "Ad Kd Qd Jc 9h", "2c 2d 2h 5s 5c", rules).fouled
    # Equal ranks throughout: the suit of the highest card decides (pairs: the pair's).
    assert key("As Ad Kc", rules) > key("Ah Ac Kd", rules)


def test_kickers_never_decide_the_same_groups_and_suit_tie() -> None:
    rules = rules_of()
    # four of a kind: only the four (one deck holds no two equal fours, but percentiles
    # compare every hand)
    assert key("9s 9d 9c 9h 2d", rules) == key("9s 9d 9c 9h Ad", rules)
    # a pair with the same best suit, any kickers
    assert key("As Ad 2c 3c 4h", rules) == key("As Ah Kd Qd Js", rules)
    assert key("As Ad Kc", rules) == key("As Ah 4d 3c 2c", rules)
    # two pair: both pairs, then the suit of the higher one, never the kicker
    assert key("Qs Qd 8c 8d 5c", rules) == key("Qs Qh 8s 8h Ad", rules)
    assert key("Qc Qd 9c 9d 2c", rules) > key("Qs Qh 8s 8h Ad", rules)  # nines over eights
    # a full house's pair is a group, not a kicker; then the triple's best suit
    assert key("Kc Kd Kh 4c 4d", rules) > key("Ks Kd Kh 2c 2d", rules)
    assert key("Ks Kd Kc 2h 2s", rules) > key("Kh Kd Kc 2c 2d", rules)
    # straights and straight flushes: the top card, then its suit
    assert key("9c Tc Jd Qd Ks", rules) > key("9d Th Jh Qs Kh", rules)
    assert key("9h Th Jh Qh Kh", rules) < key("9s Ts Js Qs Ks", rules)
    assert key("Ah Kh Qh Jh Th", rules) > key("9s Ts Js Qs Ks", rules)
    # high cards: every rank first, then the suit of the highest card
    assert key("Ks Jc 9c 7c 5d", rules) > key("Kh Js 9s 7s 5s", rules)
    assert key("Kd Jc 9c 7c 6d", rules) > key("Ks Jh 9h 7h 5h", rules)


# (top, middle, bottom, out_of_order under capsa-susun, out_of_order under classic)
TOP_AGAINST_MIDDLE = {
    "AAK on top, AAK32 in the middle: the ace of spades, not the kickers": (
        "As Ad Kc",
        "Ah Ac Kd 3c 2c",
        "5h 6h 7h 8h Th",
        ["top>middle"],
        [],
    ),
    "AAK on top under AA32 with the ace of spades": (
        "Ah Ad Kc",
        "As Ac 4d 3c 2c",
        "5h 6h 7h 8h Th",
        [],
        ["top>middle"],
    ),
    "AAQ on top over AAJ32 in the middle": (
        "As Ad Qc",
        "Ah Ac Jd 3c 2c",
        "5h 6h 7h 8h Th",
        ["top>middle"],
        ["top>middle"],
    ),
    "AKQ high on top, AKQJ9 in the middle: a missing rank is lower": (
        "As Ks Qs",
        "Ah Kh Qh Jd 9c",
        "2c 2d 2h 3c 3d",
        [],
        [],
    ),
    "AKQ high with the ace of spades on top, AKQ32 in the middle": (
        "As Kd Qc",
        "Ah Kh Qh 3d 2c",
        "2d 2h 2s 4c 4d",
        [],
        [],
    ),
    "trips on top over smaller trips in the middle": (
        "Kc Kd Kh",
        "Qs Qh Qd 2c 3d",
        "As Ad Ah Ac 4c",
        ["top>middle"],
        ["top>middle"],
    ),
    "trips on top under bigger trips in the middle": (
        "Qs Qh Qd",
        "Kc Kd Kh 2c 3d",
        "As Ad Ah Ac 4c",
        [],
        [],
    ),
    "both rows out of order": (
        "As Ad Ac",
        "Kc Kd 2h 3h 4s",
        "Qc Qd 5h 6h 8s",
        ["top>middle", "middle>bottom"],
        ["top>middle", "middle>bottom"],
    ),
}


@pytest.mark.parametrize("case", list(TOP_AGAINST_MIDDLE))
@pytest.mark.parametrize("preset", ["capsa-susun", "classic"])
def test_top_against_middle(case: str, preset: str) -> None:
    top, middle, bottom, with_tiebreak, without = TOP_AGAINST_MIDDLE[case]
    out_of_order = with_tiebreak if preset == "capsa-susun" else without
    c = check(top, middle, bottom, rules_of(preset))
    assert c.fouled is bool(out_of_order)
    assert sorted(c.out_of_order) == sorted(out_of_order)
    assert [r.position for r in c.rows] == ["top", "middle", "bottom"]


def test_three_and_five_card_rows_share_one_scale() -> None:
    rules, plain = rules_of(), rules_of("classic")
    # poker order: a missing kicker counts lower than any card
    assert key("As Ad Kc", plain) < key("Ah Ac Kd 3c 2c", plain)
    assert key("As Ad Qc", plain) > key("Ah Ac Jd 3c 2c", plain)
    assert key("Qs Qh Qd", plain) < key("Qs Qh Qd 3c 2c", plain)
    # with the tiebreak a pair or a triple is its rank and its best suit, whatever the size
    assert key("As Ad Kc", rules) > key("Ah Ac Kd 3c 2c", rules)
    assert key("Ah Ad Kc", rules) < key("As Ac 4d 3c 2c", rules)
    assert key("Qs Qh Qd", rules) == key("Qs Qh Qd 3c 2c", rules)
    for r in (rules, plain):
        assert key("Qs Qh Qd", r) > key("Js Jh Jd Ac Kc", r)
        assert key("As Ks Qs", r) < key("2c 2d 3h", r)  # three suited cards: no flush
        assert key("As Ks Qs", r) < key("Ah Kh Qh 3d 2c", r)  # high cards: every rank first


# ----------------------------------------------------------------------------- percentiles


@pytest.mark.parametrize(
    ("cards", "preset", "beaten", "tied", "total"),
    [
        # the spade royal is the single strongest row; four royals tie without the tiebreak
        (ROYAL_SPADES, "capsa-susun", FIVE_CARD_HANDS - 1, 1, FIVE_CARD_HANDS),
        (ROYAL_SPADES, "classic", FIVE_CARD_HANDS - 4, 4, FIVE_CARD_HANDS),
        ("Td Jd Qd Kd Ad", "capsa-susun", FIVE_CARD_HANDS - 4, 1, FIVE_CARD_HANDS),
        # 7-5-4-3-2 unsuited: 1,020 hands; with the tiebreak the 255 with the 7 of diamonds
        ("7d 5c 4c 3c 2c", "capsa-susun", 0, 255, FIVE_CARD_HANDS),
        ("7d 5c 4c 3c 2c", "classic", 0, 1020, FIVE_CARD_HANDS),
        ("7s 5c 4c 3c 2c", "capsa-susun", 3 * 255, 255, FIVE_CARD_HANDS),
        # 4-3-2 on top: 64 hands, 16 per suit of the 4
        ("4d 3c 2c", "capsa-susun", 0, 16, THREE_CARD_HANDS),
        ("4d 3c 2c", "classic", 0, 64, THREE_CARD_HANDS),
        # three aces: 4 hands; 3 of them hold the ace of spades, one tops out at hearts
        ("As Ah Ad", "capsa-susun", THREE_CARD_HANDS - 3, 3, THREE_CARD_HANDS),
        ("Ac Ad Ah", "capsa-susun", THREE_CARD_HANDS - 4, 1, THREE_CARD_HANDS),
        ("As Ah Ad", "two-four", THREE_CARD_HANDS - 4, 4, THREE_CARD_HANDS),
        # pair of aces with the ace of spades: every high card and smaller pair, the 14,080
        # pairs of aces topped by the club and 28,160 by the heart; a tie with the other
        # 42,240 holding the spade, whatever their kickers. Poker order: the 384 AA432.
        ("As Ad 2c 3c 4h", "capsa-susun", 1_302_540 + 1_013_760 + 42_240, 42_240, FIVE_CARD_HANDS),
        ("Ah Ac Kd Qd Js", "capsa-susun", 1_302_540 + 1_013_760 + 14_080, 28_160, FIVE_CARD_HANDS),
        ("As Ad 2c 3c 4h", "classic", 1_302_540 + 1_013_760, 384, FIVE_CARD_HANDS),
        # queens and eights with the queen of spades: below, 51 rank pairs x 1,584 and the
        # 792 without that queen; tied, the 792 with it
        ("Qs Qd 8c 8d 5c", "capsa-susun", 2_400_780 + 51 * 1_584 + 792, 792, FIVE_CARD_HANDS),
        # a full house compares its pair too: kings over fours, its triple topped by hearts
        # (only {c, d, h} is), above kings over twos and threes
        ("Kc Kd Kh 4c 4d", "capsa-susun", 2_594_552 + 11 * 12 * 24 + 2 * 24, 6, FIVE_CARD_HANDS),
        # four nines: the kicker never counts, all 48 tie; in poker order the 4 with a 2 do
        ("9s 9d 9c 9h 2d", "capsa-susun", 2_598_296 + 7 * 48, 48, FIVE_CARD_HANDS),
        ("9s 9d 9c 9h 2d", "classic", 2_598_296 + 7 * 48, 4, FIVE_CARD_HANDS),
        # a pair of aces on top with the ace of spades: 18,304 high cards, 3,456 smaller
        # pairs, 144 lower pairs of aces; 144 tie
        ("As Ad 2c", "capsa-susun", 18_304 + 3_456 + 144, 144, THREE_CARD_HANDS),
    ],
)
def test_percentile_by_hand(cards: str, preset: str, beaten: int, tied: int, total: int) -> None:
    expected = (beaten + tied / 2) / total
    assert susun.percentile(parse(cards), rules_of(preset)) == pytest.approx(expected, abs=1e-15)


# ----------------------------------------------------------------------------- bonus rows


def _bonus(top: str, middle: str, bottom: str, preset: str = "capsa-susun") -> list[int]:
    c = check(top, middle, bottom, rules_of(preset))
    assert not c.fouled
    return [int(r.bonus) for r in c.rows]


def test_bonus_rows_count_only_in_their_position() -> None:
    # trips on top 5; trips in the middle and a full house on the bottom are plain rows
    assert _bonus("Qs Qh Qd", "Kc Kd Kh 2c 3d", "As Ad Ah Ac 4c") == [5, 0, 7]
    assert _bonus("2c 3d 4h", "8c 8d 8h 5c 5d", "Kc Kd Kh 6c 6d") == [0, 3, 0]
    assert _bonus("2c 3d 4h", "9c 9d 9h 9s 2d", "3s 4s 5s 6s 7s") == [0, 14, 9]
    assert _bonus("2c 3d 4h", "5h 6h 7h 8h 9h", ROYAL_SPADES) == [0, 18, 11]
    assert _bonus("2c 3d 4h", "Th Jh Qh Kh Ah", ROYAL_SPADES) == [0, 22, 11]
    assert _bonus("2c 3d 4h", "9c 9d 9h 9s 2d", "Ac Ad Ah As 3s") == [0, 14, 7]
    assert _bonus("Qs Qh Qd", "Kc Kd Kh 2c 3d", "As Ad Ah Ac 4c", "classic") == [0, 0, 0]


def test_royal_flush_is_reported_as_a_straight_flush() -> None:
    c = check("2c 3d 4h", "Th Jh Qh Kh Ah", ROYAL_SPADES, rules_of())
    assert [r.category for r in c.rows] == ["high_card", "straight_flush", "straight_flush"]
    assert all(r.label for r in c.rows)


# ----------------------------------------------------------------------------- two players

# A wins every row with plain rows; B is valid and weaker everywhere
A_PLAIN = rows("As Kd 9c", "Ks Kc 5d 6d 8c", "Qs Qc Qd 7h 7d")  # full house bottom: plain
A_TRIPS_ON_TOP = rows("Qs Qh Qd", "Ks Kc Kd 5d 6d", "Ac Ad Ah 7h 7d")
B_WEAK = rows("2d 3c 4s", "5c 5s 6c 8d Th", "9d 9s Jc Jd 2h")
B_FOULED = rows("Jc Jd 4s", "5c 5s 6c 8d Th", "9d 9s 3c 2d 2h")  # JJ on top over 55 in the middle
A_FOULED = rows("Qs Qc Qd", "As Kd 9c 6d 8c", "Ks Kc 5d 7h 7d")


def test_the_fixture_players_are_what_their_names_say() -> None:
    rules = rules_of()
    for player, fouled in [(A_PLAIN, False), (A_TRIPS_ON_TOP, False), (B_WEAK, False)]:
        assert (
            susun.check(player["top"], player["middle"], player["bottom"], rules).fouled is fouled
        )
    for player in (B_FOULED, A_FOULED):
        assert susun.check(player["top"], player["middle"], player["bottom"], rules).fouled


@pytest.mark.parametrize(
    ("preset", "expected"), [("capsa-susun", 12), ("classic", 6), ("two-four", 4)]
)
def test_sweep_of_plain_rows(preset: str, expected: int) -> None:
    # three plain rows x the multiplier: capsa-susun's super x4 (heads-up, sweeping the one
    # opponent is sweeping the table), classic's sweep x2; two-four: x1 plus the majority
    assert points(rules_of(preset), A_PLAIN, B_WEAK) == [expected, -expected]
    assert points(rules_of(preset), B_WEAK, A_PLAIN) == [-expected, expected]


def test_super_at_two_players() -> None:
    # RULES.md 4.2 / 4.3: super_players defaults to [2, 4]; a 2-player sweep under
    # capsa-susun is worth 12 (3 rows x super 4), not 6
    t = susun.score([A_PLAIN, B_WEAK], rules_of())
    assert [int(p) for p in t.points] == [12, -12]
    assert t.pairs[0]["super"] == [True, False]
    # without 2 in super_players the sweep multiplier applies
    assert points(rules_of(super_players=[4]), A_PLAIN, B_WEAK) == [6, -6]
    assert points(rules_of(super_players=[]), A_PLAIN, B_WEAK) == [6, -6]


def test_sweep_multiplier_is_a_setting() -> None:
    no_heads_up_super = rules_of("capsa-susun", sweep_multiplier=3, super_players=[4])
    assert points(no_heads_up_super, A_PLAIN, B_WEAK) == [9, -9]
    assert points(rules_of("capsa-susun", super_multiplier=5), A_PLAIN, B_WEAK) == [15, -15]


@pytest.mark.parametrize(
    ("preset", "expected"), [("capsa-susun", 13), ("classic", 6), ("two-four", 4)]
)
def test_sweep_with_a_bonus_row(preset: str, expected: int) -> None:
    # capsa-susun: middle and bottom plain (trips in the middle, a full house on the bottom
    # are not bonus rows) x super 4 (two players), plus trips on top 5 unmultiplied
    assert points(rules_of(preset), A_TRIPS_ON_TOP, B_WEAK) == [expected, -expected]


def test_no_sweep_when_a_row_is_lost() -> None:
    a = rows("As Kd 9c", "Ks Kc 5d 6d 8c", "Qs Qc 7h 7d 2s")  # two pair on the bottom
    b = rows("2d 3c 4s", "5c 5s 6c 8d Th", "9d 9s 9h Jc Jd")  # full house on the bottom
    assert points(rules_of("capsa-susun"), a, b) == [1, -1]
    assert points(rules_of("two-four"), a, b) == [2, -2]  # 2 rows to 1, plus the majority


def test_rows_tied_without_the_tiebreak_are_won_by_nobody() -> None:
    a = rows("2c 3d 5h", "6c 7d 8h Tc Qc", "9c 9d Kc Kd Ah")
    b = rows("2d 3c 5s", "6d 7c 8s Td Qd", "9h 9s Kh Ks As")
    assert points(rules_of("classic"), a, b) == [0, 0]
    assert points(rules_of("two-four"), a, b) == [0, 0]  # no majority on 0 rows to 0
    # with the tiebreak: top 5s over 5h (b), middle Qc over Qd (a), bottom Ks over Kc (b)
    assert points(rules_of("capsa-susun"), a, b) == [-1, 1]
    # and with the middle queens swapped b sweeps: 3 x super 4 (two players)
    a["middle"], b["middle"] = parse("6c 7d 8h Tc Qd"), parse("6d 7c 8s Td Qc")
    assert points(rules_of("capsa-susun"), a, b) == [-12, 12]


def test_two_four_majority_needs_more_rows_not_a_tie() -> None:
    a = rows("2c 3d 5h", "6c 6d 8h Tc Qd", "9c 9d Kc Kd Ah")  # middle: pair of sixes
    b = rows("2d 3c 5s", "6h 7c 8s Td Qc", "9h 9s Kh Ks As")  # middle: queen high
    # top tied, middle a, bottom tied: a wins 1 row to 0 -> 1 + majority 1
    assert points(rules_of("two-four"), a, b) == [2, -2]
    assert points(rules_of("classic"), a, b) == [1, -1]


# ----------------------------------------------------------------------------- fouls


@pytest.mark.parametrize(
    ("preset", "expected"), [("capsa-susun", 12), ("classic", 6), ("two-four", 4)]
)
def test_fouled_player_pays_foul_points(preset: str, expected: int) -> None:
    assert points(rules_of(preset), A_PLAIN, B_FOULED) == [expected, -expected]


def test_fouled_player_against_a_sweeper_pays_foul_points_plus_bonus_rows() -> None:
    # 12 + the trips-on-top bonus 5, never multiplied by the sweep multiplier
    assert points(rules_of("capsa-susun"), A_TRIPS_ON_TOP, B_FOULED) == [17, -17]
    assert points(rules_of("capsa-susun", foul_points=20), A_TRIPS_ON_TOP, B_FOULED) == [25, -25]


def test_two_fouled_players_score_nothing_against_each_other() -> None:
    assert points(rules_of("capsa-susun"), A_FOULED, B_FOULED) == [0, 0]
    assert points(rules_of("two-four"), A_FOULED, B_FOULED) == [0, 0]


# ----------------------------------------------------------------------------- four players

# A sweeps B, C and D with plain rows; see the comments for the other pairs
SWEEPER = rows("As Ah Kd", "Ks Kc Kh 4d 5d", "8s 9c Tc Jd Qd")
B4 = rows("2c 3c 4c", "5c 6c 7d 9d Jc", "2d 2h 3d 3h 6d")
C4 = rows("2s 3s 4s", "5s 6s 7s 9s Jh", "Td Th 4h 5h 6h")
D4 = rows("Ac Ad Js", "Qc Qh 7c 7h 9h", "8c 8d 8h Ts Qs")
D4_FOULED = rows("Ac Ad Js", "Qc Qh 9h Ts 7c", "8c 8d 8h 7h Qs")  # AA on top over QQ


def test_super_at_four_players() -> None:
    # capsa-susun: A sweeps all three: 3 rows x 4 against each = +36. B vs C: C wins top
    # (4s over 4c) and middle (Jh over Jc), B the bottom: C +1. D sweeps B and C: +6 each.
    assert points(rules_of(), SWEEPER, B4, C4, D4) == [36, -19, -17, 0]


def test_no_super_at_three_players() -> None:
    # seed 001: super does not apply when only 3 play (super_players [2, 4]): A sweeps
    # both at x2
    t = susun.score([SWEEPER, B4, C4], rules_of())
    assert [int(p) for p in t.points] == [12, -7, -5]
    assert not any(flag for pair in t.pairs for flag in pair["super"])
    # ... unless super_players says three is a super table
    assert points(rules_of(super_players=[3]), SWEEPER, B4, C4) == [24, -13, -11]
    assert points(rules_of(super_players=[2, 3, 4]), SWEEPER, B4, C4) == [24, -13, -11]
    # and 3 alone does not make the super count at 4
    assert points(rules_of(super_players=[3]), SWEEPER, B4, C4, D4) == [18, -13, -11, 6]


def test_legacy_super_min_players_is_read_as_super_players() -> None:
    # the old setting (the fewest players for a super) still works, converted
    assert rules_of(super_min_players=3).to_dict()["super_players"] == [3, 4]
    assert rules_of(super_min_players=2).to_dict()["super_players"] == [2, 3, 4]
    legacy = susun.Rules.from_dict({"preset": "capsa-susun", "super_min_players": 4})
    assert legacy.to_dict()["super_players"] == [4]
    assert "super_min_players" not in legacy.to_dict()
    assert points(rules_of(super_min_players=3), SWEEPER, B4, C4) == [24, -13, -11]
    # both at once must agree
    both = {"preset": "capsa-susun", "super_min_players": 3, "super_players": [4, 3]}
    assert susun.Rules.from_dict(both).to_dict()["super_players"] == [3, 4]
    with pytest.raises(ValueError, match=r"super_min_players .*does not match super_players"):
        susun.Rules.from_dict({**both, "super_players": [2, 4]})


@pytest.mark.parametrize(
    ("overrides", "needle"),
    [
        ({"super_players": [3, 5]}, "super_players must be a list of table sizes in 2..4"),
        ({"super_players": 4}, "super_players must be a list"),
        ({"super_players": [True]}, "super_players must be a list"),
        ({"super_players": "24"}, "super_players must be a list"),
        ({"super_players": [2, 2]}, "super_players lists a table size twice"),
        ({"super_min_players": 5}, r"super_min_players \(legacy; use super_players\).*2\.\.4"),
        ({"super_min_players": [2]}, "super_min_players"),
    ],
)
def test_bad_super_players_are_refused(overrides: dict[str, Any], needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        susun.Rules.from_dict({"preset": "capsa-susun", **overrides})


def test_no_super_without_a_super_multiplier() -> None:
    # classic: x2 everywhere; B and C tie top and middle, B wins the bottom: B +1
    assert points(rules_of("classic"), SWEEPER, B4, C4, D4) == [18, -11, -13, 6]
    assert points(rules_of("capsa-susun", super_multiplier=0), SWEEPER, B4, C4, D4) == [
        18,
        -13,
        -11,
        6,
    ]


def test_fouled_opponent_counts_as_swept_for_the_super_but_pays_only_the_foul() -> None:
    # A: 12 + 12 against the swept B and C, 12 foul points (not 12 x 4) from D
    assert points(rules_of(), SWEEPER, B4, C4, D4_FOULED) == [36, -1, 1, -36]


def test_dragon_opponent_cannot_be_swept() -> None:
    dragon = {"hand": parse("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac")}
    a = rows("As Ah Qd", "Ks Kh Kd 4d 5d", "8s 9h Th Jd Qs")
    b = rows("2d 3d 4h", "5h 6d 7d 9d Js", "2h 2s 3h 3s 6h")
    c = rows("4s 6s 8h", "5s 7s 8d Ts Jh", "7h 9s Td Qh Ad")
    result = points(rules_of(), a, b, c, dragon)
    assert result[0] == 6 + 6 - 208  # a sweeps b and c at x2 only
    assert result[3] == 3 * 208


# ----------------------------------------------------------------------------- dragons

DRAGON = parse("2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kc Ad")


def test_dragon_is_reported() -> None:
    a = susun.arrange(DRAGON, rules_of(), strategy="percentile")
    assert a.special == "dragon"
    assert susun.arrange(DRAGON, rules_of("classic"), strategy="percentile").special is None
    c = susun.check(DRAGON[:3], DRAGON[3:8], DRAGON[8:], rules_of())
    assert c.special == "dragon"
    assert susun.check(DRAGON[:3], DRAGON[3:8], DRAGON[8:], rules_of("classic")).special is None


def test_dragon_against_normal_and_fouled_players() -> None:
    rules = rules_of()
    others = [c for c in range(52) if c not in DRAGON]
    normal = rows("2c 3c 5s", "6c 6h 8d 9h Jc", "Kd Kh Ks Ac Ah")
    fouled = rows("Qc Qd Qh", "4c 4d 7c 7d Th", "5h 8c 8h Tc Jd")
    assert set(normal["top"] + normal["middle"] + normal["bottom"]) <= set(others)
    assert susun.check(normal["top"], normal["middle"], normal["bottom"], rules).fouled is False
    assert susun.check(fouled["top"], fouled["middle"], fouled["bottom"], rules).fouled is True
    dragon = {"hand": DRAGON}
    assert points(rules, dragon, normal) == [208, -208]
    assert points(rules, fouled, dragon) == [-208, 208]
    # the normal player still collects the foul from the fouled one
    assert points(rules, dragon, normal, fouled) == [416, -208 + 12, -208 - 12]


def test_dragon_given_as_rows_is_still_a_dragon() -> None:
    normal = rows("2c 3c 5s", "6c 6h 8d 9h Jc", "Kd Kh Ks Ac Ah")
    # 2d 3h 4s | 5c 6d 7h 8s 9c (a straight) | Td Jh Qs Kc Ad (a straight): valid rows
    dragon_rows = {"top": DRAGON[:3], "middle": DRAGON[3:8], "bottom": DRAGON[8:]}
    assert points(rules_of(), dragon_rows, normal) == [208, -208]


def test_two_dragons_score_nothing_against_each_other() -> None:
    clubs = {"hand": [rank * 4 for rank in range(13)]}
    diamonds = {"hand": [rank * 4 + 1 for rank in range(13)]}
    assert points(rules_of(), clubs, diamonds) == [0, 0]
    normal = rows("2h 3h 5s", "6h 6s 8h 9h Jh", "Kh Ks 4h 4s As")
    assert points(rules_of(), clubs, diamonds, normal) == [208, 208, -416]


def test_dragon_points_zero_arranges_the_dragon_as_usual() -> None:
    rules = rules_of("classic")
    # the dragon's rows: 4-3-2 high, a 9-high straight, an ace-high straight
    dragon_rows = {"top": DRAGON[:3], "middle": DRAGON[3:8], "bottom": DRAGON[8:]}
    other = rows("2c 3c 5s", "6c 6h 8d 9h Jc", "Kd Kh Ks Ac Ah")
    # top: 4-3-2 loses to 5-3-2; middle: straight beats a pair; bottom: straight loses to
    # the full house: the other player wins 2 rows to 1
    assert points(rules, dragon_rows, other) == [-1, 1]
    # as a raw hand it is arranged like any other hand: scored like those rows
    arranged = susun.arrange(DRAGON, rules)
    assert arranged.special is None
    as_rows = {
        "top": ids(arranged.top),
        "middle": ids(arranged.middle),
        "bottom": ids(arranged.bottom),
    }
    assert points(rules, {"hand": DRAGON}, other) == points(rules, as_rows, other)
    # and a dragon_points override turns the dragon on
    assert points(rules_of("classic", dragon_points=13), {"hand": DRAGON}, other) == [13, -13]


# ----------------------------------------------------------------------------- worked example

# RULES.md 4.2: bottoms A full house, B flush, C straight, D pair of aces. The tops run the
# other way (D > C > B > A) and the middles the same way (A > B > C > D), so in every pair
# the player with the better bottom wins middle and bottom, the other the top: no sweeps, no
# bonus rows (a full house on the bottom is plain), and top and middle cancel.
EXAMPLE = [
    rows("9s 8s 4s", "9d 9h 7h 7s Ac", "Kc Kd Kh 2c 2d"),
    rows("Qs Jd Ts", "Tc Th 3d 4h 6h", "3h 5h 8h Jh Qh"),
    rows("Ah Qc Js", "8c 8d 2s 5c 6d", "9c Td Jc Qd Ks"),
    rows("5d 5s 3s", "7c 7d 2h 4c 6c", "As Ad 3c 4d 6s"),
]


@pytest.mark.parametrize("preset", ["capsa-susun", "classic"])
def test_worked_example(preset: str) -> None:
    t = susun.score(EXAMPLE, rules_of(preset), stake=100)
    assert [int(p) for p in t.points] == [3, 1, -1, -3]
    assert list(t.money) == pytest.approx([300, 100, -100, -300])
    # the pair details say the same: the earlier player wins middle and bottom, the later
    # one the top, 1 point net each (pair entries as the engine shapes them)
    for pair in t.pairs:
        assert pair["rows"] == {"top": -1, "middle": 1, "bottom": 1}
        assert list(pair["points"]) == [1, -1]


def test_worked_example_under_two_four_adds_the_majority() -> None:
    t = susun.score(EXAMPLE, rules_of("two-four"), stake=100)
    assert list(t.money) == pytest.approx([600, 200, -200, -600])


# ----------------------------------------------------------------------------- room fee


def test_room_fee_is_taken_from_positive_net_money_only() -> None:
    t = susun.score(EXAMPLE, rules_of(), stake=100)
    assert list(t.fee) == pytest.approx([9, 3, 0, 0])
    assert t.fee_total == pytest.approx(12)
    t = susun.score(EXAMPLE, rules_of(room_fee=0.05), stake=2.5)
    assert list(t.money) == pytest.approx([7.5, 2.5, -2.5, -7.5])
    assert list(t.fee) == pytest.approx([0.375, 0.125, 0, 0])
    assert t.fee_total == pytest.approx(0.5)
    t = susun.score(EXAMPLE, rules_of("classic"), stake=100)
    assert t.fee_total == 0 and list(t.fee) == [0, 0, 0, 0]


# ----------------------------------------------------------------------------- arrangements


def test_count_valid_of_a_dragon_and_a_quads_hand_are_in_range() -> None:
    # every hand has at least one valid split (the naive one) and at most all 72,072
    for hand in (DRAGON, parse("As Ah Ad Ac Ks Kh Kd Kc 2c 3d 4h 5s 7c")):
        count = susun.count_valid(hand, rules_of())
        assert 1 <= count < 72_072


def test_percentile_arrangement_reports_its_rows_and_count() -> None:
    hand = parse("As Ah Ad Ac Ks Kh Kd Kc 2c 3d 4h 5s 7c")
    a = susun.arrange(hand, rules_of(), strategy="percentile")
    assert sorted(ids(a.top) + ids(a.middle) + ids(a.bottom)) == sorted(hand)
    assert (len(a.top), len(a.middle), len(a.bottom)) == (3, 5, 5)
    assert a.valid_arrangements == susun.count_valid(hand, rules_of())
    assert 0 < a.score < 3
    best = susun.arrange(hand, rules_of(), strategy="percentile", top_k=3)
    assert len(best) == 3 and best[0].score == pytest.approx(a.score, abs=1e-12)
    assert best[0].score >= best[1].score >= best[2].score


# ----------------------------------------------------------------------------- errors

HAND = parse("2c 3d 5h 6c 7d 8h Tc Qd 9c 9d Kc Kd Ah")


@pytest.mark.parametrize(
    ("call", "needle"),
    [
        (lambda: susun.Rules.preset("pusoy-dos-ish"), "pusoy-dos-ish"),
        (lambda: susun.Rules.from_dict({"preset": "pusoy-dos-ish"}), "pusoy-dos-ish"),
        (lambda: susun.Rules.preset("capsa-susun", sweep_multipler=3), "sweep_multipler"),
        (lambda: susun.Rules.from_dict({"preset": "classic", "foul_pts": 3}), "foul_pts"),
        (lambda: susun.check(["Zz", "3d", "5h"], HAND[3:8], HAND[8:], rules_of()), "Zz"),
        (lambda: susun.check(["As", "As", "5h"], HAND[3:8], HAND[8:], rules_of()), "As"),
        (lambda: susun.check(HAND[:3], HAND[3:8], [*HAND[8:12], HAND[0]], rules_of()), "2c"),
        (lambda: susun.count_valid(HAND[:12], rules_of()), "12"),
        (lambda: susun.count_valid([*HAND[:12], HAND[0]], rules_of()), "2c"),
        (lambda: susun.percentile(parse("2c 3d 5h 6c"), rules_of()), "4"),
        (lambda: susun.arrange(HAND, rules_of(), strategy="clairvoyant"), "clairvoyant"),
    ],
)
def test_bad_input_names_the_problem(call: Any, needle: str) -> None:
    with pytest.raises(ValueError, match=f"(?i){needle}"):
        call()


def test_wrong_row_sizes_are_rejected() -> None:
    with pytest.raises(ValueError):
        susun.check(HAND[:4], HAND[4:8], HAND[8:], rules_of())
    with pytest.raises(ValueError):
        susun.check(HAND[:3], HAND[3:9], HAND[9:], rules_of())
    with pytest.raises(ValueError):
        susun.score(
            [{"top": HAND[:4], "middle": HAND[4:8], "bottom": HAND[8:]}, B_WEAK], rules_of()
        )


def test_bad_tables_are_rejected() -> None:
    with pytest.raises(ValueError, match="1"):
        susun.score([A_PLAIN], rules_of())
    with pytest.raises(ValueError, match="5"):
        susun.score([A_PLAIN, B_WEAK, *EXAMPLE[:3]], rules_of())
    # the As is held by both players
    clash = rows("As 3d 4s", "5c 5s 6c 8d Th", "9d 9s Jc Jd 2h")
    with pytest.raises(ValueError, match="As"):
        susun.score([A_PLAIN, clash], rules_of())
    with pytest.raises(ValueError, match="Zz"):
        susun.score(
            [A_PLAIN, {"hand": ["Zz", *B_WEAK["top"][1:], *B_WEAK["middle"], *B_WEAK["bottom"]]}],
            rules_of(),
        )


def test_batch_rejects_a_repeated_card() -> None:
    hands = np.array([HAND, [*HAND[:12], HAND[0]]], dtype=np.uint8)
    with pytest.raises(ValueError):
        susun.arrange_batch(hands, rules_of(), strategy="percentile")


def test_score_takes_arrangements_and_refuses_what_is_not_a_table() -> None:
    hands = susun.deal("SCORE-ARRANGED", 3)
    arranged = [susun.arrange(hand) for hand in hands]
    rows = [{"top": a.top, "middle": a.middle, "bottom": a.bottom} for a in arranged]
    assert susun.score(arranged).points == susun.score(rows).points
    for bad, named in [(None, "players"), ([None, None], "player 0"), ("ab", "players")]:
        with pytest.raises(ValueError, match=named):
            susun.score(bad)
    with pytest.raises(ValueError, match="stake"):
        susun.score(rows, stake=float("inf"))
