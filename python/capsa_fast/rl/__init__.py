"""Capsa Banting for reinforcement learning.

- :func:`banting_env`: a PettingZoo AEC environment (classic-games conventions);
- ``gymnasium.make("capsa_fast/Banting-v0")``: one seat against bots (registered once
  ``capsa_fast`` and gymnasium are both imported, in either order), class
  :class:`BantingGymEnv`;
- :class:`BantingVecEnv`: n rounds stepped in C++ in one call, numpy in and out;
- ``gymnasium.make_vec("capsa_fast/Banting-v0", num_envs=n)``: Gymnasium's vector API over
  it (:class:`capsa_fast.rl.gym_vec.BantingGymVectorEnv`);
- :mod:`capsa_fast.rl.encoding`: the observation and the actions, shared by all three.

PettingZoo and Gymnasium come with the ``rl`` extra (``pip install "capsa_fast[rl]"``);
the vector environment needs only numpy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import _gym
from .encoding import (
    FLAGS,
    NUM_ACTIONS,
    OBS_LAYOUT,
    OBS_SIZE,
    PASS,
    TABLE_KINDS,
    action_cards,
    action_of,
    describe,
    legal_actions,
    observe,
)
from .vec import BantingVecEnv

if TYPE_CHECKING:
    from .gym_env import BantingGymEnv

GYM_ID = _gym.GYM_ID


def _missing(what: str, exc: ImportError) -> ImportError:
    return ImportError(
        f"{what} needs the optional 'rl' extra: pip install \"capsa_fast[rl]\" ({exc})"
    )


def banting_env(
    preset: str | None = None,
    rules: Any = None,
    players: int = 4,
    render_mode: str | None = None,
    illegal: str = "raise",
) -> Any:
    """A Capsa Banting round as a PettingZoo AEC environment (see
    :func:`capsa_fast.rl.aec.banting_env`)."""
    try:
        from . import aec
    except ImportError as exc:  # pettingzoo or gymnasium missing
        raise _missing("banting_env", exc) from exc
    return aec.banting_env(
        preset=preset, rules=rules, players=players, render_mode=render_mode, illegal=illegal
    )


def __getattr__(name: str) -> Any:
    if name == "BantingGymEnv":
        try:
            from .gym_env import BantingGymEnv
        except ImportError as exc:
            raise _missing("BantingGymEnv", exc) from exc
        return BantingGymEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "FLAGS",
    "GYM_ID",
    "NUM_ACTIONS",
    "OBS_LAYOUT",
    "OBS_SIZE",
    "PASS",
    "TABLE_KINDS",
    "BantingGymEnv",
    "BantingVecEnv",
    "action_cards",
    "action_of",
    "banting_env",
    "describe",
    "legal_actions",
    "observe",
]
