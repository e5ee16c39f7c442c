"""Agent steps per second of the reinforcement-learning environments (capsa-banting, 4 seats).

- ``BantingVecEnv``: every seat a learner (self-play), random legal actions drawn in C++
  (``sample_actions``) or in numpy from the returned mask; one learner against three
  ``beginner`` or ``standard`` bots inside C++; one thread and two;
- the PettingZoo AEC env from Python (``env.last()``, a random legal action from the
  mask, ``env.step``), and the Gymnasium env against three standard bots;
- ``gymnasium.make_vec("capsa_fast/Banting-v0")`` against three standard bots: the C++
  vector env (the default, ``vector_entry_point``) and Gymnasium's ``sync`` vectorizer
  over the single env, random legal actions drawn in numpy from the mask;
- rounds per second, and the ratio to the 27-118 random games per second of the Python
  Big Two environments.

Medians of several timed runs; also the CPU time of the process, so a loaded machine's
figures can be read per core. Run: ``.venv/bin/python bench/bench_rl.py [--json]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from capsa_fast._threads import usable_cores
from capsa_fast.rl import GYM_ID, BantingGymEnv, BantingVecEnv, banting_env

REFERENCE_GAMES_PER_S = (27, 118)


def timed(fn: Callable[[], int], repeats: int) -> dict[str, float]:
    """fn() returns (steps); median steps per wall second and per CPU second."""
    wall, cpu = [], []
    for _ in range(repeats):
        c0, t0 = time.process_time(), time.perf_counter()
        steps = fn()
        t1, c1 = time.perf_counter(), time.process_time()
        wall.append(steps / (t1 - t0))
        cpu.append(steps / max(c1 - c0, 1e-9))
    return {"steps_per_s": statistics.median(wall), "steps_per_cpu_s": statistics.median(cpu)}


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per row of a mask: the k-th set bit, k drawn per row
    (action 0 for a row with none: a finished round that Gymnasium's sync vectorizer
    resets on the next step, ignoring its action)."""
    counts = mask.sum(axis=1)
    if not counts.all():
        mask = mask.copy()
        mask[counts == 0, 0] = 1
        counts = mask.sum(axis=1)
    k = (rng.random(len(mask)) * counts).astype(np.int64)
    _rows, cols = np.nonzero(mask)
    starts = np.r_[0, np.cumsum(counts)[:-1]]
    return cols[starts + k]


def stepping(
    step: Callable[[Any], Any], obs: Any, choose: Callable[[Any], Any], n: int, steps: int
) -> Callable[[], int]:
    """A timed run of ``steps`` calls of ``step(choose(obs))`` over ``n`` environments,
    carrying the observation from one run to the next."""
    state = {"obs": obs}

    def run() -> int:
        obs = state["obs"]
        for _ in range(steps):
            obs, *_ = step(choose(obs))
        state["obs"] = obs
        return n * steps

    return run


def vec_case(
    n: int, threads: int, opponents: Any, steps: int, numpy_sampling: bool
) -> Callable[[], int]:
    env = BantingVecEnv(n, opponents=opponents, threads=threads)
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)

    def choose(obs: Any) -> Any:
        return random_legal(obs["action_mask"], rng) if numpy_sampling else env.sample_actions()

    run = stepping(env.step, obs, choose, n, steps)
    run.rounds = lambda: env.rounds_done  # type: ignore[attr-defined]
    return run


def aec_case(steps: int) -> Callable[[], int]:
    env = banting_env()
    env.reset(seed=1)
    rng = np.random.default_rng(1)

    def run() -> int:
        done = 0
        while done < steps:
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                if not env.agents or all(env.terminations.values()):
                    for _ in list(env.agents):
                        env.step(None)
                    env.reset()
                    continue
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            done += 1
        return done

    return run


def gym_case(steps: int) -> Callable[[], int]:
    env = BantingGymEnv(opponents="standard")
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)
    state = {"obs": obs}

    def run() -> int:
        obs = state["obs"]
        for _ in range(steps):
            legal = np.flatnonzero(obs["action_mask"])
            obs, _, done, _, _ = env.step(int(legal[rng.integers(len(legal))]))
            if done:
                obs, _ = env.reset()
        state["obs"] = obs
        return steps

    return run


def make_vec_case(
    n: int, mode: str, threads: int, steps: int, cpp_sampling: bool = False
) -> Callable[[], int]:
    """gymnasium.make_vec against three standard bots; ``mode`` "vector_entry_point" (the
    C++ env) or "sync" (Gymnasium's loop over the single env); actions drawn in numpy from
    the mask, or (``cpp_sampling``, the C++ env only) by the C++ sampler, which leaves the
    env's own cost and the copies Gymnasium's API asks for."""
    kwargs: dict[str, Any] = {"threads": threads} if mode == "vector_entry_point" else {}
    env = gymnasium.make_vec(
        GYM_ID, num_envs=n, vectorization_mode=mode, opponents="standard", **kwargs
    )
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)

    def choose(obs: Any) -> Any:
        if cpp_sampling:
            return env.unwrapped.vec.sample_actions()
        return random_legal(obs["action_mask"], rng)

    return stepping(env.step, obs, choose, n, steps)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=4096, help="environments in the vector env")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows: list[dict[str, Any]] = []

    def add(name: str, fn: Callable[[], int], **extra: Any) -> dict[str, float]:
        fn()  # warm up
        result = timed(fn, args.repeats)
        rows.append({"case": name, **result, **extra})
        return result

    n = args.n
    for threads in (1, 2):
        add(
            f"vec, self-play, C++ sampler, threads={threads}", vec_case(n, threads, None, 40, False)
        )
    # More threads than cores: the pool's threads sleep instead of spinning between calls.
    oversubscribed = 4 * usable_cores()
    add(
        f"vec, self-play, C++ sampler, threads={oversubscribed} (4 per core)",
        vec_case(n, oversubscribed, None, 40, False),
    )
    for threads in (1, 2):
        add(
            f"vec, self-play, numpy sampler, threads={threads}",
            vec_case(n, threads, None, 40, True),
        )
    for level in ("beginner", "standard"):
        for threads in (1, 2):
            add(
                f"vec, 1 learner + 3 {level} bots, threads={threads}",
                vec_case(n, threads, level, 10, False),
            )
    for threads in (1, 2):
        add(
            f"gymnasium.make_vec (C++), 3 standard bots, threads={threads}",
            make_vec_case(n, "vector_entry_point", threads, 10),
        )
    add(
        "gymnasium.make_vec (C++), 3 standard bots, C++ sampler, threads=2",
        make_vec_case(n, "vector_entry_point", 2, 10, cpp_sampling=True),
    )
    add("gymnasium.make_vec sync, 64 envs, 3 standard bots", make_vec_case(64, "sync", 1, 40))
    add("PettingZoo AEC from Python, random legal actions", aec_case(20_000))
    add("Gymnasium env, 3 standard bots, random legal actions", gym_case(5_000))

    # Rounds per second of self-play (every seat a learner): steps per round measured.
    probe = vec_case(n, 2, None, 200, False)
    probe()
    steps_per_round = n * 200 / max(probe.rounds(), 1)  # type: ignore[attr-defined]
    self_play = next(
        r for r in rows if r["case"].startswith("vec, self-play, C++ sampler, threads=2")
    )
    rounds_per_s = self_play["steps_per_s"] / steps_per_round
    aec = next(r for r in rows if r["case"].startswith("PettingZoo"))
    summary = {
        "steps_per_round_self_play": steps_per_round,
        "vec_rounds_per_s": rounds_per_s,
        "vec_vs_python_envs": [
            rounds_per_s / REFERENCE_GAMES_PER_S[1],
            rounds_per_s / REFERENCE_GAMES_PER_S[0],
        ],
        "aec_rounds_per_s": aec["steps_per_s"] / steps_per_round,
        "aec_vs_python_envs": [
            aec["steps_per_s"] / steps_per_round / REFERENCE_GAMES_PER_S[1],
            aec["steps_per_s"] / steps_per_round / REFERENCE_GAMES_PER_S[0],
        ],
    }
    if args.json:
        print(json.dumps({"rows": rows, "summary": summary}, indent=1))
        return
    width = max(len(r["case"]) for r in rows)
    print(f"{'case':<{width}}  {'steps/s':>12}  {'steps/CPU-s':>12}")
    for r in rows:
        print(f"{r['case']:<{width}}  {r['steps_per_s']:>12,.0f}  {r['steps_per_cpu_s']:>12,.0f}")
    print(
        f"\nself-play rounds take {steps_per_round:.1f} steps: {rounds_per_s:,.0f} rounds/s "
        f"in the vector env ({summary['vec_vs_python_envs'][0]:,.0f}x to "
        f"{summary['vec_vs_python_envs'][1]:,.0f}x the Python Big Two envs' 27-118 games/s); "
        f"the AEC env {summary['aec_rounds_per_s']:,.0f} rounds/s "
        f"({summary['aec_vs_python_envs'][0]:,.1f}x to {summary['aec_vs_python_envs'][1]:,.1f}x)"
    )


if __name__ == "__main__":
    main()
