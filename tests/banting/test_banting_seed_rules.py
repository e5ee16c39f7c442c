"""The seeds' Banting rules that arrived with issue 11, each test quoting its seed line.

- seed 000, flushes by their highest card (``flush_compare: top-card``);
- seed 000 and 002, a four of a kind demotes the 2s (``two_demotion``), round state that
  ``Game`` tracks and the stateless calls and HTTP routes take as ``twos_demoted``;
- seed 000 as written: the ``capsa-klasik`` preset;
- seed 003, «Petunjuk» picks cards that can be played: a hint is never a pass while the
  seat holds a legal play.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from capsa_fast import banting
from flask.testing import FlaskClient

from tests.api.helpers import assert_problem, post

# --- flush_compare: top-card ---------------------------------------------------------------

SPADE_FLUSH = "As Qs 9s 7s 3s"
DIAMOND_FLUSH = "Ad Kd 9d 7d 3d"


def test_top_card_flushes_compare_the_highest_card_then_its_suit() -> None:
    """Seed 000: «Flush yang memiliki angka tertinggi menang ... Jika angka tertingginya
    sama, baru dilihat dari kembangnya»: the highest card decides, then its suit, and the
    other four cards never count."""
    top_card = banting.Rules.preset("capsa-banting", flush_compare="top-card")
    assert banting.compare(SPADE_FLUSH, DIAMOND_FLUSH, top_card) == 1
    # Under rank-first the diamonds win on their king; the spades' queen is lower.
    assert banting.compare(SPADE_FLUSH, DIAMOND_FLUSH, "pagat") == -1
    # A higher top card wins whatever the suit; a 2 is the highest rank in Big Two.
    assert banting.compare("Ks Qs 9s 7s 3s", DIAMOND_FLUSH, top_card) == -1
    assert banting.compare("2d 4d 5d 7d 9d", SPADE_FLUSH, top_card) == 1
    # Same top card and suit: equal, whatever the rest (only one deck, so in play the suit
    # always differs; the rule set still orders every pair it is asked about).
    assert banting.compare("As Js 8s 6s 4s", SPADE_FLUSH, top_card) == 0
    verdict = banting.validate(
        SPADE_FLUSH + " 4c", SPADE_FLUSH, table=DIAMOND_FLUSH, rules=top_card
    )
    assert verdict.ok


def test_top_card_over_http(api_client: FlaskClient) -> None:
    body = {"a": SPADE_FLUSH.split(), "b": DIAMOND_FLUSH.split()}
    default = post(api_client, "/v1/banting/compare", {**body, "rules": {"preset": "pagat"}})
    top = post(api_client, "/v1/banting/compare", {**body, "rules": {"flush_compare": "top-card"}})
    assert (default["result"], top["result"]) == (-1, 1)


# --- capsa-klasik ----------------------------------------------------------------------------


def test_capsa_klasik_is_seed_000_as_written() -> None:
    """Seed 000: no 2 in a straight, flushes by the highest card, «setelah pass tidak boleh
    main lagi» until the trick is cleared, and a four of a kind demotes the 2s."""
    rules = banting.Rules.preset("capsa-klasik")
    assert rules.straight_order == "no-two"
    assert (rules.flush_compare, rules.pass_locks, rules.two_demotion) == ("top-card", True, True)
    others = {name for name in banting.PRESETS if name != "capsa-klasik"}
    assert all(not banting.Rules.preset(name).two_demotion for name in others)
    # A run through the 2 is forbidden at this table.
    assert banting.why_not("Jd Qc Kh As 2d", rules)[0] == "RULE_FORBIDS"


# --- two_demotion ----------------------------------------------------------------------------


def _round_with_a_four(preset: str, **overrides: Any) -> tuple[banting.Game, int]:
    """A capsa-klasik round played by standard bots up to just after the first four of a
    kind; returns the game and the seat that played it."""
    rng = random.Random(2026)
    for _ in range(3000):
        code = banting.make_code(4, rng.getrandbits(45))
        game = banting.Game(banting.Rules.preset(preset, **overrides), code=code)
        hands = [game.hand(seat) for seat in range(4)]
        if not any(4 in Counter(c // 4 for c in hand).values() for hand in hands):
            continue
        while not game.over:
            seat = game.turn
            fours = [c for c in game.legal_plays(seat) if c.kind == "four_of_a_kind"]
            if fours:
                game.play(seat, rng.choice(fours).cards)
                return game, seat
            game.bot_play(seat, "standard")
    raise AssertionError("no round played a four of a kind")


def test_a_four_of_a_kind_demotes_the_twos_in_a_game() -> None:
    """Seed 000: «Ketika kombinasi piting dikeluarkan, 2 akan dibom»; seed 002: «Bom dapat
    membuat 2 menjadi lebih rendah dari 3». After a four of a kind the Game shows
    ``twos_demoted`` and judges singles by it: a 3 now beats a 2."""
    game, _ = _round_with_a_four("capsa-klasik")
    assert game.twos_demoted
    rules = game.rules
    assert banting.validate("3d 8c", "3d", table="2s", rules=rules, twos_demoted=True).ok
    refused = banting.validate("2d 8c", "2d", table="3c", rules=rules, twos_demoted=True)
    assert refused.code == "DOES_NOT_BEAT"
    # Without the setting nothing is ever demoted.
    plain, _ = _round_with_a_four("capsa-banting")
    assert not plain.twos_demoted


def test_the_next_four_of_a_kind_restores_the_twos() -> None:
    """Seed 000 read with seed 002: the 2s stay demoted «until another four of a kind»
    restores them; the state belongs to the round and starts fresh in the next one."""
    rules = banting.Rules.preset("capsa-klasik")
    plays = 0
    rng = random.Random(7)
    for _ in range(20000):
        game = banting.Game(rules, code=banting.make_code(4, rng.getrandbits(45)))
        counts = [Counter(c // 4 for c in game.hand(seat)) for seat in range(4)]
        if sum(list(c.values()).count(4) for c in counts) < 2:
            continue
        fours_played = 0
        while not game.over:
            seat = game.turn
            fours = [c for c in game.legal_plays(seat) if c.kind == "four_of_a_kind"]
            if fours:
                game.play(seat, rng.choice(fours).cards)
                fours_played += 1
                assert game.twos_demoted == (fours_played % 2 == 1)
            else:
                game.bot_play(seat, "standard")
        plays += fours_played >= 2
        if game.round < 2:
            game.next_round()
            assert not game.twos_demoted
        if plays >= 3:
            return
    raise AssertionError("no round played two fours of a kind")


def test_twos_demoted_is_refused_without_the_setting(api_client: FlaskClient) -> None:
    with pytest.raises(ValueError, match="two_demotion"):
        banting.legal_plays("3d 9c", table="2s", twos_demoted=True)
    response = api_client.post(
        "/v1/banting/validate",
        json={"hand": ["3d", "9c"], "play": ["3d"], "table": ["2s"], "twos_demoted": True},
    )
    problem = assert_problem(response, 422)
    assert [e["field"] for e in problem["errors"]] == ["twos_demoted"]


def test_twos_demoted_over_http(api_client: FlaskClient) -> None:
    klasik = {"preset": "capsa-klasik"}
    body = {"hand": ["3d", "9c", "2c"], "play": ["3d"], "table": ["2s"], "rules": klasik}
    assert post(api_client, "/v1/banting/validate", {**body, "twos_demoted": True})["ok"]
    assert not post(api_client, "/v1/banting/validate", body)["ok"]
    plays = post(
        api_client,
        "/v1/banting/legal-plays",
        {"hand": ["3d", "9c", "2c"], "table": ["2s"], "rules": klasik, "twos_demoted": True},
    )
    assert sorted(p["cards"][0] for p in plays["plays"]) == ["3d", "9c"]
    presets = api_client.get("/v1/rules/presets").get_json()
    assert presets["banting"]["presets"]["capsa-klasik"]["two_demotion"] is True


# --- hints -----------------------------------------------------------------------------------


def test_a_hint_is_never_a_pass_while_a_play_exists() -> None:
    """Seed 003: «Petunjuk» picks cards that can be played. Over many positions of bot
    games under several presets, the hint passes exactly when the seat has no play; when
    the standard bot would rather pass, the hint names a play and says passing is also
    reasonable."""
    stats: Counter[str] = Counter()
    for preset in ("capsa-banting", "taiwan", "capsa-klasik"):
        for i in range(100):
            game = banting.Game(preset, code=f"hint-{preset}-{i}")  # the same deals each run
            while not game.over:
                seat = game.turn
                hint = game.hint(seat)
                legal = game.legal_plays(seat)
                assert hint.is_pass == (not legal)
                if not hint.is_pass:
                    assert any(set(c.cards) == set(hint.cards) for c in legal)
                move = game.bot_play(seat, "standard")
                if move.is_pass and legal:
                    stats["bot passes with a play"] += 1
                    assert hint.pass_reasonable
                else:
                    assert not hint.pass_reasonable
                    assert hint.cards == move.cards
    # The situation the rule is about happens often enough to have been checked.
    assert stats["bot passes with a play"] > 100
