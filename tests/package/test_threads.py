"""Calls that split work over threads: their ``threads`` bound, and no crash when the
system will not start as many threads as asked (found by an outside audit: a thread that
failed to start, after others had, ended the process with std::terminate; the vector env
hung). The C++ side is ``cpp/include/capsa_fast/threads.hpp``."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from capsa_fast import banting, poker, susun
from capsa_fast._threads import MAX_THREADS, check_threads, usable_cores
from capsa_fast.rl import BantingVecEnv
from capsa_fast.susun import tournament


@pytest.mark.parametrize("bad", [0, -1, MAX_THREADS + 1, 2**40, 2.0, "2", True])
def test_every_threads_argument_is_checked_alike(bad: object) -> None:
    hands = np.zeros((1, 5), dtype=np.uint8) + np.arange(5, dtype=np.uint8)
    calls = [
        lambda: poker.evaluate_batch(hands, threads=bad),  # type: ignore[arg-type]
        lambda: poker.equity(["AhKh", "QQ"], samples=100, threads=bad),  # type: ignore[arg-type]
        lambda: susun.arrange_batch(np.arange(13)[None, :], threads=bad),  # type: ignore[arg-type]
        lambda: BantingVecEnv(2, threads=bad),  # type: ignore[arg-type]
        lambda: tournament.play(
            10,
            2,
            ["ev", "percentile"],
            susun.Rules.preset("two-four"),
            1,
            bad,  # type: ignore[arg-type]
        ),
    ]
    for call in calls:
        with pytest.raises(ValueError, match=f"threads must be an integer 1..{MAX_THREADS}"):
            call()
    assert check_threads(None) == min(MAX_THREADS, usable_cores())


def test_a_tournament_seed_is_checked() -> None:
    rules = susun.Rules.preset("two-four")
    for seed in (-1, 2**64, "1"):
        with pytest.raises(ValueError, match="seed must be an integer from 0 to 2"):
            tournament.play(10, 2, ["ev", "percentile"], rules, seed, 1)  # type: ignore[arg-type]


def test_the_vector_env_names_the_bots_it_can_run() -> None:
    with pytest.raises(ValueError, match="vector env's bots are random, beginner, standard"):
        BantingVecEnv(2, opponents="master")
    assert BantingVecEnv(2, opponents="expert").threads <= usable_cores()


# Run in a child whose address space holds about 150 thread stacks (8 MB each) beside
# Python: asking for 256 threads makes the system refuse some of them.
_CHILD = textwrap.dedent(
    """
    import json, resource, sys
    import numpy as np
    from capsa_fast import poker, susun
    from capsa_fast.rl import BantingVecEnv
    from capsa_fast.susun import tournament
    limit = int(sys.argv[1]) * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    rng = np.random.default_rng(0)
    sevens = np.argsort(rng.random((4000, 52)), axis=1)[:, :7].astype(np.uint8)
    thirteens = np.argsort(rng.random((600, 52)), axis=1)[:, :13]
    out = {}
    out["equity"] = poker.equity(
        ["AhKh", "QQ+", "random"], samples=50_000, threads=256, seed=1
    ).equity
    out["batch"] = poker.evaluate_batch(sevens, threads=256).tolist()
    out["arrange"] = susun.arrange_batch(thirteens, threads=256)[1].tolist()
    rules = susun.Rules.preset("two-four")
    out["tables"] = tournament.play(
        300, 2, ["ev", "percentile"], rules, 1, 256, chunk=300
    )[0].tolist()
    env = BantingVecEnv(8, threads=256, opponents="beginner")
    env.reset(seed=1)
    out["vec"] = env.threads
    print(json.dumps(out))
    """
)

# The master's 64 search threads, in about 40 stacks' room.
_MASTER_CHILD = textwrap.dedent(
    """
    import json, resource, sys
    from capsa_fast.banting import sim
    limit = int(sys.argv[1]) * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    seats = ("master", "standard", "beginner", "random")
    master = sim.simulate(2, seats=seats, iterations=200, threads=64, seed=3)
    print(json.dumps(master.scores.tolist()))
    """
)


def _child(code: str, megabytes: int) -> object:
    child = subprocess.run(
        [sys.executable, "-c", code, str(megabytes)], capture_output=True, text=True, timeout=300
    )
    assert child.returncode == 0, child.stderr[-2000:]
    return json.loads(child.stdout)


def test_threads_the_system_refuses_do_not_end_the_process() -> None:
    got = _child(_CHILD, 1400)
    assert isinstance(got, dict)
    # The same answers as one thread gives.
    rng = np.random.default_rng(0)
    sevens = np.argsort(rng.random((4000, 52)), axis=1)[:, :7].astype(np.uint8)
    thirteens = np.argsort(rng.random((600, 52)), axis=1)[:, :13]
    one = poker.equity(["AhKh", "QQ+", "random"], samples=50_000, threads=1, seed=1)
    assert got["equity"] == pytest.approx(one.equity, abs=1e-12)
    assert got["batch"] == poker.evaluate_batch(sevens, threads=1).tolist()
    assert got["arrange"] == pytest.approx(susun.arrange_batch(thirteens, threads=1)[1].tolist())
    rules = susun.Rules.preset("two-four")
    alone = tournament.play(300, 2, ["ev", "percentile"], rules, 1, 1, chunk=300)
    assert got["tables"] == alone[0].tolist()
    assert 1 <= got["vec"] <= 256


def test_search_threads_the_system_refuses_do_not_end_the_process() -> None:
    got = _child(_MASTER_CHILD, 450)
    master = banting.sim.simulate(
        2, seats=("master", "standard", "beginner", "random"), iterations=200, threads=1, seed=3
    )
    assert master.scores is not None
    assert got == master.scores.tolist()
