"""Poker-order routes: evaluate one hand, a batch of hands, or a hold'em showdown."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
from capsa_fast import _core, format_cards, poker
from flask import Response, current_app

from api.poker.schemas import (
    BOARD_SIZE,
    HAND_SIZES,
    HOLE_SIZE,
    BatchEvaluateRequest,
    BatchEvaluateResponse,
    EvaluateRequest,
    EvaluateResponse,
    ShowdownPlayer,
    ShowdownRequest,
    ShowdownResponse,
)
from api.server.cards import card_ids
from api.server.common import engine
from api.server.errors import MAX_FIELD_ERRORS, ApiProblem, FieldErrors
from api.server.language import message_language
from api.server.routing import ModelBlueprint
from api.server.schemas import integral_numbers

bp = ModelBlueprint("poker", __name__, url_prefix="/v1", tag="poker")


def _hand_fields(value: Any, language: str) -> dict[str, Any]:
    return {
        "category": value.category,
        "strength": int(value.strength),
        "label": poker.label_of(value.strength, language),
        "best": format_cards(list(value.best)),
    }


@bp.json_post(
    "/evaluate",
    request_model=EvaluateRequest,
    response_model=EvaluateResponse,
    summary="Evaluate one poker hand",
    example={"cards": ["As", "Ks", "Qs", "Js", "Ts", "2d", "3c"]},
)
def evaluate(body: EvaluateRequest) -> EvaluateResponse:
    """Category, strength and best five of 3, 5, 6 or 7 cards (6 and 7: best five of them);
    the label is in Indonesian when Accept-Language prefers 'id'."""
    errors = FieldErrors()
    cards = card_ids(body.cards, "cards", errors, sizes=HAND_SIZES)
    errors.raise_if_any()
    language = message_language()
    value = engine(lambda: poker.evaluate(cards), "cards")
    return EvaluateResponse(**_hand_fields(value, language))


def _integral_body(body: bytes) -> bytes | None:
    """The body with every integral float (2.0) written as an integer, or None when it has
    none. JSON Schema counts 2.0 as an integer, card ids included, and so do the other
    routes (``api.server.schemas.integral_numbers``); the C++ reader takes integers only, so
    a refused body is read again this way (only then: it costs a parse in Python)."""
    if b"." not in body:
        return None
    try:
        value = json.loads(body)
    except ValueError:
        return None
    as_sent = json.dumps(value).encode()
    integral = json.dumps(integral_numbers(value)).encode()
    return None if integral == as_sent else integral


def _read_batch(body: bytes) -> tuple[np.ndarray, np.ndarray]:
    """The batch body read in one pass in C++ (``capsa_fast/batch_json.hpp``): 400 when it is
    not JSON, 422 naming each bad field (shape and type problems first, then cards), else
    (card ids [n, 7] uint8, cards per hand [n] uint8)."""
    limit: int = current_app.config["MAX_BATCH_HANDS"]
    sizes = sum(1 << size for size in HAND_SIZES)
    syntax, issues, total, hands, cards, counts = _core.read_batch_json(
        body, limit, MAX_FIELD_ERRORS, sizes, max(HAND_SIZES)
    )
    if syntax is not None:
        raise ApiProblem(400, f"The request body is not valid JSON: {syntax}.")
    if issues and (integral := _integral_body(body)) is not None:
        return _read_batch(integral)
    errors = FieldErrors()
    if not issues and hands > limit:
        errors.add("hands", f"At most {limit} hands per request, got {hands}.")
    for field, message in issues:
        errors.add(field, message)
    # Issues past those kept still count, so the detail says how many (or "more than").
    errors.total = max(errors.total, total)
    errors.raise_if_any()
    assert cards is not None and counts is not None  # read: no syntax error, no issue
    return cards, counts


@bp.json_post(
    "/evaluate/batch",
    request_model=BatchEvaluateRequest,
    response_model=BatchEvaluateResponse,
    summary="Evaluate many poker hands at once",
    example={"hands": [["As", "Ah", "Kd", "Kc", "2s"], ["7h", "8h", "9h"], [0, 4, 8, 12, 16]]},
    decode=_read_batch,
    lane="bulk",
    body_limit="MAX_BATCH_BODY_BYTES",
)
def evaluate_batch(body: tuple[np.ndarray, np.ndarray]) -> Response:
    """Strength and category of each hand, in request order. Hand sizes may be mixed; cards
    are strings or ids 0..51.

    The whole batch is refused (422) if any hand is invalid; up to 50 bad fields are listed.
    """
    cards, counts = body
    # The engine takes one hand size per call: evaluate each size group, scatter back.
    strengths = np.empty(len(counts), dtype=np.int32)
    present = np.flatnonzero(np.bincount(counts, minlength=max(HAND_SIZES) + 1))
    for size in present.tolist():
        if len(present) == 1:
            strengths[:] = poker.evaluate_batch(cards[:, :size], validate=False)
        else:
            rows = np.flatnonzero(counts == size)
            strengths[rows] = poker.evaluate_batch(cards[rows, :size], validate=False)
    # The answer is written in C++ too: 200,000 JSON values from Python would cost more than
    # evaluating the hands.
    return Response(_core.write_batch_response(strengths), status=200, mimetype="application/json")


@bp.json_post(
    "/poker/showdown",
    request_model=ShowdownRequest,
    response_model=ShowdownResponse,
    summary="Settle a hold'em showdown",
    example={"board": ["2c", "7d", "9h", "Jc", "Ks"], "players": [["As", "Ad"], ["Qh", "Th"]]},
)
def showdown(body: ShowdownRequest) -> ShowdownResponse:
    """Each player's best five of the board and their two hole cards, the winners, and the
    share of the pot each player takes (tied winners split it equally). Labels follow
    Accept-Language ('id': Indonesian)."""
    errors = FieldErrors()
    # One `seen` for all fields: a card may not appear twice anywhere on the table.
    seen: dict[int, str] = {}
    board = card_ids(body.board, "board", errors, sizes=(BOARD_SIZE,), seen=seen)
    holes = [
        card_ids(hole, f"players/{index}", errors, sizes=(HOLE_SIZE,), seen=seen)
        for index, hole in enumerate(body.players)
    ]
    errors.raise_if_any()
    language = message_language()

    result = engine(lambda: poker.showdown(board, holes), "players")
    # Pot shares come from the engine so the API and the package split pots the same way.
    return ShowdownResponse(
        players=[ShowdownPlayer(**_hand_fields(hand, language)) for hand in result.hands],
        winners=[int(index) for index in result.winners],
        shares=[float(share) for share in result.shares],
    )
