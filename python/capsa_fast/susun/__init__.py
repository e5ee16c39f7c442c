"""Capsa Susun (13-card Chinese poker): rows, fouls, arrangement search and table scoring.

Every function takes ``rules``: a :class:`Rules`, a preset name, a dict
``{"preset": name, **overrides}``, or None for the default preset ``capsa-susun``.
Cards are ids or strings as everywhere in capsa_fast.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _core, _words
from .._codes import check_players
from .._threads import check_threads
from ..poker import label_of
from .ev import VERSIONS, strategy_model
from .rules import DEFAULT_PRESET, OPTIONAL_SPECIALS, POSITIONS, PRESETS, Rules, resolve

RulesLike = Rules | Mapping[str, Any] | str | None
STRATEGIES = ("ev", "percentile", "naive")
SPECIALS: tuple[str, ...] = ("dragon", *OPTIONAL_SPECIALS)
"""Special hands by their API names; the dragon first (it outranks the others)."""


@dataclass(frozen=True)
class Row:
    """One row of an arrangement."""

    position: str
    cards: list[int]
    category: str
    strength: int  # the row key under the rules: larger is stronger, top and middle comparable
    label: str  # the row's poker name in the language asked for ("Pair of sevens")
    bonus: int  # the row's bonus value in its position, 0 when it is not a bonus row
    name: str  # the position's name in that language ("Top", "Atas")


@dataclass(frozen=True)
class Check:
    """The verdict on an arrangement: fouled or not, and each row."""

    fouled: bool
    out_of_order: list[str]
    rows: list[Row]
    special: str | None  # the highest special the 13 cards hold that the rules count

    @property
    def bonus(self) -> dict[str, int]:
        return {r.position: r.bonus for r in self.rows if r.bonus}


@dataclass(frozen=True)
class Arrangement:
    """A chosen arrangement: rows as card ids, its score under the strategy."""

    top: list[int]
    middle: list[int]
    bottom: list[int]
    score: float
    valid_arrangements: int
    special: str | None
    strategy: str = "ev"


@dataclass(frozen=True)
class TableScore:
    """Scores of a table: per player, and per pair of players."""

    points: list[int]
    money: list[float]
    fee: list[float]
    fee_total: float
    pairs: list[dict[str, Any]] = field(default_factory=list)
    arrangements: list[Arrangement | None] = field(default_factory=list)


def _row_cards(cards: Any, n: int, what: str) -> list[int]:
    ids = _core.parse_cards(cards)
    if len(ids) != n:
        raise ValueError(f"{what} holds {n} cards, got {len(ids)}")
    return ids


def row_key(cards: Any, rules: RulesLike = None) -> int:
    """Order key of a 3- or 5-card row under ``rules`` (larger is stronger)."""
    return int(_core.susun_row_key(cards, resolve(rules).suit_tiebreak))


def percentile(cards: Any, rules: RulesLike = None) -> float:
    """P(row): the share of all rows of its size it beats, ties counting half (RULES.md 4.6)."""
    return float(_core.susun_percentile(cards, resolve(rules).suit_tiebreak))


def _is_dragon(ids: Sequence[int], rules: Rules) -> bool:
    return rules.dragon_points > 0 and len({c // 4 for c in ids}) == 13


def check(top: Any, middle: Any, bottom: Any, rules: RulesLike = None, lang: str = "en") -> Check:
    """Rows, fouls and bonus rows of an arrangement (bottom >= middle >= top is valid).

    ``lang``: "en" or "id" (Indonesian) for each row's ``label`` and ``name``."""
    row_names = _words.words(lang, "row")
    r = resolve(rules)
    rows_cards = [
        _row_cards(top, 3, "the top row"),
        _row_cards(middle, 5, "the middle row"),
        _row_cards(bottom, 5, "the bottom row"),
    ]
    keys, bonus, fouled, _ = _core.susun_player_rows(
        rows_cards[0], rows_cards[1], rows_cards[2], r.core
    )
    rows = []
    for position, cards, key, value in zip(POSITIONS, rows_cards, keys, bonus, strict=True):
        hv = _core.evaluate(cards)
        label = label_of(hv.strength, lang)
        rows.append(
            Row(position, cards, hv.category, int(key), label, int(value), row_names[position])
        )
    out_of_order = []
    if keys[0] > keys[1]:
        out_of_order.append("top>middle")
    if keys[1] > keys[2]:
        out_of_order.append("middle>bottom")
    all_cards = [c for cards in rows_cards for c in cards]
    special = _core.susun_best_special(all_cards, r.core)
    return Check(bool(fouled), out_of_order, rows, special)


def _check_declared(special: Any, cards: list[int], r: Rules, who: str) -> None:
    if special not in SPECIALS:
        raise ValueError(f"{who}: special must be one of {', '.join(SPECIALS)}, got {special!r}")
    if r.special_value(special) <= 0:
        raise ValueError(f"{who}: these rules do not count {special} (see 'specials')")
    if not _core.susun_holds_special(cards, special):
        raise ValueError(f"{who}: the cards do not hold {special}")


def count_valid(hand: Any, rules: RulesLike = None) -> int:
    """How many of the 72,072 ways to split these 13 cards are not fouled."""
    return int(_core.susun_count_valid(hand, resolve(rules).core))


ARRANGERS: tuple[str, ...] = (*STRATEGIES, "deep", *VERSIONS)
"""Every strategy :func:`arrange` and :func:`arrange_batch` take: the three exhaustive ones,
``deep`` (the ``master`` level's: ev's candidates scored against sampled opponents) and
ev's other models (``ev-v1``, ``ev-v2``, ``ev-v3``, ``ev-cr``)."""


def _model_for(strategy: str, r: Rules, players: int) -> Any:
    """The C++ model of an ev-like strategy (None for percentile and naive)."""
    if strategy not in ARRANGERS:
        raise ValueError(f"strategy must be one of {', '.join(ARRANGERS)}, got {strategy!r}")
    check_players(players)
    return strategy_model(strategy, r, players)


def arrange(
    hand: Any,
    rules: RulesLike = None,
    strategy: str = "ev",
    top_k: int | None = None,
    *,
    players: int = 4,
) -> Arrangement | list[Arrangement]:
    """The best arrangement of 13 cards under ``strategy`` (one of :data:`ARRANGERS`).

    ``percentile`` maximises P(top) + P(middle) + P(bottom) exactly; ``ev`` maximises the
    expected points against realistic opponents at a table of ``players`` (2-4: its model
    is per table size); ``naive`` takes the strongest bottom row, then the strongest middle
    row; ``deep`` scores ev's best candidates exactly against opponents drawn from the
    unseen cards (about 1-3 ms; the first call per preset and table size makes its bank
    from the shipped codes, about 0.1-0.3 s), as the ``master`` bot does. With ``top_k``,
    returns the k best as a list (``ev`` ranks at most 128: the candidates its first pass
    keeps for the exact ranking; ``deep`` picks one arrangement and takes no ``top_k``).
    """
    r = resolve(rules)
    model = _model_for(strategy, r, players)
    if top_k is not None and (isinstance(top_k, bool) or not 1 <= top_k <= 1000):
        raise ValueError(f"top_k must be an integer in 1..1000, got {top_k!r}")
    if strategy == "deep" and top_k is not None:
        raise ValueError("deep picks one arrangement: top_k is for the other strategies")
    kind = strategy if model is None else "ev"
    # deep: ev's pass checks the hand and counts the valid splits, then deep chooses.
    found, valid, _ = _core.susun_arrange(hand, r.core, kind, top_k or 1, model)
    special = _core.susun_best_special(hand, r.core)
    if strategy == "deep":
        from .table import bot_choice  # the table module builds on this one

        top, middle, bottom, score, _ = bot_choice(_core.parse_cards(hand), r, players, "deep")
        found = [(top, middle, bottom, score, False)]
    result = [
        Arrangement(top, middle, bottom, float(score), int(valid), special, strategy)
        for top, middle, bottom, score, _ in found
    ]
    return result if top_k is not None else result[0]


def arrange_batch(
    hands: npt.ArrayLike,
    rules: RulesLike = None,
    strategy: str = "ev",
    threads: int | None = 1,
    *,
    players: int = 4,
) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.float64]]:
    """Arrange many hands in C++: ``[N, 13]`` ids in; ``([N, 13] ids as top 3, middle 5,
    bottom 5, [N] scores)`` out. ``threads`` splits the batch (2 uses both cores here);
    ``deep`` arranges hand by hand on one thread (about 1-3 ms a hand). ``players``: the
    table size, as in :func:`arrange`."""
    r = resolve(rules)
    arr = np.asarray(hands)
    if arr.ndim != 2 or arr.shape[1] != 13:
        raise ValueError(f"hands must be an array [N, 13] of card ids, got shape {arr.shape}")
    if arr.dtype.kind not in "iu":
        raise ValueError(f"hands must hold integer card ids, got dtype {arr.dtype}")
    threads = check_threads(threads)
    model = _model_for(strategy, r, players)
    kind = strategy if model is None else "ev"
    rows, scores = _core.susun_arrange_batch(arr, r.core, kind, threads, model)
    if strategy == "deep":  # ev's pass above checked every hand
        from .table import bot_choice

        for i, hand in enumerate(arr.tolist()):
            top, middle, bottom, scores[i], _ = bot_choice(hand, r, players, "deep")
            rows[i] = [*top, *middle, *bottom]
    return rows, scores


def score(players: Sequence[Any], rules: RulesLike = None, stake: float = 1) -> TableScore:
    """Score a table of 2-4 players (RULES.md 4.2); zero-sum.

    Each player is ``{"top", "middle", "bottom"}`` (arranged rows) or ``{"hand"}`` (13 cards,
    arranged with the ev strategy), a 3-tuple of rows, or an :class:`Arrangement` (its rows,
    as :func:`arrange` returns them). Either form may add
    ``"special"``: a special hand the player declares instead of its rows (RULES.md 4.4;
    ValueError when the cards do not hold it or the rules do not count it). A dragon is
    scored as a dragon whether declared or not.
    """
    r = resolve(rules)
    if isinstance(players, str | bytes | Mapping) or not hasattr(players, "__iter__"):
        raise ValueError(f"players must be a list of 2 to 4 players, got {type(players).__name__}")
    players = list(players)
    if not 2 <= len(players) <= 4:
        raise ValueError(f"a Susun table has 2 to 4 players, got {len(players)}")
    if (
        isinstance(stake, bool)
        or not isinstance(stake, int | float)
        or not 0 <= stake < float("inf")
    ):
        raise ValueError(f"stake must be a finite non-negative number, got {stake!r}")
    seen: dict[int, int] = {}
    entries = []
    arrangements: list[Arrangement | None] = []
    for i, player in enumerate(players):
        declared = None
        if isinstance(player, Arrangement):
            player = {"top": player.top, "middle": player.middle, "bottom": player.bottom}
        if not isinstance(player, Mapping) and (
            isinstance(player, str | bytes) or not hasattr(player, "__iter__")
        ):
            raise ValueError(
                f"player {i}: expected {{'top', 'middle', 'bottom'}}, {{'hand'}}, three rows "
                f"or an Arrangement, got {type(player).__name__}"
            )
        if isinstance(player, Mapping) and "special" in player:
            declared = player["special"]
            player = {k: v for k, v in player.items() if k != "special"}
        if isinstance(player, Mapping) and "hand" in player:
            if set(player) != {"hand"}:
                raise ValueError(f"player {i}: give either 'hand' or 'top', 'middle', 'bottom'")
            hand = _row_cards(player["hand"], 13, f"player {i}'s hand")
            if declared is not None:  # its rows are not compared: shown as dealt
                rows = [hand[:3], hand[3:8], hand[8:]]
                arrangements.append(None)
            else:
                arranged = arrange(hand, r)
                assert isinstance(arranged, Arrangement)
                rows = [arranged.top, arranged.middle, arranged.bottom]
                arrangements.append(arranged)
        else:
            if isinstance(player, Mapping):
                missing = [p for p in POSITIONS if p not in player]
                extra = sorted(set(player) - set(POSITIONS))
                if missing or extra:
                    raise ValueError(
                        f"player {i}: expected 'top', 'middle', 'bottom' (or 'hand'); "
                        f"missing {missing}, unknown {extra}"
                    )
                given = [player[p] for p in POSITIONS]
            else:
                given = list(player)
                if len(given) != 3:
                    raise ValueError(f"player {i}: expected three rows")
            rows = [
                _row_cards(given[0], 3, f"player {i}'s top row"),
                _row_cards(given[1], 5, f"player {i}'s middle row"),
                _row_cards(given[2], 5, f"player {i}'s bottom row"),
            ]
            arrangements.append(None)
        for card in (c for row in rows for c in row):
            if card in seen:
                name = _core.format_cards([card])[0]
                where = "twice" if seen[card] == i else f"also held by player {seen[card]}"
                raise ValueError(f"duplicate card: {name} (player {i}, {where})")
            seen[card] = i
        keys, bonus, fouled, _ = _core.susun_player_rows(rows[0], rows[1], rows[2], r.core)
        cards = [c for row in rows for c in row]
        dragon = _is_dragon(cards, r)
        if declared is not None:
            _check_declared(declared, cards, r, f"player {i}")
        special = "dragon" if dragon else declared
        entries.append((list(keys), list(bonus), bool(fouled), dragon, special))
    points, between, row_winner, multiplier, supers = _core.susun_score_table(entries, r.core)
    money = [p * stake for p in points]
    fee = [r.room_fee * m if m > 0 else 0.0 for m in money]
    pairs = []
    for i in range(len(players)):
        for j in range(i + 1, len(players)):
            pairs.append(
                {
                    "players": [i, j],
                    "rows": {POSITIONS[k]: int(row_winner[i][j][k]) for k in range(3)},
                    "multiplier": [int(multiplier[i][j]), int(multiplier[j][i])],
                    "points": [int(between[i][j]), int(between[j][i])],
                    "fouled": [entries[i][2], entries[j][2]],
                    "dragon": [entries[i][3], entries[j][3]],
                    "special": [entries[i][4], entries[j][4]],
                    "super": [bool(supers[i]), bool(supers[j])],
                }
            )
    return TableScore(
        points=[int(p) for p in points],
        money=money,
        fee=fee,
        fee_total=sum(fee),
        pairs=pairs,
        arrangements=arrangements,
    )


# Long runs, reachable as susun.tournament after `from capsa_fast import susun` (about 2 ms).
from . import tournament  # noqa: E402
from .table import (  # noqa: E402  (the table module builds on the functions above)
    LEVELS,
    TABLE_CODES,
    IllegalArrangement,
    SeatResult,
    SeatRows,
    Table,
    TableResult,
    Totals,
    deal,
    make_code,
    new_code,
    parse_code,
)

__all__ = [
    "ARRANGERS",
    "DEFAULT_PRESET",
    "LEVELS",
    "POSITIONS",
    "PRESETS",
    "SPECIALS",
    "STRATEGIES",
    "TABLE_CODES",
    "Arrangement",
    "Check",
    "IllegalArrangement",
    "Row",
    "Rules",
    "SeatResult",
    "SeatRows",
    "Table",
    "TableResult",
    "TableScore",
    "Totals",
    "arrange",
    "arrange_batch",
    "check",
    "count_valid",
    "deal",
    "make_code",
    "new_code",
    "parse_code",
    "percentile",
    "row_key",
    "score",
    "tournament",
]
