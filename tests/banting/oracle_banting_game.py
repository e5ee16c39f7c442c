"""A slow, readable pure-Python model of a Capsa Banting round and match (RULES.md 3.3).

``capsa_fast.banting.Game`` is checked against this module. It imports nothing from
``capsa_fast``: round codes, the shuffle and the flow are written here from the README
("How it works": Banting rounds), and every question about combos (what a play is, whether
it beats the table, which rejection code a play gets, the tier scores) is answered by the
independent rules oracle ``tests/banting/oracle_banting.py``.

A rule set is that oracle's plain dict (``oracle_banting.make_rules``). Cards are ids.
Plays are ``frozenset`` of ids; a move is ``PASS`` or such a frozenset.

Main entry points:

* ``parse_code(code)`` -> ``(players or None, seed)``; ``make_code(players, seed)``;
  ``deal(players, seed)`` -> the dealt hands (SplitMix64 + Fisher-Yates).
* ``OracleGame(rules, code)``: one match. ``judge(seat, move)`` -> None or a rejection code,
  ``move(seat, move)`` (raises ``OracleIllegal``), ``legal_plays(seat)``,
  ``legal_moves(seat)`` (plays + pass, in canonical order), ``next_round(code)``, and the
  state fields named as in the Game interface (``turn``, ``table``, ``table_seat``,
  ``leader``, ``passed``, ``first_play``, ``over``, ``result``, ``totals``, ``history``).

Points where the note had to be read (the tests rely on them):

1. When the round is over ``turn`` is None; ``table``, ``table_seat``, ``leader`` and
   ``passed`` keep the values they had after the last move (nothing is cleared).
2. A dragon round is over before any play: ``turn`` and ``table`` are None, ``leader`` is
   the dragon winner, ``first_play`` is False.
3. ``passed`` keeps a seat that passed and later played (or went out) in the same trick;
   only a clear empties it.
4. ``totals`` grow as soon as a round is over (not at ``next_round``).
5. ``result`` is None until the round is over, also under ``last-standing`` where the
   winner is known as soon as the first seat goes out ("Result when over" in the note).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations, product

from tests.banting import oracle_banting as combos
from tests.banting.oracle_banting import Rules

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford base32: no I, L, O, U
CODE_CHARS = 13  # 65 bits of base32, of which a seed uses 64 (the first character is 0-F)
SHORT_CODE_CHARS = 9  # the short form: 45 bits
SEED_BITS = 64
SHORT_SEED_BITS = 5 * SHORT_CODE_CHARS
MASK64 = (1 << 64) - 1
PASS = "pass"

Play = frozenset[int]
Move = Play | str  # a play or PASS


class OracleIllegal(ValueError):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


# ----------------------------------------------------------------------------- round codes


def parse_code(code: str) -> tuple[int | None, int]:
    """``(players, seed)`` of a round code (case and spaces ignored).

    An issued code such as ``B44D3BFCNXW9N3Z`` holds the players and a 64-bit seed (the short
    form ``B4K7M2Q9XZ1`` a 45-bit one; 13 characters starting above F are no code); any other
    word of 1-32 letters, digits, '-' or '_' has no player count, and its seed is the first
    8 bytes (big-endian) of SHA-256("capsa_fast banting round " + the upper-cased word)."""
    text = canonical_code(code)
    if (
        len(text) in (2 + CODE_CHARS, 2 + SHORT_CODE_CHARS)
        and text[0] == "B"
        and text[1] in "234"
        and all(char in CROCKFORD for char in text[2:])
        and (len(text) == 2 + SHORT_CODE_CHARS or CROCKFORD.index(text[2]) < 16)
    ):
        seed = 0
        for char in text[2:]:
            seed = seed * 32 + CROCKFORD.index(char)  # big-endian: first char most significant
        return int(text[1]), seed
    digest = hashlib.sha256(("capsa_fast banting round " + text).encode()).digest()
    return None, int.from_bytes(digest[:8], "big")


def canonical_code(code: str) -> str:
    text = code.strip().upper()
    if not 1 <= len(text) <= 32:
        raise ValueError(f"a round code has 1 to 32 characters, got {len(text)}")
    allowed = set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
    if not set(text) <= allowed:
        raise ValueError("a round code holds letters, digits, '-' and '_'")
    return text


def make_code(players: int, seed: int) -> str:
    if players not in (2, 3, 4) or not 0 <= seed < 1 << SEED_BITS:
        raise ValueError("players 2..4 and a 64-bit seed")
    width = SHORT_CODE_CHARS if seed < 1 << SHORT_SEED_BITS else CODE_CHARS
    chars = [CROCKFORD[(seed >> (5 * (width - 1 - i))) & 31] for i in range(width)]
    return f"B{players}" + "".join(chars)


# ----------------------------------------------------------------------------- dealing


def splitmix64(seed: int) -> Iterator[int]:
    state = seed & MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        yield z ^ (z >> 31)


def shuffled_deck(seed: int) -> list[int]:
    deck = list(range(52))
    numbers = splitmix64(seed)
    for i in range(51, 0, -1):
        j = next(numbers) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal(players: int, seed: int) -> list[list[int]]:
    """Seat s gets ``deck[13*s : 13*s + 13]``; the rest is not dealt."""
    deck = shuffled_deck(seed)
    return [deck[13 * seat : 13 * seat + 13] for seat in range(players)]


def deal_code(code: str, players: int = 4) -> list[list[int]]:
    code_players, seed = parse_code(code)
    return deal(code_players or players, seed)


def is_dragon(hand: Iterable[int]) -> bool:
    """A hand holding all 13 ranks."""
    return len({card // 4 for card in hand}) == 13


def dragon_winner(hands: Sequence[Iterable[int]], rules: Rules) -> int | None:
    """The dragon seat holding the highest card in Big Two order, or None without a dragon."""
    dragons = [seat for seat, hand in enumerate(hands) if is_dragon(hand)]
    if not rules["dragon"] or not dragons:
        return None
    return max(dragons, key=lambda seat: combos.card_strength(highest(hands[seat], rules), rules))


def highest(hand: Iterable[int], rules: Rules) -> int:
    return max(hand, key=lambda card: combos.card_strength(card, rules))


def sort_hand(hand: Iterable[int], rules: Rules) -> list[int]:
    """Low to high in Big Two order."""
    return sorted(hand, key=lambda card: combos.card_strength(card, rules))


# ----------------------------------------------------------------------------- combos


def candidate_plays(hand: Iterable[int]) -> set[Play]:
    """Every subset of the hand that could be a combo under some rule set.

    Singles, pairs and triples of one rank, and the five-card shapes RULES.md 3.1 names:
    four + one, three + two, five cards of one suit, five cards on a run of ranks. Which
    of them are combos under the rules is left to ``oracle_banting.classify``.
    """
    hand = sorted(hand)
    by_rank: dict[str, list[int]] = {}
    by_suit: dict[int, list[int]] = {}
    for card in hand:
        by_rank.setdefault(combos.rank_char(card), []).append(card)
        by_suit.setdefault(card % 4, []).append(card)
    found: set[Play] = {frozenset([card]) for card in hand}
    for cards in by_rank.values():
        for size in (2, 3):
            found.update(frozenset(c) for c in combinations(cards, size))
    for rank, cards in by_rank.items():
        others = [card for card in hand if combos.rank_char(card) != rank]
        if len(cards) == 4:
            found.update(frozenset([*cards, other]) for other in others)
        for three in combinations(cards, 3):
            for other_rank, other_cards in by_rank.items():
                if other_rank != rank:
                    found.update(frozenset(three + two) for two in combinations(other_cards, 2))
    for cards in by_suit.values():
        found.update(frozenset(c) for c in combinations(cards, 5))
    for run in combos.ALL_RUNS:
        if all(rank in by_rank for rank in run):
            found.update(frozenset(c) for c in product(*(by_rank[rank] for rank in run)))
    return found


def play_order(move: Move) -> tuple[int, tuple[int, ...]]:
    """Canonical order of moves: pass first, then plays by size, then by sorted ids."""
    if move == PASS:
        return 0, ()
    return len(move), tuple(sorted(move))


# ----------------------------------------------------------------------------- the game


@dataclass(frozen=True)
class Result:
    winner: int
    cards_left: list[int]
    scores: list[int]
    finishing_order: list[int]
    dragon: bool


@dataclass
class OracleGame:
    """One match of Capsa Banting: a round dealt from ``code``, then ``next_round``."""

    rules: Rules
    code: str
    round: int = 1
    totals: list[int] = field(default_factory=list)
    previous_winner: int | None = None
    players: int = 0  # 0: the code's, else 4

    def __post_init__(self) -> None:
        code_players, self.seed = parse_code(self.code)
        if self.players and code_players is not None and self.players != code_players:
            raise ValueError("the code is for another number of players")
        self.players = self.players or code_players or 4
        self.code = canonical_code(self.code)
        self.totals = [0] * self.players
        self._deal()

    # ------------------------------------------------------------------ dealing a round

    def _deal(self) -> None:
        self.dealt = deal(self.players, self.seed)
        self.hands: list[set[int]] = [set(hand) for hand in self.dealt]
        # Combos each hand can ever make, classified once; hands only shrink.
        self._combos: list[list[Play]] = [
            [c for c in candidate_plays(hand) if combos.classify(sorted(c), self.rules)]
            for hand in self.dealt
        ]
        self.history: list[tuple[int, Play | None]] = []
        self.twos_demoted = False
        self.table: Play | None = None
        self.table_seat: int | None = None
        self.passed: set[int] = set()
        self.passed_since_play: set[int] = set()
        self.finishing_order: list[int] = []
        self.cards_left: list[int] | None = None
        self.result: Result | None = None
        self.over = False

        winner = dragon_winner(self.dealt, self.rules)
        if winner is not None:
            self.turn: int | None = None
            self.leader: int = winner
            self.first_play = False
            cards_left = [0 if seat == winner else 13 for seat in range(self.players)]
            self._finish(winner, cards_left, dragon=True)
            return

        if self.rules["first_lead"] == "previous-winner" and self.previous_winner is not None:
            self.leader = self.previous_winner
            self.first_play = False
        else:
            lowest = combos.lowest_card([c for hand in self.dealt for c in hand], self.rules)
            self.leader = next(s for s in range(self.players) if lowest in self.hands[s])
            self.first_play = True
        self.turn = self.leader

    def next_round(self, code: str) -> None:
        if not self.over:
            raise ValueError("the round is not over")
        players, seed = parse_code(code)
        if players not in (None, self.players):
            raise ValueError("a match keeps its number of players")
        assert self.result is not None
        self.previous_winner = self.result.winner
        self.seed = seed
        self.code = canonical_code(code)
        self.round += 1
        self._deal()

    # ------------------------------------------------------------------ reading the state

    @property
    def counts(self) -> list[int]:
        return [len(hand) for hand in self.hands]

    def hand(self, seat: int) -> list[int]:
        return sort_hand(self.hands[seat], self.rules)

    @property
    def live_rules(self) -> Rules:
        """The rules with this round's state: whether a four of a kind demoted the 2s."""
        if not self.rules["two_demotion"]:
            return self.rules
        return combos.with_twos_demoted(self.rules, self.twos_demoted)

    def holders(self) -> list[int]:
        return [seat for seat in range(self.players) if self.hands[seat]]

    def next_holder(self, seat: int) -> int:
        """The next seat after ``seat`` in turn order that holds cards."""
        for step in range(1, self.players + 1):
            candidate = (seat + step) % self.players
            if self.hands[candidate]:
                return candidate
        raise AssertionError("nobody holds cards")

    def legal_plays(self, seat: int) -> list[Play]:
        """The plays ``seat`` may make now, in canonical order (fast path, see legal_plays_slow)."""
        if self.over or seat != self.turn:
            return []
        if self.rules["pass_locks"] and seat in self.passed:
            return []
        hand = self.hands[seat]
        lowest = combos.lowest_card(hand, self.rules)
        table = None if self.table is None else sorted(self.table)
        # Shortcut, not a rule (as in oracle_banting.legal_plays): only a play of the
        # table's size, or a five-card bomb on a smaller table, can beat it.
        bombs = self.rules["bombs"] != "none"
        plays = [
            play
            for play in self._combos[seat]
            if play <= hand
            and (not self.first_play or lowest in play)
            and (
                table is None
                or (
                    (len(play) == len(table) or (bombs and len(play) == 5 and len(table) < 5))
                    and combos.beats(sorted(play), table, self.live_rules)
                )
            )
        ]
        return sorted(plays, key=play_order)

    def legal_plays_slow(self, seat: int) -> list[Play]:
        """The same as ``legal_plays``, by asking the rules oracle to judge every subset."""
        if self.over or seat != self.turn:
            return []
        table = None if self.table is None else sorted(self.table)
        found = combos.legal_plays(self.hands[seat], table, self.live_rules, self.first_play)
        plays = [
            play
            for play in found
            if combos.validate(
                self.hands[seat],
                sorted(play),
                table,
                self.live_rules,
                self.first_play,
                seat in self.passed,
            )[0]
        ]
        return sorted(plays, key=play_order)

    def can_pass(self, seat: int) -> bool:
        return not self.over and seat == self.turn and self.table is not None

    def legal_moves(self, seat: int) -> list[Move]:
        moves: list[Move] = [PASS] if self.can_pass(seat) else []
        return moves + list(self.legal_plays(seat))

    # ------------------------------------------------------------------ moves

    def judge(self, seat: int, move: Move | Sequence[int]) -> str | None:
        """None if ``seat`` may make ``move`` now, else the rejection code."""
        if self.over:
            return "ROUND_OVER"
        if seat != self.turn:
            return "NOT_YOUR_TURN"
        play: str | list[int] = PASS if move == PASS else sorted(move)  # type: ignore[arg-type]
        table = None if self.table is None else sorted(self.table)
        ok, code = combos.validate(
            self.hands[seat], play, table, self.live_rules, self.first_play, seat in self.passed
        )
        return None if ok else code

    def move(self, seat: int, move: Move | Sequence[int]) -> None:
        code = self.judge(seat, move)
        if code is not None:
            raise OracleIllegal(code)
        if move == PASS:
            self._pass(seat)
        else:
            self._play(seat, frozenset(move))  # type: ignore[arg-type]

    def _play(self, seat: int, play: Play) -> None:
        self.hands[seat] -= play
        self.table = play
        self.table_seat = seat
        self.history.append((seat, play))
        self.passed_since_play = set()
        self.first_play = False
        # Seed 000: a four of a kind demotes the 2s; the next one restores them.
        if self.rules["two_demotion"] and combos.kind_of(sorted(play), self.rules) == (
            "four_of_a_kind"
        ):
            self.twos_demoted = not self.twos_demoted
        if not self.hands[seat]:
            if self.cards_left is None:
                self.cards_left = self.counts
            self.finishing_order.append(seat)
            if self.rules["ending"] == "first-out":
                self._finish(seat, self.cards_left)
                return
            holders = self.holders()
            if len(holders) == 1:
                self.finishing_order.append(holders[0])
                self._finish(self.finishing_order[0], self.cards_left)
                return
        self.turn = self.next_holder(seat)

    def _pass(self, seat: int) -> None:
        assert self.table_seat is not None
        self.history.append((seat, None))
        self.passed.add(seat)
        self.passed_since_play.add(seat)
        others = [s for s in self.holders() if s != self.table_seat]
        if all(s in self.passed_since_play for s in others):
            self.table = None
            self.passed = set()
            self.passed_since_play = set()
            if self.hands[self.table_seat]:
                self.leader = self.table_seat
            else:  # the trick winner has gone out: the next holder inherits the lead
                self.leader = self.next_holder(self.table_seat)
            self.table_seat = None
            self.turn = self.leader
        else:
            self.turn = self.next_holder(seat)

    def _finish(self, winner: int, cards_left: list[int], dragon: bool = False) -> None:
        self.over = True
        self.turn = None
        order = self.finishing_order if self.finishing_order else [winner]
        scores = combos.score(cards_left, self.rules)
        self.result = Result(
            winner=winner,
            cards_left=list(cards_left),
            scores=scores,
            finishing_order=list(order),
            dragon=dragon,
        )
        self.totals = [total + points for total, points in zip(self.totals, scores, strict=True)]
