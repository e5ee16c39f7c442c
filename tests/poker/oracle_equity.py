"""A slow equity reference for the tests: every deal of the players' combos and every board
completing it, each hand evaluated by the project's evaluator (``evaluate_batch``), ties
split. Deliberately plain: numpy arrays of all boards, no shortcut of the engine's."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from itertools import combinations, product

import capsa_fast as cf
import numpy as np


@functools.cache
def _positions(n: int, k: int) -> np.ndarray:
    """Every k-subset of range(n), one per row (read-only)."""
    if k == 0:
        out = np.zeros((1, 0), dtype=np.uint8)
    else:
        out = np.fromiter(
            (i for combo in combinations(range(n), k) for i in combo), dtype=np.uint8
        ).reshape(-1, k)
    out.setflags(write=False)
    return out


@dataclass(frozen=True)
class Reference:
    equity: list[float]
    win: list[float]
    tie: list[float]
    showdowns: int


def combos_of(player: str) -> list[tuple[int, int, float]]:
    """A player's combos as (card, card, weight), through the package's range parser."""
    out = []
    for name, weight in cf.poker.parse_range(player):
        a, b = cf.parse_cards(name)
        out.append((a, b, weight))
    return out


def reference_equity(players: list[str], board: str = "", dead: str = "") -> Reference:
    board_ids = cf.parse_cards(board)
    dead_ids = cf.parse_cards(dead)
    taken = set(board_ids) | set(dead_ids)
    n = len(players)
    need = 5 - len(board_ids)
    win = np.zeros(n)
    tie = np.zeros(n)
    share = np.zeros(n)
    total = 0.0
    showdowns = 0
    for deal in product(*(combos_of(p) for p in players)):
        holes = [c for a, b, _ in deal for c in (a, b)]
        if len(set(holes)) < len(holes) or taken & set(holes):
            continue
        weight = float(np.prod([w for _, _, w in deal]))
        deck = np.array([c for c in range(52) if c not in taken and c not in holes], np.uint8)
        boards = deck[_positions(len(deck), need)]
        fixed = np.broadcast_to(np.array(board_ids, np.uint8), (len(boards), len(board_ids)))
        strengths = np.stack(
            [
                cf.poker.evaluate_batch(
                    np.hstack(
                        [
                            fixed,
                            boards,
                            np.broadcast_to(np.array([a, b], np.uint8), (len(boards), 2)),
                        ]
                    )
                )
                for a, b, _ in deal
            ]
        )
        best = strengths == strengths.max(axis=0)
        count = best.sum(axis=0)
        win += weight * (best & (count == 1)).mean(axis=1)
        tie += weight * (best & (count > 1)).mean(axis=1)
        share += weight * (best / count).mean(axis=1)
        total += weight
        showdowns += len(boards)
    assert total > 0, "no deal fits"
    return Reference(
        equity=list(share / total),
        win=list(win / total),
        tie=list(tie / total),
        showdowns=showdowns,
    )
