"""Checks shared by the reinforcement-learning tests: an observation and its action mask
read back and compared with the round they claim to show (a banting.Game)."""

from __future__ import annotations

from typing import Any

import capsa_fast as cf
import numpy as np
from capsa_fast import banting
from capsa_fast.rl import PASS, action_of, describe

RULE_SETS: list[dict[str, Any]] = [
    {"preset": "capsa-banting"},
    {"preset": "hong-kong"},
    {"preset": "taiwan"},
    {"preset": "pagat"},
    {"preset": "capsa-klasik"},  # pass_locks and two_demotion
    {"preset": "capsa-banting", "ending": "last-standing"},
    {"preset": "taiwan", "two_demotion": True, "first_lead": "previous-winner"},
    {"preset": "capsa-banting", "pass_locks": True, "triples": False, "dragon": False},
    # matches whose rounds begin with the card exchange; bombs that end the round
    {"preset": "capsa-banting", "exchange": "ranked", "first_lead": "previous-winner"},
    {"preset": "taiwan", "exchange": "ranked", "ending": "last-standing", "bomb_ends": True},
]


def expected_mask(game: banting.Game, seat: int) -> list[int]:
    """The legal actions of ``seat`` from the rules engine: its legal plays as actions,
    and the pass when it may pass."""
    actions = {action_of(game, seat, list(c.cards)) for c in game.legal_plays(seat)}
    if game.can_pass(seat):
        actions.add(PASS)
    return sorted(actions)


def check_observation(game: banting.Game, seat: int, obs: Any, mask: Any) -> None:
    """Everything the observation says about the round agrees with ``game``."""
    obs = np.asarray(obs)
    mask = np.asarray(mask)
    assert obs.dtype == np.int8 and set(np.unique(obs)) <= {0, 1}
    assert [int(a) for a in np.flatnonzero(mask)] == expected_mask(game, seat)
    d = describe(obs, game.rules)
    players = game.players
    assert d["hand"] == cf.format_cards(game.hand(seat))
    assert d["row"] == cf.format_cards(game.hand(seat))
    rel = [(seat + k) % players for k in range(players)]
    assert d["counts"][:players] == [game.counts[s] for s in rel]
    assert d["counts"][players:] == [None] * (4 - players)
    table = game.table
    if table is None:
        assert d["table_kind"] == "none" and d["table"] == [] and d["table_seat"] is None
    else:
        assert d["table_kind"] == table.kind
        assert sorted(d["table"]) == sorted(cf.format_cards(table.cards))
        assert d["table_seat"] == (game.table_seat - seat) % players
    assert d["passed"] == sorted((s - seat) % players for s in game.passed)
    played: list[set[str]] = [set() for _ in range(players)]
    for move in game.history:
        played[move.seat].update(cf.format_cards(move.cards))
    assert [set(p) for p in d["played"][:players]] == [played[s] for s in rel]
    assert d["flags"]["first_play"] == game.first_play
    assert d["flags"]["twos_demoted"] == game.twos_demoted
    assert d["flags"]["pass_locks"] == game.rules.pass_locks
    assert d["flags"]["two_demotion"] == game.rules.two_demotion
    assert d["flags"]["last_standing"] == (game.rules.ending == "last-standing")
    assert d["flags"]["bombs"] == (game.rules.bombs != "none")
