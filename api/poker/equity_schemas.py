"""Request and response models of the equity route (``api.poker.equity``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from api.server.schemas import Card, RequestModel, ResponseModel, _count_schema, drop_default

BOARD_SIZES = (0, 3, 4, 5)
MAX_EQUITY_PLAYERS = 10
DEFAULT_EQUITY_MAX_SAMPLES = 20_000_000

HandCards = Annotated[list[Card], Field(json_schema_extra=_count_schema(2, 2))]
RangeText = Annotated[str, Field(max_length=2000)]
CardsText = Annotated[str, Field(max_length=400)]


class EquityRequest(RequestModel):
    players: list[RangeText | HandCards] = Field(
        min_length=2,
        max_length=MAX_EQUITY_PLAYERS,
        description=(
            "2 to 10 players, each a hand ('AhKh', or two cards as a list) or a range in "
            "PokerStove syntax: 'AKs', 'AKo', 'AK', 'QQ', 'QQ+', 'ATs+', '22-99', "
            "'A5s-A2s', 'random', comma-separated, each optionally ':weight' (0 to 1)."
        ),
    )
    board: Annotated[list[Card], Field(json_schema_extra=_count_schema(0, 5))] | CardsText = Field(
        default_factory=list,
        description="0, 3, 4 or 5 community cards: a list, or one string ('Qc7d2h', 'Qc 7d 2h').",
    )
    dead: Annotated[list[Card], Field(json_schema_extra=_count_schema(0, 52))] | CardsText = Field(
        default_factory=list,
        description="Cards out of the deck (folded or seen): a list, or one string.",
    )
    samples: int | None = Field(
        default=None,
        ge=2,
        description=(
            "Ask for Monte Carlo with this many draws (at least 2, so that a standard error "
            "exists; boards heads-up, deals otherwise); "
            "at most the server's EQUITY_MAX_SAMPLES. Absent: exact when it fits the limits."
        ),
        json_schema_extra=drop_default,
    )
    exact: bool | None = Field(
        default=None,
        description="true: enumerate (422 when over the server's limit); false: Monte Carlo.",
        json_schema_extra=drop_default,
    )
    seed: int | None = Field(
        default=None,
        ge=0,
        le=2**63 - 1,
        description="Monte Carlo seed: the same seed gives the same answer.",
        json_schema_extra=drop_default,
    )
    target_stderr: float | None = Field(
        default=None,
        ge=1e-4,
        le=0.5,
        description="Monte Carlo stops once the standard error of every equity, win and tie "
        "share is at most this (default 0.0005), unless a limit comes first.",
        json_schema_extra=drop_default,
    )


class EquityResponse(ResponseModel):
    equity: list[float] = Field(description="Share of the pot each player wins on average.")
    win: list[float] = Field(description="Chance each player wins alone.")
    tie: list[float] = Field(description="Chance each player splits the pot.")
    exact: bool = Field(description="true: every deal and board enumerated; false: Monte Carlo.")
    combos: int = Field(description="Showdowns settled (deals of combos times boards).")
    stderr: float = Field(description="Largest standard error of an equity; 0 when exact.")
    samples: int = Field(description="Monte Carlo draws; 0 when exact.")
    method: str = Field(
        description="'matchups' or 'boards' (exact), 'monte_carlo_boards' or 'monte_carlo_deals'."
    )
