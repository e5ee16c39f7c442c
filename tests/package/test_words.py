"""Messages and labels in English and Indonesian (issue 11, item 3: seed 003's words).

Seed 003 gives the Indonesian refusals in its own words; each is quoted verbatim here, from
the Python API (``lang="id"``). The English ones stay as they were where API.md quotes
them ("Pair of 9s cannot beat pair of Ks"). Poker labels and Susun row names get an
Indonesian form too; every code, combo kind, category and row has both languages.
"""

from __future__ import annotations

from typing import Any

import pytest
from capsa_fast import LANGUAGES, banting, poker, susun
from capsa_fast._words import WORDS

# --- seed 003, quoted -----------------------------------------------------------------------


def test_seed_003_first_play_must_hold_the_three_of_diamonds() -> None:
    # «Kartu pertama wajib memuat ♦3»
    verdict = banting.validate("3d 9c 9h Kd", "9c 9h", first_play=True, lang="id")
    assert verdict.code == "MUST_INCLUDE_LOWEST"
    assert verdict.message == "Kartu pertama wajib memuat ♦3"
    english = banting.validate("3d 9c 9h Kd", "9c 9h", first_play=True)
    assert english.message == "The first play must contain 3♦"


def test_seed_003_five_cards_needed_four_chosen() -> None:
    # «Harus 5 kartu, kamu pilih 4»
    table = "4c 5d 6h 7s 8c"
    verdict = banting.validate("9c 9h Kd Ks 2s", "9c 9h Kd Ks", table=table, lang="id")
    assert verdict.code == "WRONG_CARD_COUNT"
    assert verdict.message == "Harus 5 kartu, kamu pilih 4"
    english = banting.validate("9c 9h Kd Ks 2s", "9c 9h Kd Ks", table=table)
    assert english.message == "You need 5 cards; you chose 4"


def test_seed_003_cards_that_form_no_combo() -> None:
    # «Kartu ini tidak membentuk kombinasi»
    verdict = banting.validate("3d 9c Kd", "9c Kd", lang="id")
    assert verdict.code == "NOT_A_COMBO"
    assert verdict.message == "Kartu ini tidak membentuk kombinasi"
    assert banting.why_not("9c Kd", lang="id") == (
        "NOT_A_COMBO",
        "Kartu ini tidak membentuk kombinasi",
    )


def test_seed_003_pair_of_nines_cannot_beat_pair_of_kings() -> None:
    # «Pasangan 9 tidak bisa menimpa Pasangan K»
    verdict = banting.validate("9c 9d 3s", "9c 9d", table="Kc Kd", lang="id")
    assert verdict.code == "DOES_NOT_BEAT"
    assert verdict.message == "Pasangan 9 tidak bisa menimpa Pasangan K"
    # API.md's English example is unchanged.
    english = banting.validate("9c 9d 3s", "9c 9d", table="Kc Kd")
    assert english.message == "Pair of 9s cannot beat pair of Ks"


def test_seed_003_table_rule_no_two_in_a_straight() -> None:
    # «Aturan meja: straight tidak boleh memuat 2» (seed 003's setup: 2 in straights, no)
    rules = {"straights": "no-two"}
    for run in ("2c 3d 4h 5s 6c", "Ac 2d 3h 4s 5c", "Jc Qd Kh As 2c"):
        verdict = banting.validate(run, run, rules=rules, lang="id")
        assert verdict.code == "RULE_FORBIDS"
        assert verdict.message == "Aturan meja: straight tidak boleh memuat 2"
        assert banting.why_not(run, rules, lang="id") == (
            "RULE_FORBIDS",
            "Aturan meja: straight tidak boleh memuat 2",
        )
        english = banting.validate(run, run, rules=rules).message
        assert english == "Table rules: a straight may not contain a 2"


def test_seed_003_words_in_a_game() -> None:
    # The same words when a round refuses a move (Game.validate, as the web page asks).
    for seed in range(1, 200):
        game = banting.Game(code=banting.make_code(4, seed))
        if not game.over and game.turn == 0:
            break
    hand = game.hand(0)
    assert banting.card_text(hand[0]) == "3♦"  # four players: seat 0 opens with the 3♦
    verdict = game.validate(0, [hand[-1]], lang="id")
    assert verdict.message == "Kartu pertama wajib memuat ♦3"
    assert game.validate(0, "pass", lang="id").message == "Kamu memimpin, tidak boleh lewat"


# --- the rest of the Banting vocabulary ---------------------------------------------------


def test_forbidden_runs_and_kinds_each_have_their_sentence() -> None:
    # Under two-high the runs through K-A-2 are left out while 23456 and A2345 are allowed,
    # so the sentence names the run rather than claiming "no 2 in a straight".
    run = "Jc Qd Kd Ad 2d"
    assert banting.why_not(run, lang="id") == ("RULE_FORBIDS", "Aturan meja: J–2 bukan straight")
    assert banting.why_not(run) == ("RULE_FORBIDS", "Table rules: J–2 is not a straight here")
    # A custom list that leaves out a run without a 2.
    custom = {"straights": ["34567", "45678"]}
    assert banting.why_not("5c 6d 7h 8s 9c", custom, lang="id") == (
        "RULE_FORBIDS",
        "Aturan meja: 5–9 bukan straight",
    )
    # With a 2 but under a list that has runs with a 2, the run is named too.
    assert banting.why_not("Kc Ad 2h 3s 4c", lang="id") == (
        "RULE_FORBIDS",
        "Aturan meja: K–4 bukan straight",
    )
    triple = banting.why_not("9c 9d 9h", {"triples": False}, lang="id")
    assert triple == ("RULE_FORBIDS", "Aturan meja: tris tidak boleh dikeluarkan sendiri")
    assert banting.why_not("9c 9d 9h", {"triples": False}) == (
        "RULE_FORBIDS",
        "Table rules: lone triples are off",
    )
    flush = banting.why_not("3h 7h 9h Jh Kh", {"flush_compare": "none"}, lang="id")
    assert flush == ("RULE_FORBIDS", "Aturan meja: flush tidak boleh dikeluarkan")
    assert banting.why_not("3h 7h 9h Jh Kh", {"flush_compare": "none"}) == (
        "RULE_FORBIDS",
        "Table rules: flushes are off",
    )


@pytest.mark.parametrize(
    ("hand", "play", "table", "kwargs", "message"),
    [
        ("3d 9c", "pass", None, {}, "Kamu memimpin, tidak boleh lewat"),
        ("3d 9c", "pass", "8c", {}, "Kamu lewat"),
        (
            "3d 9c",
            "9c",
            "8c",
            {"passed": True, "rules": {"pass_locks": True}},
            "Kamu sudah lewat; tunggu sampai meja bersih",
        ),
        ("3d 9c", "Ac", "8c", {}, "Kamu tidak memegang ♣A"),
        ("3d 9c", [], None, {}, "Belum ada kartu yang dipilih"),
        ("3d 9c Tc", "9c Tc", "8c", {}, "Harus 1 kartu, kamu pilih 2"),
        ("3d 9c", "9c", "8c", {}, "Tunggal ♣9 boleh dikeluarkan"),
        ("3d 9c", "3d", "8c", {}, "Tunggal ♦3 tidak bisa menimpa Tunggal ♣8"),
        ("3d 9c 9d 9h", "9c 9d 9h", "8c 8d 8h", {}, "Tris 9 boleh dikeluarkan"),
        (
            "3d 4c 5h 6s 7d",
            "3d 4c 5h 6s 7d",
            "4d 5d 6c 7c 8c",
            {},
            "Straight 3–7 tidak bisa menimpa Straight 4–8",
        ),
        (
            "3h 7h 9h Jh Kh",
            "3h 7h 9h Jh Kh",
            "9c 9d 9s 4c 4d",
            {},
            "Flush ♥ tidak bisa menimpa Full house 9",
        ),
        (
            "Tc Td Th Ts 3c",
            "Tc Td Th Ts 3c",
            "4h 5h 6h 7h 8h",
            {},
            "Four of a kind 10 tidak bisa menimpa Straight flush 4–8 ♥",
        ),
    ],
)
def test_indonesian_vocabulary(
    hand: str, play: Any, table: str | None, kwargs: dict[str, Any], message: str
) -> None:
    assert banting.validate(hand, play, table=table, lang="id", **kwargs).message == message


def test_english_reads_naturally_for_one_card_and_for_none() -> None:
    verdict = banting.validate("3d 9c Tc", "9c Tc", table="8c")
    assert verdict.message == "You need 1 card; you chose 2"
    assert banting.validate("3d 9c", [], table="8c").message == "You need 1 card; you chose 0"
    assert banting.validate("3d 9c", []).message == "An empty play is not a combo"
    assert banting.why_not([]) == ("NOT_A_COMBO", "An empty play is not a combo")


def test_combo_labels_in_both_languages() -> None:
    cases = {
        "9c": ("9♣", "Tunggal ♣9"),
        "Tc": ("10♣", "Tunggal ♣10"),
        "9c 9d": ("pair of 9s", "Pasangan 9"),
        "Kc Kd Kh": ("triple of Ks", "Tris K"),
        "3d 4c 5h 6s 7d": ("straight 3–7", "Straight 3–7"),
        "3h 7h 9h Jh Kh": ("flush in ♥", "Flush ♥"),
        "9c 9d 9s 4c 4d": ("full house of 9s", "Full house 9"),
        "Tc Td Th Ts 3c": ("four 10s", "Four of a kind 10"),
        "9h Th Jh Qh Kh": ("straight flush 9–K in ♥", "Straight flush 9–K ♥"),
    }
    for cards, (english, indonesian) in cases.items():
        combo = banting.classify(cards)
        assert combo is not None
        assert combo.label == banting.combo_label(combo) == english
        assert banting.combo_label(combo, "id") == indonesian


# --- poker labels ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "english", "indonesian"),
    [
        ("Qs Qd 7c 4h 2s", "Pair of queens", "Pasangan Q"),
        ("Ah Kh Qh Jh Th", "Royal flush", "Royal flush"),
        ("Kc Kd 5h 5s 9c", "Two pair, kings and fives", "Dua pasangan K dan 5"),
        ("7c 7d 7h", "Three of a kind, sevens", "Tris 7"),
        ("Kc 9d 5h", "High card, king high", "Kartu tertinggi K"),
        ("5c 4d 3h 2s Ac", "Straight, five high", "Straight A–5"),
        ("As Kd Qh Jc Ts", "Straight, ace high", "Straight 10–A"),
        ("2h 7h 9h Jh Kh", "Flush, king high", "Flush, kartu tertinggi K"),
        ("Kc Kd Kh 5s 5c", "Full house, kings over fives", "Full house K dan 5"),
        ("9c 9d 9h 9s 2c", "Four of a kind, nines", "Four of a kind 9"),
        ("5h 6h 7h 8h 9h", "Straight flush, nine high", "Straight flush 5–9"),
        ("Th Tc 4d", "Pair of tens", "Pasangan 10"),
    ],
)
def test_poker_labels(cards: str, english: str, indonesian: str) -> None:
    value = poker.evaluate(cards.split())
    assert value.label == english  # unchanged
    assert poker.label_of(value.strength) == english
    assert poker.label_of(value.strength, lang="id") == indonesian


def test_every_strength_has_an_indonesian_label_as_precise_as_the_english_one() -> None:
    # Two strengths share an Indonesian label exactly when they share the English one, so
    # the translation keeps every rank the English label names, over the whole scale.
    english_of: dict[str, str] = {}
    indonesian_of: dict[str, str] = {}
    for strength in range(1, poker.MAX_STRENGTH + 1):
        english = poker.label_of(strength)
        indonesian = poker.label_of(strength, "id")
        assert (indonesian and indonesian != english) or english == "Royal flush"
        assert english_of.setdefault(indonesian, english) == english, indonesian
        assert indonesian_of.setdefault(english, indonesian) == indonesian, english


# --- Susun rows -----------------------------------------------------------------------------


def test_susun_rows_in_both_languages() -> None:
    top, middle, bottom = "2c 7d Ks", "4h 4s 9c Jd Qh", "3s 5s 8s Ts As"
    english = susun.check(top, middle, bottom)
    indonesian = susun.check(top, middle, bottom, lang="id")
    assert [r.name for r in english.rows] == ["Top", "Middle", "Bottom"]
    assert [r.name for r in indonesian.rows] == ["Atas", "Tengah", "Bawah"]
    assert [r.label for r in english.rows] == [
        "High card, king high",
        "Pair of fours",
        "Flush, ace high",
    ]
    assert [r.label for r in indonesian.rows] == [
        "Kartu tertinggi K",
        "Pasangan 4",
        "Flush, kartu tertinggi A",
    ]
    # Only the words change.
    assert [(r.position, r.category, r.strength, r.bonus) for r in english.rows] == [
        (r.position, r.category, r.strength, r.bonus) for r in indonesian.rows
    ]


# --- every code, kind, category and row in both languages ---------------------------------


def test_every_table_has_the_same_entries_in_both_languages() -> None:
    assert LANGUAGES == ("en", "id")
    for section in ("card", "combo", "verdict", "forbid", "row"):
        assert set(WORDS["en"][section]) == set(WORDS["id"][section]), section
    codes = set(banting.CODES) - {"RULE_FORBIDS"}  # RULE_FORBIDS: the "forbid" section
    codes |= {"OK", "PASS_OK", "ROUND_OVER", "NOT_YOUR_TURN"}
    assert codes <= set(WORDS["en"]["verdict"])
    kinds = {"single", "pair", "triple", "straight", "flush", "full_house"}
    kinds |= {"four_of_a_kind", "straight_flush"}
    assert set(WORDS["en"]["combo"]) == kinds
    assert set(WORDS["id"]["poker"]) == {*poker.CATEGORIES, "royal_flush"}
    assert set(WORDS["en"]["row"]) == set(susun.POSITIONS)


def _verdicts(lang: str) -> dict[str, str]:
    """One real verdict for every code (and for an allowed play and a pass)."""
    hand = "3d 9c 9d 9h Kd"
    found = {
        "OK": banting.validate(hand, "9c", table="8c", lang=lang),
        "PASS_OK": banting.validate(hand, "pass", table="8c", lang=lang),
        "CANNOT_PASS_WHEN_LEADING": banting.validate(hand, "pass", lang=lang),
        "PASSED_THIS_TRICK": banting.validate(
            hand, "9c", table="8c", passed=True, rules={"pass_locks": True}, lang=lang
        ),
        "NOT_IN_HAND": banting.validate(hand, "Ac", lang=lang),
        "WRONG_CARD_COUNT": banting.validate(hand, "9c 9d", table="8c", lang=lang),
        "NOT_A_COMBO": banting.validate(hand, "3d 9c", lang=lang),
        "RULE_FORBIDS": banting.validate(hand, "9c 9d 9h", rules={"triples": False}, lang=lang),
        "MUST_INCLUDE_LOWEST": banting.validate(hand, "9c", first_play=True, lang=lang),
        "DOES_NOT_BEAT": banting.validate(hand, "9c", table="Kc", lang=lang),
    }
    for code, verdict in found.items():
        assert verdict.code == (None if code in ("OK", "PASS_OK") else code)
    messages = {code: verdict.message for code, verdict in found.items()}
    game = banting.Game(code=banting.make_code(4, 1))
    other = (game.turn + 1) % 4
    messages["NOT_YOUR_TURN"] = game.validate(other, "pass", lang=lang).message
    return messages


def test_every_code_has_a_sentence_in_each_language() -> None:
    english, indonesian = _verdicts("en"), _verdicts("id")
    assert set(english) == set(indonesian) >= set(banting.CODES)
    for code in english:
        assert english[code] and indonesian[code]
        assert english[code] != indonesian[code], code


def test_an_unknown_language_is_a_value_error() -> None:
    combo = banting.classify("9c 9d")
    calls = [
        lambda: banting.validate("3d 9c", "9c", lang="fr"),
        lambda: banting.why_not("9c 9d", lang="fr"),
        lambda: banting.combo_label(combo, "EN"),
        lambda: banting.Game(code=banting.make_code(4, 1)).validate(0, "pass", lang="fr"),
        lambda: poker.label_of(1, lang="fr"),
        lambda: susun.check("2c 7d Ks", "4h 4s 9c Jd Qh", "3s 5s 8s Ts As", lang="Indonesian"),
    ]
    for call in calls:
        with pytest.raises(ValueError, match="lang must be one of en, id"):
            call()
