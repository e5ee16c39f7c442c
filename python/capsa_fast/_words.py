"""Every word capsa_fast says to people, one table per language: English and Indonesian.

The engine speaks in stable codes (Banting verdict codes and combo kinds, poker categories,
Susun row positions); the tables below turn them into words, and nothing else in the
package holds a human sentence. The Indonesian words are seed 003's own («Kartu pertama
wajib memuat ♦3», «Pasangan 9 tidak bisa menimpa Pasangan K», «Lewat»), with its vocabulary
(tunggal, pasangan, tris, menimpa, lewat) carried to everything else; like the seed, the
five-card names stay the English ones Indonesian players use (straight, flush, full house).

English poker labels ("Pair of queens", "Royal flush") are the C++ core's
(``HandValue.label``), so only the Indonesian table has a ``poker`` section.
"""

from __future__ import annotations

from typing import Any

LANGUAGES: tuple[str, ...] = ("en", "id")
"""The languages of messages and labels: English (the default) and Indonesian."""

SUIT_SYMBOL = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
RANKS = "23456789TJQKA"
# How a rank is written in a sentence, in both languages: "10" rather than "T".
RANK_TEXT = {rank: "10" if rank == "T" else rank for rank in RANKS}

# Placeholders: {rank} a rank as written (9, 10, K); {card} a card in the language's
# spelling (3♦ or ♦3); {suit} a suit symbol; {run} a five-rank run from its lowest card
# (3–7, J–2). Verdict templates name combos with {play} / {Play} (capitalised) and {table}.
WORDS: dict[str, dict[str, dict[str, str]]] = {
    "en": {
        "card": {"card": "{rank}{suit}"},
        # Lower case: a combo's name sits inside sentences ("Pair of 9s cannot beat ...").
        "combo": {
            "single": "{card}",
            "pair": "pair of {rank}s",
            "triple": "triple of {rank}s",
            "straight": "straight {run}",
            "flush": "flush in {suit}",
            "full_house": "full house of {rank}s",
            "four_of_a_kind": "four {rank}s",
            "straight_flush": "straight flush {run} in {suit}",
        },
        "verdict": {
            "OK": "{play} is a legal play",
            "PASS_OK": "You pass",
            "CANNOT_PASS_WHEN_LEADING": "You lead this trick, so you cannot pass",
            "PASSED_THIS_TRICK": "You passed this trick; you cannot play again until it is cleared",
            "NOT_IN_HAND": "You do not hold {missing}",
            "WRONG_CARD_COUNT": "You need {need} cards; you chose {n}",
            "WRONG_CARD_COUNT_ONE": "You need 1 card; you chose {n}",
            "NOT_A_COMBO": "{cards} is not a combo",
            "NOT_A_COMBO_EMPTY": "An empty play is not a combo",
            "MUST_INCLUDE_LOWEST": "The first play must contain {lowest}",
            "DOES_NOT_BEAT": "{Play} cannot beat {table}",
            "ROUND_OVER": "The round is over",
            "NOT_YOUR_TURN": "It is not your turn",
            "EXCHANGE_CLOSED": "You have no card to give back now",
        },
        # RULE_FORBIDS, by what the table rules exclude.
        "forbid": {
            "two": "Table rules: a straight may not contain a 2",
            "run": "Table rules: {run} is not a straight here",
            "triple": "Table rules: lone triples are off",
            "flush": "Table rules: flushes are off",
        },
        "row": {"top": "Top", "middle": "Middle", "bottom": "Bottom"},
    },
    "id": {
        # Seed 003 writes a card suit first: «♦3».
        "card": {"card": "{suit}{rank}"},
        # Capitalised, as the seed writes «Pasangan» on both sides of «menimpa».
        "combo": {
            "single": "Tunggal {card}",
            "pair": "Pasangan {rank}",
            "triple": "Tris {rank}",
            "straight": "Straight {run}",
            "flush": "Flush {suit}",
            "full_house": "Full house {rank}",
            "four_of_a_kind": "Four of a kind {rank}",
            "straight_flush": "Straight flush {run} {suit}",
        },
        "verdict": {
            "OK": "{play} boleh dikeluarkan",
            "PASS_OK": "Kamu lewat",
            "CANNOT_PASS_WHEN_LEADING": "Kamu memimpin, tidak boleh lewat",
            "PASSED_THIS_TRICK": "Kamu sudah lewat; tunggu sampai meja bersih",
            "NOT_IN_HAND": "Kamu tidak memegang {missing}",
            "WRONG_CARD_COUNT": "Harus {need} kartu, kamu pilih {n}",
            "WRONG_CARD_COUNT_ONE": "Harus 1 kartu, kamu pilih {n}",
            "NOT_A_COMBO": "Kartu ini tidak membentuk kombinasi",
            "NOT_A_COMBO_EMPTY": "Belum ada kartu yang dipilih",
            "MUST_INCLUDE_LOWEST": "Kartu pertama wajib memuat {lowest}",
            "DOES_NOT_BEAT": "{Play} tidak bisa menimpa {table}",
            "ROUND_OVER": "Ronde sudah selesai",
            "NOT_YOUR_TURN": "Belum giliranmu",
            "EXCHANGE_CLOSED": "Tidak ada kartu yang harus kamu kembalikan sekarang",
        },
        "forbid": {
            "two": "Aturan meja: straight tidak boleh memuat 2",
            "run": "Aturan meja: {run} bukan straight",
            "triple": "Aturan meja: tris tidak boleh dikeluarkan sendiri",
            "flush": "Aturan meja: flush tidak boleh dikeluarkan",
        },
        "row": {"top": "Atas", "middle": "Tengah", "bottom": "Bawah"},
        # Poker categories, from the ranks that decide the hand ({r0}, {r1}: highest group
        # first; {low}–{high}: a straight's run).
        "poker": {
            "high_card": "Kartu tertinggi {r0}",
            "pair": "Pasangan {r0}",
            "two_pair": "Dua pasangan {r0} dan {r1}",
            "three_of_a_kind": "Tris {r0}",
            "straight": "Straight {low}–{high}",
            "flush": "Flush, kartu tertinggi {r0}",
            "full_house": "Full house {r0} dan {r1}",
            "four_of_a_kind": "Four of a kind {r0}",
            "straight_flush": "Straight flush {low}–{high}",
            "royal_flush": "Royal flush",
        },
    },
}


def check_language(lang: Any) -> str:
    """``lang`` if it is one of :data:`LANGUAGES`, else a ValueError naming them."""
    if not isinstance(lang, str) or lang not in LANGUAGES:
        raise ValueError(f"lang must be one of {', '.join(LANGUAGES)}, got {lang!r}")
    return lang


def words(lang: str, section: str) -> dict[str, str]:
    """The ``section`` table of ``lang`` (checked: ValueError for an unknown language)."""
    return WORDS[check_language(lang)][section]
