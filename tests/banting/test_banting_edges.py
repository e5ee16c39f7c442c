"""Capsa Banting edge cases, each spelled out by hand from RULES.md section 3 and API.md.

These are the places where the known Big Two engines disagree or go wrong: runs through
K-A-2 and the two low runs under every straight order, four cards alone, flushes compared
suit-first versus rank-first, pair and triple tie-breaks, the first play, passing, wrong
card counts, bombs, forbidden triples, scoring tiers, settings errors and messages. The
expected values here come from reading the rules, not from the oracle, so a shared
misreading of the oracle and the engine would still show up.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import numpy as np
import pytest
from capsa_fast import banting

from tests.banting.oracle_banting import parse

DEFAULT_TIERS = [[1, 1], [10, 2], [13, 3]]

# RULES.md 3.4, written out: (suit_order, straights low->high, tiebreak, flush, bombs)
PLAIN = ["34567", "45678", "56789", "6789T", "789TJ", "89TJQ", "9TJQK", "TJQKA"]
PRESET_TABLE = {
    "capsa-banting": ("dchs", [*PLAIN, "23456", "A2345"], "highest-card", "suit-first", "none"),
    "hong-kong": ("dchs", ["A2345", "23456", *PLAIN], "sequence-top", "rank-first", "none"),
    "taiwan": (
        "cdhs",
        ["A2345", *PLAIN, "23456"],
        "highest-card",
        "none",
        "quads-and-straight-flush",
    ),
    "pagat": ("dchs", [*PLAIN, "23456", "A2345"], "highest-card", "rank-first", "none"),
    "capsa-klasik": ("dchs", PLAIN, "highest-card", "top-card", "none"),
}
# RULES.md 3.4: pass_locks and two_demotion are on in capsa-klasik only.
KLASIK_ONLY = {"pass_locks": "capsa-klasik", "two_demotion": "capsa-klasik"}


def rules_of(preset: str = "capsa-banting", **overrides: Any) -> Any:
    return banting.Rules.preset(preset, **overrides)


def kind(text: str, rules: Any) -> str | None:
    combo = banting.classify(parse(text), rules)
    return None if combo is None else combo.kind


def reason(text: str, rules: Any) -> str | None:
    verdict = banting.why_not(parse(text), rules)
    return None if verdict is None else verdict[0]


def cmp(a: str, b: str, rules: Any) -> int:
    return banting.compare(parse(a), parse(b), rules)


def verdict(
    hand: str,
    play: str,
    table: str | None = None,
    rules: Any = None,
    first_play: bool = False,
    passed: bool = False,
) -> Any:
    return banting.validate(
        parse(hand),
        "pass" if play == "pass" else parse(play),
        table=None if table is None else parse(table),
        rules=rules_of() if rules is None else rules,
        first_play=first_play,
        passed=passed,
    )


# ----------------------------------------------------------------------------- settings


@pytest.mark.parametrize("preset", list(PRESET_TABLE))
def test_presets_match_the_rules_table(preset: str) -> None:
    suit_order, straights, tiebreak, flush, bombs = PRESET_TABLE[preset]
    settings = banting.Rules.preset(preset).to_dict()
    assert settings["suit_order"] == suit_order
    assert list(settings["straights"]) == straights
    assert settings["straight_tiebreak"] == tiebreak
    assert settings["flush_compare"] == flush
    assert settings["bombs"] == bombs
    assert settings["triples"] is True
    for setting, only in KLASIK_ONLY.items():
        assert settings[setting] is (preset == only)
    assert settings["dragon"] is True
    assert settings["first_lead"] == "lowest-card"
    assert settings["ending"] == "first-out"
    assert [list(tier) for tier in settings["scoring"]] == DEFAULT_TIERS


def test_presets_dict_lists_the_five_presets_and_round_trips() -> None:
    assert set(banting.PRESETS) == set(PRESET_TABLE)
    for name, settings in banting.PRESETS.items():
        rebuilt = banting.Rules.from_dict(dict(settings)).to_dict()
        original = banting.Rules.preset(name).to_dict()
        # the settings must match; a "preset" label, if the dict carries one, may differ
        rebuilt.pop("preset", None)
        original.pop("preset", None)
        assert rebuilt == original, name


def test_to_dict_reads_back_with_from_dict() -> None:
    # What the API sends out as `rules` (to_dict, with straight_order) can be sent back.
    custom = banting.Rules.preset("hong-kong", straights=["34567", "A2345"], pass_locks=True)
    for rules in [*(banting.Rules.preset(name) for name in banting.PRESETS), custom]:
        assert banting.Rules.from_dict(rules.to_dict()) == rules
    assert banting.Rules.from_dict({"straight_order": "two-low"}).straight_order == "two-low"
    with pytest.raises(ValueError, match="does not match straights"):
        banting.Rules.from_dict({"straight_order": "two-low", "straights": "two-high"})
    with pytest.raises(ValueError, match="straight_order must be the name"):
        banting.Rules.from_dict({"straight_order": []})  # not read as a list of straights


def test_overrides_by_keyword_and_from_dict() -> None:
    rules = banting.Rules.preset("capsa-banting", flush_compare="rank-first")
    assert rules.flush_compare == "rank-first"
    assert rules.suit_order == "dchs"
    rules = banting.Rules.from_dict({"preset": "taiwan", "triples": False})
    assert rules.triples is False
    assert rules.suit_order == "cdhs"
    assert rules.bombs == "quads-and-straight-flush"
    rules = banting.Rules.preset("hong-kong", straights=["34567", "TJQKA", "JQKA2"])
    assert list(rules.to_dict()["straights"]) == ["34567", "TJQKA", "JQKA2"]
    assert list(rules.straights) == ["34567", "TJQKA", "JQKA2"]
    rules = banting.Rules.preset("capsa-banting", straights="no-two")
    assert list(rules.straights) == PLAIN
    # RULES.md 3.2 lists rank-sets: the ranks of a run in any order name it.
    rules = banting.Rules.preset("capsa-banting", straights=["76543", "2345a", "k3a24", "10JQKA"])
    assert list(rules.straights) == ["34567", "A2345", "KA234", "TJQKA"]
    with pytest.raises(ValueError, match="twice"):
        banting.Rules.preset("capsa-banting", straights=["23456", "65432"])


@pytest.mark.parametrize(
    ("build", "named"),
    [
        (lambda: banting.Rules.preset("big-three"), "big-three"),
        (lambda: banting.Rules.preset("capsa-banting", colour="red"), "colour"),
        (lambda: banting.Rules.from_dict({"preset": "pagat", "jokers": 2}), "jokers"),
        (lambda: banting.Rules.from_dict({"preset": "nowhere"}), "nowhere"),
        (lambda: banting.Rules.preset("capsa-banting", suit_order="dchx"), "suit|dchx"),
        (lambda: banting.Rules.preset("capsa-banting", suit_order="ddhs"), "suit"),
        (lambda: banting.Rules.preset("capsa-banting", suit_order="dch"), "suit"),
        (
            lambda: banting.Rules.preset("capsa-banting", straights="two-higher"),
            "two-higher|straight",
        ),
        (lambda: banting.Rules.preset("capsa-banting", straights=["34567", "3456"]), "3456"),
        (lambda: banting.Rules.preset("capsa-banting", straights=["34568"]), "34568"),
        (
            lambda: banting.Rules.preset("capsa-banting", straights=["34567", "34567"]),
            "34567|twice",
        ),
        (lambda: banting.Rules.preset("capsa-banting", scoring=[[1]]), "scoring|tier"),
        (lambda: banting.Rules.preset("capsa-banting", scoring=[[1, 1, 1]]), "scoring|tier"),
        (lambda: banting.Rules.preset("capsa-banting", scoring="lots"), "scoring|tier"),
    ],
    ids=[
        "unknown-preset",
        "unknown-setting",
        "unknown-setting-dict",
        "unknown-preset-dict",
        "suit-not-a-letter",
        "suit-repeated",
        "suit-three-letters",
        "unknown-straight-order",
        "run-of-four",
        "not-a-run",
        "run-twice",
        "tier-one-number",
        "tier-three-numbers",
        "scoring-a-string",
    ],
)
def test_bad_settings_are_rejected_by_name(build: Any, named: str) -> None:
    """The message names the bad value or setting (any one of the ``|`` alternatives)."""
    with pytest.raises(ValueError) as caught:
        build()
    message = str(caught.value).lower()
    assert any(word in message for word in named.lower().split("|")), message


# ----------------------------------------------------------------------------- runs

# the five runs through 2 or K-A-2, each once with mixed suits
RUNS = {
    "A2345": "Ad 2c 3h 4s 5d",
    "23456": "2d 3c 4h 5s 6d",
    "JQKA2": "Jd Qc Kh As 2d",
    "QKA23": "Qd Kc Ah 2s 3d",
    "KA234": "Kd Ac 2h 3s 4d",
}
SUITED = {run: " ".join(card[0] + "h" for card in text.split()) for run, text in RUNS.items()}
MEMBERS = {
    "two-high": {"A2345", "23456"},
    "two-low": {"A2345", "23456"},
    "taiwan": {"A2345", "23456"},
    "ace-top-jqka2": {"JQKA2"},
    "no-two": set(),
}


@pytest.mark.parametrize("order", list(MEMBERS))
@pytest.mark.parametrize("run", list(RUNS))
def test_runs_through_two_under_every_order(order: str, run: str) -> None:
    listed = run in MEMBERS[order]
    rules = rules_of(straights=order)
    assert kind(RUNS[run], rules) == ("straight" if listed else None)
    assert reason(RUNS[run], rules) == (None if listed else "RULE_FORBIDS")
    # suited: a straight flush if listed, otherwise just a flush
    assert kind(SUITED[run], rules) == ("straight_flush" if listed else "flush")
    no_flush = rules_of(straights=order, flush_compare="none")
    assert kind(SUITED[run], no_flush) == ("straight_flush" if listed else None)
    assert reason(SUITED[run], no_flush) == (None if listed else "RULE_FORBIDS")


def test_a_rank_set_that_wraps_but_is_not_a_run_is_not_a_combo() -> None:
    rules = rules_of(straights=["A2345", "23456", *PLAIN, "JQKA2", "QKA23", "KA234"])
    assert kind("Qd Kc As 2h 4d", rules) is None
    assert reason("Qd Kc As 2h 4d", rules) == "NOT_A_COMBO"
    assert kind("Qd Kc Ah 2s 3d", rules) == "straight"
    assert kind("Kd Ac 2h 3s 4d", rules) == "straight"


@pytest.mark.parametrize(
    ("order", "low_to_high"),
    [
        ("two-high", ["34567", "TJQKA", "23456", "A2345"]),
        ("two-low", ["A2345", "23456", "34567", "TJQKA"]),
        ("taiwan", ["A2345", "34567", "TJQKA", "23456"]),
        ("ace-top-jqka2", ["34567", "TJQKA", "JQKA2"]),
        ("no-two", ["34567", "45678", "9TJQK", "TJQKA"]),
    ],
)
def test_straight_orders(order: str, low_to_high: list[str]) -> None:
    rules = rules_of(straights=order)
    # the lower run in spades and hearts, the higher one in diamonds and clubs: the two
    # never share a card, and the higher run has the worse suits, so only the run order
    # can make it win
    for i, low_run in enumerate(low_to_high):
        for high_run in low_to_high[i + 1 :]:
            low = " ".join(rank + suit for rank, suit in zip(low_run, "sshhs", strict=True))
            high = " ".join(rank + suit for rank, suit in zip(high_run, "dcdcd", strict=True))
            assert cmp(low, high, rules) == -1, (low, high)
            assert cmp(high, low, rules) == 1, (high, low)


def test_explicit_straight_list_sets_the_order() -> None:
    rules = rules_of(straights=["TJQKA", "KA234", "34567"])
    assert cmp("Ks Ad 2c 3c 4c", "Ts Js Qs Kd Ad", rules) == 1
    assert cmp("Ks As 2d 3s 4s", "3d 4d 5c 6c 7c", rules) == -1
    assert kind("4d 5c 6c 7c 8c", rules) is None


@pytest.mark.parametrize(
    ("tiebreak", "a", "b", "expected"),
    [
        # 23456: the 2 breaks the tie (highest-card) or the 6 (sequence-top)
        ("highest-card", "2s 3d 4d 5d 6d", "2d 3c 4c 5c 6s", 1),
        ("sequence-top", "2s 3d 4d 5d 6d", "2d 3c 4c 5c 6s", -1),
        # A2345: the 2 (highest-card) or the 5 (sequence-top)
        ("highest-card", "Ad 2s 3c 4c 5c", "As 2d 3d 4d 5s", 1),
        ("sequence-top", "Ad 2s 3c 4c 5c", "As 2d 3d 4d 5s", -1),
        # an ordinary run: both rules pick the top card
        ("highest-card", "9s Td Jd Qd Kd", "9d Tc Jc Qc Ks", -1),
        ("sequence-top", "9s Td Jd Qd Kd", "9d Tc Jc Qc Ks", -1),
    ],
)
def test_straight_tiebreak(tiebreak: str, a: str, b: str, expected: int) -> None:
    for order in ("two-high", "two-low", "taiwan"):
        rules = rules_of(straights=order, straight_tiebreak=tiebreak)
        assert cmp(a, b, rules) == expected, order
        assert cmp(b, a, rules) == -expected, order


def test_hong_kong_breaks_23456_ties_on_the_six() -> None:
    rules = rules_of("hong-kong")
    assert cmp("2s 3d 4d 5d 6d", "2d 3c 4c 5c 6s", rules) == -1
    assert cmp("2s 3d 4d 5d 6d", "3c 4c 5c 6c 7d", rules) == -1  # 23456 < 34567 here


def test_straight_flushes_break_ties_by_suit_and_beat_quads() -> None:
    rules = rules_of()
    assert cmp("3s 4s 5s 6s 7s", "3h 4h 5h 6h 7h", rules) == 1
    assert cmp("3d 4d 5d 6d 7d", "2c 2d 2h 2s 3c", rules) == 1
    assert kind("3s 4s 5s 6s 7s", rules_of("taiwan")) == "straight_flush"


# ----------------------------------------------------------------------------- not combos


@pytest.mark.parametrize(
    "text",
    ["9c 9d 9h 9s", "9c 9d 4h 4s", "9c 9d 4h 4s Kd", "9c 9d 9h 4s Kd", "9c 9d 4h 5s Kd"],
    ids=["four-alone", "two-pairs", "two-pairs-kicker", "triple-two-odd", "pair-three-odd"],
)
def test_not_combos(text: str) -> None:
    for preset in PRESET_TABLE:
        rules = rules_of(preset)
        assert kind(text, rules) is None
        assert reason(text, rules) == "NOT_A_COMBO"


def test_empty_and_mismatched_sets_are_not_combos() -> None:
    rules = rules_of()
    assert banting.classify([], rules) is None
    assert banting.why_not([], rules)[0] == "NOT_A_COMBO"
    assert reason("9c 8c", rules) == "NOT_A_COMBO"
    assert reason("9c 9d 8c", rules) == "NOT_A_COMBO"
    assert reason("3c 4d 5h 6s 8d", rules) == "NOT_A_COMBO"


def test_combo_reports_kind_cards_and_label() -> None:
    rules = rules_of()
    combo = banting.classify(["3d", "4c", "5h", "6s", "7d"], rules)
    assert combo.kind == "straight"
    assert sorted(combo.cards) == sorted(parse("3d 4c 5h 6s 7d"))
    assert isinstance(combo.label, str)
    assert combo.label
    assert banting.classify(["10h"], rules).kind == "single"
    assert banting.why_not(parse("Kc Kd"), rules) is None


def test_strings_and_ids_give_the_same_answers() -> None:
    rules = rules_of()
    hand_text = HAND.split()
    by_text = banting.legal_plays(hand_text, table=["8s", "8h"], rules=rules)
    by_ids = banting.legal_plays(parse(HAND), table=parse("8s 8h"), rules=rules)
    assert {frozenset(p.cards) for p in by_text} == {frozenset(p.cards) for p in by_ids}
    assert all(isinstance(card, int) for p in by_text for card in p.cards)
    assert banting.compare(["2d"], ["As"], rules) == 1
    assert banting.validate(hand_text, ["9c", "9h"], table=["8s", "8h"], rules=rules).ok
    assert banting.classify(["3♦", "10♠", "J♥", "QC", "Kd"], rules) is None


def test_hand_sizes_and_duplicates_are_checked() -> None:
    rules = rules_of()
    with pytest.raises(ValueError):
        banting.legal_plays([], rules=rules)
    with pytest.raises(ValueError):
        banting.legal_plays(parse("3d 3d"), rules=rules)
    assert len(banting.legal_plays(parse("3d"), rules=rules)) == 1


def test_duplicate_and_unknown_cards_are_errors() -> None:
    rules = rules_of()
    with pytest.raises(ValueError):
        banting.classify(["3d", "3d"], rules)
    with pytest.raises(ValueError):
        banting.classify(["3x"], rules)
    with pytest.raises(ValueError):
        banting.classify([52], rules)


def test_five_card_categories_in_order() -> None:
    rules = rules_of()
    ladder = [
        "Ts Js Qs Ks Ad",  # straight (the top one under two-high is A2345, so use TJQKA)
        "3d 5d 7d 9d Jd",  # flush, lowest suit and ranks
        "3c 3d 3h 4c 4d",  # full house, lowest
        "4c 4d 4h 4s 3s",  # four of a kind, lowest
        "3h 4h 5h 6h 7h",  # straight flush, lowest run
    ]
    for i in range(len(ladder) - 1):
        assert cmp(ladder[i], ladder[i + 1], rules) == -1, ladder[i : i + 2]
        assert cmp(ladder[i + 1], ladder[i], rules) == 1


def test_full_house_and_quads_compare_the_group_rank() -> None:
    rules = rules_of()
    assert cmp("2c 2d 2h 3c 3d", "Ac Ad Ah Kc Kd", rules) == 1
    assert cmp("3c 3d 3h 2c 2d", "4c 4d 4h 5c 5d", rules) == -1
    assert cmp("3c 3d 3h 3s 2c", "4c 4d 4h 4s 5c", rules) == -1


# ----------------------------------------------------------------------------- flushes


@pytest.mark.parametrize(
    ("preset", "expected"),
    [("capsa-banting", 1), ("pagat", -1), ("hong-kong", -1)],
)
def test_flush_compare_both_ways(preset: str, expected: int) -> None:
    rules = rules_of(preset)
    low_spades, heart_two = "3s 4s 5s 6s 8s", "2h Ah Kh Qh 9h"
    # suit-first: spades beat hearts whatever the ranks; rank-first: the 2 wins
    assert cmp(low_spades, heart_two, rules) == expected
    assert cmp(heart_two, low_spades, rules) == -expected


def test_two_high_flush_beats_ace_high_only_under_rank_first() -> None:
    two_high, ace_high = "2d 3d 4d 5d 7d", "Ac Kc Qc Jc 9c"
    assert cmp(two_high, ace_high, rules_of(flush_compare="rank-first")) == 1
    assert cmp(two_high, ace_high, rules_of(flush_compare="suit-first")) == -1


def test_flush_ranks_card_by_card_and_suit_last() -> None:
    for flush in ("suit-first", "rank-first"):
        rules = rules_of(flush_compare=flush)
        assert cmp("Kd Jd 9d 7d 4d", "Qd Td 8d 6d 3d", rules) == 1
        assert cmp("3d 5d 7d 9d Jd", "3s 5s 7s 9s Js", rules) == -1
    rules = rules_of(flush_compare="rank-first")
    assert cmp("Ac Kc 9c 7c 4c", "Ad Kd 9d 7d 3d", rules) == 1  # 4 beats 3 on the last card
    assert cmp("Ac Kc 9c 7c 4c", "Ad Kd Td 7d 3d", rules) == -1  # T beats 9 before that


def test_suited_runs_outside_the_list_are_flushes() -> None:
    rules = rules_of()
    assert kind("Jh Qh Kh Ah 2h", rules) == "flush"
    assert kind("Qh Kh Ah 2h 3h", rules) == "flush"
    # a flush holding a 2 and an A: 2-high, so under rank-first it beats an A-high flush
    rules = rules_of(flush_compare="rank-first")
    assert cmp("Jh Qh Kh Ah 2h", "Ks Qs Js 9s As", rules) == 1


def test_no_flushes_under_none() -> None:
    rules = rules_of(flush_compare="none")
    assert kind("3d 5d 7d 9d Jd", rules) is None
    assert reason("3d 5d 7d 9d Jd", rules) == "RULE_FORBIDS"
    assert kind("3d 4d 5d 6d 7d", rules) == "straight_flush"


# ----------------------------------------------------------------------------- pairs


def test_pair_tiebreak_is_the_highest_suit() -> None:
    rules = rules_of()  # d < c < h < s
    assert cmp("9s 9c", "9h 9d", rules) == 1
    assert cmp("9h 9c", "9s 9d", rules) == -1
    assert cmp("9h 9d", "9c 9s", rules) == -1
    taiwan = rules_of("taiwan")  # c < d < h < s
    assert cmp("9d 9h", "9c 9s", taiwan) == -1
    assert cmp("2c 2d", "As Ah", rules) == 1  # rank before suit


def test_triple_rank_then_highest_suit() -> None:
    rules = rules_of()
    assert cmp("2c 2d 2h", "Ac Ad As", rules) == 1
    assert cmp("3s 3h 3c", "4d 4c 4h", rules) == -1
    # one deck cannot hold two triples of a rank without sharing cards; the rule still
    # reads "highest suit in it", so compare overlapping card sets
    assert cmp("9c 9d 9h", "9c 9d 9s", rules) == -1
    assert cmp("9c 9d 9s", "9d 9h 9c", rules) == 1


def test_singles_rank_then_suit() -> None:
    rules = rules_of()
    assert cmp("2d", "As", rules) == 1
    assert cmp("3s", "3h", rules) == 1
    assert cmp("3c", "3d", rules) == 1
    assert cmp("3c", "3d", rules_of("taiwan")) == -1
    assert cmp("3c", "3d", rules_of(suit_order="shdc")) == 1
    assert cmp("3s", "3h", rules_of(suit_order="shdc")) == -1


def test_different_sizes_are_not_comparable() -> None:
    rules = rules_of()
    pairs = [
        ("9c", "9d 9h"),
        ("9c 9d", "4c 4d 4h"),
        ("3d 4c 5h 6s 7d", "Ks"),
        ("8c 8d 8h 8s 3c", "2s"),
        ("3h 4h 5h 6h 7h", "2s 2d"),
    ]
    for a, b in pairs:
        with pytest.raises(ValueError):
            cmp(a, b, rules)
    with pytest.raises(ValueError):
        cmp("9c 9d 4h 4s", "9h 9s 5h 5s", rules)  # not combos at all


# ----------------------------------------------------------------------------- validate


HAND = "3d 3s 4c 5h 6s 7d 9c 9h Kc Ks Ad 2c 2s"


def test_first_play_must_include_the_lowest_card() -> None:
    result = verdict(HAND, "4c", first_play=True)
    assert not result.ok
    assert result.code == "MUST_INCLUDE_LOWEST"
    assert "3♦" in result.message or "3d" in result.message.lower()
    assert verdict(HAND, "3d", first_play=True).ok
    assert verdict(HAND, "3d 3s", first_play=True).ok
    assert verdict(HAND, "3d 4c 5h 6s 7d", first_play=True).ok
    assert verdict(HAND, "4c", first_play=False).ok


def test_first_play_lowest_card_follows_the_suit_order() -> None:
    taiwan = rules_of("taiwan")  # 3c is the lowest card there
    hand = "3c 3d 5h 8s 9c Tc Jd Qs Kd Ah 2d 2h 7c"
    assert verdict(hand, "3d", rules=taiwan, first_play=True).code == "MUST_INCLUDE_LOWEST"
    assert verdict(hand, "3c", rules=taiwan, first_play=True).ok
    assert verdict(hand, "3c", first_play=True).code == "MUST_INCLUDE_LOWEST"  # dchs: 3d
    # without any 3 the lowest card of the hand is what counts
    assert verdict("4h 4s 5d 9c Kd", "4s", first_play=True).code == "MUST_INCLUDE_LOWEST"
    assert verdict("4h 4s 5d 9c Kd", "4h", first_play=True).ok


def test_first_play_legal_plays_all_hold_the_lowest_card() -> None:
    plays = banting.legal_plays(parse(HAND), rules=rules_of(), first_play=True)
    assert plays
    assert all(parse("3d")[0] in play.cards for play in plays)
    kinds = {play.kind for play in plays}
    assert {"single", "pair", "straight"} <= kinds


def test_passing() -> None:
    leading = verdict(HAND, "pass")
    assert not leading.ok
    assert leading.code == "CANNOT_PASS_WHEN_LEADING"
    assert leading.message
    assert verdict(HAND, "pass", first_play=True).code == "CANNOT_PASS_WHEN_LEADING"
    answering = verdict(HAND, "pass", table="Qd")
    assert answering.ok
    assert answering.code is None


def test_pass_locks() -> None:
    locks = rules_of(pass_locks=True)
    result = verdict(HAND, "Kc", table="Qd", rules=locks, passed=True)
    assert not result.ok
    assert result.code == "PASSED_THIS_TRICK"
    assert verdict(HAND, "Kc", table="Qd", rules=locks, passed=False).ok
    assert verdict(HAND, "Kc", table="Qd", passed=True).ok  # no locks: passing is no bar
    # the lock comes before everything about the cards themselves
    assert verdict(HAND, "Qs", table="Qd", rules=locks, passed=True).code == "PASSED_THIS_TRICK"


def test_wrong_card_count() -> None:
    table = "8c 8d 8h Jc Jd"
    result = verdict(HAND, "9c 9h Kc Ks", table=table)
    assert result.code == "WRONG_CARD_COUNT"
    assert "4" in result.message
    assert "5" in result.message
    assert verdict(HAND, "Ks", table="Jc Jd").code == "WRONG_CARD_COUNT"
    # a card outside the hand is reported first
    assert verdict(HAND, "Qs", table="Jc Jd").code == "NOT_IN_HAND"


def test_code_precedence_among_card_problems() -> None:
    assert verdict(HAND, "3d 4c 5h 6s", table="8c").code == "WRONG_CARD_COUNT"
    assert verdict(HAND, "3d 4c 5h 6s").code == "NOT_A_COMBO"
    assert verdict(HAND, "4c 5h", first_play=True).code == "NOT_A_COMBO"
    assert verdict(HAND, "Qs Qh", first_play=True).code == "NOT_IN_HAND"
    assert verdict(HAND, "3s 9c", first_play=True).code == "NOT_A_COMBO"


def test_does_not_beat() -> None:
    result = verdict(HAND, "9c 9h", table="Kd Kh")
    assert result.code == "DOES_NOT_BEAT"
    assert "cannot beat" in result.message.lower()
    assert "9" in result.message
    assert "K" in result.message
    assert verdict(HAND, "Kc Ks", table="Kd Kh").ok  # same rank, higher suit
    assert verdict(HAND, "Kc", table="Kh").code == "DOES_NOT_BEAT"
    assert verdict(HAND, "2s", table="2h").ok
    assert verdict(HAND, "3d 4c 5h 6s 7d", table="4d 5d 6c 7c 8c").code == "DOES_NOT_BEAT"


def test_accepted_play_reports_its_combo() -> None:
    result = verdict(HAND, "9c 9h", table="8s 8h")
    assert result.ok
    assert result.combo.kind == "pair"
    assert sorted(result.combo.cards) == sorted(parse("9c 9h"))


def test_lone_triple_forbidden_when_triples_off() -> None:
    rules = rules_of(triples=False)
    assert reason("9c 9d 9h", rules) == "RULE_FORBIDS"
    assert kind("9c 9d 9h 4c 4d", rules) == "full_house"
    result = verdict("9c 9d 9h 4c 4d Ks", "9c 9d 9h", rules=rules)
    assert result.code == "RULE_FORBIDS"
    plays = banting.legal_plays(parse("9c 9d 9h 4c 4d Ks"), rules=rules)
    assert all(play.kind != "triple" for play in plays)
    assert any(play.kind == "full_house" for play in plays)


def test_forbidden_run_is_rule_forbids_in_validate() -> None:
    hand = "Jd Qc Kh As 2d 5c"
    assert verdict(hand, "Jd Qc Kh As 2d").code == "RULE_FORBIDS"
    assert verdict(hand, "Jd Qc Kh As 2d", rules=rules_of(straights="ace-top-jqka2")).ok


def test_card_both_in_hand_and_on_table_is_an_error() -> None:
    with pytest.raises(ValueError):
        banting.validate(parse(HAND), parse("Kc"), table=parse("3d"), rules=rules_of())


# ----------------------------------------------------------------------------- bombs


def test_taiwan_bombs() -> None:
    taiwan = rules_of("taiwan")
    quads, single_two = "7c 7d 7h 7s 3c", "2s"
    assert cmp(quads, single_two, taiwan) == 1
    assert cmp(single_two, quads, taiwan) == -1
    assert cmp("3h 4h 5h 6h 7h", "2c 2d", taiwan) == 1  # a straight flush over a pair
    assert cmp("3h 4h 5h 6h 7h", "Ac Ad As", taiwan) == 1
    hand = "7c 7d 7h 7s 3c 4d 5h 6s 8c 9d Ts Jc Qd"
    assert verdict(hand, "7c 7d 7h 7s 3c", table="2s", rules=taiwan).ok
    # a straight is no bomb: it cannot answer a pair
    with pytest.raises(ValueError):
        cmp("3c 4d 5h 6s 7c", "9c 9d", taiwan)
    assert verdict(hand, "3c 4d 5h 6s 7c", table="2c 2d", rules=taiwan).code == ("WRONG_CARD_COUNT")
    with pytest.raises(ValueError):
        cmp("8c 8d 8h 9c 9d", "Ac Ad As", taiwan)  # nor is a full house
    # bombs among themselves: the usual five-card order
    assert cmp("3h 4h 5h 6h 7h", "Ac Ad Ah As 3c", taiwan) == 1
    assert cmp("Ac Ad Ah As 3c", "Kc Kd Kh Ks 3d", taiwan) == 1
    plays = banting.legal_plays(parse(hand), table=parse("2s"), rules=taiwan)
    fives = {frozenset(p.cards) for p in plays if len(p.cards) == 5}
    assert len(fives) == 9  # 7777 + each of the other nine cards
    assert all(p.kind in ("single", "four_of_a_kind") for p in plays)


def test_no_bombs_by_default() -> None:
    rules = rules_of()
    with pytest.raises(ValueError):
        cmp("7c 7d 7h 7s 3c", "2s", rules)
    hand = "7c 7d 7h 7s 3c 4d 5h 6s 8c 9d Ts Jc Qd"
    assert verdict(hand, "7c 7d 7h 7s 3c", table="2s").code == "WRONG_CARD_COUNT"
    assert banting.legal_plays(parse(hand), table=parse("2s"), rules=rules) == []
    taiwan_no_bombs = rules_of("taiwan", bombs="none")
    assert verdict(hand, "7c 7d 7h 7s 3c", table="2s", rules=taiwan_no_bombs).code == (
        "WRONG_CARD_COUNT"
    )


# ----------------------------------------------------------------------------- scoring


@pytest.mark.parametrize(
    ("cards_left", "expected"),
    [
        ([0, 5, 10, 13], [64, -5, -20, -39]),  # 5x1, 10x2, 13x3
        ([3, 0], [-3, 3]),
        ([9, 10, 0, 12], [-9, -20, 53, -24]),  # 9x1, 10x2, 12x2
        ([13, 13, 13, 0], [-39, -39, -39, 117]),
        ([1, 0, 1], [-1, 2, -1]),
    ],
)
def test_default_scoring(cards_left: list[int], expected: list[int]) -> None:
    assert list(banting.score(cards_left, rules_of())) == expected


def test_custom_scoring_tiers() -> None:
    rules = rules_of(scoring=[[1, 1], [7, 2], [11, 4]])
    assert list(banting.score([0, 7, 11, 6], rules)) == [64, -14, -44, -6]


@pytest.mark.parametrize("cards_left", [[0, 0, 5, 5], [1, 2, 3, 4], [0, 14, 1, 1], [0, -1]])
def test_bad_scoring_input(cards_left: list[int]) -> None:
    with pytest.raises(ValueError):
        banting.score(cards_left, rules_of())


# ----------------------------------------------------------------------------- batch input


def test_legal_play_counts_input_checks() -> None:
    rules = rules_of()
    with pytest.raises(ValueError):
        banting.legal_play_counts(np.zeros((2, 12), dtype=np.uint8), rules=rules)
    bad = np.array([[*range(12), 52]], dtype=np.uint8)
    with pytest.raises(ValueError):
        banting.legal_play_counts(bad, rules=rules)
    duplicate = np.array([[0] * 13], dtype=np.uint8)
    with pytest.raises(ValueError):
        banting.legal_play_counts(duplicate, rules=rules)
    ok = np.array([parse(HAND)], dtype=np.uint8)
    assert list(banting.legal_play_counts(ok, rules=rules)) == [
        len(banting.legal_plays(parse(HAND), rules=rules))
    ]


def test_combo_kinds_are_the_engine_kinds_in_order() -> None:
    """banting.COMBO_KINDS (the HTTP schemas' enum and the RL observation's table kinds)
    names exactly what classify returns, weakest five-card kind first."""
    examples = [
        "3d",
        "3d 3c",
        "3d 3c 3h",
        "3d 4c 5h 6s 7d",
        "3d 5d 7d 9d Jd",
        "3d 3c 3h 4s 4d",
        "3d 3c 3h 3s 4d",
        "3d 4d 5d 6d 7d",
    ]
    kinds = [banting.classify(cards).kind for cards in examples]
    assert tuple(kinds) == banting.COMBO_KINDS
    fives = examples[3:]
    assert all(banting.compare(a, b) < 0 for a, b in pairwise(fives))


# API.md: bad input is a ValueError naming the problem, never a TypeError from the binding.
@pytest.mark.parametrize(
    ("call", "named"),
    [
        (lambda g: g.hand(0.0), "seat"),
        (lambda g: g.hand("0"), "seat"),
        (lambda g: g.play("0", ["3d"]), "seat"),
        (lambda g: g.pass_("1"), "seat"),
        (lambda g: g.validate(None, ["3d"]), "seat"),
        (lambda g: banting.validate("3d", "3d", first_play="yes"), "first_play"),
        (lambda g: banting.validate("3d", "3d", passed=1), "passed"),
        (lambda g: banting.score(None), "cards_left"),
        (lambda g: banting.score("1203"), "cards_left"),
    ],
)
def test_wrong_types_are_value_errors(call: Any, named: str) -> None:
    with pytest.raises(ValueError, match=named):
        call(banting.Game(code="TYPES"))


def test_numpy_flags_are_accepted() -> None:
    assert banting.validate("3d 4d", "3d", first_play=np.True_).ok
