"""``capsa-fast sim``: Capsa Banting rounds played by bots, each seat's results."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, TextIO

import click

from .._ray import check_count
from ..banting import duplicate as dup
from ..banting.game import BOT_LEVELS, MASTER_ITERATIONS, check_budget, check_seats
from ..banting.rules import PRESETS, Rules
from ..banting.sim import SimResult, simulate
from ._common import (
    connect_ray,
    console,
    emit_json,
    json_option,
    progress,
    ray_option,
    set_option,
    settings_of,
)


def table(result: SimResult, rules: Rules) -> Any:
    from rich.table import Table

    out = Table(
        title=f"{result.games:,} rounds, preset {rules.preset_name}, {result.seconds:.2f} s, "
        f"{result.games_per_second:,.0f} rounds/s"
    )
    for name in ("seat", "level", "win rate", "95% CI", "mean score", "95% CI "):
        out.add_column(name, justify="left" if name == "level" else "right")
    for s in result.seat_stats():
        out.add_row(
            str(s.seat),
            s.level,
            f"{100 * s.win_rate:.1f}%",
            f"[{100 * s.win_low:.1f}, {100 * s.win_high:.1f}]",
            f"{s.mean_score:+.3f}",
            f"[{s.score_low:+.3f}, {s.score_high:+.3f}]",
        )
    return out


@click.command(name="sim")
@click.option("--games", type=int, default=10_000, show_default=True, help="Rounds to play.")
@click.option(
    "--seats",
    default="standard,beginner,beginner,beginner",
    show_default=True,
    help=f"One bot level per seat, comma-separated ({', '.join(BOT_LEVELS)}).",
)
@click.option(
    "--preset", type=click.Choice(sorted(PRESETS)), default="capsa-banting", show_default=True
)
@set_option
@click.option("--seed", type=int, default=2026, show_default=True)
@click.option(
    "--workers",
    type=int,
    default=None,
    help="Threads (0: one per core; default 1); with --ray and no address, the CPUs of the "
    "local Ray (default: all).",
)
@click.option(
    "--chunk",
    type=int,
    default=2000,
    show_default=True,
    help="Rounds (with --duplicate: deals, at most 100) per work unit.",
)
@click.option(
    "--duplicate",
    is_flag=True,
    help="Play --games deals, each once per seat rotation, and report each level's mean "
    "points per round with a 95% interval over deals.",
)
@click.option(
    "--iterations",
    type=int,
    default=MASTER_ITERATIONS,
    show_default=True,
    help="master: rollouts a move.",
)
@click.option("--time-ms", type=float, default=0.0, help="master: search time a move instead (ms).")
@click.option("--threads", type=int, default=1, show_default=True, help="master: threads.")
@click.option(
    "--progress",
    "progress_file",
    type=click.Path(dir_okay=False),
    help="With --duplicate: append the running figures to this file after each chunk.",
)
@ray_option
@json_option
def command(
    games: int,
    seats: str,
    preset: str,
    overrides: tuple[str, ...],
    seed: int,
    workers: int | None,
    chunk: int,
    ray: str | None,
    duplicate: bool,
    iterations: int,
    time_ms: float,
    threads: int,
    progress_file: str | None,
    as_json: bool,
) -> None:
    """Play Capsa Banting rounds between bots and report each seat's win rate and mean
    score with 95% intervals.

    Round g is dealt from a seed derived from (--seed, g) in chunks of --chunk rounds, so
    the results do not depend on --workers, nor on where the chunks run (--ray). With
    --duplicate, deal d is played once per seat rotation (each level plays every hand of
    it), which cancels the luck of the deal.
    """
    try:
        rules = Rules.preset(preset, **settings_of(overrides))
        levels = [s.strip() for s in seats.split(",")]
        if workers is not None and workers < 0:
            raise ValueError(f"--workers must be >= 0 (0 for one per core), got {workers}")
        check_seats(levels)  # before Ray starts: a bad seat or size is said at once
        check_count(games, chunk)
        connect_ray(ray, cpus=workers or None)
        if duplicate:
            _duplicate(
                games,
                levels,
                rules,
                seed,
                1 if workers is None else workers,
                chunk,
                iterations,
                time_ms,
                threads,
                progress_file,
                as_json,
                ray,
            )
            return
        with progress(games, "rounds") as advance:
            result = simulate(
                games,
                levels,
                rules,
                seed=seed,
                workers=1 if workers is None else workers,
                chunk=chunk,
                ray=ray,
                progress=lambda done, _total, _seconds: advance(done),
                iterations=iterations,
                time_ms=time_ms,
                threads=threads,
                keep_rounds=False,  # the table needs the totals only: constant memory
            )
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if as_json:
        emit_json(
            {
                "games": result.games,
                "seconds": result.seconds,
                "games_per_second": result.games_per_second,
                "rules": rules.to_dict(),
                "seats": [s.__dict__ for s in result.seat_stats()],
            }
        )
    else:
        console().print(table(result, rules))


def _duplicate(
    games: int,
    levels: list[str],
    rules: Rules,
    seed: int,
    workers: int,
    chunk: int,
    iterations: int,
    time_ms: float,
    threads: int,
    progress_file: str | None,
    as_json: bool,
    ray: str | None = None,
) -> None:
    """``sim --duplicate``: play, then print the table (or JSON)."""
    check_budget(iterations, time_ms, threads)
    try:
        log = open(progress_file, "a", encoding="utf-8") if progress_file else None  # noqa: SIM115
    except OSError as exc:
        reason = f"cannot append to {progress_file}: {exc.strerror}"
        raise click.BadParameter(reason, param_hint="--progress") from None
    try:
        with progress(games, "deals") as advance:

            def step(so_far: dup.DuplicateResult, _total: int) -> None:
                advance(so_far.deals)
                if log is not None:
                    figures = ", ".join(
                        f"{s.level} {s.mean:+.3f} [{s.low:+.3f}, {s.high:+.3f}]"
                        for s in so_far.level_stats()
                    )
                    log.write(f"{so_far.deals}/{games} deals, {so_far.seconds:.0f} s: {figures}\n")
                    log.flush()

            result = dup.play(
                games,
                levels,
                rules,
                seed=seed,
                workers=workers,
                chunk=min(chunk, 100),
                iterations=iterations,
                time_ms=time_ms,
                threads=threads,
                progress=step,
                ray=ray,
            )
        if log is not None:
            log.write(dup.report(result, rules) + "\n")
    finally:
        if log is not None:
            log.close()
    if as_json:
        emit_json(dup.to_json(result, rules))
        return
    from rich.table import Table

    out = Table(
        title=f"{result.deals:,} duplicate deals x {len(result.lineup)} rotations = "
        f"{result.rounds:,} rounds, preset {rules.preset_name}, {result.seconds:.1f} s"
    )
    for name in ("level", "seats", "mean points per round", "95% CI"):
        out.add_column(name, justify="left" if name == "level" else "right")
    for s in result.level_stats():
        out.add_row(s.level, str(s.entries), f"{s.mean:+.3f}", f"[{s.low:+.3f}, {s.high:+.3f}]")
    console().print(out)


def main(
    argv: Sequence[str] | None = None, out: TextIO | None = None, prog: str = "capsa-fast sim"
) -> int:
    """Run the command with ``argv`` (by default the process's arguments) and return 0; a bad
    argument exits with status 2 and the reason on stderr. ``out`` receives what it prints.
    ``python -m capsa_fast.banting.sim`` runs this."""
    from contextlib import redirect_stdout

    with redirect_stdout(out or sys.stdout):
        try:
            command.main(args=list(argv) if argv is not None else None, prog_name=prog)
        except SystemExit as stop:
            if stop.code not in (0, None):
                raise
    return 0
