"""Hold'em equity route: hands and PokerStove ranges, exact or Monte Carlo, within limits.

Each request is bounded: Monte Carlo stops at the time limit (EQUITY_TIME_LIMIT) or the
draw limit (EQUITY_MAX_SAMPLES), whichever comes first; an enumeration runs only when its
estimated work fits both EQUITY_MAX_EXACT_WORK and the time limit (``"exact": true`` beyond
that is a 422). Each request uses EQUITY_THREADS threads of the engine.
"""

from __future__ import annotations

import re
from typing import Any

from capsa_fast import format_cards, parse_cards, poker
from flask import current_app

from api.poker.equity_schemas import (
    BOARD_SIZES,
    EquityRequest,
    EquityResponse,
)
from api.server.cards import card_ids
from api.server.errors import FieldErrors
from api.server.routing import ModelBlueprint

# The bulk lane: a request computes for up to EQUITY_TIME_LIMIT, so a flood of them never
# holds the threads of the quick stateless routes.
bp = ModelBlueprint("equity", __name__, url_prefix="/v1", tag="poker", lane="bulk")

_PLAYER_PREFIX = re.compile(r"^player (\d+): ")


def _engine_field(message: str, dead: bool) -> tuple[str, str]:
    """The request field an engine message is about, and the message without its prefix
    (``dead``: whether the request has dead cards)."""
    if message.startswith("not enough cards left"):  # players, board and dead cards together
        return ("dead" if dead else "players"), message
    match = _PLAYER_PREFIX.match(message)
    if match:
        return f"players/{match.group(1)}", message[match.end() :]
    if message.startswith(("exact enumeration", "samples")):
        return ("exact" if message.startswith("exact") else "samples"), message
    if message.startswith("dead"):
        return "dead", message
    if message.startswith("board") or "board" in message.split(":")[0]:
        return "board", message
    return "players", message


def _cards_given(value: list[Any] | str, field: str, errors: FieldErrors) -> list[Any]:
    """``board`` and ``dead`` as a list of cards, or as one string ("Qc7d2h", "Qc 7d 2h", ""),
    as ``capsa_fast.poker.equity`` takes them."""
    if not isinstance(value, str):
        return value
    try:
        return list(parse_cards(value)) if value.strip() else []
    except ValueError as exc:
        errors.add(field, str(exc))
        return []


@bp.json_post(
    "/poker/equity",
    request_model=EquityRequest,
    response_model=EquityResponse,
    summary="Hold'em equity of hands and ranges",
    example={"players": ["AhKh", "QQ+,AKs"], "board": ["Qc", "7d", "2h"]},
)
def equity(body: EquityRequest) -> EquityResponse:
    """Win, tie and equity (share of the pot) of 2 to 10 players, each a hand ("AhKh" or a
    list of two cards) or a range in PokerStove syntax ("QQ+,AKs", "A5s-A2s:0.5",
    "random"). Combinations that collide with the board, the dead cards or each other are
    skipped. Exact when the work fits this server's limits, otherwise Monte Carlo until the
    target standard error, the draw limit or the time limit; `exact`, `stderr` and
    `samples` say which. A bad range token is a 422 naming the player and the token."""
    errors = FieldErrors()
    config = current_app.config
    seen: dict[int, str] = {}
    board = card_ids(
        _cards_given(body.board, "board", errors), "board", errors, sizes=BOARD_SIZES, seen=seen
    )
    dead = card_ids(_cards_given(body.dead, "dead", errors), "dead", errors, seen=seen)
    players: list[Any] = []
    for index, player in enumerate(body.players):
        field = f"players/{index}"
        if isinstance(player, str):
            try:
                combos = poker.parse_range(player)
            except ValueError as exc:
                errors.add(field, str(exc))
                combos = []
            if len(combos) == 1:
                # A hand: its cards are taken, as with a list of two cards.
                for card in parse_cards(combos[0][0]):
                    if card in seen:
                        name = format_cards([card])[0]
                        errors.add(field, f"Duplicate card {name} (also at {seen[card]}).")
                    else:
                        seen[card] = field
            players.append(player)
        else:
            players.append(card_ids(player, field, errors, sizes=(2,), seen=seen))
    max_samples: int = config["EQUITY_MAX_SAMPLES"]
    if body.samples is not None and body.samples > max_samples:
        errors.add("samples", f"At most {max_samples} samples per request, got {body.samples}.")
    errors.raise_if_any()

    time_limit = float(config["EQUITY_TIME_LIMIT"])
    max_work = float(config["EQUITY_MAX_EXACT_WORK"])
    try:
        result = poker.equity(
            players,
            board,
            dead,
            samples=body.samples,
            threads=int(config["EQUITY_THREADS"]),
            seed=body.seed,
            exact=body.exact,
            target_stderr=body.target_stderr if body.target_stderr is not None else 5e-4,
            max_exact_work=max_work,
            time_limit=time_limit,
            exact_limit=max_work,
        )
    except ValueError as exc:
        field, message = _engine_field(str(exc), bool(dead))
        errors.add(field, message)
        errors.raise_if_any()
        raise  # pragma: no cover - raise_if_any always raises here
    return EquityResponse(
        equity=result.equity,
        win=result.win,
        tie=result.tie,
        exact=result.exact,
        combos=result.combos,
        stderr=result.stderr,
        samples=result.samples,
        method=result.method,
    )
