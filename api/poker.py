"""Poker-order routes: evaluate one hand, a batch of hands, or a hold'em showdown."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from capsa_fast import format_cards, poker
from flask import current_app

from api.cards import batch_card_arrays, card_ids
from api.common import engine
from api.errors import FieldErrors
from api.language import message_language
from api.routing import ModelBlueprint
from api.schemas import (
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


@bp.json_post(
    "/evaluate/batch",
    request_model=BatchEvaluateRequest,
    response_model=BatchEvaluateResponse,
    summary="Evaluate many poker hands at once",
    example={"hands": [["As", "Ah", "Kd", "Kc", "2s"], ["7h", "8h", "9h"]]},
)
def evaluate_batch(body: BatchEvaluateRequest) -> BatchEvaluateResponse:
    """Strength and category of each hand, in request order. Hand sizes may be mixed.

    The whole batch is refused (422) if any hand is invalid; up to 50 bad fields are listed.
    """
    hands = body.hands
    errors = FieldErrors()
    limit: int = current_app.config["MAX_BATCH_HANDS"]
    if len(hands) > limit:
        errors.add("hands", f"At most {limit} hands per request, got {len(hands)}.")
        errors.raise_if_any()

    groups = batch_card_arrays(hands, "hands", errors, HAND_SIZES)
    errors.raise_if_any()

    # The engine takes one hand size per call: evaluate each size group, scatter back.
    strengths = np.empty(len(hands), dtype=np.int64)
    categories = np.empty(len(hands), dtype=object)
    for rows, ids in groups:
        group_strengths = engine(functools.partial(poker.evaluate_batch, ids), "hands")
        strengths[rows] = group_strengths
        categories[rows] = poker.categories_of(group_strengths)
    # model_construct skips re-validating 2 x 100,000 values that come straight from the
    # engine; validating them would cost more than evaluating the hands.
    return BatchEvaluateResponse.model_construct(
        strengths=strengths.tolist(), categories=categories.tolist()
    )


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
