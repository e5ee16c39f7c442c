"""Capsa Banting (Big Two): combos, comparison, legal plays, validation and scoring.

Every function takes ``rules``: a :class:`Rules`, a preset name, a dict
``{"preset": name, **overrides}``, or None for the default preset ``capsa-banting``.
Cards are ids or strings as everywhere in capsa_fast.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _core, _words
from .._codes import CODE_ALPHABET
from .game import (
    BOT_LEVELS,
    EXCHANGE_CODES,
    GAME_CODES,
    ExchangeView,
    Game,
    Hint,
    IllegalPlay,
    Move,
    RoundResult,
    deal,
    make_code,
    new_code,
    parse_code,
)
from .messages import LANGUAGES, Verdict, card_text, combo_label, verdict_message
from .rules import COMBO_KINDS, DEFAULT_PRESET, PRESETS, RUNS, STRAIGHT_ORDERS, Rules, resolve

Combo = _core.BantingCombo


def _combo_repr(self: Any) -> str:
    return (
        f"Combo(kind={self.kind!r}, cards={_core.format_cards(self.cards)}, label={self.label!r})"
    )


# Readable name of a combo ("pair of 9s"), as a property so every Combo carries it; other
# languages: combo_label(combo, lang).
Combo.label = property(combo_label)  # type: ignore[attr-defined]
Combo.__repr__ = _combo_repr  # type: ignore[method-assign]

RulesLike = Rules | Mapping[str, Any] | str | None

CODES: tuple[str, ...] = (
    "CANNOT_PASS_WHEN_LEADING",
    "PASSED_THIS_TRICK",
    "NOT_IN_HAND",
    "WRONG_CARD_COUNT",
    "NOT_A_COMBO",
    "RULE_FORBIDS",
    "MUST_INCLUDE_LOWEST",
    "DOES_NOT_BEAT",
)
"""Rejection codes, in the order of precedence of API.md."""


def _cards_or_none(cards: Any) -> Any:
    return None if cards is None else cards


def classify(cards: Any, rules: RulesLike = None, twos_demoted: bool = False) -> Combo | None:
    """The combo these 1-5 cards form under ``rules``, or None (see :func:`why_not`).

    ``twos_demoted``: the round's 2s are demoted (``two_demotion``: a four of a kind was
    played), which makes them the lowest singles; only a single's strength changes."""
    combo, _ = _core.banting_classify(cards, resolve(rules).core_for(twos_demoted))
    return combo


def why_not(cards: Any, rules: RulesLike = None, lang: str = "en") -> tuple[str, str] | None:
    """None if ``cards`` form a combo, else ``(code, message)``: NOT_A_COMBO or RULE_FORBIDS.

    ``lang``: "en" or "id" (Indonesian) for the message."""
    _words.check_language(lang)
    ids = _core.parse_cards(cards)
    r = resolve(rules)
    combo, code = _core.banting_classify(ids, r.core)
    if combo is not None or code is None:
        return None
    return code, verdict_message(code, lang, play=ids, hand=ids, straights=r.straights)


def compare(a: Any, b: Any, rules: RulesLike = None, twos_demoted: bool = False) -> int:
    """1 if ``a`` beats ``b``, -1 if ``b`` beats ``a``, 0 if equal.

    Raises ValueError when either is not a combo or they cannot be compared (different
    sizes, unless one is a bomb over a single, pair or triple under ``bombs``).
    ``twos_demoted``: as in :func:`classify`.
    """
    return int(_core.banting_compare(a, b, resolve(rules).core_for(twos_demoted)))


def validate(
    hand: Any,
    play: Any,
    table: Any = None,
    rules: RulesLike = None,
    first_play: bool = False,
    passed: bool = False,
    lang: str = "en",
    twos_demoted: bool = False,
) -> Verdict:
    """Judge ``play`` (cards, or the string ``"pass"``) from ``hand`` against ``table``.

    ``first_play``: the round's opening play, which must hold the hand's lowest card.
    ``passed``: this player has passed since the trick began (matters with ``pass_locks``).
    ``twos_demoted``: a four of a kind has demoted the 2s (``two_demotion``), so they are
    the lowest singles; the table is judged under the same state.
    Bad input (unknown or repeated cards, a table that is no combo, a card both in the hand
    and on the table) raises ValueError; a play that breaks the rules gives ``ok=False``.
    ``lang``: "en" or "id" (Indonesian) for the message and the combo names in it.
    """
    _words.check_language(lang)
    r = resolve(rules)
    for name, flag in (
        ("first_play", first_play),
        ("passed", passed),
        ("twos_demoted", twos_demoted),
    ):
        if not isinstance(flag, bool | np.bool_):
            raise ValueError(f"{name} must be true or false, got {flag!r}")
    is_pass = isinstance(play, str) and play.strip().lower() == "pass"
    hand_ids = _core.parse_cards(hand)
    play_ids = None if is_pass else _core.parse_cards(play)
    code, combo, table_combo, lowest, _ = _core.banting_validate(
        hand_ids, play_ids, _cards_or_none(table), r.core_for(twos_demoted), first_play, passed
    )
    message = verdict_message(
        code,
        lang,
        play=play_ids,
        hand=hand_ids,
        combo=combo,
        table=table_combo,
        lowest=lowest,
        straights=r.straights,
    )
    ok = code == "OK"
    return Verdict(ok=ok, combo=combo, code=None if ok else code, message=message)


def legal_plays(
    hand: Any,
    table: Any = None,
    rules: RulesLike = None,
    first_play: bool = False,
    passed: bool = False,
    twos_demoted: bool = False,
) -> list[Combo]:
    """Every distinct legal play from ``hand`` (1-52 cards), passing excluded.

    Leading when ``table`` is None; ``first_play`` keeps only plays with the lowest card;
    ``passed`` (this player passed since the trick began) leaves none under ``pass_locks``;
    ``twos_demoted``: the 2s are the lowest singles (see :func:`validate`).
    """
    r = resolve(rules)
    core = r.core_for(twos_demoted)
    return list(_core.banting_legal_plays(hand, table, core, first_play, passed))


def legal_play_counts(
    hands: npt.ArrayLike,
    table: Any = None,
    rules: RulesLike = None,
    first_play: bool = False,
    passed: bool = False,
    twos_demoted: bool = False,
) -> npt.NDArray[np.int32]:
    """Number of legal plays for each row of ``hands`` (integer array ``[N, k]`` of ids)."""
    arr = _batch_array(hands)
    core = resolve(rules).core_for(twos_demoted)
    return _core.banting_legal_play_counts(arr, table, core, first_play, passed)


NUM_ACTIONS: int = _core.BANTING_NUM_ACTIONS
ACTIONS: tuple[tuple[int, ...], ...] = tuple(tuple(a) for a in _core.banting_actions())
"""The mask form's action space: subsets of a row's positions (0..12) that could be a
play, sizes 1, 2, 3 and 5, each size in lexicographic order (13 + 78 + 286 + 1287)."""
_ACTION_INDEX = {a: i for i, a in enumerate(ACTIONS)}


def action_index(positions: Sequence[int]) -> int:
    """Index in :data:`ACTIONS` of a play given as positions in its hand row."""
    key = tuple(sorted(positions))
    if key not in _ACTION_INDEX:
        raise ValueError(f"not an action: {list(positions)} (1, 2, 3 or 5 positions in 0..12)")
    return _ACTION_INDEX[key]


def legal_play_mask(
    hands: npt.ArrayLike,
    table: Any = None,
    rules: RulesLike = None,
    first_play: bool = False,
    packed: bool = False,
    passed: bool = False,
    twos_demoted: bool = False,
) -> npt.NDArray[np.bool_] | npt.NDArray[np.uint8]:
    """Legal plays of each row of ``hands`` (``[N, k]`` ids, k <= 13) as an action mask.

    Bit ``a`` of row ``i`` is set when the cards at positions ``ACTIONS[a]`` of that row are
    a legal play. Returns bool ``[N, 1664]``, or with ``packed`` the same bits as uint8
    ``[N, 208]`` (``numpy.unpackbits(m, axis=1, bitorder="little")`` restores them).
    """
    arr = _batch_array(hands)
    core = resolve(rules).core_for(twos_demoted)
    bits = _core.banting_legal_play_mask(arr, table, core, first_play, passed)
    if packed:
        return bits
    return np.unpackbits(bits, axis=1, bitorder="little").astype(bool)


def _batch_array(hands: npt.ArrayLike) -> np.ndarray:
    arr = np.asarray(hands)
    if arr.ndim != 2:
        raise ValueError(f"hands must be a 2-D array [N, cards], got shape {arr.shape}")
    if arr.dtype.kind not in "iu":
        raise ValueError(f"hands must hold integer card ids, got dtype {arr.dtype}")
    return arr


def score(cards_left: Sequence[int], rules: RulesLike = None) -> list[int]:
    """Points per player from the cards each holds when the round ends; zero-sum.

    Exactly one player has 0 cards (the winner); each loser pays cards_left x the
    multiplier of the highest tier whose threshold <= cards_left.
    """
    counts = _check_cards_left(cards_left)
    return list(_core.banting_score(counts, list(resolve(rules).scoring)))


def score_lines(cards_left: Sequence[int], rules: RulesLike = None) -> list[dict[str, int]]:
    """Per player: cards left, multiplier and points (the winner's points are the sum)."""
    r = resolve(rules)
    counts = _check_cards_left(cards_left)
    points = _core.banting_score(counts, list(r.scoring))
    return [
        {
            "cards_left": n,
            "multiplier": _core.banting_tier_multiplier(n, list(r.scoring)),
            "points": p,
        }
        for n, p in zip(counts, points, strict=True)
    ]


def _check_cards_left(cards_left: Sequence[int]) -> list[int]:
    if isinstance(cards_left, str | bytes) or not hasattr(cards_left, "__iter__"):
        raise ValueError(f"cards_left: expected 2 to 4 counts, got {cards_left!r}")
    counts = list(cards_left)
    if not 2 <= len(counts) <= 4:
        raise ValueError(f"cards_left: a round has 2 to 4 players, got {len(counts)}")
    for i, n in enumerate(counts):
        if isinstance(n, bool) or not isinstance(n, int | np.integer) or not 0 <= n <= 13:
            raise ValueError(f"cards_left[{i}]: expected a count 0..13, got {n!r}")
    if counts.count(0) != 1:
        raise ValueError(
            f"cards_left: exactly one player has 0 cards (the winner), got {counts.count(0)}"
        )
    return [int(n) for n in counts]


# Long runs, reachable as banting.sim and banting.duplicate after `from capsa_fast import
# banting` (about 2 ms); they import only what this package has loaded already.
from . import duplicate, sim  # noqa: E402

__all__ = [
    "ACTIONS",
    "BOT_LEVELS",
    "CODES",
    "CODE_ALPHABET",
    "COMBO_KINDS",
    "DEFAULT_PRESET",
    "EXCHANGE_CODES",
    "GAME_CODES",
    "LANGUAGES",
    "NUM_ACTIONS",
    "PRESETS",
    "RUNS",
    "STRAIGHT_ORDERS",
    "Combo",
    "ExchangeView",
    "Game",
    "Hint",
    "IllegalPlay",
    "Move",
    "RoundResult",
    "Rules",
    "Verdict",
    "action_index",
    "card_text",
    "classify",
    "combo_label",
    "compare",
    "deal",
    "duplicate",
    "legal_play_counts",
    "legal_play_mask",
    "legal_plays",
    "make_code",
    "new_code",
    "parse_code",
    "score",
    "score_lines",
    "sim",
    "validate",
    "why_not",
]
