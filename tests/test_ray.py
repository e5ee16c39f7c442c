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
from capsa_fast import _ray
from capsa_fast.banting import sim
from capsa_fast.susun import Rules as SusunRules
from capsa_fast.susun import gen_ev_model, tournament

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
        assert sim.main(["--games", "3000", "--seed", "9", "--json", *extra], out=out) == 0
        data = json.loads(out.getvalue())
        return {"seats": data["seats"], "games": data["games"]}

    assert run("--ray") == run("--workers", "2")


def test_tournament_on_ray_equals_the_local_run(local_ray: Any) -> None:
    rules = SusunRules.preset("capsa-susun")
    strategies = ["ev", "percentile", "naive"]
    seen: list[int] = []
    on_ray = tournament.play(
        2000,
        4,
        strategies,
        rules,
        seed=5,
        threads=1,
        ray="local",
        chunk=300,
        progress=lambda d, t, s: seen.append(d),
    )
    local = tournament.play(2000, 4, strategies, rules, seed=5, threads=2)
    assert np.array_equal(on_ray[0], local[0]) and np.array_equal(on_ray[1], local[1])
    assert seen[-1] == 2000 and len(seen) == 7


def test_model_counts_on_ray_equal_the_local_run(local_ray: Any) -> None:
    rules = SusunRules.preset("capsa-susun")
    hands = gen_ev_model.deal(600, seed=2)
    first = gen_ev_model.count_rows(hands, rules, "percentile", 2)
    assert np.array_equal(
        gen_ev_model.count_rows(hands, rules, "percentile", 1, ray="local", chunk=500), first
    )
    # the ev pass builds its model from the counts handed over, on every worker
    second = gen_ev_model.count_rows(hands, rules, "ev", 2, model_counts=first)
    on_ray = gen_ev_model.count_rows(
        hands, rules, "ev", 1, ray="local", chunk=700, model_counts=first
    )
    assert np.array_equal(on_ray, second)
    assert not np.array_equal(second, first)
    assert int(first.sum()) <= 3 * len(hands)


def test_tournament_command_line_with_ray(
    local_ray: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    def run(*extra: str) -> list[str]:
        tournament.main(
            ["--tables", "1500", "--strategies", "percentile,naive", "--seed", "2", *extra]
        )
        lines = capsys.readouterr().out.splitlines()
        return [line for line in lines[1:] if line.strip()]  # the first line has the time

    assert run("--ray", "--chunk", "400") == run()


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
