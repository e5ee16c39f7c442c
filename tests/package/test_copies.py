"""Copies and pickles: rule sets are immutable values that cross processes as their
settings; a Capsa Banting game copies (copy.copy, copy.deepcopy) into an independent game
whose bots throw the same dice, and pickles into one that replays to the same position;
the one-seat environment and a Susun table copy with them.

Before this, copy.copy(game) shared the C++ round (a move on the copy moved the
original), and no rule set, game, environment or table could be deep-copied or pickled
(the C++ rule objects refused), so none could be handed to a process pool."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any

import gymnasium
import numpy as np
import pytest
from capsa_fast import banting, rl, susun

from tests.rl.helpers import RULE_SETS

COPIES: dict[str, Callable[[Any], Any]] = {
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "pickle": lambda x: pickle.loads(pickle.dumps(x)),
}


def state(game: banting.Game) -> tuple[Any, ...]:
    """Everything a seat or a program can read of a game."""
    return (
        game.code,
        game.players,
        game.round,
        game.totals,
        game.turn,
        game.leader,
        game.table,
        game.table_seat,
        game.passed,
        game.first_play,
        game.twos_demoted,
        game.over,
        game.counts,
        game.history,
        [game.hand(s) for s in range(game.players)],
        game.result,
        game.exchanges,
    )


def play_out(game: banting.Game) -> None:
    """Random bots finish the round, giving back first in a card exchange."""
    while not game.over:
        if game.exchanging:
            owing = [s for s, _ in enumerate(game.counts) if (game.exchange_view(s) or ZERO).give]
            game.bot_give_back(owing[0], "random")
        else:
            game.bot_play(game.turn or 0, "random")


ZERO = banting.ExchangeView([], [], 0)


def test_rule_sets_pickle_as_their_settings() -> None:
    custom = banting.Rules.preset(
        "capsa-banting",
        straights=["A2345", "23456"],
        scoring=[[1, 1], [8, 2]],
        bombs="quads-and-straight-flush",
    )
    sets: list[Any] = [custom, susun.Rules.preset("two-four", room_fee=0.05, sweep_multiplier=2)]
    sets += [banting.Rules.preset(name) for name in banting.Rules._PRESETS]
    sets += [susun.Rules.preset(name) for name in susun.Rules._PRESETS]
    for rules in sets:
        again = pickle.loads(pickle.dumps(rules))
        assert again == rules and again.to_dict() == rules.to_dict()
        assert copy.copy(rules) is rules and copy.deepcopy(rules) is rules
    played = pickle.loads(pickle.dumps(custom))
    game = banting.Game(played, 4, "FRIDAY")
    assert game.rules.straights == ("A2345", "23456")


@pytest.mark.parametrize("how", COPIES)
@pytest.mark.parametrize("rules", RULE_SETS)
def test_a_game_copies_into_an_independent_equal_game(how: str, rules: dict[str, Any]) -> None:
    game = banting.Game(rules, 4, "COPY-ME")
    for stop in (0, 7, 23):  # moves made before the copy, in rounds 1 and 2
        while len(game.history) < stop and not game.over and not game.exchanging:
            game.bot_play(game.turn or 0, "random")
        if game.over:
            game.next_round("COPY-ME-2")
        twin = COPIES[how](game)
        assert twin is not game and state(twin) == state(game)
        # the twins' bots throw the same dice: played out, the rounds are the same
        before = state(game)
        play_out(twin)
        assert state(game) == before  # the copy's moves never reached the original
        play_out(game)
        assert state(twin) == state(game)


def test_the_one_seat_env_copies_with_its_game() -> None:
    env = gymnasium.make(rl.GYM_ID, opponents=["expert", "standard", "random"])
    obs, _ = env.reset(seed=5)
    obs, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    for how in ("deepcopy", "pickle"):
        twin = COPIES[how](env)
        a, b = obs, obs
        for _ in range(8):
            action = int(np.flatnonzero(a["action_mask"])[-1])
            a, ra, da, *_ = twin.step(action)
            b, rb, db, *_ = env.step(action)
            assert np.array_equal(a["observation"], b["observation"]) and (ra, da) == (rb, db)
            if da:
                break
        obs, _ = env.reset(seed=5)
        obs, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_a_susun_table_copies() -> None:
    table = susun.Table("two-four", 2, code="S2TABLE")
    for how, fn in COPIES.items():
        twin = fn(table)
        for t in (table, twin):
            for seat in range(2):
                t.bot_arrange(seat, level="ev")
        assert twin.result == table.result, how
        table = susun.Table("two-four", 2, code="S2TABLE")


def _play_out(game: banting.Game) -> list[int]:
    while not game.over:
        game.bot_play(game.turn or 0, "standard")
    assert game.result is not None
    return game.result.scores


def test_games_and_rules_cross_to_a_process_pool() -> None:
    rules = banting.Rules.preset("capsa-klasik", pass_locks=False)
    games = [banting.Game(rules, 4, f"POOL-{k}") for k in range(3)]
    expected = [_play_out(copy.deepcopy(g)) for g in games]
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as pool:
        assert list(pool.map(_play_out, games)) == expected


def test_vector_envs_refuse_to_copy_with_a_reason() -> None:
    vec = rl.BantingVecEnv(2)
    envs = gymnasium.make_vec(rl.GYM_ID, num_envs=2)
    for thing in (vec, envs):
        for fn in (copy.copy, copy.deepcopy, pickle.dumps):
            with pytest.raises(TypeError, match="cannot be copied or pickled"):
                fn(thing)
