"""``capsa-fast tournament``: Capsa Susun strategies against each other at random tables."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable

import click
import numpy as np

from .. import _core
from .._ray import check_count
from ..susun.rules import PRESETS, Rules
from ..susun.table import EXTRA_STRATEGIES, LEVELS, strategy_of
from ..susun.tournament import (
    duplicate_difference,
    duplicate_summary,
    lineup,
    play,
    summarise,
)
from ._common import connect_ray, console, emit_json, json_option, progress, ray_option


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
    help="Strategies or bot levels, comma-separated: "
    f"{', '.join([*LEVELS.values(), *EXTRA_STRATEGIES, *LEVELS])}.",
)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--threads", type=int, default=2, show_default=True)
@click.option("--chunk", type=int, default=2000, show_default=True, help="Tables per step.")
@ray_option
@click.option(
    "--duplicate",
    is_flag=True,
    help="Play each deal once per seat rotation: one strategy per seat, or two (the first in "
    "one seat, the second in every other).",
)
@click.option(
    "--deep-hands",
    type=click.IntRange(1, 100_000),
    default=_core.SUSUN_DEEP_HANDS,
    show_default=True,
    help="deep: opponent hands sampled per decision (with --deep-bank 0).",
)
@click.option(
    "--deep-candidates",
    type=click.IntRange(1, _core.SUSUN_MAX_DEEP_CANDIDATES),
    default=_core.SUSUN_DEEP_CANDIDATES,
    show_default=True,
    help="deep: how many of ev's best arrangements it scores against the opponents' hands.",
)
@click.option(
    "--deep-bank",
    type=int,
    default=_core.SUSUN_DEEP_BANK,
    show_default=True,
    help="deep: score against the hands of a bank of this many random hands arranged by ev "
    f"(built once, {_core.SUSUN_DEEP_MIN_BANK:,}-{_core.SUSUN_DEEP_MAX_BANK:,}) that share no "
    "card with the seat's; 0 samples --deep-hands hands instead.",
)
@json_option
def command(
    tables: int,
    players: int,
    preset: str,
    strategies: str,
    seed: int,
    threads: int,
    chunk: int,
    ray: str | None,
    duplicate: bool,
    deep_hands: int,
    deep_candidates: int,
    deep_bank: int,
    as_json: bool,
) -> None:
    """Deal --tables random tables of --players hands from --seed; seats take the strategies
    (or bot levels) in rotation, so each sits in every seat equally often. Prints each
    strategy's mean points per hand and, per pair, the mean difference per table between
    their seats, with 95% intervals. All arranging and scoring runs in C++. Table t depends
    only on (--seed, t), so --ray (the chunks as Ray tasks) gives the same results."""
    names = [s.strip() for s in strategies.split(",") if s.strip()]
    for name in names:
        try:
            strategy_of(name)
        except ValueError as exc:
            raise click.UsageError(f"unknown strategy {name!r}: {exc}") from None
    if len(names) < 2:
        raise click.UsageError("name at least two strategies")
    if tables < 1 or chunk < 1 or threads < 1:
        raise click.UsageError("--tables, --chunk and --threads must be at least 1")
    try:
        check_count(tables, chunk, "--tables")
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if deep_bank and not _core.SUSUN_DEEP_MIN_BANK <= deep_bank <= _core.SUSUN_DEEP_MAX_BANK:
        raise click.UsageError(
            f"--deep-bank must be 0 or {_core.SUSUN_DEEP_MIN_BANK:,}-{_core.SUSUN_DEEP_MAX_BANK:,}"
        )
    rules = Rules.preset(preset)
    connect_ray(ray)
    # play() with deep's settings, for either kind of tournament
    run = functools.partial(
        play, deep_hands=deep_hands, deep_candidates=deep_candidates, deep_bank=deep_bank
    )
    if duplicate:
        try:
            lineup_seats = lineup(names, players)
        except ValueError as exc:
            raise click.UsageError(str(exc)) from None
        _duplicate(
            tables,
            players,
            preset,
            lineup_seats,
            rules,
            seed,
            threads,
            chunk,
            run,
            as_json,
            ray,
        )
        return
    started = time.perf_counter()
    with progress(tables, "tables") as advance:
        points, seats = run(tables, players, names, rules, seed, threads, advance, chunk, ray)
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


def _duplicate(
    tables: int,
    players: int,
    preset: str,
    seats: list[str],
    rules: Rules,
    seed: int,
    threads: int,
    chunk: int,
    run: Callable[..., tuple[np.ndarray, np.ndarray]],
    as_json: bool,
    ray: str | None = None,
) -> None:
    """``tournament --duplicate``: each deal once per seat rotation; ``run`` is play() with
    deep's settings."""
    started = time.perf_counter()
    with progress(tables, "deals") as advance:
        points, _ = run(tables, players, seats, rules, seed, threads, advance, chunk, ray, True)
    elapsed = time.perf_counter() - started
    rows = duplicate_summary(points, seats)
    difference = duplicate_difference(points, seats) if len(set(seats)) == 2 else None
    if as_json:
        emit_json(
            {
                "duplicate": True,
                "deals": tables,
                "players": players,
                "preset": preset,
                "seed": seed,
                "seconds": elapsed,
                "lineup": seats,
                "strategies": [
                    {"name": n, "seats": k, "mean": mean, "half_width": hw}
                    for n, k, mean, hw in rows
                ],
                "difference": None
                if difference is None
                else {
                    "a": difference[0],
                    "b": difference[1],
                    "mean_difference": difference[2],
                    "half_width": difference[3],
                },
            }
        )
        return
    from rich.table import Table

    out = console()
    summary = Table(
        title=f"{tables:,} duplicate deals x {players} rotations, preset {preset}, seed {seed}, "
        f"{elapsed:.1f} s"
    )
    for column in ("strategy", "seats", "mean points/hand", "95% CI"):
        summary.add_column(column, justify="left" if column == "strategy" else "right")
    for n, k, mean, hw in rows:
        summary.add_row(n, str(k), f"{mean:+.4f}", f"[{mean - hw:+.4f}, {mean + hw:+.4f}]")
    out.print(summary)
    if difference is not None:
        a, b, mean, hw = difference
        out.print(f"{a} - {b}: {mean:+.4f} per hand [{mean - hw:+.4f}, {mean + hw:+.4f}]")
