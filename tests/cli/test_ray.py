"""The Ray backend: sim, tournament and model generation split into seeded chunks give the
single-machine results on a local Ray of 2 CPUs, with progress as chunks finish. One local
Ray serves the whole session (the ``local_ray`` fixture) and is always shut down."""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import numpy as np
import pytest
from capsa_fast import _ray, cli
from capsa_fast.banting import duplicate, sim
from capsa_fast.cli import sim as sim_command
from capsa_fast.susun import Rules as SusunRules
from capsa_fast.susun import gen_ev_model, tournament
from click.testing import CliRunner

# Each test, with the start of the session's local Ray in the first one and its shutdown in
# the last, is bounded: a Ray that hangs fails the run after this many seconds (the thread
# method ends the process even when Ray blocks in C++).
pytestmark = pytest.mark.timeout(240, method="thread")


def test_sim_on_ray_equals_the_local_run(local_ray: Any) -> None:
    calls: list[tuple[int, int]] = []
    seats = ("standard", "beginner", "random", "beginner")
    on_ray = sim.simulate(
        6000, seats, seed=3, chunk=700, ray="local", progress=lambda d, t, s: calls.append((d, t))
    )
    local = sim.simulate(6000, seats, seed=3, chunk=700, workers=2)
    assert np.array_equal(on_ray.scores, local.scores)
    assert np.array_equal(on_ray.winners, local.winners)
    lean = sim.simulate(6000, seats, seed=3, chunk=700, ray="local", keep_rounds=False)
    assert lean.scores is None and lean.totals == sim.Totals.of(local.scores, local.winners)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    assert calls[-1] == (6000, 6000) and len(calls) == 9
    # previous-winner: each chunk is a match, wherever it runs
    rules = {"preset": "taiwan", "first_lead": "previous-winner"}
    a = sim.simulate(3000, rules=rules, seed=4, chunk=500, ray="local")
    b = sim.simulate(3000, rules=rules, seed=4, chunk=500)
    assert np.array_equal(a.scores, b.scores)
    assert not np.array_equal(a.scores, sim.simulate(3000, rules=rules, seed=5, chunk=500).scores)


def test_sim_command_line_with_ray(local_ray: Any) -> None:
    def run(*extra: str) -> dict[str, Any]:
        out = io.StringIO()
        assert sim_command.main(["--games", "3000", "--seed", "9", "--json", *extra], out=out) == 0
        data = json.loads(out.getvalue())
        return {"seats": data["seats"], "games": data["games"]}

    assert run("--ray") == run("--workers", "2")


def test_tournament_on_ray_equals_the_local_run(local_ray: Any) -> None:
    rules = SusunRules.preset("capsa-susun")
    strategies = ["ev", "percentile", "naive"]
    seen: list[int] = []
    on_ray = tournament.play(
        2000, 4, strategies, rules, seed=5, threads=1, progress=seen.append, chunk=300, ray="local"
    )
    local = tournament.play(2000, 4, strategies, rules, seed=5, threads=2)
    assert np.array_equal(on_ray[0], local[0]) and np.array_equal(on_ray[1], local[1])
    # Chunks finish in any order (the last one holds 200 tables), so the running count
    # rises by 300 or 200 per chunk and ends at the whole.
    assert len(seen) == 7 and seen[-1] == 2000
    assert sorted(np.diff([0, *seen]).tolist()) == [200] + [300] * 6


def test_model_counts_on_ray_equal_the_local_run(local_ray: Any) -> None:
    rules = SusunRules.preset("capsa-susun")
    hands = gen_ev_model.deal(150, 4, seed=2)
    first = gen_ev_model.count_rows(hands, rules, "percentile", 4, 2)
    assert np.array_equal(
        gen_ev_model.count_rows(hands, rules, "percentile", 4, 1, ray="local", chunk=500), first
    )
    # the ev pass hands the model's counts, as read by the driver, to every worker
    second = gen_ev_model.count_rows(hands, rules, "ev", 4, 2)
    on_ray = gen_ev_model.count_rows(hands, rules, "ev", 4, 1, ray="local", chunk=700)
    assert np.array_equal(on_ray, second)
    assert not np.array_equal(second, first)
    assert int(first.sum()) <= 3 * len(hands)


def test_tournament_command_line_with_ray(local_ray: Any) -> None:
    def run(*extra: str) -> dict[str, Any]:
        args = ["tournament", "--tables", "1500", "--strategies", "percentile,naive", "--json"]
        result = CliRunner().invoke(cli.main, [*args, *extra])
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        del data["seconds"]
        return data

    on_ray = run("--ray", "--chunk", "400")
    assert on_ray == run() and on_ray["tables"] == 1500


def test_duplicate_deals_on_ray_equal_the_local_run(local_ray: Any) -> None:
    """The strength evaluations (duplicate deals) on Ray: the same points per deal, and the
    running figures as chunks finish in any order."""
    seen: list[int] = []
    lineup = ("master", "standard", "beginner")
    rules = {"preset": "capsa-klasik"}  # two_demotion and pass_locks travel to the workers

    def step(so_far: duplicate.DuplicateResult, total: int) -> None:
        assert total == 30 and so_far.points.shape[1] == 3
        seen.append(so_far.deals)

    on_ray = duplicate.play(
        30, lineup, rules, seed=7, chunk=7, iterations=60, ray="local", progress=step
    )
    local = duplicate.play(30, lineup, rules, seed=7, chunk=10, iterations=60, workers=2)
    assert np.array_equal(on_ray.points, local.points)
    assert sorted(np.diff([0, *seen]).tolist()) == [2, 7, 7, 7, 7] and seen[-1] == 30
    other = duplicate.play(30, lineup, rules, seed=8, chunk=10, iterations=60)
    assert not np.array_equal(other.points, local.points)


def test_duplicate_command_lines_with_ray(local_ray: Any) -> None:
    def run(*args: str) -> dict[str, Any]:
        result = CliRunner().invoke(cli.main, [*args, "--json"])
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        del data["seconds"]
        return data

    sim_args = ["sim", "--duplicate", "--games", "40", "--seats", "standard,beginner,random"]
    assert run(*sim_args, "--ray", "--chunk", "9") == run(*sim_args, "--workers", "2")
    susun = ["tournament", "--duplicate", "--tables", "300", "--strategies", "ev,naive"]
    on_ray = run(*susun, "--ray", "--chunk", "70")
    assert on_ray == run(*susun) and on_ray["deals"] == 300
    assert on_ray["difference"]["a"] == "ev"


def test_command_line_ray_option_takes_an_address(
    local_ray: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[str, int | None]] = []
    monkeypatch.setattr(
        _ray, "connect", lambda address, cpus=None: seen.append((address, cpus)) or local_ray
    )
    args = ["sim", "--games", "200", "--json", "--workers", "2"]
    assert CliRunner().invoke(cli.main, [*args, "--ray", "auto"]).exit_code == 0
    # a bare --ray before another option is the local Ray, with --workers CPUs
    assert CliRunner().invoke(cli.main, ["sim", "--ray", "--games", "200", "--json"]).exit_code == 0
    # the command starts or joins Ray (a local one with --workers CPUs), then the run joins it
    assert seen == [("auto", 2), ("auto", None), ("local", None), ("local", None)]


def test_without_ray_the_message_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ImportError, match=r"capsa_fast\[ray\]"):
        _ray.connect("local")
    with pytest.raises(ImportError, match=r"capsa_fast\[ray\]"):
        sim.simulate(10, ray="local")


def test_local_chunks_keep_their_order() -> None:
    done: list[int] = []
    out = _ray.run_chunks(
        lambda c: c * c,
        list(range(10)),
        threads=3,
        progress=lambda d, t, s: done.append(d),
        units=lambda c: 2,
    )
    assert out == [c * c for c in range(10)]
    assert done == list(range(2, 21, 2))
