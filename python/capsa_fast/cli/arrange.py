"""``capsa-fast arrange``: a Capsa Susun hand of 13 cards in three rows."""

from __future__ import annotations

from typing import Any

import click

from ..susun.rules import PRESETS
from ._common import console, emit_json, json_option, set_option, settings_of


@click.command(name="arrange")
@click.argument("hand", nargs=-1, required=True)
@click.option(
    "--strategy",
    type=click.Choice(["ev", "percentile", "naive", "deep", "ev-v1", "ev-v2", "ev-v3", "ev-cr"]),
    default="ev",
    show_default=True,
    help="ev: most points expected against realistic opponents; percentile: the rows' "
    "summed chances; naive: strongest bottom row, then middle; deep (the master bot's): "
    "ev's best candidates scored against sampled opponents (the first call builds a bank, "
    "a few seconds); ev-v1..ev-cr: ev with earlier models.",
)
@click.option(
    "--players",
    type=click.IntRange(2, 4),
    default=4,
    show_default=True,
    help="The table size ev's model (and deep's opponents) are for.",
)
@click.option(
    "--preset", type=click.Choice(sorted(PRESETS)), default="capsa-susun", show_default=True
)
@set_option
@click.option("--lang", type=click.Choice(["en", "id"]), default="en", show_default=True)
@json_option
def command(
    hand: tuple[str, ...],
    strategy: str,
    players: int,
    preset: str,
    overrides: tuple[str, ...],
    lang: str,
    as_json: bool,
) -> None:
    """Arrange a HAND of 13 cards (one argument or several) into top (3), middle (5) and
    bottom (5) rows.

    Example: capsa-fast arrange "As Ks Qs Js 9d 9c 9h 2d 3d 4d 5h 6h 7h"
    """
    from .. import format_cards, parse_cards, susun

    try:
        rules = susun.Rules.preset(preset, **settings_of(overrides))
        cards = parse_cards(" ".join(hand).replace(",", " "))
        if len(cards) != 13:
            raise ValueError(f"a Susun hand has 13 cards, got {len(cards)}")
        found = susun.arrange(cards, rules, strategy=strategy, players=players)
        assert not isinstance(found, list)
        check = susun.check(found.top, found.middle, found.bottom, rules, lang=lang)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    rows: list[dict[str, Any]] = [
        {
            "row": row.name,
            "cards": format_cards(list(cards_of)),
            "label": row.label,
            "bonus": row.bonus,
        }
        for row, cards_of in zip(check.rows, (found.top, found.middle, found.bottom), strict=True)
    ]
    if as_json:
        emit_json(
            {
                "top": format_cards(found.top),
                "middle": format_cards(found.middle),
                "bottom": format_cards(found.bottom),
                "score": found.score,
                "valid_arrangements": found.valid_arrangements,
                "special": found.special,
                "strategy": strategy,
                "rows": rows,
            }
        )
        return
    from rich.table import Table

    table = Table(
        title=f"{strategy}: score {found.score:.4f}, {found.valid_arrangements:,} valid "
        "arrangements" + (f", special {found.special}" if found.special else "")
    )
    for column in ("row", "cards", "label", "bonus"):
        table.add_column(column, justify="right" if column == "bonus" else "left")
    for row in rows:
        table.add_row(row["row"], " ".join(row["cards"]), row["label"], str(row["bonus"] or ""))
    console().print(table)
