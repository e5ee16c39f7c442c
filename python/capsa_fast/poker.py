"""Poker-order hand evaluation (RULES.md section 2).

A hand's *strength* is one integer, larger is stronger, equal strengths tie. 3-, 5-, 6- and
7-card hands share one scale: a 3-card hand (a Susun top row) compares with a 5-card hand
category first, then ranks in order, a missing kicker counting lower than any card; 6 and 7
cards are worth their best five.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _core, _words
from ._core import HandValue
from ._equity import (
    CLASS_NAMES,
    COMBO_NAMES,
    Equity,
    EquityTable,
    equity,
    equity_table,
    parse_range,
)
from ._threads import check_threads

CATEGORIES: tuple[str, ...] = tuple(_core.CATEGORIES)
"""Category names from weakest to strongest."""

MAX_STRENGTH: int = _core.MAX_STRENGTH
_CATEGORY_STARTS = np.asarray(_core.CATEGORY_STARTS, dtype=np.int64)

# The C++ function itself, so a per-hand call costs one Python call and no more:
# evaluate(cards) -> HandValue for 3, 5, 6 or 7 cards (ids or strings); raises ValueError
# naming a bad card, a duplicate, or a wrong number of cards.
evaluate = _core.evaluate


def evaluate_batch(
    hands: npt.ArrayLike,
    *,
    validate: bool = True,
    threads: int | None = 1,
    out: npt.NDArray[np.int32] | None = None,
) -> npt.NDArray[np.int32]:
    """Strengths of ``hands``, an integer array ``[N, k]`` of card ids, k in 3, 5, 6, 7.

    All work is in C++ with the GIL released; contiguous uint8 input is the fastest (other
    types and layouts are narrowed block by block). ``validate`` (default) rejects ids
    outside 0..51 and repeated cards with a ValueError naming the row, at almost no cost
    (a card mask and a popcount per hand, in the same pass). With ``validate=False`` such
    rows get meaningless strengths, but are still read safely.

    ``threads``: how many threads may share the work (default 1); ``None`` means one per
    core this process may use. Each thread gets at least 16,384 hands, so smaller batches
    use fewer threads (below 32,768 hands, one): waking a thread costs more than it saves
    there.

    ``out``: an int32 array of shape ``[N]`` (contiguous, aligned, writable, not sharing
    memory with ``hands``) to write the strengths into, for example a slice of a larger
    result; it is returned. If a row is rejected, what ``out`` holds is unspecified.
    """
    threads = check_threads(threads)
    arr = hands if isinstance(hands, np.ndarray) else np.asarray(hands)
    if arr.ndim == 2 and (not arr.flags.aligned or any(s % arr.itemsize for s in arr.strides)):
        # The C++ loop steps by whole items: a view whose rows start between items (a
        # strided view of a byte buffer) is read from a copy.
        arr = np.ascontiguousarray(arr)
    if arr.ndim == 2 and arr.shape[0] == 0 and arr.shape[1] in (3, 5, 6, 7) and out is None:
        return np.zeros(0, dtype=np.int32)
    return _core.evaluate_batch(arr, validate, threads, out)


def batch_paths() -> tuple[str, ...]:
    """The batch loops this CPU can run, the portable reference first and the fastest last.

    ``"portable"`` is plain C++; ``"x86-64-v3"`` a vector loop doing 8 hands a step (AVX2,
    BMI, POPCNT); ``"avx512"`` one doing 16. All give identical strengths.
    """
    return tuple(_core.batch_paths())


def batch_path() -> str:
    """The loop ``evaluate_batch`` uses now (the fastest one unless chosen otherwise)."""
    return str(_core.batch_path())


def set_batch_path(name: str) -> None:
    """Make every later ``evaluate_batch`` call use loop ``name`` (tests and benchmarks).

    The environment variable ``CAPSA_FAST_BATCH_PATH`` does the same at import. Raises
    ValueError for an unknown name or a loop this CPU cannot run.
    """
    _core.set_batch_path(str(name))


_forced_path = os.environ.get("CAPSA_FAST_BATCH_PATH")
if _forced_path:
    try:
        set_batch_path(_forced_path)
    except ValueError as error:
        raise ValueError(f"CAPSA_FAST_BATCH_PATH: {error}") from None


def category_index(strengths: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """Category index (0 = high card .. 8 = straight flush) of each strength."""
    s = np.asarray(strengths)
    if s.size and (s.min() < 1 or s.max() > MAX_STRENGTH):
        raise ValueError(f"strengths must lie in 1..{MAX_STRENGTH}")
    idx = np.searchsorted(_CATEGORY_STARTS, s, side="right") - 1
    return idx.astype(np.uint8)


def categories_of(strengths: npt.ArrayLike) -> list[str]:
    """Category name of each strength."""
    names = CATEGORIES
    return [names[i] for i in category_index(strengths).tolist()]


def label_of(strength: int, lang: str = "en") -> str:
    """Readable name of a strength, e.g. ``"Two pair, kings and fives"`` (the same as
    ``HandValue.label``); with ``lang="id"`` in Indonesian: ``"Dua pasangan K dan 5"``,
    ``"Pasangan Q"``, ``"Royal flush"``. ``label_of(value.strength, lang)`` names a
    :class:`HandValue` in either language."""
    _words.check_language(lang)
    s = int(strength)
    if lang == "en":
        return str(_core.strength_label(s))
    ranks = _core.strength_ranks(s)  # the deciding ranks, highest group first (0 = 2, 12 = A)
    category = str(_core.strength_category(s))
    if category == "straight_flush" and ranks[0] == len(_words.RANKS) - 1:
        category = "royal_flush"
    names = [_words.RANK_TEXT[_words.RANKS[r]] for r in ranks]
    # A straight is named by its run; describe() gives its top card (5 for A-2-3-4-5).
    low = _words.RANK_TEXT[_words.RANKS[(ranks[0] - 4) % 13]]
    template = _words.words(lang, "poker")[category]
    return template.format(
        r0=names[0], r1=names[1] if len(names) > 1 else "", high=names[0], low=low
    )


@dataclass(frozen=True)
class Showdown:
    """Result of a Texas Hold'em showdown: each player's hand, the winners and pot shares."""

    hands: list[HandValue]
    winners: list[int]
    shares: list[float]


def showdown(board: Any, holes: Sequence[Any]) -> Showdown:
    """Best hand of each player from ``board`` (3-5 cards) and their two hole cards.

    Every card must be distinct across the board and all players; ties split the pot.
    """
    board_ids = _core.parse_cards(board)
    if not 3 <= len(board_ids) <= 5:
        raise ValueError(f"the board has 3 to 5 cards, got {len(board_ids)}")
    if len(holes) < 2:
        raise ValueError(f"a showdown needs at least 2 players, got {len(holes)}")
    seen = set(board_ids)
    hands = []
    for seat, hole in enumerate(holes):
        ids = _core.parse_cards(hole)
        if len(ids) != 2:
            raise ValueError(f"player {seat} must hold 2 hole cards, got {len(ids)}")
        for card in ids:
            if card in seen:
                name = _core.format_cards([card])[0]
                raise ValueError(f"duplicate card: {name} (player {seat})")
            seen.add(card)
        hands.append(_core.evaluate(board_ids + ids))
    best = max(h.strength for h in hands)
    winners = [i for i, h in enumerate(hands) if h.strength == best]
    shares = [1.0 / len(winners) if i in winners else 0.0 for i in range(len(hands))]
    return Showdown(hands=hands, winners=winners, shares=shares)


__all__ = [
    "CATEGORIES",
    "CLASS_NAMES",
    "COMBO_NAMES",
    "MAX_STRENGTH",
    "Equity",
    "EquityTable",
    "HandValue",
    "Showdown",
    "batch_path",
    "batch_paths",
    "categories_of",
    "category_index",
    "equity",
    "equity_table",
    "evaluate",
    "evaluate_batch",
    "label_of",
    "parse_range",
    "set_batch_path",
    "showdown",
]
