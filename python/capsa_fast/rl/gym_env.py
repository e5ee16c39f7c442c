"""Capsa Banting for Gymnasium: one seat against bots (``capsa_fast/Banting-v0``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

import gymnasium
import numpy as np
from gymnasium import spaces

from ..banting import Game, make_code
from ..banting.game import MASTER_ITERATIONS, check_budget
from ._common import (
    check_players,
    env_level,
    make_rules,
    opponent_levels,
    option_code,
    settle_exchange,
    worst_score,
)
from .encoding import NUM_ACTIONS, OBS_SIZE, as_action
from .render import RENDER_MODES, render_as


def observation_space() -> Any:
    """One seat's observation: ``{"observation": int8 [612], "action_mask": [1665]}``."""
    return cast(Any, spaces.Dict)(
        {
            "observation": spaces.Box(low=0, high=1, shape=(OBS_SIZE,), dtype=np.int8),
            "action_mask": spaces.MultiBinary(NUM_ACTIONS),
        }
    )


class BantingGymEnv(gymnasium.Env[dict[str, np.ndarray], np.int64]):
    """One Capsa Banting seat against bots; an episode is one round.

    ``opponents``: a bot level for every other seat, or one level per other seat in seat
    order after the learner's; :attr:`bot_levels` says what each plays (a ``standard``
    seat is ``standard-v2`` here, as in the vector env: see docs/rl.md). ``seat``: the
    learner's seat, or None for a random seat each round. Observations and actions as in
    :mod:`capsa_fast.rl.encoding` (the mask is ``int8``). The reward is the learner's
    points when the round ends, 0 before. The bots move between the learner's turns.
    ``reset(options={"code": CODE})`` deals a given round code. ``illegal``:
    ``"penalty"`` (an illegal action ends the round with the worst score a round can give
    and ``info["illegal"]``; generic agents that sample the whole action space get a
    signal instead of an exception) or ``"raise"`` (ValueError, nothing changes). A round
    that ends before the learner moves (a dragon deal) is dealt again; ``info["skipped"]``
    counts those since the reset. ``render()`` shows the learner's view (the other seats'
    cards face down, no round code before the end). ``master_budget``: the ``master``
    seats' search, as ``capsa-fast sim`` takes it (``{"iterations": 1500, "time_ms": 0,
    "threads": 1}`` by default). ``env.unwrapped.game`` is the round, a
    :class:`capsa_fast.banting.Game`.
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        preset: str | None = None,
        rules: Any = None,
        players: int = 4,
        opponents: str | Sequence[str] = "standard",
        seat: int | None = 0,
        render_mode: str | None = None,
        illegal: str = "penalty",
        master_budget: Mapping[str, Any] | None = None,
    ) -> None:
        self.rules = make_rules(preset, rules)
        # The master's budget, as sim's: iterations (rollouts a move), time_ms, threads.
        budget = dict(master_budget or {})
        unknown = sorted(set(budget) - {"iterations", "time_ms", "threads"})
        if unknown:
            raise ValueError(
                f"master_budget: unknown {', '.join(map(str, unknown))} "
                "(known: iterations, time_ms, threads)"
            )
        iterations = budget.get("iterations", MASTER_ITERATIONS)
        time_ms = budget.get("time_ms", 0.0)
        threads = budget.get("threads", 1)
        for name, value, kinds, what in (
            ("iterations", iterations, (int,), "an integer"),
            ("time_ms", time_ms, (int, float), "a number"),
            ("threads", threads, (int,), "an integer"),
        ):
            if isinstance(value, bool) or not isinstance(value, kinds):
                raise ValueError(f"master_budget: {name} must be {what}, got {value!r}")
        check_budget(iterations, float(time_ms), threads)
        self._budget = (iterations, float(time_ms), threads)
        self.players = check_players(players)
        self.opponents = opponent_levels(opponents, players)
        self.bot_levels = tuple(env_level(level) for level in self.opponents)
        """The bot each other seat plays, in the order of ``opponents``."""
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players
        ):
            raise ValueError(f"seat must be None or 0..{players - 1}, got {seat!r}")
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode must be None or one of {', '.join(RENDER_MODES)}, got {render_mode!r}"
            )
        self.render_mode = render_mode
        if illegal not in ("penalty", "raise"):
            raise ValueError(f"illegal must be 'penalty' or 'raise', got {illegal!r}")
        self.illegal = illegal
        self.illegal_reward = float(worst_score(self.rules, players))
        self.observation_space = observation_space()
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.game: Game | None = None
        self._skipped = 0
        self._forfeited = False  # an illegal action under "penalty" ended the round

    def _level(self, seat: int) -> str:
        return self.bot_levels[(seat - self.seat - 1) % self.players]

    def _bots(self) -> None:
        """Bots move until the learner is to move or the round is over."""
        assert self.game is not None
        r = self.game._r
        while not r.over and r.turn != self.seat:
            r.bot_move(self._level(r.turn or 0), True, *self._budget)

    def _observe(self) -> dict[str, np.ndarray]:
        assert self.game is not None
        obs, mask = self.game._r.observe(self.seat)
        return {"observation": obs, "action_mask": mask.view(np.int8)}

    def _deal(self, code: str | None = None) -> None:
        if code is None:
            code = make_code(self.players, int(self.np_random.integers(0, 1 << 45)))
        if self.fixed_seat is None:
            self.seat = int(self.np_random.integers(0, self.players))
        if self.game is not None and self.game.over:
            self.game.next_round(code)
            settle_exchange(self.game, lambda s: "standard" if s == self.seat else self._level(s))
        else:
            self.game = Game(self.rules, self.players, code)
        self._bots()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deal a round (with ``seed``, the first of a new match; without, the next round of
        the match, opened by the previous winner under ``first_lead=previous-winner``).

        ``options={"code": CODE}`` deals that round code (a new match; the bots' dice
        follow from it as in :class:`capsa_fast.banting.Game`), so a harness can play
        given deals, e.g. each deal once per seat. A code whose deal ends before the
        learner moves (a dragon) is a ValueError there, since no other deal may stand in.
        """
        code = option_code(options, self.players)
        super().reset(seed=seed)
        if seed is not None or code is not None:
            self.game = None
        self._skipped = 0
        self._forfeited = False
        self._deal(code)
        assert self.game is not None
        if code is not None and self.game.over:
            raise ValueError(f"the round of code {code!r} ends before seat {self.seat} moves")
        while self.game.over:
            self._skipped += 1
            self._deal()
        return self._observe(), self._info()

    def _info(self, **extra: Any) -> dict[str, Any]:
        """``code`` (the round's code, which deals every hand) only once the round is over:
        an agent reading its info must not learn the other seats' cards."""
        assert self.game is not None
        code = self.game.code if self.game.over else None
        return {"seat": self.seat, "code": code, "skipped": self._skipped, **extra}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self.game is None:
            raise ValueError("call reset() before step()")
        r = self.game._r
        if r.over or self._forfeited:
            raise ValueError("the round is over: call reset()")
        index = as_action(action)
        # Out of the action space (2**70 included) is illegal like any other illegal move.
        legal = index is not None and 0 <= index < NUM_ACTIONS and r.apply_action(index)
        if not legal:
            if self.illegal == "raise":
                if index is None or not 0 <= index < NUM_ACTIONS:
                    raise ValueError(
                        f"an action is an integer 0..{NUM_ACTIONS - 1}, got {action!r}; "
                        "nothing was played"
                    )
                raise ValueError(
                    f"action {action!r} is not legal now (see the action mask); nothing was played"
                )
            self._forfeited = True  # the round ends here for the learner
            return self._observe(), self.illegal_reward, True, False, self._info(illegal=True)
        self._bots()
        reward = 0.0
        if r.over:
            scores = r.scores
            reward = float(scores[self.seat])
            info = self._info(scores=list(scores))
        else:
            info = self._info()
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, bool(r.over), False, info

    def action_masks(self) -> np.ndarray:
        """The mask of the observation last returned (bool ``[1665]``; all False once a
        round is played out), as sb3-contrib's MaskablePPO asks an env for them."""
        if self.game is None:
            raise ValueError("call reset() first")
        return np.asarray(self.game._r.observe(self.seat)[1], dtype=np.bool_)

    def render(self) -> Any:
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() called without a render_mode; pass render_mode='human', 'ansi' "
                "or 'rgb_array'"
            )
            return None
        # The learner's view: the other seats' cards face down, no code before the end.
        return render_as(self.render_mode, self.game, self.players, self.seat)
