"""Texas Hold'em equity: hands and PokerStove ranges, exact or Monte Carlo (C++ engine).

Re-exported by :mod:`capsa_fast.poker`: ``equity``, ``equity_table``, ``parse_range``,
``Equity``, ``EquityTable``.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from . import _core
from ._threads import check_threads

MAX_PLAYERS = 10
DEFAULT_TARGET_STDERR = 5e-4
DEFAULT_TABLE_TARGET_STDERR = 2e-3
DEFAULT_MAX_EXACT_WORK = 4e8

COMBO_NAMES: tuple[str, ...] = tuple(_core.COMBO_NAMES)
"""The 1,326 starting hands by combo index (``"3d2c"`` .. ``"AsAh"``), higher card first."""
CLASS_NAMES: tuple[str, ...] = tuple(_core.CLASS_NAMES)
"""The 169 classes, row by row of the usual grid from ``"AA"``: suited above the
diagonal (``"AKs"``), offsuit below (``"AKo"``)."""
COMBO_CLASS = np.asarray(_core.COMBO_CLASS, dtype=np.int16)
COMBO_CLASS.setflags(write=False)


@dataclass(frozen=True)
class Equity:
    """Result of :func:`equity`, one entry per player in order.

    ``equity``: share of the pot won on average (ties split); ``win``: chance of winning
    alone; ``tie``: chance of splitting the pot. ``combos``: showdowns settled (each deal of
    combos on each board; ``showdowns`` is the same number). ``stderr``: the largest
    standard error of an equity (0.0 when exact); ``stderr_each`` per player.
    ``samples``: Monte Carlo draws (boards heads-up, deals otherwise; 0 when exact).
    ``method``: ``"matchups"``, ``"boards"`` (exact) or ``"monte_carlo_boards"``,
    ``"monte_carlo_deals"``.
    """

    equity: list[float]
    win: list[float]
    tie: list[float]
    exact: bool
    combos: int
    stderr: float
    stderr_each: list[float] = field(default_factory=list)
    samples: int = 0
    method: str = ""

    @property
    def showdowns(self) -> int:
        return self.combos


@dataclass(frozen=True)
class EquityTable:
    """Every starting hand against one range (:func:`equity_table`).

    ``hands``: the 169 class names or the 1,326 combos, matching the arrays. ``weight``:
    how much of the deal each row is (the villain weight it faces, normalised to sum to 1;
    0 for a hand that cannot be dealt, whose other entries are 0 too).
    """

    hands: tuple[str, ...]
    equity: npt.NDArray[np.float64]
    win: npt.NDArray[np.float64]
    tie: npt.NDArray[np.float64]
    weight: npt.NDArray[np.float64]
    stderr: npt.NDArray[np.float64]
    exact: bool
    combos: int
    samples: int
    method: str

    def as_dict(self) -> dict[str, float]:
        """Equity by hand name, for the hands that can be dealt."""
        return {
            h: float(e)
            for h, e, w in zip(self.hands, self.equity, self.weight, strict=True)
            if w > 0
        }


def parse_range(text: str) -> list[tuple[str, float]]:
    """The combos of a PokerStove range with their weights: ``[("AsKs", 1.0), ...]``.

    Syntax: ``AhKh`` (one hand), ``AKs`` ``AKo`` ``AK`` ``QQ`` (classes), ``QQ+`` ``ATs+``
    ``AT+`` (and better), ``22-99`` ``A5s-A2s`` (runs), ``random``/``any``, each with an
    optional ``:weight`` (0..1), separated by commas. Raises ValueError naming the bad token.
    """
    if not isinstance(text, str):
        raise ValueError(f"a range is a string, got {type(text).__name__}")
    combos, weights = _core.parse_range(text)
    return [(COMBO_NAMES[c], w) for c, w in zip(combos, weights, strict=True)]


def _player(value: Any, index: int) -> str | list[int]:
    if isinstance(value, str):
        return value
    if isinstance(value, Sequence | np.ndarray):
        try:
            return _core.parse_cards(value)
        except ValueError as error:
            raise ValueError(f"player {index}: {error}") from None
    raise ValueError(
        f"player {index}: a player is a range string like 'QQ+,AKs' or a hand like 'AhKh' "
        f"or ['Ah', 'Kh'], got {type(value).__name__}"
    )


def _hand_of(player: str | list[int]) -> list[int] | None:
    """The two cards of a player who holds one known hand ("AhKh", ids), else None."""
    if isinstance(player, list):
        return player if len(player) == 2 else None
    try:
        combos = _core.parse_range(player)[0]
    except ValueError:
        return None  # the engine names the bad token
    return list(_core.parse_cards(COMBO_NAMES[combos[0]])) if len(combos) == 1 else None


def _check_known_cards(players: list[str | list[int]], board: list[int], dead: list[int]) -> None:
    """A card held by two known hands, or by a known hand and the board or the dead cards,
    is an error naming the card (RULES.md 1), before the engine finds no deal at all."""
    seen: dict[int, str] = {}
    for card in board:
        seen.setdefault(card, "on the board")
    for card in dead:
        if card in seen:
            raise ValueError(f"dead: {_core.format_cards([card])[0]} is also on the board")
        seen[card] = "among the dead cards"
    for index, player in enumerate(players):
        hand = _hand_of(player)
        for card in hand or ():
            if card in seen:
                name = _core.format_cards([card])[0]
                raise ValueError(f"player {index}: {name} is also {seen[card]}")
            seen[card] = f"in player {index}'s hand"


def _cards(value: Any, name: str) -> list[int]:
    if value is None:
        return []
    try:
        return _core.parse_cards(value)
    except ValueError as error:
        raise ValueError(f"{name}: {error}") from None


def _common(
    samples: int | None,
    threads: int | None,
    seed: int | None,
    exact: bool | None,
    target_stderr: float,
    max_exact_work: float,
    time_limit: float | None,
) -> tuple[int, int, float, float, float, int, int]:
    if samples is not None:
        if (
            isinstance(samples, bool)
            or not isinstance(samples, int | np.integer)
            or not 2 <= samples < 2**63
        ):
            # One draw has no standard error.
            raise ValueError(
                f"samples must be an integer from 2 to 2**63 - 1 or None, got {samples!r}"
            )
        if exact:
            raise ValueError("samples asks for Monte Carlo; it cannot go with exact=True")
    threads = check_threads(threads)
    if seed is None:
        seed = secrets.randbits(64)
    elif isinstance(seed, bool) or not isinstance(seed, int | np.integer) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an integer from 0 to 2**64 - 1, got {seed!r}")
    if exact is not None and not isinstance(exact, bool):
        raise ValueError(f"exact must be True, False or None, got {exact!r}")
    for name, number in (("target_stderr", target_stderr), ("max_exact_work", max_exact_work)):
        if not isinstance(number, int | float) or isinstance(number, bool) or not number > 0:
            raise ValueError(f"{name} must be a positive number, got {number!r}")
    if time_limit is not None and (
        not isinstance(time_limit, int | float)
        or isinstance(time_limit, bool)
        or not time_limit > 0
    ):
        raise ValueError(
            f"time_limit must be a positive number of seconds or None, got {time_limit!r}"
        )
    method = 2 if samples is not None or exact is False else 1 if exact else 0
    return (
        method,
        int(samples or 0),
        float(target_stderr),
        float(max_exact_work),
        float(time_limit or 0.0),
        int(threads),
        int(seed),
    )


def _limit(exact_limit: float | None) -> float:
    if exact_limit is None:
        return 0.0
    if (
        isinstance(exact_limit, bool)
        or not isinstance(exact_limit, int | float)
        or not exact_limit > 0
    ):
        raise ValueError(f"exact_limit must be a positive number or None, got {exact_limit!r}")
    return float(exact_limit)


def equity(
    players: Sequence[Any],
    board: Any = "",
    dead: Any = "",
    samples: int | None = None,
    threads: int | None = None,
    seed: int | None = None,
    *,
    exact: bool | None = None,
    target_stderr: float = DEFAULT_TARGET_STDERR,
    max_exact_work: float = DEFAULT_MAX_EXACT_WORK,
    time_limit: float | None = None,
    exact_limit: float | None = None,
) -> Equity:
    """Hold'em equity of 2 to 10 players, each a hand (``"AhKh"``, ``["Ah", "Kh"]``, ids) or
    a PokerStove range (``"QQ+,AKs"``, ``"A5s-A2s:0.5"``, ``"random"``; see
    :func:`parse_range`).

    ``board``: 0, 3, 4 or 5 cards; ``dead``: cards out of the deck. Combos that collide with
    the board, the dead cards or each other are skipped (deals are weighted by the product
    of the combos' weights). Exact enumeration when the estimated work is at most
    ``max_exact_work`` hand evaluations (about a nanosecond each), else Monte Carlo until
    the standard errors of every player's equity, win and tie shares are at most
    ``target_stderr`` (after at least 1,024 draws; ``stderr`` is the equity's).
    ``samples=N`` asks for Monte Carlo with N draws; ``exact=True`` always enumerates,
    ``exact=False`` never.
    ``time_limit`` (seconds) bounds Monte Carlo and keeps longer enumerations out.
    ``threads``: None uses every core this process may use; the GIL is released.
    ``seed``: the same seed gives the same answer on any number of threads.
    ``exact_limit``: with ``exact=True``, a ValueError instead of enumerating work
    estimated above this many evaluations (servers use it).
    """
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise ValueError("players must be a list of hands or ranges, e.g. ['AhKh', 'QQ+,AKs']")
    if not 2 <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"equity needs 2 to {MAX_PLAYERS} players, got {len(players)}")
    converted = [_player(p, i) for i, p in enumerate(players)]
    board_cards, dead_cards = _cards(board, "board"), _cards(dead, "dead")
    _check_known_cards(converted, board_cards, dead_cards)
    args = _common(samples, threads, seed, exact, target_stderr, max_exact_work, time_limit)
    out: dict[str, Any] = _core.equity(
        converted, board_cards, dead_cards, *args, _limit(exact_limit)
    )
    return Equity(
        equity=list(out["equity"]),
        win=list(out["win"]),
        tie=list(out["tie"]),
        exact=bool(out["exact"]),
        combos=int(out["showdowns"]),
        stderr=float(out["stderr"]),
        stderr_each=list(out["stderr_each"]),
        samples=int(out["samples"]),
        method=str(out["method"]),
    )


def equity_table(
    villain: Any,
    board: Any = "",
    dead: Any = "",
    *,
    by: Literal["class", "combo"] = "class",
    samples: int | None = None,
    threads: int | None = None,
    seed: int | None = None,
    exact: bool | None = None,
    target_stderr: float = DEFAULT_TABLE_TARGET_STDERR,
    max_exact_work: float = DEFAULT_MAX_EXACT_WORK,
    time_limit: float | None = None,
    exact_limit: float | None = None,
) -> EquityTable:
    """Every starting hand against ``villain`` (a range or a hand) heads-up, in one call.

    ``by="class"``: 169 rows (:data:`CLASS_NAMES`; a class's equity is that of holding one
    of its combos at random); ``by="combo"``: 1,326 rows (:data:`COMBO_NAMES`). Exact when
    the work is within ``max_exact_work``, else Monte Carlo until every row's standard
    error is at most ``target_stderr``. Other arguments as in :func:`equity`.
    """
    if by not in ("class", "combo"):
        raise ValueError(f"by must be 'class' or 'combo', got {by!r}")
    player = _player(villain, 1)
    args = _common(samples, threads, seed, exact, target_stderr, max_exact_work, time_limit)
    out: dict[str, Any] = _core.equity_table(
        player, _cards(board, "board"), _cards(dead, "dead"), *args, _limit(exact_limit)
    )
    eq, win, tie, weight, err = (
        np.asarray(out[k], dtype=np.float64) for k in ("equity", "win", "tie", "weight", "stderr")
    )
    hands = COMBO_NAMES
    if by == "class":
        hands = CLASS_NAMES
        n = len(CLASS_NAMES)
        cw = np.bincount(COMBO_CLASS, weights=weight, minlength=n).astype(np.float64)
        safe = np.where(cw > 0, cw, 1.0)
        eq, win, tie = (
            np.bincount(COMBO_CLASS, weights=a * weight, minlength=n) / safe for a in (eq, win, tie)
        )
        # Rows share boards, so their errors are not independent: the weighted mean of the
        # combos' errors bounds the class's.
        err = np.bincount(COMBO_CLASS, weights=err * weight, minlength=n) / safe
        weight = cw
    return EquityTable(
        hands=hands,
        equity=eq,
        win=win,
        tie=tie,
        weight=weight,
        stderr=err,
        exact=bool(out["exact"]),
        combos=int(out["showdowns"]),
        samples=int(out["samples"]),
        method=str(out["method"]),
    )


__all__ = [
    "CLASS_NAMES",
    "COMBO_NAMES",
    "Equity",
    "EquityTable",
    "equity",
    "equity_table",
    "parse_range",
]
