"""Capsa Banting as a Gymnasium vector environment stepped in C++.

``gymnasium.make_vec("capsa_fast/Banting-v0", num_envs=64)`` builds
:class:`BantingGymVectorEnv`: ``num_envs`` copies of the one-seat environment
(:class:`capsa_fast.rl.BantingGymEnv`) played by :class:`capsa_fast.rl.BantingVecEnv`, so
one call steps every round in C++ on ``threads`` threads instead of one Python env per
copy. It takes the single env's arguments and follows Gymnasium's vector conventions:
batched observations (``{"observation": int8 [n, 612], "action_mask": int8 [n, 1665]}``),
rewards ``float64 [n]`` (the learner's points in the step that ends its round), and
autoreset in either of Gymnasium's two modes (``autoreset_mode``, also in
``metadata["autoreset_mode"]``):

- ``NEXT_STEP`` (the default, Gymnasium's own, which its observation wrappers need): the
  step that ends a round returns its end (the mask all False) with the reward and
  ``terminated``, and ``infos`` ``scores`` (every seat's points; ``_scores`` marks the
  copies) or ``illegal``; the next step shows that copy's next round, with reward 0 and
  its action not read.
- ``SAME_STEP``: the step that ends a round already returns the next round, and
  ``infos["final_obs"]`` / ``infos["final_info"]`` hold the end of the round that finished,
  as :class:`gymnasium.vector.SyncVectorEnv` gives them in that mode.

:meth:`BantingGymVectorEnv.action_masks` gives the masks as sb3-contrib's MaskablePPO asks
an env for them.

Differences from ``vectorization_mode="sync"`` over the single env: the learner's seat is
fixed (``seat=None``, a random seat each round, is the single env's alone), and one
``reset(seed=...)`` seeds every copy (a list of seeds is refused).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from ._common import check_players, opponent_levels
from .encoding import NUM_ACTIONS
from .gym_env import observation_space
from .render import render_as
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
        "autoreset_mode": AutoresetMode.NEXT_STEP,  # the instance's: see autoreset_mode
        "render_modes": ["ansi", "rgb_array"],
        "render_fps": 1,
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
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    ) -> None:
        check_players(players)
        if seat is None:
            raise ValueError(
                "seat=None (a random seat each round) is the single env's; the vector env "
                "plays a fixed seat: give 0..players - 1, or use vectorization_mode='sync'"
            )
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat must be 0..{players - 1}, got {seat!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be None, 'ansi' or 'rgb_array', got {render_mode!r}"
            )
        modes = (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP)
        try:
            mode = AutoresetMode(autoreset_mode)
        except ValueError:
            mode = None
        if mode not in modes:
            raise ValueError(
                f"autoreset_mode must be {' or '.join(repr(m.value) for m in modes)} "
                f"(gymnasium.vector.AutoresetMode), got {autoreset_mode!r}"
            )
        self.autoreset_mode = mode
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        self.vec = BantingVecEnv(  # checks num_envs, rules, opponents, threads and illegal
            num_envs,
            rules,
            preset=preset,
            players=players,
            opponents=_opponent_seats(opponents, players, seat),
            threads=threads,
            illegal=illegal,
        )
        self.num_envs = num_envs
        # next-step autoreset: copies showing a round's end (the next step restarts them)
        self._restart = np.zeros(num_envs, dtype=np.bool_)
        # the vector env's masks of the rounds in play and of the rounds just ended (its
        # buffers, valid until the next call): action_masks() reads them when asked
        self._masks: tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]] | None = None
        self.seat = seat
        self.players = players
        self.render_mode = render_mode
        self.single_observation_space = observation_space()
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
        self._restart = np.zeros(self.num_envs, dtype=np.bool_)
        self._masks = (obs["action_mask"], obs["action_mask"])
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
        """One action per copy. Under next-step autoreset a copy whose round ended in the
        last step shows its next round now (reward 0, its action not read)."""
        restarting = self._restart if self.autoreset_mode == AutoresetMode.NEXT_STEP else None
        obs, rewards, done, truncated, info = self.vec.step(actions, skip=restarting)
        infos = self._infos(info["seat"])
        ended = np.array(done, dtype=np.bool_)
        observation = self._obs(obs)
        reward = np.asarray(rewards[:, self.seat], dtype=np.float64)
        if ended.any():
            illegal = (
                np.array(info["illegal"], dtype=np.bool_)
                if "illegal" in info
                else np.zeros(self.num_envs, dtype=np.bool_)
            )
            played = ended & ~illegal
            end_info: dict[str, Any] = {
                "scores": np.where(played[:, None], rewards, 0).astype(np.int64),
                "_scores": played,
            }
            if illegal.any():
                end_info["illegal"] = illegal
                end_info["_illegal"] = illegal.copy()
            final = info["final_obs"]
            if self.autoreset_mode == AutoresetMode.NEXT_STEP:
                # the end of the round now, its next round on the next step
                observation["observation"][ended] = final["observation"][ended]
                observation["action_mask"][ended] = final["action_mask"][ended].view(np.int8)
                infos.update(end_info)
            else:
                final_obs = np.full(self.num_envs, None, dtype=object)
                for i in np.flatnonzero(ended):
                    final_obs[i] = {
                        "observation": final["observation"][i].copy(),
                        "action_mask": final["action_mask"][i].view(np.int8).copy(),
                    }
                infos.update(
                    final_obs=final_obs,
                    _final_obs=ended,
                    final_info=end_info,
                    _final_info=ended.copy(),
                )
        self._restart = ended.copy()
        self._masks = (obs["action_mask"], info["final_obs"]["action_mask"])
        return observation, reward, ended, np.array(truncated, dtype=np.bool_), infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The masks of the observations last returned (bool ``[n, 1665]``; all False at
        the end of a round played out), as sb3-contrib's MaskablePPO asks an env for them."""
        if self._masks is None:
            raise ValueError("call reset() first")
        in_play, ended = self._masks
        masks = np.array(in_play, dtype=np.bool_)
        if self.autoreset_mode == AutoresetMode.NEXT_STEP and self._restart.any():
            masks[self._restart] = ended[self._restart]
        return masks

    def game(self, i: int) -> Any:
        """Copy ``i``'s round as the last step shows it, rebuilt as a
        :class:`capsa_fast.banting.Game`: under next-step autoreset, the round that just
        ended while its end is shown, else the round in play."""
        self.vec._check_index(i)
        showing_end = self.autoreset_mode == AutoresetMode.NEXT_STEP and bool(self._restart[i])
        return self.vec.game(i, finished=showing_end)

    def render(self) -> tuple[Any, ...] | None:
        """Each copy's table, as text (``render_mode="ansi"``) or an image
        (``"rgb_array"``), as the learner's seat sees it (the others' cards face down)."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() called without a render_mode; pass render_mode='ansi' or 'rgb_array'"
            )
            return None
        mode = self.render_mode
        return tuple(
            render_as(mode, self.game(i), self.players, self.seat) for i in range(self.num_envs)
        )

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
