"""The Banting settings ``exchange`` and ``bomb_ends`` (seed 002, RULES.md 3.2) in the rules
layer, :class:`banting.Game`, the simulator and the environments' bots."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import numpy as np
import pytest
from capsa_fast import _core, banting
from capsa_fast.banting import sim
from capsa_fast.rl import BantingGymEnv
from capsa_fast.rl.aec import BantingAEC

EXCHANGE = {"exchange": "ranked", "dragon": False}
BOMBS_END = {"preset": "taiwan", "ending": "last-standing", "bomb_ends": True, "dragon": False}


def big_two(card: int, rules: banting.Rules) -> int:
    return banting.classify([card], rules).strength


def finish(game: banting.Game, level: str = "standard") -> None:
    while not game.over:
        game.bot_play(game.turn, level)


# --- rules ----------------------------------------------------------------------------------


def test_settings_default_off_in_every_preset() -> None:
    for name, settings in banting.PRESETS.items():
        assert settings["exchange"] == "none" and settings["bomb_ends"] is False, name
    rules = banting.Rules.preset(exchange="ranked", ending="last-standing", bomb_ends=True)
    assert banting.Rules.from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"bomb_ends": True}, "bomb_ends: true needs ending: last-standing"),
        ({"bomb_ends": True, "ending": "first-out"}, "ending: first-out"),
        ({"bomb_ends": "yes", "ending": "last-standing"}, "bomb_ends must be true or false"),
        ({"exchange": "ranks"}, "exchange must be one of none, ranked"),
    ],
)
def test_bad_settings_are_named(settings: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        banting.Rules.from_dict(settings)


# --- the exchange in a match ------------------------------------------------------------------


def second_round(players: int, seed: int = 1) -> tuple[banting.Game, Any]:
    game = banting.Game(EXCHANGE, players, banting.make_code(players, seed))
    assert not game.exchanging and game.exchanges == []  # the first round exchanges nothing
    finish(game)
    result = game.result
    game.next_round(banting.make_code(players, seed + 1000))
    return game, result


@pytest.mark.parametrize("players", [2, 3, 4])
def test_places_give_and_receive(players: int) -> None:
    for seed in range(1, 6):
        game, result = second_round(players, seed)
        # Places: fewer cards first, ties in turn order from the winner.
        w = result.winner
        assert result.places == sorted(
            range(players), key=lambda s: (result.cards_left[s], (s - w) % players)
        )
        places = result.places
        dealt = banting.deal(game.code, players)
        assert game.exchanging and game.turn is None and game.leader is None
        pairs = [(places[-1], places[0])] + ([(places[2], places[1])] if players == 4 else [])
        assert [x[:2] for x in game.exchanges] == pairs
        for giver, receiver, card, back in game.exchanges:
            assert back is None
            assert card == max(dealt[giver], key=lambda c: big_two(c, game.rules))
            assert card in game.hand(receiver) and len(game.hand(receiver)) == 14
            assert game.exchange_view(receiver) == banting.ExchangeView([card], [], 1)
            assert game.exchange_view(giver) == banting.ExchangeView([], [card], 0)
        if players == 3:
            assert game.exchange_view(places[1]) is None
        # Nobody plays during the exchange.
        with pytest.raises(banting.IllegalPlay, match="NOT_YOUR_TURN"):
            game.bot_play(places[0])
        with pytest.raises(banting.IllegalPlay, match="NOT_YOUR_TURN"):
            game.move(places[0], game.hand(places[0])[:1])
        # The receivers give back (the winner the card it received); play starts after.
        for k, (giver, receiver, card, _) in enumerate(game.exchanges):
            back = card if k == 0 else game.hand(receiver)[0]
            assert game.give_back(receiver, back) == back
            assert back in game.hand(giver)
        assert not game.exchanging and game.turn is not None
        assert all(len(game.hand(s)) == 13 for s in range(players))
        assert game.first_play and game.hand(game.turn)[0] == min(
            (c for hand in dealt for c in hand), key=lambda c: big_two(c, game.rules)
        )
        finish(game)
        assert sum(game.totals) == 0


def test_give_back_refusals_change_nothing() -> None:
    game, _ = second_round(4)
    giver, receiver, _, _ = game.exchanges[0]
    before = [game.hand(s) for s in range(4)]
    with pytest.raises(banting.IllegalPlay) as closed:
        game.give_back(giver, game.hand(giver)[0])
    assert closed.value.code == "EXCHANGE_CLOSED"
    with pytest.raises(banting.IllegalPlay) as missing:
        game.give_back(receiver, game.hand(giver)[0])
    assert missing.value.code == "NOT_IN_HAND"
    assert "do not hold" in missing.value.message
    with pytest.raises(ValueError, match="exactly one card"):
        game.give_back(receiver, game.hand(receiver)[:2])
    with pytest.raises(ValueError):
        game.give_back(receiver, "Zz")
    assert [game.hand(s) for s in range(4)] == before and game.exchanging
    # The first round of a match, and a round in play, have nothing to give back.
    fresh = banting.Game(EXCHANGE, 4, banting.make_code(4, 3))
    with pytest.raises(banting.IllegalPlay, match="EXCHANGE_CLOSED"):
        fresh.give_back(0, fresh.hand(0)[0])
    with pytest.raises(banting.IllegalPlay, match="EXCHANGE_CLOSED"):
        fresh.bot_give_back(0)


def test_without_the_setting_nothing_is_exchanged() -> None:
    game = banting.Game({"dragon": False}, 4, banting.make_code(4, 1))
    finish(game)
    game.next_round(banting.make_code(4, 1001))
    assert not game.exchanging and game.exchanges == [] and game.exchange_view(0) is None
    assert game.hand(0) == sorted(banting.deal(game.code)[0], key=lambda c: big_two(c, game.rules))


def test_bots_give_back_and_copies_pickles_and_resume_keep_the_exchange() -> None:
    game, result = second_round(4, seed=7)
    pairs = game.exchanges
    twin = copy.deepcopy(game)
    lowest = game.hand(pairs[0][1])[0]
    assert game.bot_give_back(pairs[0][1], "beginner") == lowest
    assert lowest in game.hand(pairs[0][0])
    assert twin.exchanges == pairs  # the copy is independent
    # A pickle taken mid-exchange replays the card given so far.
    loaded = pickle.loads(pickle.dumps(game))
    assert loaded.exchanges == game.exchanges and loaded.exchanging
    assert all(loaded.hand(s) == game.hand(s) for s in range(4))
    game.bot_give_back(pairs[1][1], "standard")
    loaded = pickle.loads(pickle.dumps(game))
    assert loaded.turn == game.turn and loaded.exchanges == game.exchanges
    # resume() with the previous round's places rebuilds the same exchange.
    resumed = banting.Game.resume(
        EXCHANGE,
        4,
        game.code,
        round=2,
        totals=list(result.scores),
        previous_winner=result.winner,
        previous_places=result.places,
    )
    assert [x[:3] for x in resumed.exchanges] == [x[:3] for x in pairs]
    for _, receiver, _, back in game.exchanges:
        resumed.give_back(receiver, back)
    assert all(resumed.hand(s) == game.hand(s) for s in range(4)) and resumed.turn == game.turn
    with pytest.raises(ValueError, match="previous_places"):
        banting.Game.resume(
            EXCHANGE,
            4,
            game.code,
            round=2,
            totals=[0] * 4,
            previous_winner=0,
            previous_places=[0, 0, 1, 2],
        )


def test_beginner_gives_its_lowest_card_and_random_any() -> None:
    game, _ = second_round(2, seed=3)
    receiver = game.exchanges[0][1]
    hand = game.hand(receiver)
    assert game._r.bot_give_back(receiver, "beginner", False) == hand[0]
    seen = set()
    for k in range(40):
        g = copy.copy(game)
        g._r.dice_state = k
        seen.add(g._r.bot_give_back(receiver, "random", False))
    assert seen <= set(hand) and len(seen) > 3


# --- bomb_ends ------------------------------------------------------------------------------


def test_a_bomb_ends_the_round_for_every_seat_still_holding() -> None:
    """Bots that go out with a bomb whenever their hand is one: each such round ends at
    that play; the seats still holding are scored and placed by the cards held then."""
    rules = banting.Rules.from_dict(BOMBS_END)
    plain = banting.Rules.from_dict({**BOMBS_END, "bomb_ends": False})
    endings = 0
    for seed in range(1500):
        code = banting.make_code(4, seed)
        game = banting.Game(rules, 4, code)
        other = banting.Game(plain, 4, code)
        while not game.over:
            seat = game.turn
            whole = [
                c
                for c in game.legal_plays(seat)
                if c.kind in ("four_of_a_kind", "straight_flush")
                and len(c.cards) == len(game.hand(seat))
            ]
            level = ("beginner", "standard")[seed % 2]
            move = game.move(seat, list(whole[0].cards)) if whole else game.bot_play(seat, level)
            other.move(seat, "pass" if move.is_pass else move.cards)
        result = game.result
        assert len(result.finishing_order) == 4 and sum(result.scores) == 0
        holding = [s for s in range(4) if game.counts[s]]
        if len(holding) < 2:
            continue
        endings += 1
        assert not other.over  # without bomb_ends play goes on
        bomber = result.finishing_order[-len(holding) - 1]
        assert game.history[-1].seat == bomber
        assert result.finishing_order[-len(holding) :] == sorted(
            holding, key=lambda s: (game.counts[s], (s - bomber) % 4)
        )
        for s in holding:
            assert result.cards_left[s] == game.counts[s]
        assert result.scores == banting.score(result.cards_left, rules)
    assert endings > 0


# --- the simulator and the environments -------------------------------------------------------


def test_simulated_matches_exchange_as_game_does() -> None:
    seats = ("standard", "beginner", "standard", "beginner")
    for settings in (EXCHANGE, {**BOMBS_END, "exchange": "ranked"}):
        rules = banting.Rules.from_dict(settings)
        result = sim.simulate(12, seats, rules, seed=4, chunk=12)
        off = sim.simulate(12, seats, {**settings, "exchange": "none"}, seed=4, chunk=12)
        assert np.array_equal(result.scores[0], off.scores[0])  # round 1: no exchange
        assert not np.array_equal(result.scores, off.scores)
        game = None
        for g in range(12):
            code = banting.make_code(4, _core.banting_sim_round_seed(4, g))
            if game is None:
                game = banting.Game(rules, 4, code)
            else:
                game.next_round(code)
                for _, receiver, _, _ in game.exchanges:
                    game.bot_give_back(receiver, seats[receiver])
            while not game.over:
                game.bot_play(game.turn, seats[game.turn])
            assert game.result.scores == list(result.scores[g]), g


def test_single_environments_settle_the_exchange() -> None:
    rules = {"exchange": "ranked", "first_lead": "previous-winner"}
    env = BantingGymEnv(rules=rules, opponents="standard")
    obs, _ = env.reset(seed=3)
    exchanged = 0
    for _ in range(400):
        legal = np.flatnonzero(obs["action_mask"])
        obs, _reward, terminated, _, _info = env.step(int(legal[0]))
        if terminated:
            obs, _info = env.reset()
            exchanged += bool(env.game.exchanges)
            assert not env.game.exchanging and env.game.turn == env.seat
    assert exchanged > 0
    aec = BantingAEC(rules=rules)
    aec.reset(seed=1)
    rounds = exchanged = 0
    for _ in range(1500):
        agent = aec.agent_selection
        if aec.terminations[agent]:
            rounds += 1
            aec.reset()  # the next round of the match
            exchanged += bool(aec.game.exchanges)
            assert not aec.game.exchanging and aec.game.turn is not None
            continue
        mask = aec.observe(agent)["action_mask"]
        aec.step(int(np.flatnonzero(mask)[0]))
    assert rounds > 1 and exchanged > 0
