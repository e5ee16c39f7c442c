"""A Capsa Banting round and match (RULES.md 3.3): :class:`Game`, round codes, bots.

The round itself lives in C++ (``_core.BantingRound``); this layer parses input, keeps the
running totals of a match and words the refusals. A round is a pure function of its
rules, its code and the moves made, so replaying the moves rebuilds any position.

Round codes: the codes this package issues are ``B`` + the number of players + 13 characters
of Crockford base32 holding a 64-bit seed, e.g. ``B44D3BFCNXW9N3Z``; the short form of 9
characters (a 45-bit seed, e.g. ``B4K7M2Q9XZ1``, issued by earlier versions) still deals as it
did (:mod:`capsa_fast._codes`). Any other code word of 1-32
letters, digits, ``-`` or ``_`` (``FRIDAY-GAME``, ``B02L1739204``) works too: its seed is the
first 8 bytes, big-endian, of the SHA-256 of ``capsa_fast banting round `` + the upper-cased
code. Codes are case-insensitive. The deal: SplitMix64 seeded with the seed drives a
Fisher-Yates shuffle of the ids 0..51 from the top (``j = next() % (i + 1)`` for i = 51..1);
seat s gets positions 13*s .. 13*s + 12.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .. import _core
from .._codes import BANTING_CODES, canonical_code, check_players
from .._words import check_language
from .messages import Verdict, verdict_message
from .rules import Rules, resolve

BOT_LEVELS: tuple[str, ...] = (
    "random",
    "beginner",
    "standard",
    "expert",
    "master",
    "standard-v1",
    "standard-v2",
)
"""Bot levels, weakest first but for ``standard-v1`` and ``standard-v2`` (``standard``
before each time it was strengthened, kept for comparison; ``standard-v2`` is ``standard``
without its look-ahead near the end of a round). ``master`` searches: 1,500 rollouts a move by
default, up to about 50 ms a move (docs/performance.md has the measured times)."""
MASTER_ITERATIONS: int = _core.BANTING_MASTER_ITERATIONS
"""The master's default budget: rollouts a move (up to about 50 ms on one core)."""


def check_seats(seats: Sequence[str]) -> tuple[str, ...]:
    """``seats`` as a tuple of 2 to 4 known bot levels, else a ValueError naming the first
    that is not one."""
    seats = tuple(seats)
    if not 2 <= len(seats) <= 4:
        raise ValueError(f"seats: 2 to 4 bot levels, got {len(seats)}")
    for level in seats:
        if level not in BOT_LEVELS:
            raise ValueError(f"seats: unknown bot level {level!r} (known: {', '.join(BOT_LEVELS)})")
    return seats


def check_budget(iterations: int, time_ms: float, threads: int) -> None:
    """ValueError naming the first of the master's budget settings out of range (the
    engine's limits: 1..100,000,000 rollouts, 0..600,000 ms, 1..64 threads)."""
    if isinstance(iterations, bool) or not 1 <= iterations <= 100_000_000:
        raise ValueError(f"iterations must be 1..100000000, got {iterations!r}")
    if not 0 <= time_ms <= 600_000:  # NaN fails too
        raise ValueError(f"time_ms must be 0..600000, got {time_ms!r}")
    if isinstance(threads, bool) or not 1 <= threads <= 64:
        raise ValueError(f"threads must be 1..64, got {threads!r}")


GAME_CODES: tuple[str, ...] = ("ROUND_OVER", "NOT_YOUR_TURN")
"""Refusals a round adds in front of the rules engine's codes (checked in this order)."""
EXCHANGE_CODES: tuple[str, ...] = ("EXCHANGE_CLOSED", "NOT_IN_HAND")
"""Refusals of a card given back in the exchange (checked in this order): no exchange is
open or the seat owes no card; the seat does not hold the card."""


def make_code(players: int, seed: int) -> str:
    """The round code for ``players`` (2-4) and a seed in ``0 .. 2**64 - 1`` (9 characters
    for a seed below 2**45, else 13)."""
    return BANTING_CODES.make(players, seed)


def parse_code(code: str) -> tuple[int | None, int]:
    """``(players, seed)`` of a round code; ``players`` is None for a free code word.

    Case and surrounding spaces do not matter. ValueError names what is wrong."""
    return BANTING_CODES.parse(code)


def new_code(players: int = 4) -> str:
    """A fresh round code with an unpredictable seed."""
    return BANTING_CODES.new(players)


def dice_seed(seed: int) -> int:
    """The seed of a round's bot dice: the first 8 bytes of SHA-256 of a prefix and the
    deal's seed. The dice show in the bots' moves and SplitMix64 runs backwards from its
    output, so dice seeded by the deal's seed itself would give away the deal (every
    hand) to a seat that watched enough throws; a hash does not run backwards."""
    digest = hashlib.sha256(b"capsa_fast banting dice " + seed.to_bytes(8, "big")).digest()
    return int.from_bytes(digest[:8], "big")


def deal(code: str, players: int | None = None) -> list[list[int]]:
    """The hands a round code deals, seat by seat (card ids in dealing order).

    ``players``: the code's own for codes this package issued, else 4 unless given."""
    code_players, seed = parse_code(code)
    players = _players_for(code, code_players, players)
    deck = _core.banting_shuffled_deck(seed)
    return [deck[13 * s : 13 * s + 13] for s in range(players)]


def _players_for(code: str, code_players: int | None, players: int | None) -> int:
    return BANTING_CODES.players_for(code, code_players, players)


_check_players = check_players


class IllegalPlay(ValueError):
    """A move the round refuses; ``code`` is stable (API.md), ``message`` is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Move:
    """One move of a round: ``combo`` is None for a pass."""

    seat: int
    combo: Any

    @property
    def is_pass(self) -> bool:
        return self.combo is None

    @property
    def cards(self) -> list[int]:
        return [] if self.combo is None else list(self.combo.cards)


@dataclass(frozen=True)
class ExchangeView:
    """The card exchange as one seat sees it (RULES.md 3.2 ``exchange``): the cards it
    ``received`` and ``gave``, and how many it must still ``give`` back (0 or 1)."""

    received: list[int]
    gave: list[int]
    give: int


@dataclass(frozen=True)
class Hint(Move):
    """A hint's move; ``pass_reasonable``: the bot would rather pass, so passing is also a
    fair choice (the hint still names its best play)."""

    pass_reasonable: bool = False


class RoundResult(list[int]):
    """How a round ended. It is the list of per-seat scores (API.md: ``g.result`` is the
    per-seat scores once over), with the details as attributes: ``winner``, ``cards_left``
    (counted when the first player went out; under ``bomb_ends``, for the seats a bomb
    stopped, when it did), ``scores``, ``finishing_order``, ``places`` (every seat from first
    to last, as the next round's exchange reads them), ``dragon`` and ``lines`` (per seat:
    ``cards_left``, ``multiplier``, ``points``)."""

    def __init__(
        self,
        *,
        winner: int,
        cards_left: list[int],
        scores: list[int],
        finishing_order: list[int],
        dragon: bool,
        lines: list[dict[str, int]],
        places: list[int] | None = None,
    ) -> None:
        super().__init__(scores)
        self.winner = winner
        self.cards_left = list(cards_left)
        self.scores = list(scores)
        self.finishing_order = list(finishing_order)
        self.dragon = dragon
        self.lines = lines
        self.places = list(places or [])

    def __repr__(self) -> str:
        return (
            f"RoundResult(winner={self.winner}, cards_left={self.cards_left}, "
            f"scores={self.scores}, finishing_order={self.finishing_order}, "
            f"dragon={self.dragon})"
        )


class Game:
    """A match of Capsa Banting rounds between 2-4 seats (RULES.md 3.3).

    ``rules``: Rules, dict, preset name or None. ``players``: 2-4; None takes it from a code
    this package issued, else 4. ``code``: the first round's code (any code word, see the
    module notes); None deals a fresh one.

    Under ``exchange: ranked`` a round after the first (but not after a dragon) begins with
    the card exchange: the highest cards move by themselves, then :attr:`exchanging` holds
    (no seat's turn) until each receiver has given a card back (:meth:`give_back` or
    :meth:`bot_give_back`).
    """

    def __init__(self, rules: Any = None, players: int | None = None, code: str | None = None):
        self.rules: Rules = resolve(rules)
        if code is None:
            players = 4 if players is None else players
            _check_players(players)
        else:
            players = _players_for(code, parse_code(code)[0], players)
        self.players: int = players
        self.round: int = 0
        self._banked = [0] * players
        self._start(code, opener=-1)

    @classmethod
    def resume(
        cls,
        rules: Any,
        players: int,
        code: str,
        *,
        round: int,
        totals: Sequence[int],
        previous_winner: int | None,
        previous_places: Sequence[int] | None = None,
    ) -> Game:
        """A match picked up at round ``round`` (dealt from ``code``), with the ``totals`` of
        the rounds before it and the winner of the one just before (who opens under
        previous-winner). Under ``exchange: ranked`` the round begins with the exchange when
        ``previous_places`` (the round before's places, None after a dragon) are given. For
        servers that keep finished rounds as results and replay only the current one."""
        game = cls.__new__(cls)
        game.rules = resolve(rules)
        _check_players(players)
        game.players = players
        if isinstance(round, bool) or not isinstance(round, int) or round < 1:
            raise ValueError(f"round must be 1 or more, got {round!r}")
        if len(totals) != players or not all(isinstance(t, int) for t in totals):
            raise ValueError(f"totals: one integer per seat ({players}), got {list(totals)!r}")
        if round == 1 and (previous_winner is not None or any(totals)):
            raise ValueError("round 1 has no previous winner and no totals")
        if previous_winner is not None and not 0 <= previous_winner < players:
            raise ValueError(f"previous_winner must be a seat 0..{players - 1}")
        game.round = round - 1
        game._banked = [int(t) for t in totals]
        first_lead = game.rules.first_lead == "previous-winner"
        opener = previous_winner if first_lead and previous_winner is not None else -1
        if previous_places is not None:
            places = [int(p) for p in previous_places]
            if round == 1 or sorted(places) != list(range(players)):
                raise ValueError(f"previous_places: each seat 0..{players - 1} once, after round 1")
        else:
            places = None
        game._start(code, opener, places)
        return game

    def _start(self, code: str | None, opener: int, places: list[int] | None = None) -> None:
        if code is None:
            code = new_code(self.players)
        code_players, seed = parse_code(code)
        _players_for(code, code_players, self.players)
        self.code: str = canonical_code(code)
        self._opener = opener
        self._r = _core.BantingRound(
            self.rules.game_core, self.players, seed, opener, dice=dice_seed(seed)
        )
        # The exchange, under its setting, when the round is not won at the deal (a dragon).
        self._places = places if self.rules.exchange == "ranked" and not self._r.over else None
        if self._places is not None:
            self._r.begin_exchange(self._places)
        self.round += 1

    def next_round(self, code: str | None = None) -> None:
        """Deal the next round of the match; the previous winner opens under previous-winner."""
        if not self.over:
            raise ValueError("the round is not over yet")
        totals = self.totals
        winner = self._r.winner
        opener = winner if winner is not None and self.rules.first_lead == "previous-winner" else -1
        places = None if self._r.dragon else self._r.places
        self._start(code, opener, places)  # raises, changing nothing, on a bad code
        self._banked = totals

    # The position ---------------------------------------------------------------------

    @property
    def turn(self) -> int | None:
        return self._r.turn

    @property
    def leader(self) -> int | None:
        """The seat that led the current trick; None during the exchange."""
        return self._r.leader

    # The exchange ----------------------------------------------------------------------

    @property
    def exchanging(self) -> bool:
        """The round's card exchange is open: a receiver still owes a card back."""
        return self._r.exchanging

    @property
    def exchanges(self) -> list[tuple[int, int, int, int | None]]:
        """Every pair of this round's exchange: (giver, receiver, the giver's highest card,
        the card given back or None). Empty without an exchange. Shows what each seat gave:
        a server shows a seat only :meth:`exchange_view`."""
        return [(g, r, c, b) for g, r, c, b in self._r.exchanges]

    def exchange_view(self, seat: int) -> ExchangeView | None:
        """What ``seat`` gave and received in this round's exchange, and whether it still
        owes a card back; None when the round has no exchange or the seat took no part."""
        self._check_seat(seat)
        received: list[int] = []
        gave: list[int] = []
        give = 0
        part = False
        for giver, receiver, card, back in self._r.exchanges:
            if giver == seat:
                part = True
                gave.append(card)
                if back is not None:
                    received.append(back)
            elif receiver == seat:
                part = True
                received.append(card)
                if back is None:
                    give += 1
                else:
                    gave.append(back)
        return ExchangeView(received, gave, give) if part else None

    def give_back(self, seat: int, card: Any) -> int:
        """``seat`` gives ``card`` (text or id) back in the exchange; returns its id.
        IllegalPlay EXCHANGE_CLOSED (no exchange open, or the seat owes no card) or
        NOT_IN_HAND, changing nothing; ValueError for a bad card or not exactly one."""
        self._check_seat(seat)
        one = isinstance(card, int) and not isinstance(card, bool)
        ids = _core.parse_cards([card] if one else card)
        if len(ids) != 1:
            raise ValueError(f"give back exactly one card, got {len(ids)}")
        code = self._r.give_back(seat, ids[0])
        if code != "OK":
            message = verdict_message(code, "en", play=ids, hand=self._r.hand(seat))
            raise IllegalPlay(code, message)
        return ids[0]

    def bot_give_back(self, seat: int, level: str = "standard") -> int:
        """Let the bot of ``level`` give the seat's card back (random: any card; beginner:
        its lowest; the others: the card whose loss leaves the best plan of the rest);
        returns its id. IllegalPlay EXCHANGE_CLOSED when the seat owes none."""
        if level not in BOT_LEVELS:
            raise ValueError(f"bot level must be one of {', '.join(BOT_LEVELS)}, got {level!r}")
        self._check_seat(seat)
        if not self._r.owes(seat):
            message = verdict_message("EXCHANGE_CLOSED", "en", play=[], hand=[])
            raise IllegalPlay("EXCHANGE_CLOSED", message)
        return int(self._r.bot_give_back(seat, level, True))

    @property
    def table(self) -> Any:
        return self._r.table

    @property
    def table_seat(self) -> int | None:
        return self._r.table_seat

    @property
    def passed(self) -> list[int]:
        """Seats that passed since the current trick began."""
        return self._r.passed

    @property
    def first_play(self) -> bool:
        """The next play opens the round and must hold the lowest dealt card."""
        return self._r.first_play

    @property
    def twos_demoted(self) -> bool:
        """Under ``two_demotion``: a four of a kind played this round (and not undone by
        another) has made the 2s the lowest singles. Always False without the setting."""
        return self._r.twos_demoted

    @property
    def over(self) -> bool:
        return self._r.over

    @property
    def counts(self) -> list[int]:
        return self._r.counts

    @property
    def history(self) -> list[Move]:
        return [Move(seat, combo) for seat, combo in self._r.history]

    @property
    def result(self) -> RoundResult | None:
        winner = self._r.winner
        if winner is None or not self._r.over:  # last-standing: the first out is known early
            return None
        cards_left = self._r.cards_left
        tiers = list(self.rules.scoring)
        scores = self._r.scores
        return RoundResult(
            winner=winner,
            cards_left=cards_left,
            scores=scores,
            finishing_order=self._r.finishing_order,
            places=self._r.places,
            dragon=self._r.dragon,
            lines=[
                {
                    "cards_left": n,
                    "multiplier": _core.banting_tier_multiplier(n, tiers),
                    "points": p,
                }
                for n, p in zip(cards_left, scores, strict=True)
            ],
        )

    @property
    def totals(self) -> list[int]:
        """Running totals of the match, this round included once it is over."""
        if not self._r.over:
            return list(self._banked)
        return [a + b for a, b in zip(self._banked, self._r.scores, strict=True)]

    def hand(self, seat: int) -> list[int]:
        """The seat's cards, low to high in Big Two order."""
        self._check_seat(seat)
        return self._r.hand(seat)

    def legal_plays(self, seat: int) -> list[Any]:
        """Legal plays of ``seat`` (no pass); empty unless it is that seat's turn."""
        self._check_seat(seat)
        return self._r.legal_plays() if self._r.turn == seat else []

    def can_pass(self, seat: int) -> bool:
        self._check_seat(seat)
        return self._r.turn == seat and self._r.can_pass

    # Moves ---------------------------------------------------------------------------

    def validate(self, seat: int, play: Any, lang: str = "en") -> Verdict:
        """Judge a move (cards, or ``"pass"``) without making it; ``lang`` ("en" or "id")
        is the language of the message."""
        check_language(lang)
        self._check_seat(seat)
        ids = _play_ids(play)
        code, combo, lowest = self._r.check(seat, ids)
        return self._verdict(seat, ids, code, combo, lowest, lang)

    def move(self, seat: int, play: Any) -> Move:
        """Make a move (cards, or ``"pass"``); IllegalPlay (state unchanged) if refused."""
        self._check_seat(seat)
        ids = _play_ids(play)
        code, combo, lowest = self._r.apply(seat, ids)
        if code != "OK":  # nothing changed, so the message reads the same position
            raise IllegalPlay(code, self._verdict(seat, ids, code, combo, lowest, "en").message)
        return Move(seat, combo)

    def play(self, seat: int, cards: Any) -> Move:
        if isinstance(cards, str) and cards.strip().lower() == "pass":
            raise ValueError("play() takes cards; use pass_() to pass")
        return self.move(seat, cards)

    def pass_(self, seat: int) -> Move:
        return self.move(seat, "pass")

    def bot_play(self, seat: int, level: str = "standard") -> Move:
        """Let a bot make the seat's move: ``random``, ``beginner``, ``standard`` or ``expert``
        (which tries its candidate moves on sampled deals of the unseen cards; about a
        millisecond a move)."""
        self._bot_check(seat, level)
        seat_, combo = self._r.bot_move(level, True)
        return Move(seat_, combo)

    def hint(self, seat: int, level: str = "standard") -> Hint:
        """A play for ``seat`` (seed 003 «Petunjuk»): the move the bot of ``level`` (the
        standard bot by default) would make, except that it is never a pass while the seat
        holds a legal play: when the bot would pass, its best play instead, with
        ``pass_reasonable`` set. Nothing changes, the random bots' dice included."""
        self._bot_check(seat, level)
        seat_, combo, pass_reasonable = self._r.hint(level)
        return Hint(seat_, combo, pass_reasonable)

    def _bot_check(self, seat: int, level: str) -> None:
        if level not in BOT_LEVELS:
            raise ValueError(f"bot level must be one of {', '.join(BOT_LEVELS)}, got {level!r}")
        self._check_seat(seat)
        if self._r.over:
            raise IllegalPlay("ROUND_OVER", verdict_message("ROUND_OVER", "en", play=[], hand=[]))
        if self._r.turn != seat:
            raise IllegalPlay(
                "NOT_YOUR_TURN", verdict_message("NOT_YOUR_TURN", "en", play=[], hand=[])
            )

    def _check_seat(self, seat: Any) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ValueError(f"seat must be 0..{self.players - 1}, got {seat!r}")

    def _verdict(
        self,
        seat: int,
        ids: list[int] | None,
        code: str,
        combo: Any,
        lowest: int,
        lang: str,
    ) -> Verdict:
        message = verdict_message(
            code,
            lang,
            play=ids,
            hand=self._r.hand(seat),
            combo=combo,
            table=self._r.table,
            lowest=lowest,
            straights=self.rules.straights,
        )
        ok = code == "OK"
        return Verdict(ok=ok, combo=combo, code=None if ok else code, message=message)

    # Copies and pickles ------------------------------------------------------------------
    # copy.copy and copy.deepcopy give an independent game (moves on one never reach the
    # other) whose bots throw the same dice; a pickle holds the rules, the match so far, the
    # round's code and moves and the dice, and is replayed on load. Either is as secret as
    # the game: it holds the code, which deals every hand.

    def __copy__(self) -> Game:
        game = Game.__new__(Game)
        game.__dict__.update(self.__dict__)  # the rules are immutable, shared
        game._banked = list(self._banked)  # the mutable state, copied
        game._r = self._r.__copy__()
        return game

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self.__copy__()

    def __getstate__(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "players": self.players,
            "round": self.round,
            "totals": list(self._banked),
            "code": self.code,
            "opener": self._opener,
            "exchange_places": self._places,
            "given_back": [
                (receiver, back) for _, receiver, _, back in self._r.exchanges if back is not None
            ],
            "moves": [(seat, None if c is None else list(c.cards)) for seat, c in self._r.history],
            "dice": self._r.dice_state,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.rules = Rules.from_dict(state["rules"])
        self.players = state["players"]
        self.round = state["round"] - 1
        self._banked = list(state["totals"])
        self._start(state["code"], state["opener"], state.get("exchange_places"))
        for seat, card in state.get("given_back", []):
            if self._r.give_back(seat, card) != "OK":
                raise ValueError("a pickled Capsa Banting game does not replay its exchange")
        for seat, cards in state["moves"]:
            code = self._r.apply(seat, cards)[0]
            if code != "OK":
                raise ValueError(f"a pickled Capsa Banting game does not replay: {code}")
        self._r.dice_state = state["dice"]

    def __repr__(self) -> str:
        state = "over" if self.over else "exchange" if self.exchanging else f"turn={self.turn}"
        return f"Game(code={self.code!r}, players={self.players}, round={self.round}, {state})"


def _play_ids(play: Any) -> list[int] | None:
    """None for a pass, else the card ids (ValueError naming a bad or repeated card)."""
    if isinstance(play, str) and play.strip().lower() == "pass":
        return None
    return _core.parse_cards(play)
