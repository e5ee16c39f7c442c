"""Human messages for Banting combos and verdicts, in English and Indonesian.

The engine returns stable codes; the words live here, in one table per language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .._core import format_cards

SUIT_SYMBOL = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
RANK_NAME = {"T": "10"}
LANGUAGES = ("en", "id")


@dataclass(frozen=True)
class Verdict:
    """Whether a play is allowed: ``code`` is None when ``ok``; ``combo`` is the play's combo."""

    ok: bool
    combo: Any
    code: str | None
    message: str


def card_text(card: int) -> str:
    """A card as players write it: ``3♦``, ``10♠``."""
    text = format_cards([card])[0]
    return RANK_NAME.get(text[0], text[0]) + SUIT_SYMBOL[text[1]]


def _rank(card: int) -> str:
    text = format_cards([card])[0][0]
    return RANK_NAME.get(text, text)


def _run_text(cards: list[int]) -> str:
    # The run reads upward from its lowest card in rank order with wrap-around (A2345).
    ranks = [c // 4 for c in cards]
    start = next(r for r in ranks if (r - 1) % 13 not in ranks)
    return f"{_rank(start * 4)}–{_rank(((start + 4) % 13) * 4)}"


_KIND_TEXT: dict[str, dict[str, str]] = {
    "en": {
        "single": "{card}",
        "pair": "pair of {rank}s",
        "triple": "triple of {rank}s",
        "straight": "straight {run}",
        "flush": "flush in {suit}",
        "full_house": "full house of {rank}s",
        "four_of_a_kind": "four {rank}s",
        "straight_flush": "straight flush {run} in {suit}",
    },
    "id": {
        "single": "{card}",
        "pair": "pair {rank}",
        "triple": "tris {rank}",
        "straight": "straight {run}",
        "flush": "flush {suit}",
        "full_house": "full house {rank}",
        "four_of_a_kind": "four of a kind {rank}",
        "straight_flush": "straight flush {run} {suit}",
    },
}


def combo_label(combo: Any, lang: str = "en") -> str:
    """``pair of 9s``, ``straight 3–7``, ``full house of Ks`` (lower case, for sentences)."""
    cards = list(combo.cards)
    top = cards[-1]
    counts: dict[int, int] = {}
    for c in cards:
        counts[c // 4] = counts.get(c // 4, 0) + 1
    group_rank = max(counts, key=lambda r: (counts[r], r)) * 4
    template = _KIND_TEXT[lang if lang in _KIND_TEXT else "en"][combo.kind]
    return template.format(
        card=card_text(top),
        rank=_rank(group_rank),
        run=_run_text(cards) if combo.kind in ("straight", "straight_flush") else "",
        suit=SUIT_SYMBOL[format_cards([top])[0][1]],
    )


_MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "OK": "{play} is a legal play",
        "PASS_OK": "You pass",
        "CANNOT_PASS_WHEN_LEADING": "You lead this trick, so you cannot pass",
        "PASSED_THIS_TRICK": "You passed this trick; you cannot play again until it is cleared",
        "NOT_IN_HAND": "You do not hold {missing}",
        "WRONG_CARD_COUNT": "You chose {n} cards; the table needs {need}",
        "NOT_A_COMBO": "{cards} is not a combo",
        "RULE_FORBIDS": "{cards} is not allowed under these rules ({why})",
        "MUST_INCLUDE_LOWEST": "The first play must contain {lowest}",
        "DOES_NOT_BEAT": "{Play} cannot beat {table}",
        "ROUND_OVER": "The round is over",
        "NOT_YOUR_TURN": "It is not your turn",
    },
    "id": {
        "OK": "{play} boleh dimainkan",
        "PASS_OK": "Kamu pass",
        "CANNOT_PASS_WHEN_LEADING": "Kamu memimpin putaran ini, jadi tidak boleh pass",
        "PASSED_THIS_TRICK": "Kamu sudah pass di putaran ini; tunggu sampai meja bersih",
        "NOT_IN_HAND": "Kamu tidak memegang {missing}",
        "WRONG_CARD_COUNT": "Kamu memilih {n} kartu; meja butuh {need}",
        "NOT_A_COMBO": "{cards} bukan kombinasi yang sah",
        "RULE_FORBIDS": "{cards} tidak diizinkan oleh aturan meja ini ({why})",
        "MUST_INCLUDE_LOWEST": "Permainan pertama harus memuat {lowest}",
        "DOES_NOT_BEAT": "{Play} tidak bisa mengalahkan {table}",
        "ROUND_OVER": "Ronde sudah selesai",
        "NOT_YOUR_TURN": "Belum giliranmu",
    },
}

_FORBID_WHY: dict[str, dict[str, str]] = {
    "en": {
        "triple": "lone triples are off",
        "flush": "flushes are off",
        "run": "this run is not a straight here",
    },
    "id": {
        "triple": "tris tunggal tidak dipakai",
        "flush": "flush tidak dipakai",
        "run": "urutan ini bukan straight di sini",
    },
}


def verdict_message(
    code: str,
    lang: str,
    *,
    play: list[int] | None,
    hand: list[int],
    combo: Any = None,
    table: Any = None,
    lowest: int = -1,
) -> str:
    """The sentence for a verdict code, naming the cards and combos involved."""
    lang = lang if lang in _MESSAGES else "en"
    cards = " ".join(card_text(c) for c in play or [])
    nothing = "no cards" if lang == "en" else "tanpa kartu"
    fields: dict[str, Any] = {"cards": cards or nothing, "n": len(play or [])}
    if code == "OK" and play is None:
        return _MESSAGES[lang]["PASS_OK"]
    if code == "NOT_IN_HAND":
        held = set(hand)
        fields["missing"] = " ".join(card_text(c) for c in play or [] if c not in held)
    if table is not None:
        fields["need"] = table.size
        fields["table"] = combo_label(table, lang)
    if combo is not None:
        label = combo_label(combo, lang)
        fields["play"] = label
        fields["Play"] = label[:1].upper() + label[1:]
    if code == "MUST_INCLUDE_LOWEST":
        fields["lowest"] = card_text(lowest)
    if code == "RULE_FORBIDS":
        n = len(play or [])
        suits = {c % 4 for c in play or []}
        # Suited five cards are only forbidden when flushes are off (a suited run left out
        # of the straights list would otherwise be a flush).
        key = "triple" if n == 3 else ("run" if len(suits) > 1 else "flush")
        fields["why"] = _FORBID_WHY[lang][key]
    text = _MESSAGES[lang][code].format(**fields)
    return text[:1].upper() + text[1:]
