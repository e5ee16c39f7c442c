"""``capsa-fast play``: a Capsa Banting round in the terminal, seat 0 against bots."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import click

from ..banting.game import BOT_LEVELS
from ..banting.rules import PRESETS
from ._common import console, set_option, settings_of

HELP_TEXT = (
    "Type the cards to play (3d 3c, or their numbers in your hand: 1 2), 'pass', 'hint' "
    "(the standard bot's advice), 'hand', or 'quit'."
)


class Quit(Exception):
    """The player typed quit, or the input ended."""


def _read(prompt: str, as_json: bool) -> str:
    try:
        line = (
            click.prompt(prompt, prompt_suffix=" ", default="", show_default=False)
            if not as_json
            else input()
        )
    except (EOFError, click.exceptions.Abort):
        raise Quit from None
    return line.strip()


def _cards_of(text: str, hand: list[int]) -> list[int] | str:
    """The move typed: 'pass', or cards by name or by their number in the hand (from 1)."""
    from .. import parse_cards

    if text.lower() in ("pass", "p"):
        return "pass"
    tokens = text.replace(",", " ").split()
    if tokens and all(token.isdigit() for token in tokens):
        numbers = [int(token) for token in tokens]
        if not all(1 <= n <= len(hand) for n in numbers):
            raise ValueError(f"card numbers run from 1 to {len(hand)}")
        return [hand[n - 1] for n in numbers]
    return parse_cards(text)


@click.command(name="play")
@click.option(
    "--preset", type=click.Choice(sorted(PRESETS)), default="capsa-banting", show_default=True
)
@set_option
@click.option(
    "--bots",
    default="standard,beginner,beginner",
    show_default=True,
    help=f"The bots of seats 1.. (2-4 players in all), comma-separated: {', '.join(BOT_LEVELS)}.",
)
@click.option("--code", help="The round code to deal (the same code deals the same hands).")
@click.option("--rounds", type=click.IntRange(1, 100), default=1, show_default=True)
@click.option("--lang", type=click.Choice(["en", "id"]), default="en", show_default=True)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Machine-readable: one JSON event per line on stdout, one move per line on stdin "
    '(cards as a JSON list or "pass").',
)
def command(
    preset: str,
    overrides: tuple[str, ...],
    bots: str,
    code: str | None,
    rounds: int,
    lang: str,
    as_json: bool,
) -> None:
    """Play Capsa Banting against bots: you are seat 0. Type the cards to play by name
    (3d 3c) or by their numbers in your hand (1 2), 'pass', 'hint' or 'quit'."""
    from .. import banting, format_cards
    from ..banting.messages import card_text, combo_label

    levels = [level.strip() for level in bots.split(",") if level.strip()]
    if not 1 <= len(levels) <= 3 or any(level not in BOT_LEVELS for level in levels):
        raise click.UsageError(
            f"--bots: 1 to 3 bot levels of {', '.join(BOT_LEVELS)}, got {bots!r}"
        )
    try:
        rules = banting.Rules.preset(preset, **settings_of(overrides))
        game = banting.Game(rules, players=len(levels) + 1, code=code)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    out = console()

    def event(kind: str, **fields: Any) -> None:
        click.echo(json.dumps({"event": kind, **fields}, ensure_ascii=False))

    def cards_line(cards: list[int]) -> str:
        return " ".join(card_text(card, lang) for card in cards)

    def show_move(move: Any) -> None:
        seat = move.seat
        if as_json:
            event(
                "move",
                seat=seat,
                play="pass" if move.is_pass else format_cards(move.cards),
                left=game.counts[seat],
            )
            return
        who = "You" if seat == 0 else f"Seat {seat} ({levels[seat - 1]})"
        what = "pass" if move.is_pass else f"play {combo_label(move.combo, lang)}"
        out.print(f"{who}: {what}  [dim]({game.counts[seat]} left)[/dim]")

    def show_turn() -> None:
        hand = game.hand(0)
        if as_json:
            event(
                "your_turn",
                hand=format_cards(hand),
                table=None if game.table is None else format_cards(list(game.table.cards)),
                counts=game.counts,
                can_pass=game.can_pass(0),
                first_play=game.first_play,
            )
            return
        table = "nothing (you lead)" if game.table is None else combo_label(game.table, lang)
        out.print(f"\n[bold]Table:[/bold] {table}   cards left: {game.counts}")
        numbered = "  ".join(f"[dim]{i}[/dim]:{card_text(c, lang)}" for i, c in enumerate(hand, 1))
        out.print(f"[bold]Your hand:[/bold] {numbered}")

    def exchange() -> None:
        """The card exchange (exchange: ranked): the bots give back, then seat 0 if it
        owes a card; then what seat 0 gave and received."""
        for seat in range(1, game.players):
            owed = game.exchange_view(seat)
            if owed is not None and owed.give:
                game.bot_give_back(seat, levels[seat - 1])
        part = game.exchange_view(0)
        while part is not None and part.give:
            if as_json:
                event(
                    "give_back",
                    received=format_cards(part.received),
                    hand=format_cards(game.hand(0)),
                )
            else:
                out.print(f"You received {cards_line(part.received)}; give one card back.")
                show_turn()
            line = _read("Card to give back:", as_json)
            if line.lower() in ("quit", "q", "exit"):
                raise Quit
            try:
                with contextlib.suppress(json.JSONDecodeError):  # a JSON list, or as typed
                    sent = json.loads(line) if as_json else None
                    line = " ".join(str(c) for c in sent) if isinstance(sent, list) else line
                game.give_back(0, _cards_of(line, game.hand(0)))
            except ValueError as exc:  # IllegalPlay too
                if as_json:
                    event("refused", code=getattr(exc, "code", "BAD_INPUT"), message=str(exc))
                else:
                    out.print(f"[red]{exc}[/red]")
            part = game.exchange_view(0)
        if part is not None:
            if as_json:
                event(
                    "exchange", received=format_cards(part.received), gave=format_cards(part.gave)
                )
            else:
                out.print(
                    f"Exchange: you gave {cards_line(part.gave)}, "
                    f"received {cards_line(part.received)}."
                )

    try:
        for number in range(rounds):
            if number:
                game.next_round()
            if as_json:
                event("deal", round=game.round, code=game.code, hand=format_cards(game.hand(0)))
            else:
                out.print(f"[bold]Round {game.round}[/bold], code {game.code}. {HELP_TEXT}")
            exchange()
            while not game.over:
                turn = game.turn
                if turn is not None and turn != 0:
                    show_move(game.bot_play(turn, levels[turn - 1]))
                    continue
                show_turn()
                line = _read("Your move:", as_json)
                if not line:
                    continue
                sent: Any = None
                if as_json:
                    with contextlib.suppress(json.JSONDecodeError):  # else as typed
                        sent = json.loads(line)
                    if sent == "pass":
                        line, sent = "pass", None
                    elif not isinstance(sent, list):
                        sent = None
                word = line.lower()
                if word in ("quit", "q", "exit"):
                    raise Quit
                if word in ("hint", "h", "?"):
                    hint = game.hint(0)
                    advice = "pass" if hint.is_pass else combo_label(hint.combo, lang)
                    if as_json:
                        event("hint", play="pass" if hint.is_pass else format_cards(hint.cards))
                    else:
                        out.print(f"Hint: {advice} ({cards_line(hint.cards)})")
                    continue
                if word == "hand":
                    continue
                # A JSON list holds cards as in the API (names or ids 0-51), not the
                # numbers in the hand a person types.
                play: Any = sent
                try:
                    if play is None:
                        play = _cards_of(line, game.hand(0))
                    move = game.move(0, play)
                except banting.IllegalPlay as refused:
                    message = game.validate(0, play, lang).message
                    if as_json:
                        event("refused", code=refused.code, message=message)
                    else:
                        out.print(f"[red]{message}[/red]")
                    continue
                except ValueError as exc:
                    if as_json:
                        event("refused", code="BAD_INPUT", message=str(exc))
                    else:
                        out.print(f"[red]{exc}[/red]  {HELP_TEXT}")
                    continue
                show_move(move)
            result = game.result
            assert result is not None
            if as_json:
                event(
                    "result",
                    round=game.round,
                    winner=result.winner,
                    scores=list(result.scores),
                    totals=game.totals,
                    code=game.code,
                )
            else:
                from rich.table import Table

                table = Table(title=f"Round {game.round}: seat {result.winner} wins")
                for column in ("seat", "player", "cards left", "points", "match total"):
                    table.add_column(column, justify="left" if column == "player" else "right")
                for seat, score in enumerate(result.scores):
                    player = "you" if seat == 0 else levels[seat - 1]
                    table.add_row(
                        str(seat),
                        player,
                        str(result.cards_left[seat]),
                        f"{score:+d}",
                        f"{game.totals[seat]:+d}",
                    )
                out.print(table)
    except Quit:
        if as_json:
            event("quit", totals=game.totals)
        else:
            out.print("Bye.")
