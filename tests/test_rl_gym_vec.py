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

from tests.rl_helpers import check_observation


def first_legal(obs: dict[str, Any]) -> np.ndarray:
    return np.argmax(obs["action_mask"].astype(bool), axis=1)


def test_make_vec_builds_the_cpp_vector_env() -> None:
    env = gymnasium.make_vec(rl.GYM_ID, num_envs=5, opponents="expert", seat=1, threads=2)
    assert isinstance(env.unwrapped, BantingGymVectorEnv)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
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


def test_copies_are_the_single_envs_rounds() -> None:
    # Every position shown is its round's (rebuilt by env.game(i)) as the learner's seat
    # sees it, opponents' order as the single env's, and rewards the round's scores.
    env = BantingGymVectorEnv(16, players=3, opponents=["random", "beginner"], seat=2, threads=2)
    assert env.vec.seats == ("random", "beginner", None)
    obs, _ = env.reset(seed=9)
    rounds = won = 0
    rng = np.random.default_rng(1)
    for _ in range(120):
        games = [env.game(i) for i in range(env.num_envs)]
        for i, game in enumerate(games):
            assert game.turn == 2
            check_observation(game, 2, obs["observation"][i], obs["action_mask"][i])
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"].astype(bool)])
        # the learner's move on the rebuilt round: a round it ends is over there too
        for i, game in enumerate(games):
            a = int(actions[i])
            game.move(2, "pass" if a == rl.PASS else action_cards(game, 2, a))
        obs, rewards, terminated, truncated, infos = env.step(actions)
        assert rewards.dtype == np.float64 and not truncated.any()
        for i in np.flatnonzero(terminated):
            rounds += 1
            scores = infos["final_info"]["scores"][i]
            assert infos["final_info"]["_scores"][i] and scores.sum() == 0
            assert rewards[i] == scores[2]
            final = infos["final_obs"][i]
            assert final["action_mask"].dtype == np.int8 and not final["action_mask"].any()
            if games[i].over:  # the learner went out: its end of round is the rebuilt one's
                won += 1
                o, _ = observe(games[i], 2)
                assert np.array_equal(final["observation"], o) and rewards[i] > 0
        assert not rewards[~terminated].any()
        if terminated.any():
            assert infos["_final_obs"].tolist() == terminated.tolist()
        else:
            assert "final_obs" not in infos and "final_info" not in infos
    assert rounds > 20 and won > 0


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
    env = BantingGymVectorEnv(4, threads=2)  # penalty, as the single env
    obs, _ = env.reset(seed=3)
    actions = first_legal(obs)
    actions[2] = NUM_ACTIONS + 5
    obs, rewards, terminated, _, infos = env.step(actions)
    assert terminated[2] and rewards[2] == env.vec.illegal_reward == -39.0
    assert infos["final_info"]["illegal"][2] and infos["final_info"]["_illegal"].sum() == 1
    assert not infos["final_info"]["_scores"][2]
    assert env.vec.forfeited_rounds == 1
    strict = BantingGymVectorEnv(2, illegal="raise")
    obs, _ = strict.reset(seed=3)
    bad = first_legal(obs)
    bad[1] = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    with pytest.raises(ValueError, match=r"actions\[1\] = \d+: not legal"):
        strict.step(bad)


def test_record_episode_statistics_counts_each_round() -> None:
    env = gymnasium.wrappers.vector.RecordEpisodeStatistics(
        gymnasium.make_vec(rl.GYM_ID, num_envs=6, opponents="beginner")
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
            steps[terminated] = 0
            episodes += int(done.sum())
    assert episodes > 20


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
    env = BantingGymVectorEnv(2, render_mode="ansi")
    with pytest.raises(ValueError, match="one integer seeds every copy"):
        env.reset(seed=[1, 2])
    env.reset(seed=1)
    texts = env.render()
    assert texts is not None and len(texts) == 2 and all("3" in t for t in texts)
