"""Card strings from request bodies to ``capsa_fast`` ids, with errors that name each field.

``capsa_fast`` decides what a card is. This module only adds a precomputed table of common
spellings so a 100,000-hand batch converts with one dict lookup per card, and falls back to
``capsa_fast.card_id`` for anything else so its error message names the bad token.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import cache
from itertools import chain

import capsa_fast
import numpy as np

from api.errors import FieldErrors

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


def _token_id(token: str) -> tuple[int | None, str]:
    """(id, "") for a card, (None, message naming the token) otherwise."""
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
    tokens: Sequence[str],
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


def batch_card_arrays(
    hands: Sequence[Sequence[str]], field: str, errors: FieldErrors, sizes: Collection[int]
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Hands grouped by size: a list of (row indices [n], card ids uint8 [n, size]).

    Problems are added to ``errors`` (the caller raises); the fast path does no per-card
    Python work beyond one dict lookup and only a failing group is rescanned card by card
    to name every bad field.
    """
    lookup = card_lookup()
    lengths = np.fromiter(map(len, hands), dtype=np.intp, count=len(hands))
    groups: list[tuple[np.ndarray, np.ndarray]] = []
    for size in np.unique(lengths).tolist():
        rows = np.flatnonzero(lengths == size)
        if size not in sizes:
            for row in rows.tolist():
                if errors.full:
                    break
                errors.add(f"{field}/{row}", count_message(sizes, size))
            continue
        group = hands if len(rows) == len(hands) else [hands[row] for row in rows.tolist()]
        try:
            flat = np.fromiter(
                map(lookup.__getitem__, chain.from_iterable(group)),
                dtype=np.uint8,
                count=len(rows) * size,
            )
        except KeyError:
            # Some token is not a common spelling: it may still be a card (the package
            # accepts more than the table holds) or be a real error. Decide card by card.
            converted = _rescan(rows, hands, field, errors)
            if errors:  # the request fails anyway; no point building arrays
                continue
            flat = np.array(converted, dtype=np.uint8)
        ids = flat.reshape(len(rows), size)
        # A repeated card shows up as two equal neighbours once each row is sorted.
        ordered = np.sort(ids, axis=1)
        repeated = np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1))
        if len(repeated):
            _rescan(rows[repeated], hands, field, errors)
            continue
        groups.append((rows, ids))
    return groups


def _rescan(
    rows: np.ndarray, hands: Sequence[Sequence[str]], field: str, errors: FieldErrors
) -> list[list[int]]:
    """Convert ``rows`` card by card, reporting every problem until the error list is full."""
    converted: list[list[int]] = []
    for row in rows.tolist():
        if errors.full:
            break
        converted.append(card_ids(hands[row], f"{field}/{row}", errors))
    return converted
