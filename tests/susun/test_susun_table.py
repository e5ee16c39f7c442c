"""Capsa Susun at the table (RULES.md 4.4, 4.5; API.md ``cf.susun.Table``): deals by round
code, arranging in secret, refusals that change nothing, bots, specials, the time limit,
the reveal and its scores, and matches.

Specials are checked against the pure-Python oracle (``tests/susun/oracle_susun.py``, which tries
every split) on constructed hands and near misses; table scores against the oracle's
scoring with declared specials.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

import numpy as np
import pytest
from capsa_fast import _core, format_cards, parse_cards, susun
from capsa_fast.susun import IllegalArrangement, Table

from tests.susun import oracle_susun as oracle

OPTIONAL = ("six_pairs", "three_flushes", "three_straights")


class Clock:
    """A clock the tests move by hand."""

    def __init__(self, now: float = 1_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def state(t: Table) -> dict[str, Any]:
    """Everything a refusal must leave as it was."""
    return {
        "arranged": t.arranged,
        "rows": [copy.deepcopy(t.rows(s)) for s in range(t.players)],
        "revealed": t.revealed,
        "totals": t.totals,
        "hands": [t.hand(s) for s in range(t.players)],
    }


# --- dealing -----------------------------------------------------------------------------


def test_the_same_code_deals_the_same_hands() -> None:
    a = Table(players=3, code="S3K7M2Q9XZ1")
    b = Table(code="s3k7m2q9xz1")  # players from the issued code; case does not matter
    assert b.players == 3
    assert [a.hand(s) for s in range(3)] == [b.hand(s) for s in range(3)]
    dealt = sorted(c for s in range(3) for c in a.hand(s))
    assert len(set(dealt)) == 39
    # any code word deals too; a Susun code is not a Banting code
    word = Table(code="FRIDAY-NIGHT")
    assert word.players == 4 and word.code == "FRIDAY-NIGHT"
    assert susun.deal("FRIDAY-NIGHT") != [sorted(h) for h in susun.deal("friday-night2")]
    assert susun.parse_code(susun.make_code(2, 12345)) == (2, 12345)
    with pytest.raises(ValueError, match="is for 3 players"):
        Table(players=4, code="S3K7M2Q9XZ1")
    with pytest.raises(ValueError, match="not allowed"):
        Table(code="no spaces")


def test_fresh_codes_are_issued_codes() -> None:
    t = Table(players=2)
    assert t.code.startswith("S2") and len(t.code) == 15  # 13 characters: a 64-bit seed
    assert susun.parse_code(t.code)[0] == 2


def test_deep_bots_use_a_bank_only_at_the_presets_rules() -> None:
    # A server meets the presets' banks only (built once each); rules of a client's own
    # would cost seconds a table for a new bank, so deep samples there.
    from capsa_fast.susun import table as table_module

    for name in susun.PRESETS:
        assert table_module.deep_bank_for(susun.resolve(name)) == _core.SUSUN_DEEP_BANK
    own = susun.resolve({"preset": "capsa-susun", "foul_points": 13})
    assert table_module.deep_bank_for(own) == 0
    hand = susun.deal("BANK-CHOICE", 2)[0]
    model = susun.ev.strategy_model("deep", own, 2)
    sampled = _core.susun_deep_choice(hand, own.core, 2, model, bank=0)
    assert table_module.bot_choice(hand, own, 2, "deep")[:3] == sampled[:3]


def test_arrange_takes_every_bots_strategy_and_the_table_size() -> None:
    """susun.arrange and arrange_batch play what a table's bot plays: deep (the master's),
    ev's other models, and ev's model for the table size (players), which used to be the
    four-player model whatever the table (an outside solver's harness found both)."""
    from capsa_fast.susun import table as table_module

    own = susun.resolve({"preset": "two-four", "foul_points": 5})  # deep samples: no bank
    hands = [susun.deal(f"ARRANGE-{i}", 2)[0] for i in range(12)]
    hands.append(parse_cards("7d Kh 6c 5h 6h Kd 8c 8d 9d Tc 5d 9c Ts"))
    differs = 0
    for hand in hands:
        for strategy in ("ev", "deep", "ev-v1", "ev-cr"):
            bot = table_module.bot_choice(hand, own, 2, strategy)
            got = susun.arrange(hand, own, strategy, players=2)
            assert (got.top, got.middle, got.bottom) == tuple(bot[:3]), strategy
            assert got.strategy == strategy and got.valid_arrangements == susun.count_valid(
                hand, own
            )
        four = susun.arrange(hand, own, "ev")
        assert four == susun.arrange(hand, own, "ev", players=4)
        differs += (four.middle, four.bottom) != (got.middle, got.bottom)
    assert differs  # the heads-up model is another model
    rows, scores = susun.arrange_batch(np.array(hands[:4]), own, "deep", players=2)
    for hand, row, value in zip(hands[:4], rows.tolist(), scores, strict=True):
        picked = susun.arrange(hand, own, "deep", players=2)
        assert row == [*picked.top, *picked.middle, *picked.bottom]
        assert value == pytest.approx(picked.score)
    with pytest.raises(ValueError, match="deep picks one arrangement"):
        susun.arrange(hands[0], own, "deep", top_k=3)
    with pytest.raises(ValueError, match="players must be 2, 3 or 4, got 5"):
        susun.arrange(hands[0], own, "ev", players=5)
    with pytest.raises(ValueError, match=r"strategy must be one of .*deep"):
        susun.arrange_batch(np.array(hands[:1]), own, "grandmaster")
    with pytest.raises(ValueError, match=r"duplicate|twice|repeated"):
        susun.arrange([hands[0][0]] * 13, own, "deep")


def test_a_bank_built_in_steps_samples_until_whole_and_is_the_bank_built_at_once() -> None:
    # A server's tables build deep's bank a step a decision (no request waits seconds for
    # a whole one) and sample until it is whole. Fresh models: banks of their own.
    rules = susun.resolve("two-four")
    counts = susun.ev.load_model_counts(susun.ev.model_preset(rules), 2, False)
    stepped = susun.ev.model_from_counts(rules, 2, counts)
    whole = susun.ev.model_from_counts(rules, 2, counts)
    bank, step = _core.SUSUN_DEEP_MIN_BANK, 8_192

    def rows(hand: list[int], model: Any, **budget: int) -> list[list[int]]:
        return list(_core.susun_deep_choice(hand, rules.core, 2, model, **budget)[:3])

    hands = [susun.deal(f"BANK-STEP-{i}", 2)[0] for i in range(40)]
    at_once = [rows(hand, whole, bank=bank) for hand in hands]
    sampled = [rows(hand, whole, bank=0) for hand in hands]
    odd = next(i for i in range(len(hands)) if at_once[i] != sampled[i])
    # 8,192 then 16,384 of its 20,000 hands: the first two decisions sample.
    for _ in range(2):
        assert rows(hands[odd], stepped, bank=bank, bank_step=step) == sampled[odd]
    assert rows(hands[odd], stepped, bank=bank, bank_step=step) == at_once[odd]
    assert [rows(hand, stepped, bank=bank, bank_step=step) for hand in hands] == at_once
    with pytest.raises(ValueError, match="bank_step"):
        rows(hands[0], stepped, bank=bank, bank_step=-1)
    with pytest.raises(ValueError, match=r"deep_bank_step must be 0\.\.1,000,000, got -1"):
        Table(players=2, deep_bank_step=-1)  # said at once, not at a bot's first decision


def test_the_presets_models_stay_however_many_rule_sets_come() -> None:
    # deep's bank lives as long as its model: a client sending rule sets of its own must
    # not push a preset's model (and its 3.6 s bank) out of the cache.
    preset = susun.resolve("capsa-susun")
    kept = susun.ev.ev_model(preset, 3)
    others = [{"preset": "capsa-susun", "foul_points": points} for points in range(1, 42)]
    for other in others:
        if susun.resolve(other) != preset:
            susun.ev.ev_model(susun.resolve(other), 3)
    assert susun.ev.ev_model(preset, 3) is kept


# --- arranging ---------------------------------------------------------------------------


def test_every_refusal_leaves_the_table_unchanged() -> None:
    t = Table(players=2, code="S2000000001")
    hand = t.hand(0)
    other = t.hand(1)
    a = susun.arrange(hand, t.rules)
    before = state(t)
    wrong = [other[0], *a.top[1:]]
    with pytest.raises(ValueError, match="exactly this seat's 13 cards"):
        t.arrange(0, wrong, a.middle, a.bottom)
    with pytest.raises(ValueError, match="duplicate card"):
        t.arrange(0, [a.top[0], a.top[0], a.top[1]], a.middle, a.bottom)
    with pytest.raises(ValueError, match="in the rows twice"):
        t.arrange(0, [a.middle[0], *a.top[1:]], a.middle, a.bottom)
    with pytest.raises(ValueError, match="holds 3 cards"):
        t.arrange(0, a.top[:2], a.middle, a.bottom)
    fouled = (a.bottom[:3], a.middle, [*a.top, *a.bottom[3:]])
    keys = [susun.row_key(r, t.rules) for r in fouled]
    assert keys[0] > keys[1] or keys[1] > keys[2], "the test wants a fouled arrangement"
    with pytest.raises(IllegalArrangement) as refused:
        t.arrange(0, *fouled)
    assert refused.value.code == "FOULED" and refused.value.rows
    assert "top>middle" in refused.value.message or "middle>bottom" in refused.value.message
    with pytest.raises(ValueError, match="seat must be"):
        t.arrange(2, a.top, a.middle, a.bottom)
    assert state(t) == before
    t.arrange(0, a.top, a.middle, a.bottom)
    before = state(t)
    with pytest.raises(IllegalArrangement) as twice:
        t.arrange(0, a.top, a.middle, a.bottom)
    assert twice.value.code == "ALREADY_ARRANGED"
    assert state(t) == before
    t.bot_arrange(1, "expert")
    assert t.revealed
    before = state(t)
    with pytest.raises(IllegalArrangement) as late:
        t.bot_arrange(1)
    assert late.value.code == "ALREADY_REVEALED"
    assert state(t) == before


def test_a_confirmed_foul_is_scored_as_a_foul() -> None:
    t = Table(players=2, code="S2000000002")
    a = susun.arrange(t.hand(0), t.rules)
    fouled = (a.bottom[:3], a.middle, [*a.top, *a.bottom[3:]])
    placed = t.arrange(0, *fouled, confirm_foul=True)
    assert placed.fouled
    t.bot_arrange(1, "expert")
    result = t.result
    assert result is not None and result.pairs[0]["fouled"] == [True, False]
    b = t.rows(1)
    bonus = sum(susun.check(b.top, b.middle, b.bottom, t.rules).bonus.values())
    assert result.points == [-(12 + bonus), 12 + bonus]


def test_rows_are_secret_until_everyone_has_arranged() -> None:
    t = Table(players=3, code="S3000000003")
    t.bot_arrange(0)
    assert t.arranged == [True, False, False] and t.result is None
    t.bot_arrange(1, "standard")
    assert t.result is None
    t.bot_arrange(2, "beginner")
    assert t.revealed and t.result is not None


# --- the seed 001 example ----------------------------------------------------------------

# Bottom rows: A full house, B flush, C straight, D pair of aces (seed 001, RULES.md 4.2).
SEED_001 = [
    ("4c 5c 9c", "2c 6s 8c Tc Th", "Kc Kd Kh 7c 7d"),
    ("2d 9h As", "4d 6d 8h 8s Td", "2s 5s 9s Js Qs"),
    ("3h 4s Qh", "3d Jc Jh Qd Ad", "3s 4h 5h 6h 7s"),
    ("2h 3c 5d", "7h 9d Jd Qc Ks", "Ac Ah Ts 8d 6c"),
]


def test_seed_001_example_table_stake_100() -> None:
    """Seed 001, four players at stake 100: bottom rows full house / flush / straight / pair
    of aces give +300 / +100 / -100 / -300 for that row alone."""
    rules = susun.Rules.preset("capsa-susun")
    hands = [parse_cards(" ".join(rows)) for rows in SEED_001]
    t = Table.from_hands(rules, hands, stake=100)
    for seat, rows in enumerate(SEED_001):
        t.arrange(seat, *rows)
    result = t.result
    assert result is not None
    bottom = [0] * 4
    for pair in result.pairs:
        i, j = pair["players"]
        bottom[i] += pair["rows"]["bottom"] * 100
        bottom[j] -= pair["rows"]["bottom"] * 100
    assert bottom == [300, 100, -100, -300]
    expected = oracle.score(
        [tuple(parse_cards(r) for r in rows) for rows in SEED_001], oracle.make_rules(), stake=100
    )
    assert result.points == expected.points
    assert result.money == pytest.approx(expected.money)
    assert result.fee_total == pytest.approx(expected.fee_total)
    assert [s.fee for s in result.seats] == pytest.approx(expected.fee)


# --- scores and matches ------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["capsa-susun", "classic", "two-four", "susun-specials"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_tables_are_zero_sum_with_money_and_fees(preset: str, players: int) -> None:
    rng = random.Random(f"{preset}{players}")
    t = Table(
        preset, players=players, code=susun.make_code(players, rng.getrandbits(45)), stake=250
    )
    levels = ["expert", "standard", "beginner"]
    running_points = [0] * players
    running_money = [0.0] * players
    for _ in range(6):
        for seat in range(players):
            t.bot_arrange(seat, rng.choice(levels))
        result = t.result
        assert result is not None
        assert sum(result.points) == 0
        assert result.money == [p * 250 for p in result.points]
        fees = [t.rules.room_fee * m if m > 0 else 0.0 for m in result.money]
        assert [s.fee for s in result.seats] == pytest.approx(fees)
        assert result.fee_total == pytest.approx(sum(fees))
        # the oracle scores the same rows and declarations the same way
        rows = [(s.rows.top, s.rows.middle, s.rows.bottom) for s in result.seats]
        declared = [s.rows.special for s in result.seats]
        rules = oracle.make_rules(preset)
        assert result.points == oracle.score(rows, rules, 250, declared).points
        running_points = [a + b for a, b in zip(running_points, result.points, strict=True)]
        running_money = [a + b for a, b in zip(running_money, result.money, strict=True)]
        assert t.totals.points == running_points
        assert t.totals.money == pytest.approx(running_money)
        before = t.code
        t.next_round()
        assert t.code != before and t.round >= 2
    with pytest.raises(ValueError, match="not revealed"):
        t.next_round()


# --- the time limit ----------------------------------------------------------------------


def test_the_time_limit_arranges_late_seats_with_the_expert_bot() -> None:
    """Seed 001: «Perhitungan ... pada saat waktu yang diberikan kepada pemain telah habis»:
    once the time is up, the seats that have not arranged are arranged by the ev bot at the
    next request, and the table is revealed."""
    clock = Clock()
    t = Table(players=4, code="S4000000004", time_limit=60, clock=clock)
    assert t.deadline == clock.now + 60
    t.bot_arrange(0, "beginner")
    clock.now += 59.9
    assert t.arranged == [True, False, False, False] and not t.revealed
    clock.now += 0.1
    assert t.revealed
    result = t.result
    assert result is not None
    assert [s.rows.by for s in result.seats] == ["bot", "time", "time", "time"]
    for seat in (1, 2, 3):
        choice = _core.susun_bot_choice(
            t.hand(seat), t.rules.core, "ev", susun.ev.ev_model(t.rules, 4)
        )
        if choice[4] is None:
            assert result.seats[seat].rows.top == choice[0]
    with pytest.raises(IllegalArrangement) as late:
        t.bot_arrange(1)
    assert late.value.code == "ALREADY_REVEALED"
    t.next_round()  # a new deadline for the new round
    assert t.deadline == clock.now + 60 and not t.revealed
    with pytest.raises(ValueError, match="time_limit"):
        Table(time_limit=0)


# --- corrections (RULES.md 4.5) ----------------------------------------------------------


def _two_arrangements(t: Table, seat: int) -> tuple[susun.Arrangement, susun.Arrangement]:
    """Two different unfouled arrangements of the seat's hand: ev's and percentile's, or
    ev's with the middle and bottom rows swapped when both choose the same rows."""
    hand = t.hand(seat)
    ev = susun.arrange(hand, t.rules, strategy="ev")
    other = susun.arrange(hand, t.rules, strategy="percentile")
    if (other.top, other.middle, other.bottom) == (ev.top, ev.middle, ev.bottom):
        other = susun.arrange(hand, t.rules, strategy="naive")
    assert (other.top, other.middle, other.bottom) != (ev.top, ev.middle, ev.bottom)
    return ev, other


def test_with_corrections_a_seat_rearranges_until_every_seat_is_ready() -> None:
    """Seed 004: «pemain hanya boleh memperbaiki kartu sebelum batas waktu ... Setelah kartu
    dibuka ... susunan biasanya tidak dapat diubah»: rows may be put down again and again
    while the seat is not ready; the reveal comes when every seat is ready; after it, any
    change is ALREADY_REVEALED."""
    t = Table(players=2, code="S2000000002", corrections=True)
    first, second = _two_arrangements(t, 0)
    t.arrange(0, first.top, first.middle, first.bottom, ready=False)
    assert t.arranged == [True, False] and t.ready == [False, False]
    t.bot_arrange(1, "expert")
    assert t.ready == [False, True] and not t.revealed  # seat 0 may still change
    t.arrange(0, second.top, second.middle, second.bottom, ready=False)
    mine = t.rows(0)
    assert mine is not None and sorted(mine.middle) == sorted(second.middle)
    t.arrange(0, first.top, first.middle, first.bottom, ready=False)
    assert not t.revealed
    t.arrange(0, second.top, second.middle, second.bottom)  # ready: the last seat
    assert t.revealed and t.ready == [True, True]
    result = t.result
    assert result is not None
    assert sorted(result.seats[0].rows.bottom) == sorted(second.bottom)
    before = state(t)
    for again in (
        lambda: t.arrange(0, first.top, first.middle, first.bottom),
        lambda: t.arrange(0, first.top, first.middle, first.bottom, ready=False),
    ):
        with pytest.raises(IllegalArrangement) as late:
            again()
        assert late.value.code == "ALREADY_REVEALED"
    assert state(t) == before


def test_a_ready_seat_may_take_it_back_before_the_reveal() -> None:
    t = Table(players=3, code="S3000000003", corrections=True)
    first, second = _two_arrangements(t, 0)
    t.arrange(0, first.top, first.middle, first.bottom)
    one, other = _two_arrangements(t, 1)
    t.arrange(1, one.top, one.middle, one.bottom, ready=False)
    assert t.ready == [True, False, False]
    t.arrange(0, second.top, second.middle, second.bottom, ready=False)
    assert t.ready == [False, False, False]
    t.bot_arrange(2)
    t.arrange(1, other.top, other.middle, other.bottom)
    assert not t.revealed  # seat 0 took its readiness back
    t.arrange(0, first.top, first.middle, first.bottom)
    assert t.revealed


def test_with_corrections_the_time_limit_reveals_the_rows_put_down() -> None:
    """The time limit ends the corrections: a seat not ready plays the rows it last put
    down, a seat with none is arranged by the expert bot."""
    clock = Clock()
    t = Table(players=3, code="S3000000003", time_limit=30, clock=clock, corrections=True)
    first, second = _two_arrangements(t, 0)
    t.arrange(0, first.top, first.middle, first.bottom, ready=False)
    t.arrange(0, second.top, second.middle, second.bottom, ready=False)
    t.bot_arrange(1, "beginner")
    clock.now += 29.9
    assert not t.revealed and t.ready == [False, True, False]
    clock.now += 0.1
    assert t.revealed
    result = t.result
    assert result is not None
    assert [s.rows.by for s in result.seats] == ["player", "bot", "time"]
    assert sorted(result.seats[0].rows.middle) == sorted(second.middle)
    with pytest.raises(IllegalArrangement) as late:
        t.arrange(0, first.top, first.middle, first.bottom, ready=False)
    assert late.value.code == "ALREADY_REVEALED"


def test_without_corrections_the_first_arrangement_is_final() -> None:
    t = Table(players=2, code="S2000000002")
    first, second = _two_arrangements(t, 0)
    before = state(t)
    with pytest.raises(ValueError, match="no corrections"):
        t.arrange(0, first.top, first.middle, first.bottom, ready=False)
    assert state(t) == before
    t.arrange(0, first.top, first.middle, first.bottom)
    assert t.ready == [True, False]
    with pytest.raises(IllegalArrangement) as twice:
        t.arrange(0, second.top, second.middle, second.bottom)
    assert twice.value.code == "ALREADY_ARRANGED"
    with pytest.raises(ValueError, match="corrections"):
        Table(corrections=1)  # type: ignore[arg-type]


def test_a_resumed_table_keeps_the_seats_not_ready() -> None:
    t = Table(players=2, code="S2000000002", corrections=True)
    first, _ = _two_arrangements(t, 0)
    t.arrange(0, first.top, first.middle, first.bottom, ready=False)
    t.bot_arrange(1)
    placed = {s: r for s in range(2) if (r := t.rows(s)) is not None}

    def resume(corrections: bool, waiting: list[int]) -> Table:
        return Table.resume(
            t.rules,
            2,
            "S2000000002",
            round=1,
            dealt_at=t.dealt_at,
            placed=placed,
            corrections=corrections,
            waiting=waiting,
        )

    again = resume(True, [0])
    assert again.ready == [False, True] and not again.revealed
    assert resume(True, []).revealed
    with pytest.raises(ValueError, match="no corrections"):
        resume(False, [0])


# --- specials ----------------------------------------------------------------------------


def _six_pairs(rng: random.Random) -> list[int]:
    ranks = rng.sample(range(13), 7)
    cards = [r * 4 + s for r in ranks[:6] for s in rng.sample(range(4), 2)]
    return [*cards, ranks[6] * 4 + rng.randrange(4)]


def _three_flushes(rng: random.Random) -> list[int]:
    suits = [rng.randrange(4) for _ in range(3)]
    while True:
        cards = []
        for suit, n in zip(suits, (3, 5, 5), strict=True):
            free = [r * 4 + suit for r in range(13) if r * 4 + suit not in cards]
            cards += rng.sample(free, n)
        if len(set(cards)) == 13:
            return cards


def _three_straights(rng: random.Random) -> list[int]:
    while True:
        top = rng.choice(oracle.THREE_RUNS)
        mid, bot = rng.choice(oracle.FIVE_RUNS), rng.choice(oracle.FIVE_RUNS)
        ranks = [*top, *mid, *bot]
        if max(Counter(ranks).values()) > 4:
            continue
        cards: list[int] = []
        for r in ranks:
            cards.append(rng.choice([r * 4 + s for s in range(4) if r * 4 + s not in cards]))
        return cards


def _near_miss(rng: random.Random, hand: list[int]) -> list[int]:
    """The hand with one card swapped for a card from outside it."""
    out = list(hand)
    out[rng.randrange(13)] = rng.choice([c for c in range(52) if c not in hand])
    return out


def test_specials_are_detected_as_the_oracle_does() -> None:
    rng = random.Random(4)
    makers = [_six_pairs, _three_flushes, _three_straights]
    hands = []
    for make in makers:
        for _ in range(12):
            hand = make(rng)
            hands += [hand, _near_miss(rng, hand)]
    deck = list(range(52))
    hands += [rng.sample(deck, 13) for _ in range(12)]
    seen: Counter[str] = Counter()
    for hand in hands:
        for special in ("dragon", *OPTIONAL):
            expected = oracle.holds_special(hand, special)
            assert _core.susun_holds_special(hand, special) == expected, (
                special,
                format_cards(hand),
            )
            seen[special] += expected
            rows = _core.susun_special_rows(hand, special)
            if special in ("three_flushes", "three_straights") and expected:
                assert rows is not None and sorted(c for r in rows for c in r) == sorted(hand)
                good = (
                    (lambda row: len({c % 4 for c in row}) == 1)
                    if special == "three_flushes"
                    else oracle._is_run
                )
                assert all(good(row) for row in rows)
    assert all(seen[s] >= 8 for s in OPTIONAL), seen


def test_declared_specials_score_as_the_oracle_does() -> None:
    """RULES.md 4.4: a special wins its points from each opponent without a special of
    higher rank; two equal specials score 0; the dragon outranks them all."""
    rules = susun.Rules.preset("susun-specials", special_points={"three_flushes": 9})
    theirs = oracle.make_rules(
        "susun-specials",
        special_points={"six_pairs": 6, "three_flushes": 9, "three_straights": 6},
    )
    rng = random.Random(5)
    makers = {
        "six_pairs": _six_pairs,
        "three_flushes": _three_flushes,
        "three_straights": _three_straights,
    }
    checked = 0
    for _ in range(120):
        players = rng.choice([2, 3, 4])
        declared: list[str | None] = [rng.choice([None, None, *makers]) for _ in range(players)]
        hands: list[list[int]] = []
        for claim in sorted(declared, key=lambda c: c is None):  # specials first
            taken = {c for h in hands for c in h}
            if claim is None:
                hands.append(rng.sample([c for c in range(52) if c not in taken], 13))
                continue
            for _ in range(200):
                hand = makers[claim](rng)
                if not set(hand) & taken:
                    hands.append(hand)
                    break
        declared.sort(key=lambda c: c is None)
        if len(hands) != players:
            continue
        entries = []
        rows = []
        for hand, claim in zip(hands, declared, strict=True):
            if claim:
                rows.append((hand[:3], hand[3:8], hand[8:]))
                entries.append({"hand": hand, "special": claim})
            else:
                a = susun.arrange(hand, rules, "percentile")
                rows.append((a.top, a.middle, a.bottom))
                entries.append({"top": a.top, "middle": a.middle, "bottom": a.bottom})
        ours = susun.score(entries, rules)
        expected = oracle.score(rows, theirs, 1, declared)
        assert ours.points == expected.points, (declared, [format_cards(h) for h in hands])
        checked += 1
    assert checked > 60


def test_a_declaration_must_be_held_and_counted() -> None:
    hand = parse_cards("2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7h 7s 9s")
    hands = [hand, [c for c in range(52) if c not in hand][:13]]
    plain = Table.from_hands("capsa-susun", hands)
    assert plain.specials(0) == []
    with pytest.raises(IllegalArrangement) as refused:
        plain.declare(0, "six_pairs")
    assert refused.value.code == "NO_SUCH_SPECIAL" and "rules do not count" in refused.value.message
    t = Table.from_hands("susun-specials", hands)
    assert t.specials(0) == ["six_pairs"]
    with pytest.raises(IllegalArrangement, match="does not hold"):
        t.declare(0, "three_flushes")
    with pytest.raises(ValueError, match="special must be one of"):
        t.declare(0, "royal")
    placed = t.declare(0, "six_pairs")
    assert placed.special == "six_pairs" and t.arranged == [True, False]
    t.bot_arrange(1)
    result = t.result
    assert result is not None and result.pairs[0]["special"][0] == "six_pairs"
    assert result.points[0] in (6, 0)  # 0 only if the other hand holds a special too


def test_bots_declare_when_it_pays() -> None:
    """A hand with six pairs but two straight flushes is worth more arranged; a plain six
    pairs is declared by every level."""
    rules = susun.Rules.preset("susun-specials")
    rich = parse_cards("2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 9s")
    *_, declared = _core.susun_bot_choice(rich, rules.core, "ev", susun.ev.ev_model(rules))
    assert declared is None
    poor = parse_cards("2c 2d 5h 5s 7c 7d 9h 9s Jc Jd Kh Ks Ac")
    for strategy in ("ev", "percentile", "naive"):
        model = susun.ev.ev_model(rules) if strategy == "ev" else None
        assert _core.susun_bot_choice(poor, rules.core, strategy, model)[4] == "six_pairs"


def test_arrange_and_check_report_the_special_found() -> None:
    rules = susun.Rules.preset("susun-specials")
    hand = parse_cards("2c 5c 9c Kd 2d 4d 6d 8d 3h 5h 7h 9h Jh")
    assert susun.arrange(hand, rules).special == "three_flushes"
    assert susun.arrange(hand, "capsa-susun").special is None
    rows = _core.susun_special_rows(hand, "three_flushes")
    assert rows is not None
    assert susun.check(*rows, rules).special == "three_flushes"


# --- the whole-table simulator -------------------------------------------------------------


def test_simulated_tables_are_reproducible_and_match_the_table() -> None:
    rules = susun.Rules.preset("susun-specials")
    model = susun.ev.ev_model(rules, 3)
    names = ["ev", "percentile", "naive"]
    models = [model, None, None]
    points, kinds = _core.susun_simulate_tables(rules.core, 3, names, models, 9, 0, 30, 2)
    again, _ = _core.susun_simulate_tables(rules.core, 3, names, models, 9, 0, 30, 1)
    assert np.array_equal(points, again)
    assert np.all(np.asarray(points).sum(axis=1) == 0)
    level_of = {"ev": "expert", "percentile": "standard", "naive": "beginner"}
    for g in (0, 7, 29):
        code = susun.make_code(3, _core.susun_table_seed(9, g))
        t = Table(rules, code=code)
        for seat in range(3):
            t.bot_arrange(seat, level_of[names[kinds[g][seat]]])
        assert t.result is not None and t.result.points == list(points[g])
