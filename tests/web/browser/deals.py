"""Round codes that lead to a wanted position, found with the engine itself.

A Banting round is fixed by its code, and the server's bots and hints are deterministic, so
playing a code's round with seat 0 always taking the hint («Petunjuk») passes through the
same positions every time, in the engine here, over the API and in the page. The tests
open such a code's round link in the page and press «Petunjuk», «Keluarkan» the number of
times found here to reach the position they need.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from capsa_fast import banting, format_cards

PLAYERS = 4
SEEDS = 5000


@dataclass(frozen=True)
class Deal:
    code: str
    hints: int  # the player's hint moves before the position
    hand: list[str]  # the player's cards at the position


def rules(**rows: str) -> Any:
    """The page's table: the capsa-banting preset with the setup rows given."""
    return banting.Rules.from_dict({"preset": "capsa-banting", **rows})


def cards(ids: Any) -> list[str]:
    return list(format_cards(list(ids)))


def hand(game: banting.Game, seat: int = 0) -> list[str]:
    return cards(game.hand(seat))


def find_deal(
    wanted: Callable[[banting.Game], bool],
    table_rules: Any = None,
    level: str = "standard",
    max_hints: int = 12,
) -> Deal:
    """The first round code (by seed) whose round, played by hints, reaches a position of
    seat 0's turn where ``wanted(game)`` holds, within ``max_hints`` of the player's moves."""
    table_rules = table_rules if table_rules is not None else rules()
    for seed in range(SEEDS):
        code = banting.make_code(PLAYERS, seed)
        game = banting.Game(rules=table_rules, players=PLAYERS, code=code)
        hints = 0
        while not game.over and hints <= max_hints:
            if game.turn != 0:
                game.bot_play(game.turn, level)
                continue
            if wanted(game):
                return Deal(code, hints, hand(game))
            combo = game.hint(0).combo
            game.move(0, list(combo.cards) if combo is not None else "pass")
            hints += 1
    raise AssertionError(f"no code among {SEEDS} seeds reaches the position")


def ranks(cards: list[str]) -> list[str]:
    return [card[0] for card in cards]


@dataclass(frozen=True)
class Round:
    code: str
    winner: int
    hints: int  # the player's moves (by hint) in the whole round


def play_by_hints(code: str, level: str = "standard") -> Round:
    """The round of ``code`` on the page's table, seat 0 taking every hint."""
    game = banting.Game(rules=rules(), players=PLAYERS, code=code)
    hints = 0
    while not game.over:
        if game.turn != 0:
            game.bot_play(game.turn, level)
            continue
        combo = game.hint(0).combo
        game.move(0, list(combo.cards) if combo is not None else "pass")
        hints += 1
    return Round(code, game.result.winner, hints)


def find_rounds(player_wins: bool, count: int, max_hints: int = 13) -> list[Round]:
    """The first ``count`` round codes (by seed) that the player, taking every hint, wins
    (or loses) within ``max_hints`` moves."""
    found: list[Round] = []
    for seed in range(SEEDS):
        played = play_by_hints(banting.make_code(PLAYERS, seed))
        if (played.winner == 0) == player_wins and played.hints <= max_hints:
            found.append(played)
            if len(found) == count:
                return found
    raise AssertionError(f"fewer than {count} such rounds among {SEEDS} seeds")
