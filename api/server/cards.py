"""Cards from request bodies (strings or integer ids) to ``capsa_fast`` ids, with errors that
name each field.

``capsa_fast`` decides what a card is. This module only adds a precomputed table of common
spellings (one dict lookup per card), and falls back to ``capsa_fast.card_id`` for anything
else so its error message names the bad token. The batch route reads its body in C++
(``capsa_fast/batch_json.hpp``), with the same messages.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import cache

import capsa_fast

from api.server.errors import FieldErrors
from api.server.schemas import DECK_SIZE

_RANK_SPELLINGS = (*"23456789TJQKA", "10", *"tjqka")
_SUIT_SPELLINGS = (*"cdhs", *"CDHS", *"♣♦♥♠")


@cache
def card_lookup() -> dict[str, int]:
    """Common spellings of all 52 cards -> id, as ``capsa_fast.card_id`` reads them."""
    table: dict[str, int] = {}
    for rank in _RANK_SPELLINGS:
        for suit in _SUIT_SPELLINGS:
            token = rank + suit
            try:
                table[token] = capsa_fast.card_id(token)
            except ValueError:
                # A spelling the package rejects stays off the fast path; the slow path
                # then reports it with the package's own message.
                continue
    return table


@cache
def canonical(card: int) -> str:
    return capsa_fast.format_cards([card])[0]


def count_message(sizes: Collection[int], got: int) -> str:
    options = sorted(sizes)
    if len(options) == 1:
        wanted = str(options[0])
    else:
        wanted = ", ".join(map(str, options[:-1])) + f" or {options[-1]}"
    return f"Expected {wanted} cards, got {got}."


def _token_id(token: str | int) -> tuple[int | None, str]:
    """(id, "") for a card (a string or an integer id), (None, message naming it) otherwise."""
    if isinstance(token, int):
        if 0 <= token < DECK_SIZE:
            return token, ""
        text = str(token)
        shown = text if len(text) <= 40 else text[:40] + "..."
        return None, f"not a card id: {shown} (ids run from 0 = 2c to 51 = As)"
    card = card_lookup().get(token)
    if card is not None:
        return card, ""
    try:
        return capsa_fast.card_id(token), ""
    except UnicodeError:
        # Lone surrogates cannot be UTF-8 (JSON bodies never hold them; Python callers can).
        return None, f"not a card: {token[:16]!r} is not valid Unicode text"
    except ValueError as exc:
        # The package names the token (control characters as \xNN, at most 40 bytes).
        return None, str(exc)


def card_ids(
    tokens: Sequence[str | int],
    field: str,
    errors: FieldErrors,
    *,
    sizes: Collection[int] | None = None,
    seen: dict[int, str] | None = None,
) -> list[int]:
    """Ids of ``tokens``, reporting bad tokens and repeats as ``field/<index>``.

    ``sizes``: allowed card counts (a wrong count is reported on ``field`` itself).
    ``seen``: id -> path of cards already taken, shared across fields so a card repeated
    between the board and a player's hole cards is caught too.
    """
    if sizes is not None and len(tokens) not in sizes:
        errors.add(field, count_message(sizes, len(tokens)))
    if seen is None:
        seen = {}
    ids: list[int] = []
    for index, token in enumerate(tokens):
        path = f"{field}/{index}"
        card, message = _token_id(token)
        if card is None:
            errors.add(path, message)
        elif card in seen:
            errors.add(path, f"Duplicate card {canonical(card)} (also at {seen[card]}).")
        else:
            seen[card] = path
            ids.append(card)
    return ids
