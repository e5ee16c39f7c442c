"""gymnasium.make_vec("capsa_fast/Banting-v0"): the C++ vector env behind Gymnasium's
vector API. Its copies are the single env's rounds (the same positions for the same
deal), it autoresets in the same step with the finished round in final_obs/final_info,
it takes the single env's arguments, and Gymnasium's own vector wrappers run on it."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from capsa_fast import rl
from capsa_fast.rl.encoding import NUM_ACTIONS, OBS_SIZE, action_cards, observe
from capsa_fast.rl.gym_vec import BantingGymVectorEnv
from gymnasium.vector import AutoresetMode

from tests.rl.helpers import check_observation


def first_legal(obs: dict[str, Any]) -> np.ndarray:
    return np.argmax(obs["action_mask"].astype(bool), axis=1)


def test_make_vec_builds_the_cpp_vector_env() -> None:
    env = gymnasium.make_vec(rl.GYM_ID, num_envs=5, opponents="expert", seat=1, threads=2)
    assert isinstance(env.unwrapped, BantingGymVectorEnv)
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP  # Gymnasium's default
    same = gymnasium.make_vec(rl.GYM_ID, num_envs=2, autoreset_mode="SameStep")
    assert same.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert type(same).metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP  # per instance
    single = gymnasium.make(rl.GYM_ID)
    assert env.single_observation_space == single.observation_space
    assert env.single_action_space == single.action_space
    assert env.vec.seats == ("expert", None, "expert", "expert")
    obs, info = env.reset(seed=4)
    assert env.observation_space.contains(obs)
    assert obs["observation"].shape == (5, OBS_SIZE)
    assert obs["action_mask"].shape == (5, NUM_ACTIONS) and obs["action_mask"].dtype == np.int8
    assert info["seat"].tolist() == [1] * 5 and info["_seat"].all()
    # Gymnasium's own vectorizer over the single env still works by name
    sync = gymnasium.make_vec(rl.GYM_ID, num_envs=2, vectorization_mode="sync")
    assert isinstance(sync, gymnasium.vector.SyncVectorEnv)
    sync.close()


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_copies_are_the_single_envs_rounds(mode: AutoresetMode) -> None:
    # Every position shown is its round's (rebuilt by env.game(i)) as the learner's seat
    # sees it, opponents' order as the single env's, and rewards the round's scores; a
    # round's end is shown where the mode puts it.
    env = BantingGymVectorEnv(
        16, players=3, opponents=["random", "beginner"], seat=2, threads=2, autoreset_mode=mode
    )
    assert env.vec.seats == ("random", "beginner", None)
    obs, _ = env.reset(seed=9)
    rounds = won = restarts = 0
    restarting = np.zeros(env.num_envs, dtype=bool)  # NEXT_STEP: showing a round's end
    rng = np.random.default_rng(1)
    for _ in range(120):
        games = [env.game(i) for i in range(env.num_envs)]
        for i, game in enumerate(games):
            if restarting[i]:
                assert not obs["action_mask"][i].any()
                continue
            assert game.turn == 2
            check_observation(game, 2, obs["observation"][i], obs["action_mask"][i])
        assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
        # any action where a round's end is shown: it is not read
        actions = np.array(
            [
                NUM_ACTIONS + 1 if restarting[i] else rng.choice(np.flatnonzero(m))
                for i, m in enumerate(obs["action_mask"].astype(bool))
            ]
        )
        # the learner's move on the rebuilt round: a round it ends is over there too
        for i, game in enumerate(games):
            a = int(actions[i])
            if not restarting[i]:
                game.move(2, "pass" if a == rl.PASS else action_cards(game, 2, a))
        obs, rewards, terminated, truncated, infos = env.step(actions)
        assert rewards.dtype == np.float64 and not truncated.any()
        for i in np.flatnonzero(restarting):  # the next round, nothing played in it
            restarts += 1
            assert rewards[i] == 0 and not terminated[i]
            check_observation(env.game(i), 2, obs["observation"][i], obs["action_mask"][i])
        ends = infos if mode == AutoresetMode.NEXT_STEP else infos.get("final_info", {})
        for i in np.flatnonzero(terminated):
            rounds += 1
            scores = ends["scores"][i]
            assert ends["_scores"][i] and scores.sum() == 0
            assert rewards[i] == scores[2]
            if mode == AutoresetMode.NEXT_STEP:
                final = {k: obs[k][i] for k in obs}
            else:
                final = infos["final_obs"][i]
            assert final["action_mask"].dtype == np.int8 and not final["action_mask"].any()
            if games[i].over:  # the learner went out: its end of round is the rebuilt one's
                won += 1
                o, _ = observe(games[i], 2)
                assert np.array_equal(final["observation"], o) and rewards[i] > 0
            if mode == AutoresetMode.NEXT_STEP:
                # game(i) and render() show the round whose end the step shows
                shown = env.game(int(i))
                assert shown.over and shown.code == games[i].code
                assert shown.history[: len(games[i].history)] == games[i].history
                o, _ = observe(shown, 2)
                assert np.array_equal(final["observation"], o)
        assert not rewards[~terminated].any()
        if mode == AutoresetMode.SAME_STEP and terminated.any():
            assert infos["_final_obs"].tolist() == terminated.tolist()
        else:
            assert "final_obs" not in infos and "final_info" not in infos
        if not terminated.any():
            assert "scores" not in infos
        restarting = terminated & (mode == AutoresetMode.NEXT_STEP)
    assert rounds > 20 and won > 0
    assert (restarts > 20) == (mode == AutoresetMode.NEXT_STEP)


def test_same_seed_same_run_and_fresh_arrays() -> None:
    def run(threads: int) -> list[bytes]:
        env = BantingGymVectorEnv(8, opponents="standard", threads=threads)
        obs, _ = env.reset(seed=21)
        out = [obs["observation"].tobytes()]
        for _ in range(60):
            obs, rewards, terminated, _, _ = env.step(first_legal(obs))
            out += [obs["observation"].tobytes(), rewards.tobytes(), terminated.tobytes()]
        return out

    assert run(1) == run(2)
    env = BantingGymVectorEnv(2)
    obs1, info1 = env.reset(seed=0)
    obs2, _, _, _, info2 = env.step(first_legal(obs1))
    assert not np.shares_memory(obs1["observation"], obs2["observation"])
    assert not np.shares_memory(obs1["action_mask"], obs2["action_mask"])
    assert not np.shares_memory(info1["seat"], info2["seat"])


def test_illegal_actions() -> None:
    env = BantingGymVectorEnv(4, threads=2, autoreset_mode="SameStep")  # penalty by default
    obs, _ = env.reset(seed=3)
    actions = first_legal(obs)
    actions[2] = NUM_ACTIONS + 5
    obs, rewards, terminated, _, infos = env.step(actions)
    assert terminated[2] and rewards[2] == env.vec.illegal_reward == -39.0
    assert infos["final_info"]["illegal"][2] and infos["final_info"]["_illegal"].sum() == 1
    assert not infos["final_info"]["_scores"][2]
    assert env.vec.forfeited_rounds == 1
    nxt = BantingGymVectorEnv(3, threads=2)  # NEXT_STEP: the position it was tried in
    obs, _ = nxt.reset(seed=3)
    actions = first_legal(obs)
    actions[0] = -1
    after, rewards, terminated, _, infos = nxt.step(actions)
    assert terminated[0] and rewards[0] == -39.0 and infos["illegal"][0]
    assert np.array_equal(after["observation"][0], obs["observation"][0])
    assert np.array_equal(after["action_mask"][0], obs["action_mask"][0])
    strict = BantingGymVectorEnv(2, illegal="raise")
    obs, _ = strict.reset(seed=3)
    bad = first_legal(obs)
    bad[1] = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    with pytest.raises(ValueError, match=r"actions\[1\] = \d+: not legal"):
        strict.step(bad)


@pytest.mark.parametrize("mode", ["NextStep", "SameStep"])
def test_record_episode_statistics_counts_each_round(mode: str) -> None:
    env = gymnasium.wrappers.vector.RecordEpisodeStatistics(
        gymnasium.make_vec(rl.GYM_ID, num_envs=6, opponents="beginner", autoreset_mode=mode)
    )
    obs, _ = env.reset(seed=5)
    steps = np.zeros(6, dtype=np.int64)
    episodes = 0
    for _ in range(200):
        obs, rewards, terminated, _, infos = env.step(first_legal(obs))
        steps += 1
        if terminated.any():
            done = infos["_episode"]
            assert done.tolist() == terminated.tolist()
            assert np.array_equal(infos["episode"]["r"][done], rewards[done])
            assert np.array_equal(infos["episode"]["l"][done], steps[done])
            # next-step autoreset spends the following step on the reset: it is no move
            steps[terminated] = -1 if mode == "NextStep" else 0
            episodes += int(done.sum())
    assert episodes > 20


def test_gymnasium_observation_wrappers_take_it() -> None:
    # Gymnasium's observation wrappers refuse same-step autoreset: the default next-step
    # mode is what lets them wrap the C++ env.
    env = gymnasium.wrappers.vector.FlattenObservation(
        gymnasium.make_vec(rl.GYM_ID, num_envs=4, opponents="beginner")
    )
    obs, _ = env.reset(seed=2)
    assert obs.shape == (4, OBS_SIZE + NUM_ACTIONS)
    for _ in range(30):
        masks = obs[:, OBS_SIZE:].astype(bool)
        actions = np.array([np.flatnonzero(m)[0] if m.any() else 0 for m in masks])
        obs, *_ = env.step(actions)
    with pytest.raises(ValueError, match="autoreset_mode"):
        gymnasium.wrappers.vector.FlattenObservation(
            gymnasium.make_vec(rl.GYM_ID, num_envs=2, autoreset_mode="SameStep")
        )


def test_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="fixed seat"):
        gymnasium.make_vec(rl.GYM_ID, num_envs=2, seat=None)
    with pytest.raises(ValueError, match="seat must be"):
        BantingGymVectorEnv(2, players=2, seat=2)
    with pytest.raises(ValueError, match="one bot level per other seat"):
        BantingGymVectorEnv(2, opponents=["random"] * 3, players=3)
    with pytest.raises(ValueError, match="unknown bot level"):
        BantingGymVectorEnv(2, opponents="grandmaster")
    with pytest.raises(ValueError, match="render_mode"):
        BantingGymVectorEnv(2, render_mode="human")
    with pytest.raises(ValueError, match="n must be"):
        BantingGymVectorEnv(0)
    with pytest.raises(ValueError, match="autoreset_mode must be"):
        BantingGymVectorEnv(2, autoreset_mode="Disabled")
    with pytest.raises(ValueError, match="reset"):
        BantingGymVectorEnv(2).action_masks()
    env = BantingGymVectorEnv(2, render_mode="ansi")
    with pytest.raises(ValueError, match="one integer seeds every copy"):
        env.reset(seed=[1, 2])
    env.reset(seed=1)
    texts = env.render()
    assert texts is not None and len(texts) == 2 and all("3" in t for t in texts)
