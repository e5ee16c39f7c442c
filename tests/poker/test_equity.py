"""Hold'em equity (cf.poker.equity, equity_table, parse_range): exact results against the
slow reference in tests/poker/oracle_equity.py, against eval7, classic match-ups, Monte Carlo
within its interval, seeds, the range parser and its errors."""

from __future__ import annotations

import random
import time
import warnings

import capsa_fast as cf
import numpy as np
import pytest

from tests.poker.oracle_equity import combos_of, reference_equity

TOL = 1e-9


def random_hands(rng: random.Random, count: int, extra: int = 0) -> tuple[list[str], list[str]]:
    cards = rng.sample(range(52), 2 * count + extra)
    names = cf.format_cards(cards)
    hands = [names[2 * i] + names[2 * i + 1] for i in range(count)]
    return hands, names[2 * count :]


def assert_matches(players: list[str], board: str = "", dead: str = "") -> None:
    ref = reference_equity(players, board, dead)
    got = cf.poker.equity(players, board, dead, exact=True)
    assert got.exact
    assert got.combos == ref.showdowns
    assert got.equity == pytest.approx(ref.equity, abs=TOL)
    assert got.win == pytest.approx(ref.win, abs=TOL)
    assert got.tie == pytest.approx(ref.tie, abs=TOL)
    assert sum(got.equity) == pytest.approx(1.0, abs=TOL)


# ---- exact against the slow reference ----------------------------------------------------


@pytest.mark.parametrize("seed", range(3))
def test_random_hand_vs_hand_preflop(seed: int) -> None:
    hands, _ = random_hands(random.Random(seed), 2)
    assert_matches(hands)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_hands_on_flop_and_turn(seed: int, players: int) -> None:
    rng = random.Random(100 * players + seed)
    hands, rest = random_hands(rng, players, 5)
    assert_matches(hands, " ".join(rest[:3]))
    assert_matches(hands, " ".join(rest[:4]), dead=rest[4])


def test_multiway_preflop() -> None:
    assert_matches(["AsKs", "QdQc", "7h8h"])


def test_range_vs_range_preflop_with_weights_and_card_removal() -> None:
    # KsKc cannot meet AsKs: that deal is skipped; AhAd counts half.
    assert_matches(["AhAd:0.5,KsKc", "AsKs,QhQd"])


@pytest.mark.parametrize(
    ("players", "board"),
    [
        (["QQ+,AKs", "JJ-99,AQs:0.5,KQo"], "Qc 7d 2h"),
        (["random", "AA"], "Ac 7d 2h 9s"),
        (["TT+", "AKs,AQs", "KQs,76s"], "Ac Kd 2h"),
        (["A5s-A2s", "22-44", "KhQh"], "5c 4d 9h Th"),
        (["AA", "KK"], "Ac Kd 2h 9s 9h"),
    ],
)
def test_ranges_on_later_streets(players: list[str], board: str) -> None:
    assert_matches(players, board)


# ---- classic match-ups, each checked against the reference first ---------------------------

CLASSICS = [
    # Widely published preflop figures (PokerStove and the usual tables), to 1%.
    (["AsAh", "KdKc"], 0.82),  # aces against kings
    (["AsKd", "QhQc"], 0.43),  # the race: AKo against queens
    (["AhKh", "2c2d"], 0.50),  # AKs against a small pair: a coin flip
    (["AsAd", "7h2c"], 0.88),  # aces against the worst hand
    (["AA", "random"], 0.852),  # aces against a random hand
]


@pytest.mark.parametrize(("players", "published"), CLASSICS)
def test_classic_matchups(players: list[str], published: float) -> None:
    got = cf.poker.equity(players)
    assert got.exact
    assert got.equity[0] == pytest.approx(published, abs=0.01)
    if players[1] != "random":  # the reference would deal 1,225 x 1.7 million boards
        ref = reference_equity(players)
        assert got.equity == pytest.approx(ref.equity, abs=TOL)


# ---- eval7 ------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(20))
def test_hand_vs_range_matches_eval7_on_river_boards(seed: int) -> None:
    """eval7's exact hand-vs-range settles a complete board; ours must agree."""
    eval7 = pytest.importorskip("eval7")
    rng = random.Random(seed)
    villain = rng.choice(
        ["QQ+,AKs", "22+,A2s+,KTs+,QJs,ATo+", "22+,AKo,KQs,T9s,54s", "AKo,AQo,76s,55"]
    )
    hand, board = random_hands(rng, 1, 5)
    with warnings.catch_warnings():
        # eval7's range parser calls a pyparsing method that now warns.
        warnings.simplefilter("ignore")
        their_range = eval7.HandRange(villain)
    # Both parsers read the range as the same combos.
    assert {frozenset(map(str, h)) for h, _ in their_range.hands} == {
        frozenset((name[:2], name[2:])) for name, _ in cf.poker.parse_range(villain)
    }
    theirs = eval7.py_hand_vs_range_exact(
        [eval7.Card(c) for c in (hand[0][:2], hand[0][2:])],
        their_range,
        [eval7.Card(c) for c in board],
    )
    ours = cf.poker.equity([hand[0], villain], " ".join(board))
    assert ours.exact
    assert ours.equity[0] == pytest.approx(theirs, abs=1e-6)  # eval7 returns a float32


# ---- Monte Carlo ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "board"),
    [
        (["AhKh", "QsQc"], ""),
        (["QQ+,AKs", "JJ-99,AQs:0.5,KQo"], ""),
        (["AsKs", "QdQc", "7h8h"], ""),
        (["TT+", "AKs,AQs", "KQs,76s"], "Ac Kd 2h"),
        # Full ranges ("random") are dealt from the cards the others leave.
        (["AhAd", "random", "random:0.5"], "Kc 7d 2h 5s 9c"),
        (["QQ+,AKs:0.5", "random", "T9s,98s,87s"], "Kc 7d 2h 5s 9c"),
    ],
)
def test_monte_carlo_within_its_interval(players: list[str], board: str) -> None:
    exact = cf.poker.equity(players, board, dead="2c 3c", exact=True)
    mc = cf.poker.equity(players, board, dead="2c 3c", samples=40_000, seed=11)
    assert not mc.exact and mc.samples == 40_000 and mc.stderr > 0
    for p in range(len(players)):
        assert abs(mc.equity[p] - exact.equity[p]) <= 4 * mc.stderr_each[p]


@pytest.mark.parametrize("seed", [0, 1, 4])
def test_monte_carlo_stops_when_win_and_tie_are_as_sure_as_equity(seed: int) -> None:
    """Two random hands have equity 0.5 on every board (its error is 0 at once), but win
    and tie vary: the run goes on until their errors reach the target too."""
    board = "Kc 7d 2h 5s"
    exact = cf.poker.equity(["random", "random"], board, exact=True)
    mc = cf.poker.equity(["random", "random"], board, exact=False, seed=seed)
    assert mc.samples >= 1024
    for got, want in ((mc.win[0], exact.win[0]), (mc.tie[0], exact.tie[0])):
        assert abs(got - want) <= 4 * 5e-4


def test_ranges_that_rarely_fit_are_drawn_from_the_deals_that_fit() -> None:
    """About 1 draw in 2,000 of these ranges holds no card twice: Monte Carlo draws from the
    list of the deals that fit (weights included), on any number of threads, and agrees with
    the exact answer. Before, one thread said "no deal found" and two ended the process."""
    players = ["AA,KK,QQ"] * 4 + ["AA,KK", "KK,QQ,AQs:0.5"]
    exact = cf.poker.equity(players, exact=True)
    for threads in (1, 2):
        mc = cf.poker.equity(players, samples=200_000, seed=5, threads=threads)
        assert mc.samples == 200_000
        for p in range(len(players)):
            assert abs(mc.equity[p] - exact.equity[p]) <= 4 * mc.stderr_each[p]
    six = cf.poker.equity(["QQ+,AK"] * 6, threads=2)
    assert six.equity == pytest.approx([1 / 6] * 6, abs=5 * six.stderr)


def test_only_a_ranges_relative_weights_matter() -> None:
    # A weight that would underflow in a deal's product (1e-320 squared) once gave [0, 0].
    tiny = cf.poker.equity(["AA:1e-320,KK:1e-320", "QQ"], exact=True)
    plain = cf.poker.equity(["AA,KK", "QQ"], exact=True)
    assert tiny.equity == pytest.approx(plain.equity, abs=1e-12)
    assert sum(tiny.equity) == pytest.approx(1)


def test_an_error_on_a_worker_thread_is_a_value_error() -> None:
    # Ten players of five pairs use all twenty cards of T-A: almost no draw fits, and too
    # many deals fit to list. The error raised on a worker thread reaches the caller.
    with pytest.raises(ValueError, match="rarely fit together"):
        cf.poker.equity(["AA,KK,QQ,JJ,TT"] * 10, threads=2)


def test_same_seed_same_answer_on_any_threads() -> None:
    players = ["QQ+,AKs,A5s-A2s", "JJ-99,KQo:0.3,AhKh", "random"]
    one = cf.poker.equity(players, samples=30_000, seed=99, threads=1)
    two = cf.poker.equity(players, samples=30_000, seed=99, threads=2)
    assert one == two
    other = cf.poker.equity(players, samples=30_000, seed=100, threads=1)
    assert other.equity != one.equity


def test_target_standard_error_stops_monte_carlo() -> None:
    got = cf.poker.equity(["random"] * 4, target_stderr=2e-3, seed=3)
    assert not got.exact and got.stderr <= 2e-3
    assert got.method == "monte_carlo_deals"


def test_auto_picks_exact_when_cheap_and_monte_carlo_when_not() -> None:
    assert cf.poker.equity(["AhKh", "QQ+"]).exact
    big = cf.poker.equity(["random", "random", "random"], max_exact_work=1e6, seed=1)
    assert not big.exact and big.stderr <= 5e-4


# ---- batch: every starting hand against a range -----------------------------------------


def test_table_by_combo_and_class_matches_single_calls() -> None:
    villain, board = "QQ+,AKs,76s", "Jh 7d 2c"
    combos = cf.poker.equity_table(villain, board, by="combo", exact=True)
    classes = cf.poker.equity_table(villain, board, by="class", exact=True)
    assert combos.exact and len(combos.hands) == 1326 and combos.equity.shape == (1326,)
    assert len(classes.hands) == 169 and classes.equity.shape == (169,)
    for hand in ["AhAs", "JcJs", "8h9h", "7c7s"]:
        row = combos.hands.index(cf.poker.parse_range(hand)[0][0])
        single = cf.poker.equity([hand, villain], board)
        assert combos.equity[row] == pytest.approx(single.equity[0], abs=TOL)
        assert combos.win[row] == pytest.approx(single.win[0], abs=TOL)
    for cls in ["AA", "KQo", "98s", "77"]:
        single = cf.poker.equity([cls, villain], board)
        row = classes.hands.index(cls)
        assert classes.equity[row] == pytest.approx(single.equity[0], abs=TOL)
    # Combos that touch the board cannot be dealt.
    assert combos.weight[combos.hands.index("JhTc")] == 0
    assert combos.weight.sum() == pytest.approx(1.0)


def test_table_preflop_monte_carlo_within_interval() -> None:
    table = cf.poker.equity_table("QQ+,AKs", samples=3000, seed=5)
    assert not table.exact
    for cls in ["AA", "72o", "AKs", "JJ"]:
        row = table.hands.index(cls)
        exact = cf.poker.equity([cls, "QQ+,AKs"]).equity[0]
        assert abs(table.equity[row] - exact) <= 4 * table.stderr[row] + 1e-12


# ---- the range parser ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("AhKh", 1),
        ("Ah Kh", 1),
        ("AKs", 4),
        ("AKo", 12),
        ("AK", 16),
        ("QQ", 6),
        ("QQ+", 18),
        ("22-99", 48),
        ("99-22", 48),
        ("A5s-A2s", 16),
        ("KQo-K9o", 48),
        ("ATs+", 16),
        ("AT+", 64),
        ("KQo", 12),
        ("random", 1326),
        ("any", 1326),
        ("QQ+,AKs", 22),
        ("QQ+, AKs, QQ", 22),
        ("akS", 4),
    ],
)
def test_range_forms(text: str, count: int) -> None:
    assert len(cf.poker.parse_range(text)) == count


def test_range_weights_and_combo_names() -> None:
    combos = dict(cf.poker.parse_range("AKs:0.5,AhKh"))
    assert combos["AhKh"] == 1.0
    assert sorted(combos.values()) == [0.5, 0.5, 0.5, 1.0]
    assert sorted(combos) == ["AcKc", "AdKd", "AhKh", "AsKs"]
    assert {name for name, _ in cf.poker.parse_range("QQ")} == {
        "QdQc",
        "QhQc",
        "QsQc",
        "QhQd",
        "QsQd",
        "QsQh",
    }


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("QQ+,AKx", "'AKx'"),
        ("QQs", "'QQs'"),
        ("AKs:2", "'AKs:2'"),
        ("AKs:", "'AKs:'"),
        ("AKs:-0.1", "'AKs:-0.1'"),
        ("A5s-K2s", "'A5s-K2s'"),
        ("22-A5s", "'22-A5s'"),
        ("AhAh", "'AhAh'"),
        ("ZZ", "'ZZ'"),
        ("AK+s", "'AK+s'"),
    ],
)
def test_range_errors_name_the_token(text: str, token: str) -> None:
    with pytest.raises(ValueError, match=token.replace("+", r"\+")):
        cf.poker.parse_range(text)


def test_empty_ranges_are_errors() -> None:
    for text in ["", " , ", "AKs:0"]:
        with pytest.raises(ValueError):
            cf.poker.parse_range(text)


def test_parsed_combos_are_what_the_oracle_deals() -> None:
    assert len(combos_of("random")) == 1326
    assert all(w == 1.0 for _, _, w in combos_of("QQ+"))


# ---- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"players": ["AhKh"]}, "2 to 10 players"),
        ({"players": ["AhKh"] * 11}, "2 to 10 players"),
        ({"players": "AhKh"}, "list of hands"),
        ({"players": ["AhKh", "QQ+,AKx"]}, r"player 1: .*'AKx'"),
        ({"players": ["AhKh", ["Qs"]]}, "player 1: a hand has 2 cards"),
        ({"players": ["AhKh", 5]}, "player 1"),
        ({"players": ["AhKh", "QQ"], "board": "2c 3d"}, "0, 3, 4 or 5"),
        ({"players": ["AhKh", "QQ"], "board": "2c 3d 4h", "dead": "2c"}, "2c"),
        ({"players": ["AhKh", "QQ"], "board": "Ah 3d 4h"}, "player 0: Ah is also on the board"),
        ({"players": ["AhKh", "QQ"], "dead": "Kh"}, "player 0: Kh is also among the dead"),
        ({"players": ["AhKh", "AhQh"]}, "player 1: Ah is also in player 0's hand"),
        ({"players": [["Qs", "Kh"], "random", "KhAs"]}, "player 2: Kh is also in player 0's"),
        ({"players": ["AhKh", "AhQh,AhJh"]}, "never be dealt"),
        ({"players": ["AhKh", "QQ"], "samples": 0}, "samples"),
        ({"players": ["AhKh", "QQ"], "samples": 1}, "from 2 to"),
        ({"players": ["AhKh", "QQ"], "samples": 2**64}, "samples"),
        ({"players": ["AhKh", "QQ"], "samples": 10, "exact": True}, "exact=True"),
        ({"players": ["AhKh", "QQ"], "threads": 0}, "threads"),
        ({"players": ["AhKh", "QQ"], "seed": -1}, "seed"),
        ({"players": ["AhKh", "QQ"], "target_stderr": 0}, "target_stderr"),
        ({"players": ["random"] * 3, "exact": True, "exact_limit": 1e6}, "limit"),
    ],
)
def test_bad_input_is_a_value_error(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        cf.poker.equity(**kwargs)  # type: ignore[arg-type]


def test_table_bad_input() -> None:
    with pytest.raises(ValueError, match="by must be"):
        cf.poker.equity_table("QQ+", by="suit")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'QQx'"):
        cf.poker.equity_table("QQx")


def test_hands_as_card_lists_and_ids() -> None:
    a = cf.poker.equity([["Ah", "Kh"], [cf.card_id("Qs"), cf.card_id("Qc")]])
    b = cf.poker.equity(["AhKh", "QsQc"])
    assert a.equity == b.equity
    assert np.isclose(a.equity[0], 0.4621445725, atol=1e-9)


def test_a_slow_monte_carlo_stops_near_its_time_limit() -> None:
    """Ten wide ranges on a turn reject most deals, so each block of draws is slow; a run
    once went on for a whole round of 64 blocks past its limit (1.96 s at a 1.0 s limit over
    HTTP). The rounds now shrink to what the time left fits."""
    players = ["22+,A2+,K2+,Q2+"] * 10
    start = time.perf_counter()
    got = cf.poker.equity(players, "2c3d4h5s", time_limit=1.0, threads=1, target_stderr=1e-6)
    elapsed = time.perf_counter() - start
    assert got.samples > 0 and got.stderr > 1e-6  # stopped by the time, not the error
    assert elapsed < 1.25, elapsed
