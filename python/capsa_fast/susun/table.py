"""A Capsa Susun table (RULES.md 4.5): deal by round code, arrange in secret, reveal, score.

A round is dealt from a round code (``S`` + the number of players + 13 characters, or 9
in the short form, for the codes this package issues, or any code word: see
:mod:`capsa_fast._codes`); the same code deals the same hands everywhere. Each seat
arranges its 13 cards into a top (3), middle (5) and bottom (5) row, or declares a special
hand; a fouled arrangement is refused unless confirmed. When every seat has arranged (or
the time limit has passed, after which the ``expert`` bot arranges the seats that had not),
the rows are revealed and scored with the stake and the room fee, and a match keeps running
totals. With ``corrections`` a seat may replace its rows until the reveal, which then comes
when every seat has said it is ready (or the time limit has passed).
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import _core
from .._codes import SUSUN_CODES, canonical_code, check_players
from .ev import VERSIONS, strategy_model
from .rules import POSITIONS, PRESETS, Rules, resolve

LEVELS: dict[str, str] = {
    "beginner": "naive",
    "standard": "percentile",
    "expert": "ev",
    "master": "deep",
}
"""Bot levels and the arrangement strategy each plays; the strategy names work as levels too
(and the earlier versions of ev and ev with card removal: see
:data:`capsa_fast.susun.ev.VERSIONS`)."""
EXTRA_STRATEGIES: tuple[str, ...] = tuple(VERSIONS)
SPECIALS: tuple[str, ...] = ("dragon", "six_pairs", "three_flushes", "three_straights")
TABLE_CODES: tuple[str, ...] = (
    "FOULED",
    "ALREADY_ARRANGED",
    "ALREADY_REVEALED",
    "NO_SUCH_SPECIAL",
)
"""Refusal codes of :class:`IllegalArrangement`."""


def make_code(players: int, seed: int) -> str:
    """The Susun round code for ``players`` (2-4) and a seed in ``0 .. 2**64 - 1`` (9
    characters for a seed below 2**45, else 13)."""
    return SUSUN_CODES.make(players, seed)


def parse_code(code: str) -> tuple[int | None, int]:
    """``(players, seed)`` of a Susun round code; ``players`` is None for a free code word."""
    return SUSUN_CODES.parse(code)


def new_code(players: int = 4) -> str:
    """A fresh Susun round code with an unpredictable seed."""
    return SUSUN_CODES.new(players)


def deal(code: str, players: int | None = None) -> list[list[int]]:
    """The hands a round code deals, seat by seat (card ids in dealing order)."""
    code_players, seed = parse_code(code)
    players = SUSUN_CODES.players_for(code, code_players, players)
    deck = _core.banting_shuffled_deck(seed)
    return [deck[13 * s : 13 * s + 13] for s in range(players)]


def strategy_of(level: str) -> str:
    """The arrangement strategy a bot level plays (``expert`` -> ``ev``, ...)."""
    if level in LEVELS:
        return LEVELS[level]
    if level in LEVELS.values() or level in EXTRA_STRATEGIES:
        return level
    known = ", ".join([*LEVELS, *LEVELS.values(), *EXTRA_STRATEGIES])
    raise ValueError(f"bot level must be one of {known}, got {level!r}")


_PRESET_RULES: tuple[Rules, ...] = tuple(Rules.preset(name) for name in PRESETS)


def deep_bank_for(rules: Rules) -> int:
    """The bank ``deep`` scores against at a table of these rules: the default bank for a
    preset's rule set (made from the codes shipped with the package at the first decision
    of a process and table size, about 0.1-0.3 s, and kept: :mod:`.deep_banks`), none (0:
    100 opponent hands sampled a decision, about 3 ms) for any other rule set, whose bank
    would have to be built (3.6 s on two quiet cores). So a table with rules of its own
    never waits seconds for a bank, and a server meets at most the presets' banks however
    many rule sets its clients send."""
    return _core.SUSUN_DEEP_BANK if rules in _PRESET_RULES else 0


def bot_choice(
    hand: Sequence[int], rules: Rules, players: int, strategy: str, bank_step: int = 0
) -> tuple[list[int], list[int], list[int], float, str | None]:
    """(top, middle, bottom, score, declared special or None) of a bot playing ``strategy``
    at a table of ``players``: ``deep`` takes about 1-3 ms (:func:`deep_bank_for`), the
    others arrange in tens of microseconds. ``bank_step``: see :class:`Table`."""
    model = strategy_model(strategy, rules, players)
    if strategy == "deep":
        return _core.susun_deep_choice(
            hand, rules.core, players, model, bank=deep_bank_for(rules), bank_step=bank_step
        )
    return _core.susun_bot_choice(hand, rules.core, "ev" if model is not None else strategy, model)


class IllegalArrangement(ValueError):
    """An arrangement or declaration the table refuses; ``code`` is stable (one of
    :data:`TABLE_CODES`), ``message`` is for people; ``rows`` names the rows out of order
    of a fouled arrangement ("top>middle", "middle>bottom")."""

    def __init__(self, code: str, message: str, rows: Sequence[str] = ()) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.rows = list(rows)


@dataclass(frozen=True)
class SeatRows:
    """What a seat put down: its rows (card ids), or the special it declared (rows then
    show the special where it has rows: three flushes or straights), and who chose them."""

    top: list[int]
    middle: list[int]
    bottom: list[int]
    special: str | None
    fouled: bool
    by: str  # "player", "bot" or "time" (the bot, once the time limit passed)


@dataclass(frozen=True)
class SeatResult:
    seat: int
    rows: SeatRows
    points: int
    money: float
    fee: float


@dataclass(frozen=True)
class TableResult:
    """A revealed round: per seat its rows and score, per pair of seats the details."""

    seats: list[SeatResult]
    pairs: list[dict[str, Any]]
    fee_total: float

    @property
    def points(self) -> list[int]:
        return [s.points for s in self.seats]

    @property
    def money(self) -> list[float]:
        return [s.money for s in self.seats]


@dataclass
class Totals:
    """Running totals of a match: per seat, points, money (gross) and room fees paid."""

    points: list[int]
    money: list[float]
    fee: list[float] = field(default_factory=list)


class Table:
    """A match of Capsa Susun rounds between 2-4 seats.

    ``rules``: Rules, dict, preset name or None. ``players``: 2-4; None takes it from a code
    this package issued, else 4. ``code``: the first round's code; None deals a fresh one.
    ``stake``: money per point. ``time_limit``: seconds to arrange, or None; ``clock``
    gives the time in seconds (``time.time`` by default; tests pass one they can move).
    ``deep_bank_step``: the first ``master`` decision at a preset's rules makes the bank of
    arranged hands it scores against from the shipped codes (about 0.1-0.3 s, once per
    process and table size). Only when those do not match the model (a model regenerated
    without the generator run again) is the bank built by arranging it: with 0 (the
    default) whole by that decision (3.6 s on two cores); with n > 0, n more of its hands a
    decision, sampling until it is whole, so no one decision waits seconds (a server passes
    ``_core.SUSUN_DEEP_SERVER_BANK_STEP``, 16,384: about 0.25 s a decision).
    ``corrections`` (RULES.md 4.5): False (the default), a seat's first rows are final;
    True, a seat may put down rows again until the reveal, saying each time whether it is
    ready, and the reveal comes when every seat is ready or the time limit has passed.
    """

    def __init__(
        self,
        rules: Any = None,
        players: int | None = None,
        code: str | None = None,
        stake: float = 1,
        time_limit: float | None = None,
        clock: Callable[[], float] = time.time,
        deep_bank_step: int = 0,
        corrections: bool = False,
    ) -> None:
        self.rules: Rules = resolve(rules)
        if not isinstance(corrections, bool):
            raise ValueError(f"corrections must be True or False, got {corrections!r}")
        self.corrections: bool = corrections
        if code is None:
            players = 4 if players is None else players
            check_players(players)
        else:
            players = SUSUN_CODES.players_for(code, parse_code(code)[0], players)
        if isinstance(stake, bool) or not isinstance(stake, int | float) or not stake >= 0:
            raise ValueError(f"stake must be a non-negative number, got {stake!r}")
        if time_limit is not None and (
            isinstance(time_limit, bool)
            or not isinstance(time_limit, int | float)
            or not 0 < time_limit <= 86_400
        ):
            raise ValueError(
                f"time_limit must be a number of seconds in (0, 86400], got {time_limit!r}"
            )
        self.players: int = players
        self.stake: float = float(stake)
        self.time_limit: float | None = None if time_limit is None else float(time_limit)
        self._clock = clock
        if (
            isinstance(deep_bank_step, bool)
            or not isinstance(deep_bank_step, int)
            or not 0 <= deep_bank_step <= _core.SUSUN_DEEP_MAX_BANK
        ):
            raise ValueError(
                f"deep_bank_step must be 0..{_core.SUSUN_DEEP_MAX_BANK:,}, got {deep_bank_step!r}"
            )
        self.deep_bank_step = deep_bank_step
        self.round: int = 0
        self._totals = Totals([0] * players, [0.0] * players, [0.0] * players)
        self._start(code)

    @classmethod
    def from_hands(
        cls,
        rules: Any,
        hands: Sequence[Any],
        stake: float = 1,
        time_limit: float | None = None,
        clock: Callable[[], float] = time.time,
    ) -> Table:
        """A table whose first round holds these hands (2-4 hands of 13 distinct cards), for
        worked examples, tests and replays; its ``code`` is None. Later rounds are dealt
        from codes as usual."""
        if not isinstance(hands, Sequence) or not 2 <= len(hands) <= 4:
            raise ValueError("hands: give 2 to 4 hands of 13 cards")
        ids = [_row(hand, 13, f"hand {i}") for i, hand in enumerate(hands)]
        every = [c for hand in ids for c in hand]
        if len(set(every)) != len(every):
            twice = next(c for c in every if every.count(c) > 1)
            raise ValueError(f"{_core.format_cards([twice])[0]} is dealt twice")
        table = cls(rules, players=len(ids), stake=stake, time_limit=time_limit, clock=clock)
        table.code = None
        table._hands = [sorted(hand) for hand in ids]
        return table

    @classmethod
    def resume(
        cls,
        rules: Any,
        players: int,
        code: str,
        *,
        round: int,
        dealt_at: float,
        placed: dict[int, SeatRows],
        totals: Totals | None = None,
        stake: float = 1,
        time_limit: float | None = None,
        clock: Callable[[], float] = time.time,
        deep_bank_step: int = 0,
        corrections: bool = False,
        waiting: Collection[int] = (),
    ) -> Table:
        """A match picked up at round ``round`` (dealt from ``code`` at ``dealt_at``) with what
        the seats in ``placed`` put down and the ``totals`` of the rounds before; when every
        seat has placed and is ready, the round is revealed. ``waiting``: the seats of
        ``placed`` not ready yet (only with ``corrections``). For servers that keep a match
        as data."""
        if isinstance(round, bool) or not isinstance(round, int) or round < 1:
            raise ValueError(f"round must be 1 or more, got {round!r}")
        table = cls(
            rules,
            players=players,
            stake=stake,
            time_limit=time_limit,
            clock=clock,
            deep_bank_step=deep_bank_step,
            corrections=corrections,
        )
        if totals is not None:
            for name in ("points", "money", "fee"):
                if len(getattr(totals, name)) != players:
                    raise ValueError(f"totals.{name}: one value per seat ({players})")
            table._totals = Totals(list(totals.points), list(totals.money), list(totals.fee))
        table.round = round - 1
        table._start(code, dealt_at=dealt_at)
        for seat, rows in sorted(placed.items()):
            table._check_seat(seat)
            if sorted([*rows.top, *rows.middle, *rows.bottom]) != table._hands[seat]:
                raise ValueError(f"seat {seat}: the rows placed are not the hand this code deals")
            table._rows[seat] = rows
        for seat in waiting:
            if seat not in placed:
                raise ValueError(f"seat {seat} waits but has placed nothing")
            if not corrections:
                raise ValueError(f"seat {seat} waits, but the table has no corrections")
            table._ready[seat] = False
        if table._all_ready():
            table._reveal()
        return table

    # The round --------------------------------------------------------------------------

    def _start(self, code: str | None, dealt_at: float | None = None) -> None:
        if code is None:
            code = new_code(self.players)
        hands = deal(code, self.players)  # raises, changing nothing, on a bad code
        self.code: str | None = canonical_code(code)
        self._hands = [sorted(h) for h in hands]
        self._rows: list[SeatRows | None] = [None] * self.players
        self._ready: list[bool] = [True] * self.players  # of the seats that placed rows
        self._result: TableResult | None = None
        self.dealt_at: float = self._clock() if dealt_at is None else dealt_at
        self.round += 1

    def next_round(self, code: str | None = None) -> None:
        """Deal the next round of the match once this one is revealed; totals carry on."""
        self.expire()
        if self._result is None:
            raise ValueError("the round is not revealed yet")
        self._start(code)

    @property
    def deadline(self) -> float | None:
        """When unarranged seats are arranged by the bot (clock seconds), or None."""
        return None if self.time_limit is None else self.dealt_at + self.time_limit

    def expire(self) -> bool:
        """Apply the time limit: once it has passed, the ``expert`` bot arranges every seat
        that has not, the rows of the seats not ready stand, and the table is revealed. True
        when it did so now."""
        deadline = self.deadline
        if self._result is not None or deadline is None or self._clock() < deadline:
            return False
        for seat in range(self.players):
            if self._rows[seat] is None:
                self._rows[seat] = self._bot_rows(seat, "expert", by="time")
        self._reveal()
        return True

    def hand(self, seat: int) -> list[int]:
        """The seat's 13 cards, sorted by id (low to high rank)."""
        self._check_seat(seat)
        return list(self._hands[seat])

    @property
    def arranged(self) -> list[bool]:
        """Per seat: True once it has arranged or declared."""
        self.expire()
        return [rows is not None for rows in self._rows]

    @property
    def ready(self) -> list[bool]:
        """Per seat: True once its rows are final: it has arranged and (with
        ``corrections``) said it is ready; every seat once revealed."""
        self.expire()
        if self._result is not None:
            return [True] * self.players
        return [rows is not None and ok for rows, ok in zip(self._rows, self._ready, strict=True)]

    @property
    def revealed(self) -> bool:
        self.expire()
        return self._result is not None

    @property
    def result(self) -> TableResult | None:
        """The scored round once every seat has arranged (or the time ran out); else None."""
        self.expire()
        return self._result

    @property
    def totals(self) -> Totals:
        """Points, money and fees over the match, this round included once revealed."""
        self.expire()
        return Totals(list(self._totals.points), list(self._totals.money), list(self._totals.fee))

    def rows(self, seat: int) -> SeatRows | None:
        """What the seat put down, or None. Before the reveal only the seat itself (or a
        server acting for it) should be shown this."""
        self._check_seat(seat)
        return self._rows[seat]

    def specials(self, seat: int) -> list[str]:
        """The special hands the seat holds that these rules count (what it may declare)."""
        self._check_seat(seat)
        hand = self._hands[seat]
        return [s for s in SPECIALS if self._counts(s) and _core.susun_holds_special(hand, s)]

    # Moves ----------------------------------------------------------------------------

    def arrange(
        self,
        seat: int,
        top: Any,
        middle: Any,
        bottom: Any,
        confirm_foul: bool = False,
        ready: bool = True,
    ) -> SeatRows:
        """Put down the seat's rows. They must hold exactly its 13 cards (ValueError
        otherwise); a fouled arrangement is refused with code FOULED (naming the rows out of
        order) unless ``confirm_foul``. A dragon hand is scored as a dragon whatever its
        rows. With ``corrections`` the rows replace the seat's earlier ones and ``ready``
        False keeps them open to change (without, it must be True). When this was the last
        seat to be ready, the table is revealed."""
        self._check_open(seat, ready)
        rows = [
            _row(top, 3, "the top row"),
            _row(middle, 5, "the middle row"),
            _row(bottom, 5, "the bottom row"),
        ]
        given = [c for row in rows for c in row]
        if len(set(given)) != len(given):
            twice = next(c for c in given if given.count(c) > 1)
            raise ValueError(f"{_core.format_cards([twice])[0]} is in the rows twice")
        if sorted(given) != self._hands[seat]:
            missing = sorted(set(self._hands[seat]) - set(given))
            foreign = sorted(set(given) - set(self._hands[seat]))
            raise ValueError(
                "the rows must hold exactly this seat's 13 cards: "
                f"not in the hand {_core.format_cards(foreign)}, "
                f"left out {_core.format_cards(missing)}"
            )
        keys, _, fouled, _ = _core.susun_player_rows(rows[0], rows[1], rows[2], self.rules.core)
        if fouled and not confirm_foul:
            checks = (("top>middle", keys[0] > keys[1]), ("middle>bottom", keys[1] > keys[2]))
            out = [name for name, bad in checks if bad]
            raise IllegalArrangement(
                "FOULED",
                f"these rows are out of order ({', '.join(out)}): confirm to play them "
                "fouled (pao) or rearrange",
                out,
            )
        dragon = self._counts("dragon") and _core.susun_holds_special(given, "dragon")
        placed = SeatRows(
            rows[0], rows[1], rows[2], "dragon" if dragon else None, bool(fouled), "player"
        )
        self._place(seat, placed, ready)
        return placed

    def declare(self, seat: int, special: str, ready: bool = True) -> SeatRows:
        """Declare a special hand instead of arranging (RULES.md 4.4): refused with code
        NO_SUCH_SPECIAL when the seat does not hold it or the rules do not count it.
        ``ready`` as for :meth:`arrange`."""
        self._check_open(seat, ready)
        if special not in SPECIALS:
            raise ValueError(f"special must be one of {', '.join(SPECIALS)}, got {special!r}")
        if special not in self.specials(seat):
            held = self._counts(special)
            why = "the hand does not hold it" if held else "the rules do not count it"
            raise IllegalArrangement("NO_SUCH_SPECIAL", f"cannot declare {special}: {why}")
        placed = self._special_rows(seat, special, by="player")
        self._place(seat, placed, ready)
        return placed

    def bot_arrange(self, seat: int, level: str = "expert") -> SeatRows:
        """Let the bot of ``level`` (``beginner``, ``standard``, ``expert``, or a strategy
        name) arrange the seat, declaring a special when that pays."""
        strategy_of(level)
        self._check_open(seat)
        placed = self._bot_rows(seat, level, by="bot")
        self._place(seat, placed)
        return placed

    # Inside ---------------------------------------------------------------------------

    def _counts(self, special: str) -> bool:
        return self.rules.special_value(special) > 0

    def _bot_rows(self, seat: int, level: str, by: str) -> SeatRows:
        top, middle, bottom, _, declared = bot_choice(
            self._hands[seat], self.rules, self.players, strategy_of(level), self.deep_bank_step
        )
        if declared is not None:
            return self._special_rows(seat, declared, by=by)
        _, _, fouled, _ = _core.susun_player_rows(top, middle, bottom, self.rules.core)
        return SeatRows(list(top), list(middle), list(bottom), None, bool(fouled), by)

    def _special_rows(self, seat: int, special: str, by: str) -> SeatRows:
        hand = self._hands[seat]
        shown = _core.susun_special_rows(hand, special)
        if shown is None:  # six pairs, a dragon: shown as the hand in order
            shown = (hand[:3], hand[3:8], hand[8:])
        return SeatRows(list(shown[0]), list(shown[1]), list(shown[2]), special, False, by)

    def _place(self, seat: int, placed: SeatRows, ready: bool = True) -> None:
        self._rows[seat] = placed
        self._ready[seat] = ready
        if self._all_ready():
            self._reveal()

    def _all_ready(self) -> bool:
        return all(
            rows is not None and ok for rows, ok in zip(self._rows, self._ready, strict=True)
        )

    def _reveal(self) -> None:
        placed = [rows for rows in self._rows if rows is not None]
        assert len(placed) == self.players
        entries: list[tuple[list[int], list[int], bool, bool, str | None]] = []
        for rows in placed:
            keys, bonus, fouled, _ = _core.susun_player_rows(
                rows.top, rows.middle, rows.bottom, self.rules.core
            )
            if rows.special is not None:
                dragon = rows.special == "dragon"
                entries.append(([0, 0, 0], [0, 0, 0], False, dragon, rows.special))
            else:
                entries.append((list(keys), list(bonus), bool(fouled), False, None))
        points, between, row_winner, multiplier, supers = _core.susun_score_table(
            entries, self.rules.core
        )
        money = [p * self.stake for p in points]
        fee = [self.rules.room_fee * m if m > 0 else 0.0 for m in money]
        pairs = []
        for i in range(self.players):
            for j in range(i + 1, self.players):
                specials = [placed[i].special, placed[j].special]
                compared = specials == [None, None] and not (placed[i].fouled or placed[j].fouled)
                pairs.append(
                    {
                        "players": [i, j],
                        "rows": {
                            POSITIONS[k]: int(row_winner[i][j][k]) if compared else 0
                            for k in range(3)
                        },
                        "multiplier": [int(multiplier[i][j]), int(multiplier[j][i])],
                        "points": [int(between[i][j]), int(between[j][i])],
                        "fouled": [placed[i].fouled, placed[j].fouled],
                        "special": specials,
                        "super": [bool(supers[i]), bool(supers[j])],
                    }
                )
        self._result = TableResult(
            seats=[
                SeatResult(seat, placed[seat], int(points[seat]), money[seat], fee[seat])
                for seat in range(self.players)
            ],
            pairs=pairs,
            fee_total=sum(fee),
        )
        for seat in range(self.players):
            self._totals.points[seat] += int(points[seat])
            self._totals.money[seat] += money[seat]
            self._totals.fee[seat] += fee[seat]

    def _check_seat(self, seat: Any) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ValueError(f"seat must be 0..{self.players - 1}, got {seat!r}")

    def _check_open(self, seat: int, ready: bool = True) -> None:
        self._check_seat(seat)
        if not isinstance(ready, bool):
            raise ValueError(f"ready must be True or False, got {ready!r}")
        if not ready and not self.corrections:
            raise ValueError(
                "this table allows no corrections: an arrangement is final, so ready must be True"
            )
        self.expire()
        if self._result is not None:
            raise IllegalArrangement(
                "ALREADY_REVEALED", "the table is revealed; wait for the next round"
            )
        if self._rows[seat] is not None and not self.corrections:
            raise IllegalArrangement("ALREADY_ARRANGED", f"seat {seat} has arranged already")

    def __copy__(self) -> Table:
        """An independent table (copy.copy as copy.deepcopy: a shallow copy would share the
        seats' rows, so arranging at one table would arrange at both)."""
        return copy.deepcopy(self)

    def __repr__(self) -> str:
        state = "revealed" if self._result is not None else f"arranged={self.arranged}"
        return f"Table(code={self.code!r}, players={self.players}, round={self.round}, {state})"


def _row(cards: Any, n: int, what: str) -> list[int]:
    ids = _core.parse_cards(cards)
    if len(ids) != n:
        raise ValueError(f"{what} holds {n} cards, got {len(ids)}")
    return ids
