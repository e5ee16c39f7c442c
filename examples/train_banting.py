"""Train a small Capsa Banting policy against bots with the vector environment (numpy only).

The policy is a softmax over the legal actions of a linear score of each action's features,
read from the documented observation (capsa_fast.rl.encoding) and the action's positions in
banting.ACTIONS: its size and whether it leads, how high it plays, the cards it leaves and
how it breaks pairs and triples, whether an opponent is close to going out, passing. It is
trained by REINFORCE with a running baseline on the learner's points per round, against
bots inside C++ (BantingVecEnv(opponents=...)); then the final policy (greedy) plays fresh
rounds against the same bots and its mean points per round is reported with a 95%
interval, beside a random policy's.

    .venv/bin/python examples/train_banting.py --minutes 3 --plot build/learning_curve.png

Prints a JSON summary; ``--plot`` needs matplotlib. ``--smoke`` is a run of a few seconds
(the test suite's).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from capsa_fast import banting
from capsa_fast.rl import OBS_LAYOUT, PASS, BantingVecEnv

# Positions of every play action, padded with -1, and its size.
POSITIONS = np.full((len(banting.ACTIONS), 5), -1, dtype=np.int64)
for _a, _pos in enumerate(banting.ACTIONS):
    POSITIONS[_a, : len(_pos)] = _pos
SIZES = (POSITIONS >= 0).sum(axis=1)

FEATURES = (
    "pass",
    "single",
    "pair",
    "triple",
    "five",
    "lead single",
    "lead pair",
    "lead triple",
    "lead five",
    "mean rank",
    "top rank",
    "top rank when leading",
    "cards left",
    "goes out",
    "groups broken",
    "plays an ace or 2",
    "top rank when an opponent is close",
    "pass when an opponent is close",
    "pass with many cards",
    "lone cards left",
)


def section(obs: np.ndarray, name: str) -> np.ndarray:
    offset, size = OBS_LAYOUT[name]
    return obs[:, offset : offset + size]


def features(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(env index, action, features) of every legal action of every environment."""
    env, action = np.nonzero(mask)
    k = len(env)
    phi = np.zeros((k, len(FEATURES)), dtype=np.float64)
    row = section(obs, "row").reshape(-1, 13, 17)[:, :, :13]
    held_ranks = np.where(row.any(axis=2), row.argmax(axis=2), -1)  # [n, 13], -1 past the end
    counts = section(obs, "hand").reshape(-1, 13, 4).sum(axis=2)  # cards per rank
    held = counts.sum(axis=1)
    opp = section(obs, "counts").reshape(-1, 4, 14)[:, 1:, :].argmax(axis=2)
    present = section(obs, "counts").reshape(-1, 4, 14)[:, 1:, :].any(axis=2)
    opp_min = np.where(present & (opp > 0), opp, 99).min(axis=1)
    close = (opp_min <= 2).astype(np.float64)[env]
    leading = section(obs, "table_kind")[:, 0].astype(np.float64)[env]

    is_pass = action == PASS
    play = ~is_pass
    phi[is_pass, 0] = 1.0
    phi[is_pass, 17] = close[is_pass]
    phi[is_pass, 18] = held[env[is_pass]] / 13.0
    a = action[play]
    e = env[play]
    pos = POSITIONS[a]
    size = SIZES[a]
    ranks = np.where(pos >= 0, held_ranks[e[:, None], np.maximum(pos, 0)], -1)
    valid = ranks >= 0
    top = ranks.max(axis=1) / 12.0
    mean = np.where(valid, ranks, 0).sum(axis=1) / size / 12.0
    size_col = np.select([size == 1, size == 2, size == 3], [1, 2, 3], 4)
    rows = np.flatnonzero(play)
    phi[rows, size_col] = 1.0
    phi[rows, size_col + 4] = leading[play]
    phi[rows, 9] = mean
    phi[rows, 10] = top
    phi[rows, 11] = top * leading[play]
    taken = np.zeros((len(a), 13))
    np.add.at(taken, (np.repeat(np.arange(len(a)), 5)[valid.ravel()], ranks[valid]), 1)
    left = counts[e] - taken
    phi[rows, 12] = (held[e] - size) / 13.0
    phi[rows, 13] = (held[e] == size).astype(np.float64)
    phi[rows, 14] = ((taken > 0) & (left > 0)).sum(axis=1) / 2.0
    phi[rows, 15] = (ranks.max(axis=1) >= 11).astype(np.float64)
    phi[rows, 16] = top * close[play]
    phi[rows, 19] = (left == 1).sum(axis=1) / 13.0
    return env, action, phi


def choose(
    theta: np.ndarray,
    obs: np.ndarray,
    mask: np.ndarray,
    rng: np.random.Generator,
    greedy: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """An action per environment, and the gradient of its log-probability [n, d]."""
    n = len(mask)
    env, action, phi = features(obs, mask)
    score = phi @ theta
    # softmax within each environment's legal actions (env is sorted: np.nonzero order)
    starts = np.flatnonzero(np.r_[True, env[1:] != env[:-1]])
    top = np.maximum.reduceat(score, starts)
    w = np.exp(score - np.repeat(top, np.diff(np.r_[starts, len(env)])))
    total = np.add.reduceat(w, starts)
    p = w / np.repeat(total, np.diff(np.r_[starts, len(env)]))
    # greedy: the best score; else Gumbel-max, a sample from p
    keyed = score if greedy else np.log(p) + rng.gumbel(size=len(p))
    best = np.zeros(n, dtype=np.int64)
    order = np.lexsort((keyed, env))  # by env, then key ascending: the last of each is max
    last = np.r_[np.flatnonzero(env[order][1:] != env[order][:-1]), len(env) - 1]
    picked = order[last]
    best[env[picked]] = action[picked]
    expected = np.zeros((n, phi.shape[1]))
    np.add.at(expected, env, p[:, None] * phi)
    grad = -expected
    grad[env[picked]] += phi[picked]
    return best, grad


def evaluate(
    theta: np.ndarray | None, opponent: str, rounds: int, seed: int, n: int = 512
) -> dict[str, float]:
    """Mean points per round (95% interval) and win rate of the policy (greedy), or of a
    uniformly random policy when theta is None, in seat 0 against three bots."""
    env = BantingVecEnv(n, opponents=opponent)
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    scores: list[float] = []
    while len(scores) < rounds:
        if theta is None:
            actions = env.sample_actions()
        else:
            actions, _ = choose(theta, obs["observation"], obs["action_mask"], rng, greedy=True)
        obs, rewards, done, _, _ = env.step(actions)
        scores.extend(rewards[done, 0].tolist())
    x = np.asarray(scores[:rounds])
    half = 1.96 * x.std(ddof=1) / math.sqrt(len(x))
    return {
        "rounds": len(x),
        "mean": float(x.mean()),
        "low": float(x.mean() - half),
        "high": float(x.mean() + half),
        "win_rate": float((x > 0).mean()),
    }


def train(args: argparse.Namespace) -> dict[str, Any]:
    rng = np.random.default_rng(args.seed)
    theta = np.zeros(len(FEATURES))
    env = BantingVecEnv(args.envs, opponents=args.opponent)
    obs, _ = env.reset(seed=args.seed)
    episode_grad = np.zeros((args.envs, len(FEATURES)))
    baseline = 0.0
    curve: list[tuple[int, float]] = []
    window: list[float] = []
    rounds = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < args.minutes * 60:
        actions, grad = choose(theta, obs["observation"], obs["action_mask"], rng)
        episode_grad += grad
        obs, rewards, done, _, _ = env.step(actions)
        if done.any():
            r = rewards[done, 0].astype(np.float64)
            advantage = (r - baseline) / 10.0
            theta += args.lr * (advantage[:, None] * episode_grad[done]).mean(axis=0)
            baseline += 0.01 * (r.mean() - baseline)
            episode_grad[done] = 0.0
            rounds += int(done.sum())
            window.extend(r.tolist())
            if len(window) >= args.curve_every:
                curve.append((rounds, float(np.mean(window))))
                window = []
    seconds = time.perf_counter() - t0
    return {"theta": theta, "curve": curve, "rounds": rounds, "seconds": seconds}


def plot(
    curve: list[tuple[int, float]], final: dict[str, float], opponent: str, path: Path
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [c[0] for c in curve]
    ys = [c[1] for c in curve]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(xs, ys, label="training (sampled actions), mean per window")
    ax.axhline(0.0, color="grey", linewidth=0.8)
    ax.axhline(
        final["mean"],
        color="tab:green",
        linestyle="--",
        label=f"final policy, greedy: {final['mean']:+.2f} per round",
    )
    ax.set_xlabel("rounds played")
    ax.set_ylabel(f"points per round vs 3 {opponent} bots")
    ax.set_title("Capsa Banting: a linear policy learning with BantingVecEnv")
    ax.legend(loc="lower right")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="training time")
    parser.add_argument("--envs", type=int, default=256, help="rounds stepped together")
    parser.add_argument("--opponent", default="beginner", choices=banting.BOT_LEVELS)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--eval-rounds", type=int, default=20_000)
    parser.add_argument("--curve-every", type=int, default=5_000, help="rounds per curve point")
    parser.add_argument("--plot", type=Path, default=None, help="write the learning curve PNG")
    parser.add_argument("--smoke", action="store_true", help="a few seconds, for the tests")
    args = parser.parse_args(argv)
    if args.smoke:
        args.minutes, args.envs, args.eval_rounds, args.curve_every = 0.05, 64, 500, 200
    result = train(args)
    final = evaluate(result["theta"], args.opponent, args.eval_rounds, seed=args.seed + 1000)
    random_policy = evaluate(None, args.opponent, args.eval_rounds, seed=args.seed + 2000)
    summary = {
        "opponent": args.opponent,
        "training_rounds": result["rounds"],
        "training_seconds": round(result["seconds"], 1),
        "final_policy": final,
        "random_policy": random_policy,
        "weights": dict(zip(FEATURES, np.round(result["theta"], 3).tolist(), strict=True)),
        "curve": result["curve"],
    }
    if args.plot is not None:
        plot(result["curve"], final, args.opponent, args.plot)
        summary["plot"] = str(args.plot)
    json.dump(summary, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
