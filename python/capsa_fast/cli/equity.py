"""``capsa-fast equity``: Hold'em equity of hands or PokerStove ranges (cf.poker.equity)."""

from __future__ import annotations

import time
from typing import Any

import click

from ._common import console, emit_json, json_option


@click.command(name="equity")
@click.argument("players", nargs=-1, required=True)
@click.option("--board", "-b", default="", metavar="CARDS", help='0, 3, 4 or 5 cards: "Qc 7d 2h".')
@click.option("--dead", "-d", default="", metavar="CARDS", help="Cards out of the deck.")
@click.option(
    "--samples",
    "-n",
    type=click.IntRange(min=2),
    default=None,
    help="Monte Carlo with this many draws, at least 2 (boards heads-up, deals otherwise).",
)
@click.option(
    "--exact/--monte-carlo",
    "exact",
    default=None,
    help="Always enumerate, or never. Default: exact when the work is small enough.",
)
@click.option(
    "--target-stderr",
    type=click.FloatRange(min=0, min_open=True),
    default=5e-4,
    show_default=True,
    help="Monte Carlo stops once every equity, win and tie share's standard error is at most this.",
)
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    metavar="SECONDS",
    help="Monte Carlo stops here with what it has; longer enumerations are not started.",
)
@click.option(
    "--threads",
    "-t",
    type=click.IntRange(min=1),
    default=None,
    help="Threads (default: every core this process may use).",
)
@click.option(
    "--seed", type=click.IntRange(min=0, max=2**64 - 1), default=None, help="Monte Carlo seed."
)
@json_option
def command(
    players: tuple[str, ...],
    board: str,
    dead: str,
    samples: int | None,
    exact: bool | None,
    target_stderr: float,
    time_limit: float | None,
    threads: int | None,
    seed: int | None,
    as_json: bool,
) -> None:
    """Equity of 2 to 10 PLAYERS, each a hand ("AhKh") or a range in PokerStove syntax
    ("QQ+,AKs", "A5s-A2s", "22-99", "KQo:0.5", "random"). Exact when the number of
    showdowns is small enough, else Monte Carlo; the output says which, with the standard
    error.

    Example: capsa-fast equity AhKh "QQ+,AKs" --board "Qc 7d 2h"
    """
    from .. import format_cards, parse_cards, poker

    try:
        board_cards = parse_cards(board.replace(",", " ")) if board.strip() else []
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--board") from None
    try:
        dead_cards = parse_cards(dead.replace(",", " ")) if dead.strip() else []
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--dead") from None
    started = time.perf_counter()
    try:
        result = poker.equity(
            list(players),
            board_cards,
            dead_cards,
            samples=samples,
            threads=threads,
            seed=seed,
            exact=exact,
            target_stderr=target_stderr,
            time_limit=time_limit,
        )
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    seconds = time.perf_counter() - started
    out: dict[str, Any] = {
        "players": list(players),
        "board": format_cards(board_cards),
        "dead": format_cards(dead_cards),
        "equity": result.equity,
        "win": result.win,
        "tie": result.tie,
        "exact": result.exact,
        "combos": result.combos,
        "stderr": result.stderr,
        "samples": result.samples,
        "method": result.method,
        "seconds": seconds,
    }
    if as_json:
        emit_json(out)
        return
    from rich.table import Table

    table = Table()
    for column in ("player", "hand or range", "equity", "win", "tie"):
        table.add_column(column, justify="left" if column == "hand or range" else "right")
    for index, text in enumerate(players):
        table.add_row(
            str(index),
            text,
            f"{100 * result.equity[index]:.3f}%",
            f"{100 * result.win[index]:.3f}%",
            f"{100 * result.tie[index]:.3f}%",
        )
    out_console = console()
    if board_cards:
        out_console.print(f"board {' '.join(out['board'])}")
    out_console.print(table)
    if result.exact:
        how = f"exact ({result.method}): {result.combos:,} showdowns"
    else:
        how = (
            f"Monte Carlo ({result.method}): {result.samples:,} draws, {result.combos:,} "
            f"showdowns, standard error {100 * result.stderr:.3f} points"
        )
    out_console.print(f"{how} in {seconds:.3f} s")
