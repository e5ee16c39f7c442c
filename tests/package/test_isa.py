"""CAPSA_FAST_ISA caps the loops the core picks at run time (cpp/include/capsa_fast/isa.hpp):
every capped process gives the same answers as an uncapped one, a loop above the cap cannot
be chosen, and a value the core cannot read stops the import with a message naming it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import capsa_fast
import pytest
from capsa_fast import _core

# Prints what a process with the given cap sees and computes: the loops it may use, and
# strengths and Susun arrangements for fixed hands (the same in every process).
_PROBE = r"""
import json, random
import numpy as np
import capsa_fast
from capsa_fast import _core, susun
rng = random.Random(7)
hands = np.array([rng.sample(range(52), 7) for _ in range(5000)], dtype=np.uint8)
arranged = []
for _ in range(12):
    hand = rng.sample(range(52), 13)
    for strategy in ("ev", "percentile"):
        a = susun.arrange(hand, strategy=strategy)
        arranged.append([list(a.top), list(a.middle), list(a.bottom), round(a.score, 9)])
refused = None
try:
    capsa_fast.poker.set_batch_path("avx512")
except ValueError as error:
    refused = str(error)
print(json.dumps({
    "cap": _core.isa_cap(),
    "batch_paths": list(capsa_fast.poker.batch_paths()),
    "batch_path": capsa_fast.poker.batch_path(),
    "scan_path": _core.susun_scan_path(),
    "strengths": capsa_fast.poker.evaluate_batch(hands).tolist(),
    "strengths5": capsa_fast.poker.evaluate_batch(hands[:, :5].copy()).tolist(),
    "arranged": arranged,
    "refused": refused,
}))
"""


def _probe(isa: str | None) -> dict[str, object]:
    env = {
        k: v for k, v in os.environ.items() if k not in ("CAPSA_FAST_ISA", "CAPSA_FAST_BATCH_PATH")
    }
    if isa is not None:
        env["CAPSA_FAST_ISA"] = isa
    done = subprocess.run(
        [sys.executable, "-c", _PROBE],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


@pytest.fixture(scope="module")
def uncapped() -> dict[str, object]:
    return _probe(None)


def test_unset_means_the_best_the_cpu_has(uncapped: dict[str, object]) -> None:
    assert uncapped["cap"] == "avx512"
    assert _probe("native")["batch_paths"] == uncapped["batch_paths"]


@pytest.mark.parametrize("isa", ["portable", "avx2", "avx512"])
def test_a_capped_process_gives_the_same_answers(isa: str, uncapped: dict[str, object]) -> None:
    got = _probe(isa)
    assert got["cap"] == isa
    assert got["strengths"] == uncapped["strengths"]
    assert got["strengths5"] == uncapped["strengths5"]
    assert got["arranged"] == uncapped["arranged"]
    levels = {"portable": 0, "x86-64-v3": 1, "avx512": 2}
    scans = {"portable": 0, "avx2": 1, "avx512": 2}
    cap = scans[isa]
    paths = got["batch_paths"]
    assert isinstance(paths, list) and paths[0] == "portable"
    assert all(levels[p] <= cap for p in paths)
    assert got["batch_path"] == paths[-1]
    assert scans[str(got["scan_path"])] <= cap
    # Under the cap, every loop the uncapped process has is still there.
    uncapped_paths = uncapped["batch_paths"]
    assert isinstance(uncapped_paths, list)
    assert paths == [p for p in uncapped_paths if levels[p] <= cap]
    if isa == "portable":
        assert paths == ["portable"] and got["scan_path"] == "portable"
    if "avx512" not in paths:
        refused = str(got["refused"])
        assert "avx512" in refused
        if "avx512" in uncapped_paths:
            assert f"CAPSA_FAST_ISA={isa}" in refused


def test_an_unreadable_value_stops_the_import() -> None:
    env = dict(os.environ, CAPSA_FAST_ISA="avx9")
    done = subprocess.run(
        [sys.executable, "-c", "import capsa_fast._core"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode != 0
    assert (
        "CAPSA_FAST_ISA must be one of native, avx512, avx2, portable (got 'avx9')" in done.stderr
    )


def test_this_process_reports_its_paths() -> None:
    assert _core.susun_scan_path() in ("portable", "avx2", "avx512")
    assert capsa_fast.poker.batch_path() in capsa_fast.poker.batch_paths()
