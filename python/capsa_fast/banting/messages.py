"""Human messages for Banting combos and verdicts, in English and Indonesian.

The engine returns stable codes; this module fills in the cards and combos, and the words
come from the package's one table per language (``capsa_fast._words``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import _words
from .._core import format_cards

LANGUAGES = _words.LANGUAGES


@dataclass(frozen=True)
class Verdict:
    """Whether a play is allowed: ``code`` is None when ``ok``; ``combo`` is the play's combo."""

    ok: bool
    combo: Any
    code: str | None
    message: str


def card_text(card: int, lang: str = "en") -> str:
    """A card as players write it: ``3♦``, ``10♠`` in English, suit first in Indonesian
    (``♦3``)."""
    text = format_cards([card])[0]
    template = _words.words(lang, "card")["card"]
    return template.format(rank=_words.RANK_TEXT[text[0]], suit=_words.SUIT_SYMBOL[text[1]])


def _rank(card: int) -> str:
    return _words.RANK_TEXT[_words.RANKS[card // 4]]


def _run_text(cards: list[int]) -> str:
    # The run reads upward from its lowest card in rank order with wrap-around (A2345).
    ranks = [c // 4 for c in cards]
    start = next(r for r in ranks if (r - 1) % 13 not in ranks)
    return f"{_rank(start * 4)}–{_rank(((start + 4) % 13) * 4)}"


def combo_label(combo: Any, lang: str = "en") -> str:
    """A combo's name: ``pair of 9s``, ``straight 3–7``, ``full house of Ks`` in English
    (lower case, for sentences); ``Pasangan 9``, ``Tunggal ♦3``, ``Tris 5`` in Indonesian
    (``lang="id"``)."""
    template = _words.words(lang, "combo")[combo.kind]
    cards = list(combo.cards)
    top = cards[-1]
    counts: dict[int, int] = {}
    for c in cards:
        counts[c // 4] = counts.get(c // 4, 0) + 1
    group_rank = max(counts, key=lambda r: (counts[r], r)) * 4
    return template.format(
        card=card_text(top, lang),
        rank=_rank(group_rank),
        run=_run_text(cards) if combo.kind in ("straight", "straight_flush") else "",
        suit=_words.SUIT_SYMBOL[format_cards([top])[0][1]],
    )


def _forbidden(play: list[int], lang: str, straights: tuple[str, ...] | None) -> str:
    """Why the table rules exclude ``play`` (a RULE_FORBIDS verdict)."""
    forbid = _words.words(lang, "forbid")
    if len(play) == 3:
        return forbid["triple"]
    # Suited five cards are only forbidden when flushes are off (a suited run left out of
    # the straights list would otherwise be a flush); the others are a run left out.
    if len({c % 4 for c in play}) == 1:
        return forbid["flush"]
    holds_two = any(c // 4 == 0 for c in play)
    # "No 2 in a straight" is the table's rule only when it allows no run with a 2 at all;
    # otherwise (JQKA2 under two-high, a custom list) the run itself is named.
    if holds_two and straights is not None and not any("2" in run for run in straights):
        return forbid["two"]
    return forbid["run"].format(run=_run_text(play))


def verdict_message(
    code: str,
    lang: str,
    *,
    play: list[int] | None,
    hand: list[int],
    combo: Any = None,
    table: Any = None,
    lowest: int = -1,
    straights: tuple[str, ...] | None = None,
) -> str:
    """The sentence for a verdict code, naming the cards and combos involved.

    ``straights``: the table's runs (``Rules.straights``), which tell a forbidden run apart
    from the rule "no 2 in a straight"."""
    templates = _words.words(lang, "verdict")
    if code == "OK" and play is None:
        return templates["PASS_OK"]
    if code == "RULE_FORBIDS":
        return _forbidden(play or [], lang, straights)
    if code == "NOT_A_COMBO" and not play:
        code = "NOT_A_COMBO_EMPTY"
    fields: dict[str, Any] = {"cards": " ".join(card_text(c, lang) for c in play or [])}
    fields["n"] = len(play or [])
    if code == "NOT_IN_HAND":
        held = set(hand)
        fields["missing"] = " ".join(card_text(c, lang) for c in play or [] if c not in held)
    if table is not None:
        fields["need"] = table.size
        fields["table"] = combo_label(table, lang)
        if code == "WRONG_CARD_COUNT" and table.size == 1:
            code = "WRONG_CARD_COUNT_ONE"
    if combo is not None:
        label = combo_label(combo, lang)
        fields["play"] = label
        fields["Play"] = label[:1].upper() + label[1:]
    if code == "MUST_INCLUDE_LOWEST":
        fields["lowest"] = card_text(lowest, lang)
    text = templates[code].format(**fields)
    return text[:1].upper() + text[1:]
