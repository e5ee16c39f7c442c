"""Capsa Banting as a Gymnasium vector environment stepped in C++.

``gymnasium.make_vec("capsa_fast/Banting-v0", num_envs=64)`` builds
:class:`BantingGymVectorEnv`: ``num_envs`` copies of the one-seat environment
(:class:`capsa_fast.rl.BantingGymEnv`) played by :class:`capsa_fast.rl.BantingVecEnv`, so
one call steps every round in C++ on ``threads`` threads instead of one Python env per
copy. It takes the single env's arguments and follows Gymnasium's vector conventions:
batched observations (``{"observation": int8 [n, 612], "action_mask": int8 [n, 1665]}``),
rewards ``float64 [n]`` (the learner's points in the step that ends its round), and
same-step autoreset (``metadata["autoreset_mode"]``): where a round ends, the observation
returned is the next round's, and ``infos["final_obs"]`` / ``infos["final_info"]`` hold
the end of the round that finished, as :class:`gymnasium.vector.SyncVectorEnv` does in that
mode. ``final_info`` has ``scores`` (every seat's points) for a round played out and
``illegal`` for one ended by an illegal action under ``illegal="penalty"``.

Differences from ``vectorization_mode="sync"`` over the single env: the learner's seat is
fixed (``seat=None``, a random seat each round, is the single env's alone), and one
``reset(seed=...)`` seeds every copy (a list of seeds is refused).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from ._common import opponent_levels
from .encoding import NUM_ACTIONS, OBS_SIZE
from .render import render_text
from .vec import BantingVecEnv

Obs = dict[str, npt.NDArray[Any]]


def _opponent_seats(opponents: Any, players: int, seat: int) -> list[str | None]:
    """One entry per seat for :class:`BantingVecEnv`: None at the learner's seat, the
    single env's ``opponents`` (see :func:`opponent_levels`) at the others."""
    seats: list[str | None] = [None] * players
    for k, level in enumerate(opponent_levels(opponents, players)):
        seats[(seat + 1 + k) % players] = level
    return seats


class BantingGymVectorEnv(gymnasium.vector.VectorEnv[Obs, npt.NDArray[np.int64], Any]):
    """``num_envs`` one-seat Capsa Banting rounds against bots, stepped together in C++
    (see the module notes). ``env.vec`` is the :class:`BantingVecEnv` underneath, and
    ``env.game(i)`` copy ``i``'s round as a :class:`capsa_fast.banting.Game`."""

    metadata = {  # noqa: RUF012
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": ["ansi"],
    }

    def __init__(
        self,
        num_envs: int = 1,
        preset: str | None = None,
        rules: Any = None,
        players: int = 4,
        opponents: str | Sequence[str] = "standard",
        seat: int | None = 0,
        render_mode: str | None = None,
        illegal: str = "penalty",
        threads: int | None = None,
    ) -> None:
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
            raise ValueError(f"players must be 2, 3 or 4, got {players!r}")
        if seat is None:
            raise ValueError(
                "seat=None (a random seat each round) is the single env's; the vector env "
                "plays a fixed seat: give 0..players - 1, or use vectorization_mode='sync'"
            )
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat must be 0..{players - 1}, got {seat!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if illegal not in ("penalty", "raise"):
            raise ValueError(f"illegal must be 'penalty' or 'raise', got {illegal!r}")
        self.vec = BantingVecEnv(
            num_envs,
            rules,
            preset=preset,
            players=players,
            opponents=_opponent_seats(opponents, players, seat),
            threads=threads,
            illegal=illegal,
        )
        self.num_envs = num_envs
        self.seat = seat
        self.players = players
        self.render_mode = render_mode
        self.single_observation_space = cast(Any, spaces.Dict)(
            {
                "observation": spaces.Box(low=0, high=1, shape=(OBS_SIZE,), dtype=np.int8),
                "action_mask": spaces.MultiBinary(NUM_ACTIONS),
            }
        )
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def reset(
        self,
        *,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Obs, dict[str, Any]]:
        """Deal every copy's first round; ``seed`` (one integer for all copies) makes the
        run repeatable."""
        if seed is not None and not isinstance(seed, int | np.integer):
            raise ValueError(f"seed: one integer seeds every copy of this vector env, got {seed!r}")
        super().reset(seed=seed)
        obs, info = self.vec.reset(None if seed is None else int(seed))
        return self._obs(obs), self._infos(info["seat"])

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        Obs,
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        obs, rewards, done, truncated, info = self.vec.step(actions)
        infos = self._infos(info["seat"])
        ended = np.array(done, dtype=np.bool_)
        if ended.any():
            final = info["final_obs"]
            final_obs = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(ended):
                final_obs[i] = {
                    "observation": final["observation"][i].copy(),
                    "action_mask": final["action_mask"][i].view(np.int8).copy(),
                }
            illegal = (
                np.array(info["illegal"], dtype=np.bool_)
                if "illegal" in info
                else np.zeros(self.num_envs, dtype=np.bool_)
            )
            played = ended & ~illegal
            final_info: dict[str, Any] = {
                "scores": np.where(played[:, None], rewards, 0).astype(np.int64),
                "_scores": played,
            }
            if illegal.any():
                final_info["illegal"] = illegal
                final_info["_illegal"] = illegal.copy()
            infos.update(
                final_obs=final_obs,
                _final_obs=ended,
                final_info=final_info,
                _final_info=ended.copy(),
            )
        return (
            self._obs(obs),
            np.asarray(rewards[:, self.seat], dtype=np.float64),
            ended,
            np.array(truncated, dtype=np.bool_),
            infos,
        )

    def game(self, i: int) -> Any:
        """Copy ``i``'s current round, rebuilt as a :class:`capsa_fast.banting.Game`."""
        return self.vec.game(i)

    def render(self) -> tuple[str, ...] | None:
        """With ``render_mode="ansi"``, each copy's table as text."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi'")
            return None
        return tuple(render_text(self.vec.game(i)) for i in range(self.num_envs))

    def _obs(self, obs: Obs) -> Obs:
        """Fresh arrays (Gymnasium's users keep what a call returns), the mask as int8 like
        the single env's."""
        return {
            "observation": np.array(obs["observation"], dtype=np.int8),
            "action_mask": np.array(obs["action_mask"], dtype=np.bool_).view(np.int8),
        }

    def _infos(self, seat: npt.NDArray[Any]) -> dict[str, Any]:
        return {
            "seat": np.array(seat, dtype=np.int64),
            "_seat": np.ones(self.num_envs, dtype=np.bool_),
        }

    def __reduce__(self) -> Any:
        return self.vec.__reduce__()  # refuses, with the reason

    def __repr__(self) -> str:
        return f"BantingGymVectorEnv(num_envs={self.num_envs}, {self.vec!r})"
