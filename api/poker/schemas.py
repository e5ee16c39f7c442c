"""Request and response models of the poker routes (``api.poker.evaluate``): evaluate, the
batch and the showdown. Cards and counts are checked by the routes (``api.server.cards``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from api.server.schemas import (
    Card,
    CardText,
    Category,
    RequestModel,
    ResponseModel,
    Strength,
    _count_schema,
)

HAND_SIZES = (3, 5, 6, 7)
BOARD_SIZE = 5
HOLE_SIZE = 2
MIN_PLAYERS = 2
# 5 board cards + 23 * 2 hole cards = 51: the most players one deck can deal.
MAX_PLAYERS = 23
DEFAULT_MAX_BATCH_HANDS = 100_000


class EvaluateRequest(RequestModel):
    cards: list[Card] = Field(
        description="3, 5, 6 or 7 distinct cards.", json_schema_extra=_count_schema(3, 7)
    )


class EvaluateResponse(ResponseModel):
    category: Category
    strength: Strength
    label: str = Field(
        description="Human-readable name, e.g. 'Pair of queens'; Indonesian ('Pasangan Q') "
        "with Accept-Language: id."
    )
    best: list[CardText] = Field(
        description="The best five cards (all three for a 3-card hand), canonical spelling."
    )


class BatchEvaluateRequest(RequestModel):
    hands: list[Annotated[list[Card], Field(json_schema_extra=_count_schema(3, 7))]] = Field(
        min_length=1,
        description=(
            "Hands of 3, 5, 6 or 7 distinct cards; sizes may be mixed. At most "
            f"{DEFAULT_MAX_BATCH_HANDS:,} hands (server setting MAX_BATCH_HANDS)."
        ),
        json_schema_extra={"maxItems": DEFAULT_MAX_BATCH_HANDS},
    )


class BatchEvaluateResponse(ResponseModel):
    strengths: list[Strength] = Field(description="One strength per hand, in request order.")
    categories: list[Category] = Field(description="One category per hand, in request order.")


class ShowdownRequest(RequestModel):
    board: list[Card] = Field(
        description="The five community cards.",
        json_schema_extra=_count_schema(BOARD_SIZE, BOARD_SIZE),
    )
    players: list[
        Annotated[list[Card], Field(json_schema_extra=_count_schema(HOLE_SIZE, HOLE_SIZE))]
    ] = Field(
        min_length=MIN_PLAYERS,
        max_length=MAX_PLAYERS,
        description="Each player's two hole cards. No card may appear twice anywhere.",
    )


class ShowdownPlayer(ResponseModel):
    best: list[CardText] = Field(description="The player's best five of board + hole cards.")
    category: Category
    strength: Strength
    label: str = Field(description="Human-readable name, in the response's Content-Language.")


class ShowdownResponse(ResponseModel):
    players: list[ShowdownPlayer] = Field(description="One entry per player, in request order.")
    winners: list[int] = Field(description="Indices of the players with the strongest hand.")
    shares: list[float] = Field(
        description="Fraction of the pot won by each player; tied winners split it equally."
    )
