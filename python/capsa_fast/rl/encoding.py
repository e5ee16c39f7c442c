"""What a seat sees and what it may do, as arrays: shared by every environment here.

Actions: ``0 .. 1663`` index :data:`capsa_fast.banting.ACTIONS`, the position subsets of the
seat's current hand sorted low to high in Big Two order (rank 3 .. 2, then the rules' suit
order; :meth:`Game.hand <capsa_fast.banting.Game.hand>` lists it in that order); ``1664``
(:data:`PASS`) passes. The observation is ``int8`` with every entry 0 or 1, seat-relative:
slot k of a per-seat section describes the seat k places after the one observing (slot 0
is itself); slots past the number of players stay 0. Cards in a 52-wide section are in Big
Two order too: index = 4 x rank (3 = 0 .. 2 = 12) + the suit's position in the rules' suit
order (default d < c < h < s), so index 0 is the 3d under ``capsa-banting``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _core
from ..banting import ACTIONS, COMBO_KINDS, Game, action_index

NUM_ACTIONS: int = _core.BANTING_ENV_ACTIONS
"""1665: the 1,664 plays of :data:`capsa_fast.banting.ACTIONS`, then the pass."""
PASS: int = NUM_ACTIONS - 1
OBS_SIZE: int = _core.BANTING_OBS_SIZE
"""612 entries, each 0 or 1."""
OBS_LAYOUT: dict[str, tuple[int, int]] = dict(_core.BANTING_OBS_LAYOUT)
"""Section name -> (offset, size): ``hand`` (52), ``row`` (13 positions x (13 ranks + 4
suits)), ``counts`` (4 seats x one-hot 0..13 cards held), ``table_kind`` (9: none, single,
pair, triple, straight, flush, full_house, four_of_a_kind, straight_flush), ``table_cards``
(52), ``table_seat`` (4), ``passed`` (4: passed since the trick began), ``played`` (4 seats x
52: the cards each has played this round), ``flags`` (:data:`FLAGS`)."""
FLAGS: tuple[str, ...] = (
    "first_play",
    "twos_demoted",
    "pass_locks",
    "two_demotion",
    "last_standing",
    "bombs",
)
"""The ``flags`` section: the next play opens the round (it must hold the lowest card); the
2s are demoted now (``two_demotion`` after a four of a kind); then four rule settings."""
TABLE_KINDS: tuple[str, ...] = ("none", *COMBO_KINDS)
RANKS = "3456789TJQKA2"


def observe(game: Game, seat: int) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.bool_]]:
    """(observation, action mask) of ``seat`` in the round ``game`` is playing. The mask is
    all False unless it is that seat's turn."""
    game._check_seat(seat)
    obs, mask = game._r.observe(seat)
    return obs, mask


def legal_actions(game: Game) -> list[int]:
    """The legal action indices of the seat to move, ascending (empty once over)."""
    return list(game._r.legal_actions())


def action_cards(game: Game, seat: int, action: int) -> list[int] | None:
    """The cards an action names for ``seat`` now (None for :data:`PASS`); ValueError when
    the index is out of range or names a position past the end of the hand. Legality is
    not checked (see :func:`legal_actions`)."""
    game._check_seat(seat)
    action = check_action(action)
    if action == PASS:
        return None
    hand = game.hand(seat)
    positions = ACTIONS[action]
    if positions[-1] >= len(hand):
        raise ValueError(
            f"action {action} names positions {list(positions)} of a hand of {len(hand)} cards"
        )
    return [hand[p] for p in positions]


def action_of(game: Game, seat: int, play: Any) -> int:
    """The action index of a play of ``seat``: cards (ids or text) or ``"pass"``; ValueError
    for a card the seat does not hold or a card count that is no action."""
    game._check_seat(seat)
    if isinstance(play, str) and play.strip().lower() == "pass":
        return PASS
    ids = _core.parse_cards(play)
    hand = game.hand(seat)
    where = {c: i for i, c in enumerate(hand)}
    missing = [c for c in ids if c not in where]
    if missing:
        raise ValueError(f"seat {seat} does not hold {', '.join(_core.format_cards(missing))}")
    return action_index([where[c] for c in ids])


def describe(
    obs: Sequence[int] | npt.NDArray[Any] | Mapping[str, Any], rules: Any = None
) -> dict[str, Any]:
    """An observation read back into words (for people and tests): own cards, the row,
    cards held per relative seat, the table, who passed, cards played per relative seat
    and the flags. ``obs`` is the observation vector or the environments' dict holding it
    under ``"observation"``. ``rules`` gives the suit order (default ``capsa-banting``)."""
    from ..banting.rules import resolve

    if isinstance(obs, Mapping):
        if "observation" not in obs:
            raise ValueError("an observation dict holds the vector under 'observation'")
        obs = obs["observation"]
    arr = np.asarray(obs)
    if arr.shape != (OBS_SIZE,):
        raise ValueError(f"an observation has {OBS_SIZE} entries, got shape {arr.shape}")
    suits = resolve(rules).suit_order

    def section(name: str) -> npt.NDArray[Any]:
        offset, size = OBS_LAYOUT[name]
        return arr[offset : offset + size]

    def cards(bits: npt.NDArray[Any]) -> list[str]:
        return [RANKS[i // 4] + suits[i % 4] for i in np.flatnonzero(bits)]

    row = section("row").reshape(13, 17)
    counts = section("counts").reshape(4, 14)
    return {
        "hand": cards(section("hand")),
        "row": [
            RANKS[int(np.argmax(r[:13]))] + suits[int(np.argmax(r[13:]))] for r in row if r.any()
        ],
        "counts": [int(np.argmax(c)) if c.any() else None for c in counts],
        "table_kind": TABLE_KINDS[int(np.argmax(section("table_kind")))],
        "table": cards(section("table_cards")),
        "table_seat": (
            int(np.argmax(section("table_seat"))) if section("table_seat").any() else None
        ),
        "passed": [int(k) for k in np.flatnonzero(section("passed"))],
        "played": [cards(p) for p in section("played").reshape(4, 52)],
        "flags": {name: bool(v) for name, v in zip(FLAGS, section("flags"), strict=True)},
    }


def as_action(action: Any) -> int | None:
    """``action`` as an int when it is an integer: a Python or numpy one, or a 0-d integer
    array (what an agent's ``predict`` gives for one observation; the action space holds
    it); None for anything else."""
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        action = action.item()
    if isinstance(action, bool) or not isinstance(action, int | np.integer):
        return None
    return int(action)


def check_action(action: Any) -> int:
    """``action`` as an int 0..NUM_ACTIONS - 1, or a ValueError naming what it is."""
    index = as_action(action)
    if index is None:
        raise ValueError(f"an action is an integer 0..{NUM_ACTIONS - 1}, got {action!r}")
    if not 0 <= index < NUM_ACTIONS:
        raise ValueError(f"action must be 0..{NUM_ACTIONS - 1}, got {index}")
    return index
