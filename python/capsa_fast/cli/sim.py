"""``capsa-fast sim``: Capsa Banting rounds played by bots, each seat's results."""

from __future__ import annotations

from typing import Any

import click

from ..banting.game import BOT_LEVELS
from ..banting.rules import PRESETS, Rules
from ..banting.sim import SimResult, simulate
from ._common import console, emit_json, json_option, progress, set_option, settings_of


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
@click.option("--workers", type=int, default=1, show_default=True, help="Threads (0: per core).")
@click.option("--chunk", type=int, default=2000, show_default=True, help="Rounds per work unit.")
@json_option
def command(
    games: int,
    seats: str,
    preset: str,
    overrides: tuple[str, ...],
    seed: int,
    workers: int,
    chunk: int,
    as_json: bool,
) -> None:
    """Play Capsa Banting rounds between bots and report each seat's win rate and mean
    score with 95% intervals.

    Round g is dealt from a seed derived from (--seed, g) in chunks of --chunk rounds, so
    the results do not depend on --workers.
    """
    try:
        rules = Rules.preset(preset, **settings_of(overrides))
        levels = [s.strip() for s in seats.split(",")]
        with progress(games, "rounds") as advance:
            result = simulate(
                games,
                levels,
                rules,
                seed=seed,
                workers=workers,
                chunk=chunk,
                progress=lambda done, _total, _seconds: advance(done),
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
