"""A smoke run of the learning example (examples/train_banting.py): a few seconds of
training, its evaluation and the learning-curve PNG."""

from __future__ import annotations

import io
import json
import runpy
import sys
from contextlib import redirect_stdout
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_banting.py"


def test_training_example_smoke_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    png = tmp_path / "curve.png"
    monkeypatch.setattr(sys, "argv", [str(EXAMPLE), "--smoke", "--plot", str(png)])
    out = io.StringIO()
    with redirect_stdout(out), pytest.raises(SystemExit) as stop:
        runpy.run_path(str(EXAMPLE), run_name="__main__")
    assert stop.value.code == 0
    summary = json.loads(out.getvalue())
    assert summary["training_rounds"] > 0 and summary["curve"]
    for policy in ("final_policy", "random_policy"):
        result = summary[policy]
        assert result["rounds"] == 500
        assert result["low"] <= result["mean"] <= result["high"]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
