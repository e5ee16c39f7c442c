"""``capsa-fast eval``: poker hands' category, strength, label and best five."""

from __future__ import annotations

import sys
from typing import Any

import click

from ._common import console, emit_json, json_option


@click.command(name="eval")
@click.argument("hands", nargs=-1)
@click.option(
    "--lang",
    type=click.Choice(["en", "id"]),
    default="en",
    show_default=True,
    help="Language of the labels.",
)
@json_option
def command(hands: tuple[str, ...], lang: str, as_json: bool) -> None:
    """Evaluate each HAND: 3, 5, 6 or 7 cards written together or apart, such as
    "As Ks Qs Js Ts" or "AsKsQsJsTs" (ids 0..51 too). Without HANDS, one hand per line of
    standard input.

    Example: capsa-fast eval "Ah Kh Qh Jh Th" "2c As 5d 3h Kd 4s Ks"
    """
    from .. import format_cards, parse_cards, poker

    texts = list(hands) or [line for line in sys.stdin.read().splitlines() if line.strip()]
    if not texts:
        raise click.UsageError("give at least one hand")
    results: list[dict[str, Any]] = []
    for index, text in enumerate(texts):
        try:
            tokens = text.replace(",", " ").split()
            # A hand written as ids ("0 4 8 12 16") is read as ids, as the help says.
            ids = all(token.isdigit() for token in tokens) and bool(tokens)
            cards = parse_cards([int(t) for t in tokens] if ids else " ".join(tokens))
            value = poker.evaluate(cards)
        except ValueError as exc:
            raise click.UsageError(f"hand {index + 1} ({text!r}): {exc}") from None
        results.append(
            {
                "hand": format_cards(cards),
                "category": value.category,
                "strength": int(value.strength),
                "label": poker.label_of(value.strength, lang),
                "best": format_cards(list(value.best)),
            }
        )
    if as_json:
        emit_json(results if len(results) > 1 else results[0])
        return
    from rich.table import Table

    table = Table()
    for column in ("hand", "category", "strength", "label", "best five"):
        table.add_column(column, justify="right" if column == "strength" else "left")
    for row in results:
        table.add_row(
            " ".join(row["hand"]),
            row["category"],
            str(row["strength"]),
            row["label"],
            " ".join(row["best"]),
        )
    console().print(table)
