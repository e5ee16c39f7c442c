"""``capsa-fast equity``: the package's answers, as a table or JSON, and usage errors that
name the bad token."""

from __future__ import annotations

import json

import capsa_fast as cf
import pytest
from capsa_fast.cli import main
from click.testing import CliRunner


def run(*args: str) -> str:
    result = CliRunner().invoke(main, ["equity", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_json_is_the_package_answer() -> None:
    got = json.loads(run("AhKh", "QQ+,AKs", "--board", "Qc 7d 2h", "--json"))
    want = cf.poker.equity(["AhKh", "QQ+,AKs"], "Qc 7d 2h")
    assert got["exact"] is True and got["method"] == want.method
    assert got["equity"] == pytest.approx(want.equity)
    assert got["win"] == pytest.approx(want.win)
    assert got["tie"] == pytest.approx(want.tie)
    assert got["combos"] == want.combos and got["board"] == ["Qc", "7d", "2h"]


def test_monte_carlo_with_seed_dead_cards_and_threads() -> None:
    args = ["AA", "KK", "random", "-d", "Kh,2c", "-n", "5000", "--seed", "4", "-t", "2"]
    got = json.loads(run(*args, "--json"))
    want = cf.poker.equity(["AA", "KK", "random"], dead="Kh 2c", samples=5000, seed=4)
    assert got["exact"] is False and got["samples"] == 5000 and got["dead"] == ["Kh", "2c"]
    assert got["equity"] == pytest.approx(want.equity)
    assert got["stderr"] == pytest.approx(want.stderr)


def test_exact_and_monte_carlo_switches() -> None:
    exact = json.loads(run("AhKh", "random", "--exact", "--json"))
    assert exact["exact"] is True
    mc = json.loads(run("AhKh", "QsQc", "--monte-carlo", "--target-stderr", "0.01", "--json"))
    assert mc["exact"] is False and mc["stderr"] <= 0.01
    assert abs(mc["equity"][0] - 0.4621) < 4 * mc["stderr"]


def test_table_says_how_it_was_computed() -> None:
    text = run("AhKh", "QsQc")
    assert "AhKh" in text and "QsQc" in text and "46.214%" in text
    assert "exact" in text and "1,712,304 showdowns" in text
    text = run("AhKh", "QsQc", "-n", "1000", "--seed", "1")
    assert "Monte Carlo" in text and "standard error" in text


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["AhKh", "QQ+,AKx"], "'AKx'"),
        (["AhKh"], "2 to 10 players"),
        (["AhKh", "QQ", "--board", "2c 3d"], "0, 3, 4 or 5"),
        (["AhKh", "QQ", "--board", "2c 3d Zz"], "Zz"),
        (["AhKh", "QQ", "--dead", "Kh"], "player 0: Kh is also among the dead cards"),
        (["AhKh", "AhQd"], "player 1: Ah is also in player 0's hand"),
        (["AhKh", "QQ", "--board", "Qh Qs Qd", "--dead", "Qc"], "player 1: no combination"),
        (["AhKh", "QQ", "--samples", "1"], "--samples"),
        (["AhKh", "QQ", "-n", "10", "--exact"], "samples"),
    ],
)
def test_bad_input_is_a_usage_error_naming_it(args: list[str], needle: str) -> None:
    result = CliRunner().invoke(main, ["equity", *args])
    assert result.exit_code == 2, result.output
    assert needle in result.output, result.output
