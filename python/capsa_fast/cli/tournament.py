"""``capsa-fast tournament``: Capsa Susun strategies against each other at random tables."""

from __future__ import annotations

import time

import click

from ..susun.rules import PRESETS, Rules
from ..susun.table import LEVELS
from ..susun.tournament import play, summarise
from ._common import console, emit_json, json_option, progress


@click.command(name="tournament")
@click.option("--tables", type=int, default=20_000, show_default=True, help="Tables to deal.")
@click.option("--players", type=click.IntRange(2, 4), default=4, show_default=True)
@click.option(
    "--preset", type=click.Choice(sorted(PRESETS)), default="capsa-susun", show_default=True
)
@click.option(
    "--strategies",
    default="ev,percentile,naive",
    show_default=True,
    help=f"Strategies or bot levels, comma-separated: {', '.join([*LEVELS.values(), *LEVELS])}.",
)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--threads", type=int, default=2, show_default=True)
@click.option("--chunk", type=int, default=2000, show_default=True, help="Tables per step.")
@json_option
def command(
    tables: int,
    players: int,
    preset: str,
    strategies: str,
    seed: int,
    threads: int,
    chunk: int,
    as_json: bool,
) -> None:
    """Deal --tables random tables of --players hands from --seed; seats take the strategies
    (or bot levels) in rotation, so each sits in every seat equally often. Prints each
    strategy's mean points per hand and, per pair, the mean difference per table between
    their seats, with 95% intervals. All arranging and scoring runs in C++."""
    names = [s.strip() for s in strategies.split(",") if s.strip()]
    for name in names:
        if name not in LEVELS and name not in LEVELS.values():
            known = ", ".join([*LEVELS.values(), *LEVELS])
            raise click.UsageError(f"unknown strategy {name!r} (known: {known})")
    if len(names) < 2:
        raise click.UsageError("name at least two strategies")
    if tables < 1 or chunk < 1:
        raise click.UsageError("--tables and --chunk must be at least 1")
    rules = Rules.preset(preset)
    started = time.perf_counter()
    with progress(tables, "tables") as advance:
        points, seats = play(tables, players, names, rules, seed, threads, advance, chunk)
    elapsed = time.perf_counter() - started
    singles, pairs = summarise(points, seats, names)
    if as_json:
        emit_json(
            {
                "tables": tables,
                "players": players,
                "preset": preset,
                "seed": seed,
                "seconds": elapsed,
                "strategies": [s.__dict__ for s in singles],
                "pairs": [
                    {"a": a, "b": b, "mean_difference": mean, "half_width": hw, "tables": n}
                    for a, b, mean, hw, n in pairs
                ],
            }
        )
        return
    from rich.table import Table

    out = console()
    title = (
        f"{tables:,} tables x {players} players, preset {preset}, seed {seed}, "
        f"{elapsed:.1f} s ({tables * players / elapsed:,.0f} hands/s)"
    )
    summary = Table(title=title)
    for column in ("strategy", "hands", "mean points/hand", "95% CI"):
        summary.add_column(column, justify="left" if column == "strategy" else "right")
    for s in singles:
        summary.add_row(
            s.name,
            f"{s.hands:,}",
            f"{s.mean:.4f}",
            f"[{s.mean - s.half_width:+.4f}, {s.mean + s.half_width:+.4f}]",
        )
    out.print(summary)
    differences = Table()
    for column in ("pair", "tables", "mean difference", "95% CI"):
        differences.add_column(column, justify="left" if column == "pair" else "right")
    for a, b, mean, hw, n in pairs:
        differences.add_row(
            f"{a} - {b}", f"{n:,}", f"{mean:.4f}", f"[{mean - hw:+.4f}, {mean + hw:+.4f}]"
        )
    out.print(differences)
