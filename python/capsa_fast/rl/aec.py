"""Capsa Banting as a PettingZoo AEC environment (classic-games conventions).

Agents ``player_0 .. player_{n-1}`` are the seats. Each observation is ``{"observation":
int8 [612], "action_mask": int8 [1665]}`` (:mod:`capsa_fast.rl.encoding`); actions index
:data:`capsa_fast.banting.ACTIONS` in the agent's sorted hand, and 1664 passes. The rewards
are the round's points (zero-sum), given when it ends. ``env.unwrapped.game`` is the round
being played, a :class:`capsa_fast.banting.Game`, so a harness can check each step against
the rules engine.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..banting import Game, make_code
from ._common import check_players, make_rules, option_code, settle_exchange, worst_score
from .encoding import NUM_ACTIONS, OBS_SIZE, PASS, check_action
from .render import RENDER_MODES, render_as


class BantingAEC(AECEnv):  # AECEnv is untyped (Any)
    """The raw environment; :func:`banting_env` wraps it as the classic games are."""

    metadata = {  # noqa: RUF012 (PettingZoo reads it from the class)
        "render_modes": list(RENDER_MODES),
        "name": "capsa_banting_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        preset: str | None = None,
        rules: Any = None,
        players: int = 4,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.rules = make_rules(preset, rules)
        self.players = check_players(players)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode must be None or one of {', '.join(RENDER_MODES)}, got {render_mode!r}"
            )
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low=0, high=1, shape=(OBS_SIZE,), dtype=np.int8),
                "action_mask": spaces.MultiBinary(NUM_ACTIONS),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self.illegal_reward = worst_score(self.rules, players)
        self._rng = np.random.default_rng()
        self.game: Game | None = None
        self.skipped_rounds = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self._game()
        obs, mask = game._r.observe(self._index[agent])
        return {"observation": obs, "action_mask": mask.view(np.int8)}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a round. With ``seed`` a new match starts from that seed; without one, the
        next round of the match is dealt (the previous winner opens under
        ``first_lead=previous-winner`` once a round has ended). A dragon deal ends its round
        before anyone moves, so it is dealt past (it stays in the match's totals) and
        counted in ``skipped_rounds``: PettingZoo wants every agent live after a reset.

        ``options={"code": CODE}`` deals that round code (a new match), e.g. to play given
        deals; a code whose deal ends at once (a dragon) is a ValueError there."""
        code = option_code(options, self.players)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            self.game = None
        if code is not None:
            self.game = None
        self.skipped_rounds = 0
        game = self._deal(code)
        if code is not None and game.over:
            raise ValueError(f"the round of code {code!r} ends at the deal (a dragon)")
        while game.over:  # a dragon ends the round at the deal: nobody moves
            self.skipped_rounds += 1
            game = self._deal()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._agent(game._r.turn)

    def _deal(self, code: str | None = None) -> Game:
        if code is None:
            code = make_code(self.players, int(self._rng.integers(0, 1 << 45)))
        if self.game is not None and self.game.over:
            self.game.next_round(code)
            settle_exchange(self.game, lambda _: "standard")
        else:
            self.game = Game(self.rules, self.players, code)
        return self.game

    def _game(self) -> Game:
        if self.game is None:
            raise ValueError("call reset() first")
        return self.game

    def _agent(self, seat: int | None) -> str:
        assert seat is not None  # the round goes on
        return self.possible_agents[seat]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        r = self._game()._r
        action = check_action(action)
        if r.turn != self._index[agent]:
            # Only a move made on env.unwrapped.game behind the env's back gets here.
            raise ValueError(
                f"{agent} is to act, but the round's turn is player_{r.turn}: a move was made "
                "on env.unwrapped.game outside step(); nothing was played"
            )
        if not r.apply_action(action):
            raise ValueError(
                f"{agent}: action {action} is not legal now (see the action mask); "
                "nothing was played"
            )
        self._cumulative_rewards[agent] = 0.0
        if r.over:
            self._finish()
            self._accumulate_rewards()
        else:
            # self.rewards stays all zero until the round ends (only _finish sets it), so
            # there is nothing to accumulate
            self.agent_selection = self._agent(r.turn)
        if self.render_mode == "human":
            self.render()

    def _finish(self) -> None:
        scores = self._game()._r.scores
        self.rewards = {a: float(scores[i]) for i, a in enumerate(self.possible_agents)}
        self.terminations = {a: True for a in self.agents}

    def render(self) -> Any:
        if self.render_mode is None:
            from gymnasium.logger import warn

            warn(
                "render() called without a render_mode; pass render_mode='human', 'ansi' "
                "or 'rgb_array'"
            )
            return None
        return render_as(self.render_mode, self.game, self.players)

    def close(self) -> None:
        pass


def banting_env(
    preset: str | None = None,
    rules: Any = None,
    players: int = 4,
    render_mode: str | None = None,
    illegal: str = "raise",
) -> AECEnv:
    """A Capsa Banting round as a PettingZoo AEC environment, wrapped as the classic games
    are (calls in the wrong order refused; an action out of range is a ValueError).

    ``preset`` and ``rules``: the table (a preset name, and a dict of overrides or any rule
    set capsa_fast accepts); every setting works. ``render_mode``: None, ``"human"``
    (prints the position after each move) or ``"ansi"`` (``render()`` returns it).
    ``illegal``: ``"raise"`` (an illegal action raises ValueError and changes nothing) or
    ``"terminate"`` (PettingZoo's TerminateIllegalWrapper: the round ends, the offender
    gets the worst score a round can give and the others 0).
    """
    env: AECEnv = BantingAEC(preset=preset, rules=rules, players=players, render_mode=render_mode)
    if illegal == "terminate":
        env = wrappers.TerminateIllegalWrapper(env, illegal_reward=env.illegal_reward)
    elif illegal != "raise":
        raise ValueError(f"illegal must be 'raise' or 'terminate', got {illegal!r}")
    # No AssertOutOfBoundsWrapper: the environment itself refuses an action out of range
    # with a ValueError, and that wrapper halved the steps per second.
    return _OrderEnforcing(env)


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # untyped base (Any)
    """PettingZoo's OrderEnforcingWrapper, with ``last()`` answered by the environment
    inside: the inherited one reads six attributes, each through two ``__getattr__``
    layers, which was a third of a step's time. Before reset it refuses as the wrapper
    does for ``agent_selection``."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)


__all__ = ["PASS", "BantingAEC", "banting_env"]
