"""Many Capsa Banting rounds stepped in C++ in one call: :class:`BantingVecEnv`."""

from __future__ import annotations

import secrets
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _core
from .._threads import check_threads
from ..banting import Game, make_code
from ._common import check_players, env_level, make_rules, seat_levels, worst_score
from .encoding import NUM_ACTIONS, OBS_SIZE

Obs = dict[str, npt.NDArray[Any]]

# The bots that step inside the vector env's C++ loop, with their seat kind there (the C++
# BotLevel); master's search is left to the one-game envs. A standard seat plays
# standard-v2 (see docs/rl.md: the look-ahead would cost the throughput issue 16 asks for).
_VEC_KINDS = {
    "random": 0,
    "beginner": 1,
    "standard": 2,
    "expert": 3,
    "standard-v1": 4,
    "standard-v2": 6,
}
VEC_LEVELS = tuple(_VEC_KINDS)


class BantingVecEnv:
    """``n`` Capsa Banting rounds stepped together in C++ (numpy in, numpy out).

    ``opponents``: None (the caller plays every seat: self-play), a bot level (seat 0 is
    the caller's, the others are that bot), or one entry per seat (None for the caller's
    seats, else a level of :data:`VEC_LEVELS`: any bot but ``master``; a ``standard`` seat
    plays ``standard-v2``, and :attr:`bot_levels` says so). Bot seats move inside C++, so
    each step shows a seat the caller plays (``info["seat"]``).

    :meth:`reset` and :meth:`step` return ``{"observation": int8 [n, 612], "action_mask":
    bool [n, 1665]}`` (see :mod:`capsa_fast.rl.encoding`); :meth:`step` also returns the
    rewards ``float32 [n, players]`` (each round's points, in the step that ended it, else
    0), ``terminated`` ``bool [n]``, ``truncated`` (always False: a round always ends) and
    the info. An environment whose round ends is dealt the next one in the same step (its
    observation is the new round's); under ``first_lead=previous-winner`` each
    environment's rounds form a match. The arrays are reused by the next call (pass
    ``copy=True`` for fresh ones). The C++ loop runs on ``threads`` threads (default: one
    per core) with the GIL released; results do not depend on the thread count.

    A round that ends before any seat the caller plays has moved (a dragon deal) is not
    shown: :attr:`skipped_rounds` counts those.

    Where a round ended in a step, ``info["final_obs"]`` holds what the seat that moved
    sees at its end (``{"observation", "action_mask"}``, rows of the other environments
    left as they were). ``illegal``: ``"raise"`` (the default: an illegal action raises
    ValueError and nothing is played) or ``"penalty"``, as in the Gymnasium env: an
    illegal action ends its environment's round, the seat that tried it gets the worst
    score a round can give (the others 0), ``info["illegal"]`` marks it, and the next round
    is dealt (opened by the lowest card); :attr:`forfeited_rounds` counts those.
    """

    def __init__(
        self,
        n: int,
        rules: Any = None,
        *,
        preset: str | None = None,
        players: int = 4,
        opponents: Any = None,
        threads: int | None = None,
        copy: bool = False,
        illegal: str = "raise",
    ) -> None:
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 1 << 22:
            raise ValueError(f"n must be 1..{1 << 22} environments, got {n!r}")
        self.rules = make_rules(preset, rules)
        self.players = check_players(players)
        self.seats = seat_levels(opponents, players)
        for level in self.seats:
            if level is not None and level not in VEC_LEVELS:
                raise ValueError(
                    f"opponents: the vector env's bots are {', '.join(VEC_LEVELS)}; "
                    f"{level!r} plays only in the one-seat Gymnasium env (capsa_fast/Banting-v0)"
                )
        threads = check_threads(threads)  # None: the cores this process may use
        if illegal not in ("raise", "penalty"):
            raise ValueError(f"illegal must be 'raise' or 'penalty', got {illegal!r}")
        self.illegal = illegal
        self.illegal_reward = float(worst_score(self.rules, players))
        self.n = n
        self.threads = threads
        self.copy = bool(copy)
        self.bot_levels = tuple(None if s is None else env_level(s) for s in self.seats)
        """Per seat: None for the caller's, else the bot that seat plays."""
        kinds = [-1 if s is None else _VEC_KINDS[s] for s in self.seats]
        self._core = _core.BantingVecEnvCore(self.rules.game_core, players, n, kinds, threads)
        self._obs = np.zeros((n, OBS_SIZE), dtype=np.int8)
        self._mask = np.zeros((n, NUM_ACTIONS), dtype=np.bool_)
        self._seat = np.zeros(n, dtype=np.int8)
        self._rewards = np.zeros((n, players), dtype=np.float32)
        self._done = np.zeros(n, dtype=np.bool_)
        self._truncated = np.zeros(n, dtype=np.bool_)
        self._actions = np.zeros(n, dtype=np.int64)
        self._illegal = np.zeros(n, dtype=np.bool_)
        self._final_obs = np.zeros((n, OBS_SIZE), dtype=np.int8)
        self._final_mask = np.zeros((n, NUM_ACTIONS), dtype=np.bool_)
        self._started = False

    @property
    def learner_seats(self) -> tuple[int, ...]:
        return tuple(s for s, level in enumerate(self.seats) if level is None)

    def reset(self, seed: int | None = None) -> tuple[Obs, dict[str, Any]]:
        """Deal every environment's first round. ``seed`` (0 .. 2**64 - 1) makes the run
        repeatable: the deals, the bots' dice and :meth:`sample_actions`; None picks one."""
        if seed is None:
            seed = secrets.randbits(64)
        if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
            raise ValueError(f"seed must be an integer, got {seed!r}")
        if not 0 <= seed < 1 << 64:
            raise ValueError(f"seed must be 0..2**64 - 1, got {seed}")
        self._core.reset(int(seed), self._obs, self._mask.view(np.uint8), self._seat)
        self._started = True
        return self._observation(), {"seat": self._out(self._seat)}

    def step(
        self, actions: npt.ArrayLike, *, skip: npt.ArrayLike | None = None
    ) -> tuple[
        Obs, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]
    ]:
        """Play one action per environment (indices into the action mask). Every action is
        checked before any is made: under ``illegal="raise"`` an illegal one raises
        ValueError naming the first such environment, and nothing changes. ``skip`` (bool
        ``[n]``) leaves those environments alone this step: their actions are not read,
        their rewards and ``terminated`` are 0 and their positions are shown again."""
        if not self._started:
            raise ValueError("call reset() before step()")
        arr = np.asarray(actions)
        if arr.shape != (self.n,):
            raise ValueError(f"actions: expected shape ({self.n},), got {arr.shape}")
        if arr.dtype.kind not in "iu":
            raise ValueError(f"actions must be integers, got dtype {arr.dtype}")
        if arr.dtype != np.int64:
            if (
                self.illegal == "raise"
                and arr.dtype == np.uint64
                and arr.size
                and int(arr.max()) >= 1 << 63
            ):
                raise ValueError("actions: an index is out of range")
            arr = arr.astype(np.int64)
        penalty = self.illegal == "penalty"
        skipped = None
        if skip is not None:
            skipped = np.array(skip, dtype=np.bool_)  # a fresh, writable copy
            if skipped.shape != (self.n,):
                raise ValueError(f"skip: expected shape ({self.n},), got {skipped.shape}")
        bad = self._core.step(
            arr,
            self._obs,
            self._mask.view(np.uint8),
            self._rewards,
            self._done.view(np.uint8),
            self._seat,
            forfeit=self.illegal_reward if penalty else None,
            illegal=self._illegal.view(np.uint8) if penalty else None,
            final_obs=self._final_obs,
            final_mask=self._final_mask.view(np.uint8),
            skip=None if skipped is None else skipped.view(np.uint8),
        )
        if bad >= 0:
            a = int(arr[bad])
            why = (
                f"not an action (0..{NUM_ACTIONS - 1})"
                if not 0 <= a < NUM_ACTIONS
                else "not legal in that position (see the action mask)"
            )
            raise ValueError(f"actions[{bad}] = {a}: {why}; nothing was played")
        info: dict[str, Any] = {
            "seat": self._out(self._seat),
            "final_obs": {
                "observation": self._out(self._final_obs),
                "action_mask": self._out(self._final_mask),
            },
        }
        if penalty:
            info["illegal"] = self._out(self._illegal)
        return (
            self._observation(),
            self._out(self._rewards),
            self._out(self._done),
            self._out(self._truncated),
            info,
        )

    def sample_actions(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal action per environment, drawn in C++ (from the same
        set as the action mask; the dice are seeded by :meth:`reset`)."""
        if not self._started:
            raise ValueError("call reset() before sample_actions()")
        self._core.sample_actions(self._actions)
        return self._out(self._actions)

    @property
    def rounds_done(self) -> int:
        """Rounds finished since the reset (skipped ones not included)."""
        return int(self._core.rounds_done)

    @property
    def forfeited_rounds(self) -> int:
        """Rounds ended by an illegal action (``illegal="penalty"``) since the reset."""
        return int(self._core.forfeited_rounds)

    @property
    def skipped_rounds(self) -> int:
        """Rounds that ended before a seat the caller plays moved (dragon deals)."""
        return int(self._core.skipped_rounds)

    def code(self, i: int) -> str:
        """The round code of environment ``i``'s current round (it deals the same hands
        in :class:`capsa_fast.banting.Game`)."""
        self._check_index(i)
        return make_code(self.players, int(self._core.round_seed(i)))

    def game(self, i: int, *, finished: bool = False) -> Game:
        """Environment ``i``'s current round as a :class:`capsa_fast.banting.Game`, rebuilt
        from its code and its moves so far: a copy to check a position against the rules
        engine (moves made on it do not reach the environment). ``finished=True``: the last
        round of environment ``i`` that ended in a step, as it stood then (ValueError
        before any has)."""
        self._check_index(i)
        if finished:
            last = self._core.finished(i)
            if last is None:
                raise ValueError(f"no round of environment {i} has ended since the reset")
            seed, index, opener, history = last
        else:
            seed = int(self._core.round_seed(i))
            index = int(self._core.round_index(i))
            opener = int(self._core.round_opener(i))
            history = self._core.history(i)
        code = make_code(self.players, int(seed))
        exchanges = self._core.exchanges(i, finished)
        places = None
        if exchanges:
            # the round began with the card exchange: the previous round's places follow
            # from its pairs (the first pair's receiver first, its giver last)
            ends = [exchanges[0][1], *(x for p in exchanges[1:] for x in (p[1], p[0]))]
            middle = [s for s in range(self.players) if s not in (*ends, exchanges[0][0])]
            places = [*ends, *middle, exchanges[0][0]]
        if exchanges or (index > 0 and self.rules.first_lead == "previous-winner"):
            # a later round of the match: under previous-winner the previous winner opened
            # it freely, unless an illegal action ended the previous one (then the lowest
            # card opens again, and there was no exchange)
            game = Game.resume(
                self.rules,
                self.players,
                code,
                round=index + 1,
                totals=[0] * self.players,
                previous_winner=opener if opener >= 0 else None,
                previous_places=places,
            )
            for _, receiver, _, back in exchanges or []:
                game.give_back(receiver, back)
        else:
            game = Game(self.rules, self.players, code)
        for seat, combo in history:
            game.move(seat, "pass" if combo is None else list(combo.cards))
        return game

    def _check_index(self, i: Any) -> None:
        if isinstance(i, bool) or not isinstance(i, int | np.integer) or not 0 <= i < self.n:
            raise ValueError(f"environment index must be 0..{self.n - 1}, got {i!r}")
        if not self._started:
            raise ValueError("call reset() first")

    def _observation(self) -> Obs:
        return {"observation": self._out(self._obs), "action_mask": self._out(self._mask)}

    def _out(self, a: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return a.copy() if self.copy else a

    def __reduce__(self) -> Any:
        raise TypeError(
            "a BantingVecEnv cannot be copied or pickled (its rounds live in one C++ object "
            "with its threads); build a new one where you need it"
        )

    def __repr__(self) -> str:
        return (
            f"BantingVecEnv(n={self.n}, preset={self.rules.preset_name!r}, "
            f"players={self.players}, seats={list(self.seats)}, threads={self.threads})"
        )
