"""``capsa_fast.banting.Game`` against the pure-Python round model, move by move.

What a user would notice if these failed: a round code dealing different cards on another
machine or version, the wrong player asked to move, a trick that does not clear (or clears
too early), the lead going to a player who has no cards, a legal move refused or an illegal
one accepted (or refused with the wrong reason), a rejected move that changes the game,
scores that do not add up, or the wrong player opening the next round of a match.

The model is ``tests/banting/oracle_banting_game.py``; it reads combos through the independent
rules oracle ``tests/banting/oracle_banting.py`` and never calls the engine. Random games are
driven by seeded ``random.Random`` objects choosing among the model's legal moves in a
canonical order, so every failure message carries a reproduction: rules, code(s) and the
moves of the round.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from capsa_fast import banting

from tests.banting import oracle_banting as combos
from tests.banting import oracle_banting_game as model
from tests.banting.oracle_banting_game import PASS, OracleGame

# (id, preset, overrides): every preset, then overrides of the settings the flow reads.
CONFIGS: list[tuple[str, str, dict[str, Any]]] = [
    *((name, name, {}) for name in banting.PRESETS),
    ("pass-locks", "capsa-banting", {"pass_locks": True}),
    ("last-standing", "capsa-banting", {"ending": "last-standing"}),
    ("previous-winner", "capsa-banting", {"first_lead": "previous-winner"}),
    ("no-dragon", "capsa-banting", {"dragon": False}),
    ("no-triples", "capsa-banting", {"triples": False}),
    ("bombs", "capsa-banting", {"bombs": "quads-and-straight-flush"}),
    (
        "taiwan-locks-last-standing-previous-winner",
        "taiwan",
        {"pass_locks": True, "ending": "last-standing", "first_lead": "previous-winner"},
    ),
    ("hk-locks-last-standing", "hong-kong", {"pass_locks": True, "ending": "last-standing"}),
    ("pagat-own-tiers", "pagat", {"scoring": [[1, 2], [5, 3], [11, 5]]}),
    ("two-demotion-bombs", "taiwan", {"two_demotion": True}),
    ("klasik-last-standing", "capsa-klasik", {"ending": "last-standing"}),
]
PLAYERS = (2, 3, 4)
MATCHES_PER_CASE = 35
ROUNDS_PER_MATCH = 4


def config_params() -> list[Any]:
    return [pytest.param(preset, overrides, id=name) for name, preset, overrides in CONFIGS]


def seed_of(*parts: object) -> int:
    return sum((i + 1) * ord(ch) for i, ch in enumerate(repr(parts)))


def random_code(rng: random.Random, players: int) -> str:
    return model.make_code(players, rng.getrandbits(model.SEED_BITS))


def new_pair(preset: str, overrides: dict[str, Any], code: str) -> tuple[Any, OracleGame]:
    game = banting.Game(rules=banting.Rules.preset(preset, **overrides), code=code)
    return game, OracleGame(combos.make_rules(preset, **overrides), code)


# ----------------------------------------------------------------------------- state


def cards_of(combo: Any) -> list[int] | None:
    return None if combo is None else sorted(combo.cards)


def game_state(game: Any) -> dict[str, Any]:
    """Everything a player can read off ``Game``, in plain values."""
    result = game.result
    return {
        "code": game.code,
        "round": game.round,
        "turn": game.turn,
        "table": cards_of(game.table),
        "table_seat": game.table_seat,
        "leader": game.leader,
        "passed": list(game.passed),
        "first_play": game.first_play,
        "twos_demoted": game.twos_demoted,
        "counts": list(game.counts),
        "hands": [list(game.hand(seat)) for seat in range(game.players)],
        "history": [(move.seat, cards_of(move.combo)) for move in game.history],
        "over": game.over,
        "result": None
        if result is None
        else {
            "winner": result.winner,
            "cards_left": list(result.cards_left),
            "scores": list(result.scores),
            "finishing_order": list(result.finishing_order),
            "dragon": result.dragon,
        },
        "totals": list(game.totals),
        "can_pass": [game.can_pass(seat) for seat in range(game.players)],
    }


def oracle_state(o: OracleGame) -> dict[str, Any]:
    result = o.result
    return {
        "code": o.code,
        "round": o.round,
        "turn": o.turn,
        "table": None if o.table is None else sorted(o.table),
        "table_seat": o.table_seat,
        "leader": o.leader,
        "passed": sorted(o.passed),
        "first_play": o.first_play,
        "twos_demoted": o.twos_demoted,
        "counts": o.counts,
        "hands": [o.hand(seat) for seat in range(o.players)],
        "history": [(seat, None if play is None else sorted(play)) for seat, play in o.history],
        "over": o.over,
        "result": None
        if result is None
        else {
            "winner": result.winner,
            "cards_left": result.cards_left,
            "scores": result.scores,
            "finishing_order": result.finishing_order,
            "dragon": result.dragon,
        },
        "totals": o.totals,
        "can_pass": [o.can_pass(seat) for seat in range(o.players)],
    }


def move_text(move: model.Move) -> str:
    return PASS if move == PASS else combos.cards_text(move)  # type: ignore[arg-type]


class Trail:
    """What reproduces a random match: rules, the codes so far, this round's moves."""

    def __init__(self, preset: str, overrides: dict[str, Any], code: str) -> None:
        self.preset, self.overrides = preset, overrides
        self.codes = [code]
        self.moves: list[str] = []

    def new_round(self, code: str) -> None:
        self.codes.append(code)
        self.moves = []

    def __str__(self) -> str:
        return (
            f"rules=Rules.preset({self.preset!r}, **{self.overrides!r}), "
            f"codes={self.codes} (next_round for each after the first), "
            f"moves of the last round (seat: play) = {self.moves}"
        )


def assert_same(game: Any, o: OracleGame, trail: Trail | str, what: str = "") -> None:
    try:
        actual = game_state(game)
    except Exception as exc:  # reading the Game must never fail; say how to get there
        pytest.fail(f"{what}reading the Game raised {exc!r}\n  {trail}")
    expected = oracle_state(o)
    if actual != expected:
        diff = {key: (actual[key], expected[key]) for key in actual if actual[key] != expected[key]}
        pytest.fail(f"{what}Game differs from the model (Game, model): {diff}\n  {trail}")


def apply_move(game: Any, seat: int, move: model.Move, rng: random.Random) -> Any:
    """Make ``move`` through one of the Game's entry points."""
    if move == PASS:
        return game.pass_(seat) if rng.random() < 0.7 else game.move(seat, "pass")
    cards = sorted(move)  # type: ignore[arg-type]
    rng.shuffle(cards)
    return game.play(seat, cards) if rng.random() < 0.7 else game.move(seat, cards)


# ----------------------------------------------------------------------------- illegal moves


def try_illegal(
    game: Any, o: OracleGame, seat: int, move: model.Move | list[int], trail: Trail
) -> str:
    """``move`` is refused by both with the same code and the Game does not change; the code."""
    expected = o.judge(seat, move)
    assert expected is not None, "try_illegal wants an illegal move"
    shown = move_text(move if move == PASS else frozenset(move))
    before = game_state(game)
    verdict = game.validate(seat, PASS if move == PASS else list(move))
    assert (verdict.ok, verdict.code) == (False, expected), f"validate seat {seat} {shown}: {trail}"
    with pytest.raises(banting.IllegalPlay) as caught:
        if move == PASS:
            game.pass_(seat)
        else:
            game.play(seat, list(move))
    assert caught.value.code == expected, f"seat {seat} {shown}: {trail}"
    assert isinstance(caught.value, ValueError)
    assert game_state(game) == before, f"rejected seat {seat} {shown} changed the Game: {trail}"
    return expected


def random_illegal(rng: random.Random, o: OracleGame) -> tuple[int, model.Move | list[int]] | None:
    """A move the model probably refuses (None if the attempt turned out legal).

    A move out of turn, a pass when leading, random cards (mostly from the hand), or a
    five-card, pair or triple shape from the hand that the rules or the table refuse.
    """
    turn = o.turn
    assert turn is not None
    kind = rng.randrange(4)
    if kind == 0:
        seat = rng.choice([s for s in range(o.players) if s != turn])
        hand = sorted(o.hands[seat]) or list(range(52))
        return seat, PASS if rng.random() < 0.3 else [rng.choice(hand)]
    if kind == 1 and o.table is None:
        return turn, PASS
    if kind == 2:  # pick the refusal code first, so that rare codes get their turn
        by_code: dict[str, list[list[int]]] = {}
        for shape in sorted(model.candidate_plays(o.hands[turn]), key=sorted):
            code = o.judge(turn, shape)
            if code is not None:
                by_code.setdefault(code, []).append(sorted(shape))
        return (turn, rng.choice(by_code[rng.choice(sorted(by_code))])) if by_code else None
    size = rng.choice((1, 2, 3, 4, 5, 6))
    pool = sorted(o.hands[turn]) if rng.random() < 0.75 else list(range(52))
    cards = rng.sample(pool, min(size, len(pool)))
    return None if o.judge(turn, cards) is None else (turn, cards)


# ----------------------------------------------------------------------------- random matches


def check_hint(game: Any, o: OracleGame, seat: int, trail: Trail) -> None:
    """The standard bot's hint is a move the model allows, never a pass while the seat has a
    play (seed 003: «Petunjuk» picks cards that can be played), and asking changes nothing."""
    before = game_state(game)
    hint = game.hint(seat)
    assert game_state(game) == before, f"hint changed the Game: {trail}"
    move: model.Move = PASS if hint.is_pass else frozenset(hint.cards)
    assert hint.seat == seat and o.judge(seat, move) is None, f"hint {hint}: {trail}"
    assert hint.is_pass == (not o.legal_plays(seat)), f"hint {hint} passes: {trail}"


def play_match(
    preset: str, overrides: dict[str, Any], players: int, rng: random.Random, seen: Counter[str]
) -> None:
    """A match of random legal moves, checked after every step.

    ``seen`` counts what happened (rejection codes, cleared and inherited tricks, locked
    passes, rounds, moves), so the caller can tell the games exercised what they should.
    """
    code = random_code(rng, players)
    game, o = new_pair(preset, overrides, code)
    trail = Trail(preset, overrides, code)
    for round_index in range(ROUNDS_PER_MATCH):
        if round_index:
            code = random_code(rng, players)
            trail.new_round(code)
            game.next_round(code)
            o.next_round(code)
        seen["rounds"] += 1
        seen["dragon rounds"] += o.over
        assert_same(game, o, trail, "new round: ")
        while not o.over:
            seat = o.turn
            assert seat is not None
            legal = o.legal_moves(seat)
            if o.first_play and len(o.hands[seat]) > 1:
                not_lowest = rng.choice(o.hand(seat)[1:])
                seen[try_illegal(game, o, seat, [not_lowest], trail)] += 1
            if rng.random() < 0.15:
                plays = sorted((frozenset(c.cards) for c in game.legal_plays(seat)), key=sorted)
                want = sorted(o.legal_plays(seat), key=sorted)
                assert plays == want, f"legal_plays({seat}) differ: {trail}"
                other = (seat + rng.randrange(1, players)) % players
                assert game.legal_plays(other) == [], f"legal_plays({other}) off turn: {trail}"
            if rng.random() < 0.15:
                attempt = random_illegal(rng, o)
                if attempt is not None:
                    seen[try_illegal(game, o, *attempt, trail)] += 1
            if rng.random() < 0.05:
                check_hint(game, o, seat, trail)
            if o.rules["pass_locks"] and seat in o.passed:
                seen["locked pass"] += 1
            move = rng.choice(legal)
            trail.moves.append(f"{seat}: {move_text(move)}")
            if rng.random() < 0.05:
                verdict = game.validate(seat, PASS if move == PASS else sorted(move))
                assert verdict.ok and verdict.code is None, f"validate refuses: {trail}"
                assert cards_of(verdict.combo) == (None if move == PASS else sorted(move)), trail
            table_seat = o.table_seat
            demoted = o.twos_demoted
            if demoted and o.table is not None and len(o.table) == 1 and move != PASS:
                seen["single played on demoted 2s"] += 1
            made = apply_move(game, seat, move, rng)
            o.move(seat, move)
            seen["moves"] += 1
            if o.twos_demoted != demoted:
                seen["twos demoted" if o.twos_demoted else "twos restored"] += 1
            assert made.seat == seat and made.is_pass == (move == PASS), trail
            assert sorted(made.cards) == ([] if move == PASS else sorted(move)), trail
            assert_same(game, o, trail)
            if move == PASS and o.table is None:
                seen["cleared trick"] += 1
                seen["inherited lead"] += o.leader != table_seat
        result = o.result
        assert result is not None
        assert sum(result.scores) == 0 and result.scores[result.winner] > 0, trail
        seen[try_illegal(game, o, rng.randrange(players), PASS, trail)] += 1
        seen[try_illegal(game, o, rng.randrange(players), [rng.randrange(52)], trail)] += 1
    assert sum(o.totals) == 0


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize(("preset", "overrides"), config_params())
def test_random_matches_agree_with_the_model(
    preset: str, overrides: dict[str, Any], players: int
) -> None:
    rng = random.Random(seed_of("matches", preset, overrides, players))
    seen: Counter[str] = Counter()
    for _ in range(MATCHES_PER_CASE):
        play_match(preset, overrides, players, rng, seen)
    # The random games must have reached the situations this file is about.
    rules = combos.make_rules(preset, **overrides)
    wanted = {
        "cleared trick",
        "ROUND_OVER",
        "NOT_YOUR_TURN",
        "CANNOT_PASS_WHEN_LEADING",
        "NOT_IN_HAND",
        "WRONG_CARD_COUNT",
        "NOT_A_COMBO",
        "MUST_INCLUDE_LOWEST",
        "DOES_NOT_BEAT",
    }
    if rules["pass_locks"] and players > 2:  # with two players a pass clears the trick
        wanted |= {"PASSED_THIS_TRICK", "locked pass"}
    if rules["ending"] == "last-standing" and players > 2:
        wanted.add("inherited lead")
    if not rules["triples"] or rules["flush_compare"] == "none":
        wanted.add("RULE_FORBIDS")
    missing = sorted(name for name in wanted if not seen[name])
    assert not missing, f"the random games never reached {missing}: {dict(seen)}"


# ----------------------------------------------------------------------------- two_demotion

DEMOTION_CONFIGS = [
    pytest.param("capsa-klasik", {}, id="capsa-klasik"),
    pytest.param("capsa-banting", {"two_demotion": True}, id="two-demotion"),
    pytest.param("taiwan", {"two_demotion": True, "pass_locks": True}, id="bombs-locks"),
]
DEMOTION_ROUNDS = 120


def codes_with_quads(players: int, rng: random.Random, wanted: int) -> list[str]:
    """Codes whose deal holds at least two fours of a kind (so a round can demote the 2s
    and restore them); the deals are checked against the model by assert_same."""
    found = []
    while len(found) < wanted:
        code = random_code(rng, players)
        quads = sum(
            count == 4
            for hand in banting.deal(code)
            for count in Counter(card // 4 for card in hand).values()
        )
        if quads >= 2:
            found.append(code)
    return found


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize(("preset", "overrides"), DEMOTION_CONFIGS)
def test_two_demotion_rounds_agree_with_the_model(
    preset: str, overrides: dict[str, Any], players: int
) -> None:
    """Seed 000: «Ketika kombinasi piting dikeluarkan, 2 akan dibom»; seed 002: «Bom dapat
    membuat 2 menjadi lebih rendah dari 3». Rounds dealt with two or more fours of a kind,
    where a four of a kind is played whenever one is legal (mostly) and bots take some
    turns: the Game and the model agree on every move (``twos_demoted`` included), and
    the 2s are demoted, beaten by 3s as singles, and restored by the next four."""
    rng = random.Random(seed_of("demotion", preset, overrides, players))
    seen: Counter[str] = Counter()
    for code in codes_with_quads(players, rng, DEMOTION_ROUNDS):
        game, o = new_pair(preset, overrides, code)
        trail = Trail(preset, overrides, code)
        assert_same(game, o, trail, "new round: ")
        bot_seat = rng.randrange(players)
        while not o.over:
            seat = o.turn
            assert seat is not None
            demoted = o.twos_demoted
            if rng.random() < 0.1:
                plays = sorted((frozenset(c.cards) for c in game.legal_plays(seat)), key=sorted)
                assert plays == sorted(o.legal_plays(seat), key=sorted), trail
            if rng.random() < 0.1:
                check_hint(game, o, seat, trail)
            if seat == bot_seat:
                made = game.bot_play(seat, rng.choice(banting.BOT_LEVELS))
                move: model.Move = PASS if made.is_pass else frozenset(made.cards)
                assert o.judge(seat, move) is None, f"bot move {made} refused: {trail}"
            else:
                legal = o.legal_moves(seat)
                fours = [
                    m
                    for m in legal
                    if m != PASS
                    and len(m) == 5
                    and combos.kind_of(sorted(m), o.rules) == "four_of_a_kind"
                ]
                move = rng.choice(fours) if fours and rng.random() < 0.8 else rng.choice(legal)
                apply_move(game, seat, move, rng)
            if demoted and o.table is not None and len(o.table) == 1 and move != PASS:
                low = combos.rank_char(min(move)) == "2"  # type: ignore[type-var]
                seen["demoted 2 played as a single" if low else "single on demoted 2s"] += 1
            trail.moves.append(f"{seat}: {move_text(move)}")
            o.move(seat, move)
            assert_same(game, o, trail)
            if o.twos_demoted != demoted:
                seen["twos demoted" if o.twos_demoted else "twos restored"] += 1
        seen["rounds"] += 1
    for what in ("twos demoted", "twos restored", "single on demoted 2s"):
        assert seen[what] >= 5, f"the rounds reached {what!r} only {seen[what]} times: {seen}"


def test_demoted_twos_are_the_lowest_singles_only() -> None:
    """The stateless calls take the round state: while the 2s are demoted a 3 beats a 2 as
    a single, the ace is the top single, and pairs, triples and five-card combos keep the
    usual order (a pair of 2s still beats a pair of aces)."""
    rules = banting.Rules.preset("capsa-klasik")
    oracle_rules = combos.with_twos_demoted(combos.make_rules("capsa-klasik"))
    assert banting.compare("3d", "2s", rules) == -1
    assert banting.compare("3d", "2s", rules, twos_demoted=True) == 1
    assert banting.compare("As", "2s", rules, twos_demoted=True) == 1
    assert banting.compare("2d 2c", "Ah As", rules, twos_demoted=True) == 1
    verdict = banting.validate("3d 9c", "3d", table="2s", rules=rules, twos_demoted=True)
    assert verdict.ok
    assert not banting.validate("3d 9c", "3d", table="2s", rules=rules).ok
    hand = combos.parse("2c 2d 3h 7s Ah")
    table = combos.parse("Kd")
    ours = {frozenset(c.cards) for c in banting.legal_plays(hand, table, rules, twos_demoted=True)}
    assert ours == combos.legal_plays(hand, table, oracle_rules)
    assert ours == {frozenset([combos.parse("Ah")[0]])}
    counts = banting.legal_play_counts([hand], table="Kd", rules=rules, twos_demoted=True)
    assert list(counts) == [1]
    mask = banting.legal_play_mask([hand], table="3c", rules=rules, twos_demoted=True)
    assert mask.sum() == 3  # 3h, 7s and Ah; the 2s are below the 3c
    with pytest.raises(ValueError, match="two_demotion"):
        banting.validate("3d 9c", "3d", table="2s", twos_demoted=True)


# ----------------------------------------------------------------------------- codes and deals


def test_code_functions_agree_with_the_model() -> None:
    rng = random.Random(seed_of("codes"))
    seeds = [0, 1, 31, 32, (1 << 45) - 1, 1 << 45, (1 << 64) - 1]
    seeds += [rng.getrandbits(bits) for bits in (45, 64) for _ in range(100)]
    for players in PLAYERS:
        for seed in seeds:
            code = model.make_code(players, seed)
            assert banting.make_code(players, seed) == code
            assert banting.parse_code(code) == (players, seed)
            assert banting.parse_code(f"  {code.lower()}\n") == (players, seed)
        fresh = banting.new_code(players)
        assert model.parse_code(fresh)[0] == players
        assert model.make_code(*model.parse_code(fresh)) == fresh


@pytest.mark.parametrize("bad", ["", "   ", "X" * 33, "B4K7 M2Q9", "B4K7M2Q9XZ!", "héllo"])
def test_bad_codes_are_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        model.parse_code(bad)
    with pytest.raises(ValueError):
        banting.parse_code(bad)
    with pytest.raises(ValueError):
        banting.Game(code=bad)


@pytest.mark.parametrize("players", PLAYERS)
def test_free_code_words_deal_as_the_model(players: int) -> None:
    # Words outside the issued format (the example among them) are hashed.
    words = ["B02L1739204", "friday-game", "Q", "B5K7M2Q9XZ1", "B4K7M2Q9XZU", "a_b-c", "9" * 32]
    words += ["B4G000000000000", "B40000000000000U", "B4000000000000"]  # 65 bits, 14, 12 chars
    for word in words:
        assert banting.parse_code(word) == model.parse_code(word)
        assert model.parse_code(word)[0] is None
        game = banting.Game(players=players, code=word)
        expected = model.deal_code(word, players)
        assert [sorted(game.hand(s)) for s in range(players)] == [sorted(h) for h in expected]
        assert game.code == word.upper()


def test_players_must_match_the_code() -> None:
    with pytest.raises(ValueError):
        banting.Game(players=3, code=model.make_code(4, 12345))
    assert banting.Game(players=3, code=model.make_code(3, 12345)).players == 3
    assert banting.Game(code=model.make_code(2, 12345)).players == 2


@pytest.mark.parametrize("players", PLAYERS)
def test_same_code_same_deal_as_the_model(players: int) -> None:
    rng = random.Random(seed_of("deal", players))
    for seed in [0, (1 << 45) - 1, (1 << 64) - 1, *(rng.getrandbits(64) for _ in range(30))]:
        code = model.make_code(players, seed)
        dealt = model.deal(players, seed)
        first, second = banting.Game(code=code), banting.Game(code=code.lower())
        assert first.code == second.code == code
        for seat in range(players):
            assert sorted(first.hand(seat)) == sorted(dealt[seat]), f"{code} seat {seat}"
            assert first.hand(seat) == second.hand(seat)
        dealt_cards = {card for hand in dealt for card in hand}
        assert len(dealt_cards) == 13 * players


def test_deal_is_the_documented_shuffle() -> None:
    # The first outputs of SplitMix64 seeded with 0, as other implementations' test suites
    # check them (e.g. -2152535657050944081 and 7960286522194355700 as signed 64-bit
    # values): the model's generator must reproduce them.
    numbers = model.splitmix64(0)
    assert [next(numbers) for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]
    code = model.make_code(4, 0x123456789AB)
    game = banting.Game(code=code)
    deck = model.shuffled_deck(0x123456789AB)
    for seat in range(4):
        assert sorted(game.hand(seat)) == sorted(deck[13 * seat : 13 * seat + 13])


def test_fresh_game_deals_its_own_code() -> None:
    for players in PLAYERS:
        game = banting.Game(players=players)
        dealt = model.deal_code(game.code)
        assert [sorted(game.hand(s)) for s in range(players)] == [sorted(h) for h in dealt]


# ----------------------------------------------------------------------------- targeted flows


def test_trick_clears_after_all_others_pass() -> None:
    code = random_code(random.Random(seed_of("clear")), 4)
    game, o = new_pair("capsa-banting", {}, code)
    leader = o.turn
    assert leader is not None and game.turn == leader and game.first_play
    lowest = o.hand(leader)[0]
    game.play(leader, [lowest])
    o.move(leader, frozenset([lowest]))
    for step in range(1, 4):
        seat = (leader + step) % 4
        assert game.turn == seat and game.table is not None
        game.pass_(seat)
        o.move(seat, PASS)
        assert_same(game, o, f"code {code}")
    assert game.table is None and game.table_seat is None and game.passed == []
    assert game.turn == game.leader == leader
    assert not game.first_play
    with pytest.raises(banting.IllegalPlay) as caught:
        game.pass_(leader)
    assert caught.value.code == "CANNOT_PASS_WHEN_LEADING"


def find_round(
    preset: str, overrides: dict[str, Any], players: int, wanted: Callable[[OracleGame], bool]
) -> tuple[str, list[model.Move]]:
    """A code and moves (found with the model, seeded) after which ``wanted`` holds."""
    rules = combos.make_rules(preset, **overrides)
    rng = random.Random(seed_of("find", preset, overrides, players))
    for _ in range(2000):
        o = OracleGame(rules, random_code(rng, players))
        moves: list[model.Move] = []
        while not o.over:
            seat = o.turn
            assert seat is not None
            legal = o.legal_moves(seat)
            # Passing whenever someone is out makes the searched-for tricks likelier.
            out = any(n == 0 for n in o.counts)
            move = PASS if out and PASS in legal and rng.random() < 0.8 else rng.choice(legal)
            o.move(seat, move)
            moves.append(move)
            if wanted(o):
                return o.code, moves
    raise AssertionError("no such round found; widen the search")


def replay(preset: str, overrides: dict[str, Any], code: str, moves: list[model.Move]) -> Any:
    game, o = new_pair(preset, overrides, code)
    for move in moves:
        seat = o.turn
        apply_move(game, seat, move, random.Random(0))
        o.move(seat, move)
        assert_same(game, o, f"code {code} moves {[move_text(m) for m in moves]}")
    return game


@pytest.mark.parametrize("players", (3, 4))
def test_lead_is_inherited_when_the_trick_winner_went_out(players: int) -> None:
    overrides = {"ending": "last-standing"}

    def inherited(o: OracleGame) -> bool:
        _, last_play = o.history[-1]
        if last_play is not None or o.table is not None:
            return False
        winner = next(seat for seat, play in reversed(o.history) if play is not None)
        return o.counts[winner] == 0

    code, moves = find_round("capsa-banting", overrides, players, inherited)
    game = replay("capsa-banting", overrides, code, moves)
    winner = next(m.seat for m in reversed(game.history) if not m.is_pass)
    assert game.counts[winner] == 0 and game.table is None
    heir = next(
        (winner + k) % players for k in range(1, players) if game.counts[(winner + k) % players]
    )
    assert game.leader == game.turn == heir, f"code {code}"
    assert game.legal_plays(heir) != []


def test_last_standing_records_the_finishing_order() -> None:
    overrides = {"ending": "last-standing"}
    code, moves = find_round("capsa-banting", overrides, 4, lambda o: o.over)
    game = replay("capsa-banting", overrides, code, moves)
    result = game.result
    assert sorted(result.finishing_order) == [0, 1, 2, 3]
    assert result.winner == result.finishing_order[0]
    assert result.cards_left[result.winner] == 0
    assert sum(1 for n in game.counts if n > 0) == 1
    assert game.counts[result.finishing_order[-1]] > 0
    assert sum(result.scores) == 0


@pytest.mark.parametrize("first_lead", ["lowest-card", "previous-winner"])
def test_who_opens_the_next_round(first_lead: str) -> None:
    rng = random.Random(seed_of("next", first_lead))
    code = random_code(rng, 4)
    overrides = {"first_lead": first_lead}
    game, o = new_pair("capsa-banting", overrides, code)
    with pytest.raises(ValueError):
        game.next_round(random_code(rng, 4))
    while not game.over:
        game.bot_play(game.turn, level="random")
    winner = game.result.winner
    next_code = random_code(rng, 4)
    game.next_round(next_code)
    assert game.round == 2 and game.code == next_code
    dealt = model.deal_code(next_code)
    lowest = combos.lowest_card([c for hand in dealt for c in hand], o.rules)
    holder = next(seat for seat in range(4) if lowest in dealt[seat])
    if first_lead == "previous-winner":
        assert (game.turn, game.leader, game.first_play) == (winner, winner, False)
    else:
        assert (game.turn, game.leader, game.first_play) == (holder, holder, True)
    assert game.history == [] and sum(game.totals) == 0


def find_dragon_seed(players: int, start: int) -> int:
    """The first seed from ``start`` whose deal gives some seat all 13 ranks (bounded)."""
    for seed in range(start, start + 200_000):
        if any(model.is_dragon(hand) for hand in model.deal(players, seed)):
            return seed
    raise AssertionError("no dragon deal in 200,000 seeds")


@pytest.mark.parametrize("players", PLAYERS)
def test_dragon_deal_ends_the_round_at_once(players: int) -> None:
    seed = find_dragon_seed(players, start=seed_of("dragon", players) * 1_000_003)
    code = model.make_code(players, seed)
    dealt = model.deal(players, seed)
    dragons = [seat for seat in range(players) if model.is_dragon(dealt[seat])]
    assert dragons, "the search must have found a real dragon deal"
    assert all(len({card // 4 for card in dealt[seat]}) == 13 for seat in dragons)

    game, o = new_pair("capsa-banting", {}, code)
    assert_same(game, o, f"code {code}")
    result = game.result
    assert game.over and result.dragon and result.winner in dragons
    assert result.cards_left == [0 if s == result.winner else 13 for s in range(players)]
    assert result.scores == combos.score(result.cards_left, o.rules)
    assert result.finishing_order == [result.winner]
    assert game.totals == result.scores
    assert game.legal_plays(result.winner) == []
    with pytest.raises(banting.IllegalPlay) as caught:
        game.play(result.winner, [game.hand(result.winner)[0]])
    assert caught.value.code == "ROUND_OVER"

    # previous-winner: the dragon winner opens the next round.
    game, o = new_pair("capsa-banting", {"first_lead": "previous-winner"}, code)
    following = random_code(random.Random(seed), players)
    game.next_round(following)
    o.next_round(following)
    assert_same(game, o, f"codes {code}, {following}")
    assert game.turn == result.winner

    # Without the dragon rule the same deal is played normally.
    game, o = new_pair("capsa-banting", {"dragon": False}, code)
    assert_same(game, o, f"code {code}")
    assert not game.over and game.first_play and game.result is None


# Seats 0 and 1 both get a dragon from this seed (with 2, 3 or 4 players: they share the
# first 26 cards of the deck). Found offline by dealing seeds 0, 1, 2, ... with a numpy
# copy of the model's shuffle until two hands held all 13 ranks (two dragons in one deal
# happen about once in 8 million seeds); the test re-checks it with the model.
TWO_DRAGONS_SEED = 2_720_359


@pytest.mark.parametrize("suit_order", ["dchs", "shdc"])
@pytest.mark.parametrize("players", PLAYERS)
def test_two_dragons_the_highest_card_wins(players: int, suit_order: str) -> None:
    code = model.make_code(players, TWO_DRAGONS_SEED)
    dealt = model.deal(players, TWO_DRAGONS_SEED)
    assert model.is_dragon(dealt[0]) and model.is_dragon(dealt[1])
    # The winner holds the higher 2: seat 1 (2h) under dchs, seat 0 (2c) under shdc.
    winners = {
        order: model.dragon_winner(dealt, combos.make_rules(suit_order=order))
        for order in ("dchs", "shdc")
    }
    assert winners["dchs"] != winners["shdc"], "the deal must tell the suit orders apart"

    game, o = new_pair("capsa-banting", {"suit_order": suit_order}, code)
    assert_same(game, o, f"code {code}")
    assert game.over and game.result.dragon
    assert game.result.winner == winners[suit_order]


def test_scores_follow_the_tiers_and_sum_to_zero() -> None:
    rng = random.Random(seed_of("scores"))
    tiers = [[1, 1], [10, 2], [13, 3]]
    for _ in range(40):
        players = rng.choice(PLAYERS)
        game = banting.Game(rules="capsa-banting", code=random_code(rng, players))
        while not game.over:
            game.bot_play(game.turn, level="random")
        result = game.result
        left = result.cards_left
        assert left[result.winner] == 0 and left == list(game.counts)
        paid = [n * max(m for t, m in tiers if t <= n) if n else 0 for n in left]
        assert result.scores == [
            sum(paid) if n == 0 else -p for n, p in zip(left, paid, strict=True)
        ]
        assert sum(result.scores) == 0


# ----------------------------------------------------------------------------- the model itself


def test_model_fast_legal_plays_match_the_rules_oracle() -> None:
    """The model's shortcut for legal plays agrees with trying every subset."""
    rng = random.Random(seed_of("model"))
    for name, preset, overrides in CONFIGS:
        o = OracleGame(combos.make_rules(preset, **overrides), random_code(rng, 4))
        checks = 0
        while not o.over and checks < 4:
            seat = o.turn
            if rng.random() < 0.3:
                assert o.legal_plays(seat) == o.legal_plays_slow(seat), (name, o.code, o.history)
                checks += 1
            o.move(seat, rng.choice(o.legal_moves(seat)))


def test_the_bots_dice_do_not_give_the_deal_away() -> None:
    # A random hint is one throw of the bots' dice: legal[x % n]. SplitMix64 runs backwards
    # from x, so dice seeded by the deal's seed would hand a seat every hand once it had
    # seen enough throws; they are seeded by a SHA-256 of it (banting.game.dice_seed).
    checked = 0
    for i in range(400):
        code = f"DICE-{i}"
        game = banting.Game(code=code)
        seat = game.turn
        legal = game.legal_plays(seat)
        if len(legal) < 3:
            continue
        seed = banting.parse_code(code)[1]
        x = next(model.splitmix64(banting.game.dice_seed(seed)))
        assert sorted(game.hint(seat, "random").cards) == sorted(legal[x % len(legal)].cards)
        checked += 1
        if checked == 20:
            break
    assert checked == 20
    digest = hashlib.sha256(b"capsa_fast banting dice " + (12345).to_bytes(8, "big")).digest()
    assert banting.game.dice_seed(12345) == int.from_bytes(digest[:8], "big")
