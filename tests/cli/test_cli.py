"""The ``capsa-fast`` command line: every subcommand, its --help and --json."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import capsa_fast as cf
import numpy as np
import pytest
from capsa_fast import banting, susun
from capsa_fast.banting.game import MASTER_ITERATIONS
from capsa_fast.banting.sim import simulate
from capsa_fast.cli import COMMANDS, main
from capsa_fast.cli._common import progress
from capsa_fast.susun import ev, tournament
from click.testing import CliRunner
from rich.console import Console

from api import create_app

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, input: str | None = None) -> str:
    result = CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_help_lists_every_subcommand_without_importing_them() -> None:
    """`capsa-fast --help` reads the registry only: no subcommand module, no numpy, so it
    answers at once (README: the figure)."""
    code = (
        "import sys\nfrom capsa_fast.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith(('numpy', 'capsa_fast.'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    for name in COMMANDS:
        assert f"  {name}" in done.stdout
    loaded = json.loads(done.stdout.strip().splitlines()[-1].replace("'", '"'))
    # capsa_fast._gym: the package's few lines that register the Gymnasium id on import.
    assert loaded == ["capsa_fast._gym", "capsa_fast.cli"], loaded


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_subcommand_has_help_and_json(name: str) -> None:
    text = run(name, "--help")
    assert "--json" in text and "Usage:" in text


def test_the_console_script_and_python_m_answer() -> None:
    for command in (
        [str(Path(sys.executable).parent / "capsa-fast"), "--version"],
        [sys.executable, "-m", "capsa_fast", "--version"],
    ):
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        assert done.stdout.strip() == f"capsa-fast {cf.__version__}"


def test_eval_matches_the_package() -> None:
    answer = json.loads(run("eval", "Ah Kh Qh Jh Th", "2c As 5d 3h Kd 4s Ks", "--json"))
    assert [a["label"] for a in answer] == ["Royal flush", "Straight, five high"]
    assert answer[1]["strength"] == cf.poker.evaluate("2c As 5d 3h Kd 4s Ks").strength
    assert json.loads(run("eval", "--json", "--lang", "id", input="Qs Qd 7c 4h 2s\n"))[
        "label"
    ] == cf.poker.label_of(cf.poker.evaluate("Qs Qd 7c 4h 2s").strength, "id")
    assert "Royal flush" in run("eval", "AhKhQhJhTh")
    bad = CliRunner().invoke(main, ["eval", "Ah Kh Zz"])
    assert bad.exit_code == 2 and "Zz" in bad.output
    # Ids, as the help says: 0 4 8 12 16 is 2c 3c 4c 5c 6c.
    ids = json.loads(run("eval", "0 4 8 12 16", "--json"))
    assert ids["hand"] == ["2c", "3c", "4c", "5c", "6c"] and ids["category"] == "straight_flush"
    bad = CliRunner().invoke(main, ["eval", "0 4 8 12 99"])
    assert bad.exit_code == 2 and "99" in bad.output


def test_arrange_matches_the_package() -> None:
    hand = "As Ks Qs Js 9d 9c 9h 2d 3d 4d 5h 6h 7h"
    answer = json.loads(run("arrange", hand, "--strategy", "percentile", "--json"))
    found = susun.arrange(hand, strategy="percentile")
    assert answer["top"] == cf.format_cards(found.top)
    assert answer["bottom"] == cf.format_cards(found.bottom)
    assert answer["valid_arrangements"] == found.valid_arrangements
    assert [row["row"] for row in answer["rows"]] == ["Top", "Middle", "Bottom"]
    assert "Bottom" in run("arrange", *hand.split())
    assert CliRunner().invoke(main, ["arrange", "As Ks"]).exit_code == 2
    # Every strategy of the package, and ev's model for the table size.
    from capsa_fast.cli.arrange import command as arrange_command

    option = next(p for p in arrange_command.params if p.name == "strategy")
    assert tuple(option.type.choices) == susun.ARRANGERS
    heads_up = json.loads(run("arrange", hand, "--strategy", "ev-v3", "--players", "2", "--json"))
    found = susun.arrange(hand, strategy="ev-v3", players=2)
    assert heads_up["middle"] == cf.format_cards(found.middle)
    assert heads_up["strategy"] == "ev-v3"


def test_play_a_whole_round_with_json_lines() -> None:
    """A scripted player (the hint at every turn, as a copy of the game would play it) goes
    through a whole round; the result is the one the package gives for the same code."""
    levels = ["standard", "beginner", "beginner"]
    copy = banting.Game("capsa-banting", players=4, code="FRIDAY-GAME")
    moves = []
    while not copy.over:
        if copy.turn == 0:
            hint = copy.hint(0)
            # Cards by name, and every other play by id (0-51) as in the API: a JSON list of
            # numbers names cards, not their places in the hand.
            cards = list(hint.cards) if len(moves) % 2 else cf.format_cards(hint.cards)
            moves.append("pass" if hint.is_pass else cards)
            copy.move(0, "pass" if hint.is_pass else hint.cards)
        else:
            copy.bot_play(copy.turn, levels[copy.turn - 1])
    script = "".join(json.dumps(move) + "\n" for move in ["nonsense", *moves])
    output = run(
        "play", "--json", "--code", "FRIDAY-GAME", "--bots", ",".join(levels), input=script
    )
    events = [json.loads(line) for line in output.splitlines() if line.startswith("{")]
    assert events[0]["event"] == "deal" and len(events[0]["hand"]) == 13
    assert events[0]["code"] == "FRIDAY-GAME"
    assert any(e["event"] == "refused" for e in events)  # the nonsense line
    result = events[-1]
    assert result["event"] == "result"
    assert result["scores"] == list(copy.result.scores)
    assert result["winner"] == copy.result.winner


def test_play_in_the_terminal_refuses_and_quits() -> None:
    output = run("play", "--code", "FRIDAY", "--bots", "standard", input="hint\n99\nquit\n")
    assert "Round 1, code FRIDAY" in output and "Hint:" in output
    assert "card numbers run from 1 to" in output and "Bye." in output


def test_sim_json_and_errors() -> None:
    answer = json.loads(run("sim", "--games", "400", "--seats", "standard,random", "--json"))
    assert answer["games"] == 400 and len(answer["seats"]) == 2

    # One game or one table: the 95% intervals are unbounded, printed as null (JSON has
    # no Infinity; a strict parser refuses it).
    def refuse(name: str) -> None:
        raise AssertionError(f"{name} in the JSON output")

    for args in (["sim", "--games", "1"], ["tournament", "--tables", "1"]):
        json.loads(run(*args, "--json"), parse_constant=refuse)
    bad = CliRunner().invoke(main, ["sim", "--seats", "standard,grandmaster"])
    assert bad.exit_code == 2 and "unknown bot level 'grandmaster'" in bad.output


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["sim", "--games", "2", "--seats", "master,standard", "--iterations", "0"], "iterations"),
        (["sim", "--games", "2", "--seats", "master,standard", "--time-ms", "-5"], "time_ms"),
        (["sim", "--games", "2", "--seats", "master,standard", "--threads", "0"], "threads"),
        (["sim", "--games", "2", "--duplicate", "--progress", "/no/such/dir/f.txt"], "--progress"),
        (["tournament", "--tables", "10", "--threads", "0"], "--threads"),
        (["bench", "--quick", "--batch-only", "--plot", "/no/such/dir/x.png"], "--plot"),
        (["bench", "--quick", "--external", "/no/such/lib.so"], "cannot be loaded"),
        # Sizes whose list of chunks alone would fill the memory.
        (["sim", "--games", str(10**12)], "0..1,000,000,000"),
        (["tournament", "--tables", str(10**12)], "0..1,000,000,000"),
    ],
)
def test_bad_options_are_refused_before_any_work(args: list[str], needle: str) -> None:
    """A clear message and a non-zero exit, never a traceback (nor a run that ignores them)."""
    result = CliRunner().invoke(main, args)
    assert result.exit_code != 0
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert needle in result.output + str(result.exception)


def test_plain_sim_plays_master_at_the_budget_given() -> None:
    """--iterations reaches the master without --duplicate too (it was ignored there)."""
    seats = ["master", "standard", "standard", "standard"]
    few = simulate(6, seats, seed=5, iterations=1)
    default = simulate(6, seats, seed=5)
    again = simulate(6, seats, seed=5, iterations=MASTER_ITERATIONS)
    assert np.array_equal(default.scores, again.scores)
    assert not np.array_equal(few.scores, default.scores)


def test_tournament_results_do_not_depend_on_the_chunk() -> None:
    rules = susun.Rules.preset("classic")
    seen: list[int] = []
    small = tournament.play(50, 3, ["naive", "percentile"], rules, 4, 1, seen.append, chunk=7)
    whole = tournament.play(50, 3, ["naive", "percentile"], rules, 4, 1, chunk=1000)
    assert np.array_equal(small[0], whole[0]) and np.array_equal(small[1], whole[1])
    assert seen == [7, 14, 21, 28, 35, 42, 49, 50]
    answer = json.loads(
        run("tournament", "--tables", "60", "--strategies", "naive,beginner", "--json")
    )
    assert answer["tables"] == 60 and len(answer["pairs"]) == 1


def test_progress_shows_a_bar_with_an_eta_on_a_terminal_only() -> None:
    screen = io.StringIO()
    terminal = Console(file=screen, force_terminal=True, width=100)
    with progress(10, "rounds", out=terminal) as advance:
        for done in range(1, 11):
            advance(done)
    text = screen.getvalue()
    assert "rounds" in text and "10/10" in text and "eta" in text
    plain = io.StringIO()
    with progress(10, "rounds", out=Console(file=plain, force_terminal=False)) as advance:
        advance(10)
    assert plain.getvalue() == ""


def test_serve_json_prints_the_settings_it_would_serve_with(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CAPSA_FAST_MAX_BATCH_HANDS", "500")
    answer = json.loads(run("serve", "--port", "9123", "--workers", "3", "--json"))
    assert answer["server"]["port"] == 9123 and answer["server"]["workers"] == 3
    assert answer["app"]["max_batch_hands"] == 500
    assert answer["command"][-1] == "api.server.asgi:create_asgi_app()"
    # The session store the app would use, not null: unset, the app's instance folder.
    monkeypatch.delenv("CAPSA_FAST_GAMES_DB", raising=False)
    answer = json.loads(run("serve", "--json"))
    assert answer["app"]["games_db"] == create_app().config["GAMES_DB"]
    assert answer["app"]["games_db"].endswith("games.sqlite3")


def test_bench_quick_with_json_and_plot(tmp_path: Path) -> None:
    chart = tmp_path / "bench.png"
    answer = json.loads(run("bench", "--quick", "--batch-only", "--json", "--plot", str(chart)))
    assert {row["k"] for row in answer["rows"]} == {5, 7}
    assert chart.read_bytes().startswith(b"\x89PNG")
    for scaling in answer["thread_scaling"]:
        # Two processes at once against one alone: twice the ratio of the medians. Not a
        # bound on it: with --quick's few calls, other load on the machine while the lone
        # process runs can push it past 2 (2.7 was seen with a sim running beside the tests).
        one, two = scaling["one_process_ms"], scaling["two_processes_ms"]
        assert one > 0 and two > 0
        assert scaling["process_speedup"] == pytest.approx(2 * one / two)
        # Still a sanity bound: two processes on at most two cores are not 4x one alone,
        # nor 4x slower than it, however loaded the machine.
        assert 0.25 < scaling["process_speedup"] < 4
        assert scaling["speedup"] == pytest.approx(
            scaling["one_thread_ms"] / scaling["two_threads_ms"]
        )
        assert scaling["hot_speedup"] == pytest.approx(
            scaling["one_thread_hot_ms"] / scaling["two_threads_hot_ms"]
        )
        assert 0.25 < scaling["hot_speedup"] < 4


def test_gen_ev_model_writes_where_out_says(tmp_path: Path) -> None:
    shipped = {path: path.stat().st_mtime_ns for path in ev.DATA_DIR.glob("*.npz")}
    subprocess.run(
        [
            sys.executable,
            "-m",
            "capsa_fast.susun.gen_ev_model",
            "--out",
            str(tmp_path / "model"),
            "--hands",
            "600",
            "--presets",
            "two-four,classic",
            "--players",
            "2,3",
            "--iterations",
            "3",
            "--threads",
            "1",
        ],
        check=True,
        capture_output=True,
        env={k: v for k, v in os.environ.items() if k != "CAPSA_FAST_EV_DATA"},
    )
    for preset in ("two-four", "classic"):
        for players in (2, 3):
            with np.load(tmp_path / "model" / f"ev_{preset}_{players}p.npz") as data:
                assert int(data["tables"]) == 600 // players and int(data["iteration"]) == 2
                assert int(data["players"]) == players and str(data["preset"]) == preset
                # The model is the sum of the two ev passes (ev never fouls): every
                # position counts each hand twice.
                hands = 600 // players * players
                assert bool(data["averaged"])
                assert data["counts"].sum(axis=1).tolist() == [2 * hands] * 3
    assert {path: path.stat().st_mtime_ns for path in ev.DATA_DIR.glob("*.npz")} == shipped


def test_gen_ev_model_no_average_keeps_the_last_pass(tmp_path: Path) -> None:
    from capsa_fast.susun import gen_ev_model

    out = tmp_path / "model"
    args = ["--out", str(out), "--hands", "400", "--presets", "two-four", "--players", "2"]
    gen_ev_model.main([*args, "--iterations", "3", "--threads", "1", "--no-average"])
    with np.load(out / "ev_two-four_2p.npz") as data:
        assert not bool(data["averaged"]) and int(data["iteration"]) == 2
        last = data["counts"].astype(np.int64)
    assert last.sum(axis=1).tolist() == [400] * 3
    # The same passes averaged: the third pass arranged against the second's model in
    # both runs, so the sum holds the last pass's counts plus the second's.
    gen_ev_model.main([*args, "--iterations", "3", "--threads", "1"])
    with np.load(out / "ev_two-four_2p.npz") as data:
        total = data["counts"].astype(np.int64)
    assert total.sum(axis=1).tolist() == [800] * 3
    assert (total >= last).all() and (total != last).any()


def test_sim_duplicate_prints_levels_with_intervals(tmp_path: Path) -> None:
    log = tmp_path / "progress.txt"
    args = ["sim", "--duplicate", "--games", "12", "--seats", "master,standard", "--seed", "3"]
    args += ["--iterations", "40", "--threads", "2", "--chunk", "5", "--progress", str(log)]
    answer = json.loads(run(*args, "--json"))
    assert (
        answer["duplicate"] and answer["deals"] == 12 and answer["lineup"] == ["master", "standard"]
    )
    master, standard = answer["levels"]
    assert master["mean"] == -standard["mean"] and master["low"] <= master["mean"] <= master["high"]
    lines = log.read_text().splitlines()
    assert lines[0].startswith("5/12 deals") and lines[2].startswith("12/12 deals")
    table = run(*args[:-2])
    assert "duplicate deals x 2 rotations" in table and "master" in table
    bad = CliRunner().invoke(main, ["sim", "--duplicate", "--seats", "master,nope"])
    assert bad.exit_code == 2 and "unknown bot level 'nope'" in bad.output


def test_tournament_duplicate_deep_against_ev() -> None:
    args = ["tournament", "--duplicate", "--tables", "30", "--players", "2", "--preset"]
    answer = json.loads(run(*args, "two-four", "--strategies", "master,ev-v1", "--json"))
    assert answer["lineup"] == ["master", "ev-v1"] and answer["deals"] == 30
    a, b = answer["strategies"]
    assert abs(a["mean"] + b["mean"]) < 1e-9
    assert abs(answer["difference"]["mean_difference"] - (a["mean"] - b["mean"])) < 1e-9
    out = run(*args, "two-four", "--strategies", "deep,ev", "--deep-hands", "8")
    assert "deep - ev:" in out
    out = run(*args, "two-four", "--strategies", "deep,ev", "--deep-candidates", "128")
    assert "deep - ev:" in out
    for candidates in ("0", "129"):
        bad = CliRunner().invoke(main, [*args, "two-four", "--deep-candidates", candidates])
        assert bad.exit_code == 2 and "--deep-candidates" in bad.output
    out = run(*args, "two-four", "--strategies", "deep,ev", "--deep-bank", "20000")
    assert "deep - ev:" in out
    for bank in ("5", "2000000"):
        bad = CliRunner().invoke(main, [*args, "two-four", "--deep-bank", bank])
        assert bad.exit_code == 2 and "--deep-bank must be 0 or 20,000-1,000,000" in bad.output
    bad = CliRunner().invoke(
        main, ["tournament", "--duplicate", "--strategies", "deep,ev,naive", "--players", "4"]
    )
    assert bad.exit_code == 2 and "one strategy per seat" in bad.output


def test_tournament_play_checks_its_sizes() -> None:
    rules = susun.Rules.preset("capsa-susun")
    with pytest.raises(ValueError, match="tables must be a count"):
        tournament.play(-10, 2, ["ev", "naive"], rules, 1, 1)
    with pytest.raises(ValueError, match="players must be 2, 3 or 4"):
        tournament.play(10, 7, ["ev", "naive"], rules, 1, 1)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["sim", "--games", "2", "--ray", "127.0.0.1:1"], "nothing answers"),
        (["sim", "--games", "2", "--ray", "nonsense"], "HOST:PORT"),
        (["tournament", "--tables", "10", "--ray", "nonsense"], "HOST:PORT"),
        (["sim", "--seats", "expert,bogus", "--ray", "auto"], "unknown bot level 'bogus'"),
    ],
)
def test_a_ray_address_that_cannot_be_joined_is_a_usage_error(args: list[str], needle: str) -> None:
    """An address that does not answer (Ray itself retried for ever), one that is no
    address, and a bad seat said before joining Ray (no cluster runs here). In a process of
    its own: a Ray this test session started would be used as it is."""
    done = subprocess.run(
        [str(Path(sys.executable).parent / "capsa-fast"), *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert needle in done.stderr and "Traceback" not in done.stderr
