"""Request and response models of the Capsa Susun game-session routes (``api.susun.games``).

As elsewhere the models check shape and types; cards, seats, bot levels, round codes and
rules are checked by the routes with ``capsa_fast``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from capsa_fast import susun
from pydantic import ConfigDict, Field, WithJsonSchema, field_validator
from pydantic.json_schema import SkipJsonSchema

from api.server.schemas import (
    Card,
    CardText,
    Category,
    RequestModel,
    ResponseModel,
    drop_default,
    model_ref,
    value_set,
)
from api.server.session_schemas import (
    CODE_PATTERN,
    INVITATIONS_DESCRIPTION,
    INVITE_URL_DESCRIPTION,
    MAX_CODE_LENGTH,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SEATS_DESCRIPTION,
    STARTED_DESCRIPTION,
    GameVersion,
    SeatInfo,
    SeatInvitations,
    SeatTokens,
    TableRequest,
    seat_map,
)
from api.susun.schemas import (
    MAX_STAKE,
    OutOfOrder,
    Position,
    SpecialKind,
    SpecialName,
    SusunPairRows,
    SusunRules,
    SusunSettings,
    _optional_cards,
    exclusive_shapes,
)
from api.susun.schemas import Rules as RulesField

DEFAULT_PLAYERS = 4
MAX_TIME_LIMIT = 86_400
BOT_LEVELS = (*susun.LEVELS, *susun.LEVELS.values())
BOT_LEVEL = value_set(
    "SusunBotLevel",
    BOT_LEVELS,
    "A Susun bot: beginner (the naive arranger), standard (percentile), expert (ev) or "
    "master (deep), or those strategy names.",
)

SusunCode = Annotated[
    str,
    Field(
        max_length=MAX_CODE_LENGTH,
        # Checked by the package (whose messages name the bad character); stated here.
        json_schema_extra={"minLength": 1, "pattern": CODE_PATTERN},
        description=(
            "A round code (any case): an issued one, 'S', the number of players and 13 "
            "characters of Crockford base32 (e.g. 'S299KKYY883Z9NS'; the short form of 9, "
            "e.g. 'S4K7M2Q9XZ1', deals too), or any word of 1 to 32 "
            "letters, digits, '-' and '_'. It determines every hand of the round."
        ),
        examples=["S4K7M2Q9XZ1"],
    ),
]
SusunBots = Annotated[
    dict[str, str],
    WithJsonSchema(
        seat_map("SusunBots", BOT_LEVEL, "Seat (a string key) -> bot level, for bot seats.")
    ),
    Field(
        description=(
            "Seat (as a string key, '0'..players-1) -> bot level: beginner (the naive "
            "arranger), standard (percentile) or expert (ev), or those strategy names. Seats "
            "not named are human; at least one seat must be."
        ),
        examples=[{"1": "expert", "2": "expert", "3": "expert"}],
    ),
]


# --- requests -----------------------------------------------------------------------------


class CreateSusunGameRequest(TableRequest):
    rules: RulesField
    code: SusunCode | None = Field(
        default=None,
        description=(
            "The first round's code; omitted: a fresh random deal. Only for a game with one "
            "human seat: with two or more, the server picks every code (403 "
            "CODE_NOT_ALLOWED)."
        ),
    )
    players: int | None = Field(
        default=None,
        ge=MIN_PLAYERS,
        le=MAX_PLAYERS,
        description=(
            f"Number of seats; omitted: an issued code's, else {DEFAULT_PLAYERS}. It must "
            "agree with an issued code's when both are given."
        ),
    )
    bots: SusunBots = Field(default_factory=dict)
    stake: float = Field(
        default=1,
        ge=0,
        le=MAX_STAKE,
        allow_inf_nan=False,
        description="Money per point; money = points x stake (the room fee on positive money).",
    )
    time_limit: float | None = Field(
        default=None,
        ge=1,
        le=MAX_TIME_LIMIT,
        allow_inf_nan=False,
        description=(
            "Seconds (1 to 86,400) each round gives the seats to arrange; once they have "
            "passed, the expert bot arranges every seat that has not (at the next request) "
            "and the table is revealed. Omitted or null: no limit."
        ),
    )
    corrections: bool = Field(
        default=False,
        description=(
            "Whether a seat may correct its rows (RULES.md 4.5): true, it may put them down "
            "again until the reveal, which comes when every seat is ready or the time limit "
            "has passed; false (the default), its first arrangement is final."
        ),
    )


class ArrangementRequest(RequestModel):
    """The seat's rows, or a special hand it declares instead."""

    model_config = ConfigDict(json_schema_extra=exclusive_shapes(["declare"], susun.POSITIONS))

    top: list[Card] = _optional_cards(3, "The top row: 3 of the seat's cards.")
    middle: list[Card] = _optional_cards(5, "The middle row: 5 of the seat's cards.")
    bottom: list[Card] = _optional_cards(5, "The bottom row: 5 of the seat's cards.")
    confirm_foul: bool = Field(
        default=False,
        description="Play fouled rows (pao) anyway; without it they are refused (409 FOULED).",
    )
    declare: SpecialKind | SkipJsonSchema[None] = Field(
        default=None,
        description=(
            "Instead of rows: a special hand the seat holds and the rules count (its view's "
            "'specials')."
        ),
        json_schema_extra=drop_default,
    )
    ready: bool = Field(
        default=True,
        description=(
            "At a table with corrections: false keeps these rows open to change (send the "
            "arrangement again), true says they are final. Without corrections only true."
        ),
    )
    version: GameVersion | None = None

    @field_validator("declare", mode="before")
    @classmethod
    def _declare_named(cls, value: object) -> object:
        # The document says a name; null is not one (leave 'declare' out to send rows).
        if value is None:
            raise ValueError("declare must name a special hand; leave it out to send rows")
        return value


class NextSusunRoundRequest(RequestModel):
    code: SusunCode | None = Field(
        default=None,
        description=(
            "The next round's code; omitted: a fresh random deal. Only in a game with one "
            "human seat (403 CODE_NOT_ALLOWED otherwise)."
        ),
    )
    version: GameVersion | None = None


# --- responses ----------------------------------------------------------------------------

PLACED_BY = value_set(
    "PlacedBy",
    ("player", "bot", "time"),
    "Who put a seat's rows down: the player, a bot, or the expert bot once the time ran out.",
)
Placed = Annotated[Literal["player", "bot", "time"], WithJsonSchema(PLACED_BY)]


class SusunGameRules(SusunSettings):
    """Every setting of the game's rules, and the preset they started from. It checks the
    report is whole; the document shows it as ``SusunRules``."""

    preset: str


# The rules a response reports, documented as the schema a request's rules take, so that a
# client can send a game's rules back as they are (e.g. to start another game like it).
ReportedRules = Annotated[
    SusunGameRules,
    WithJsonSchema(model_ref(SusunRules)),
    Field(
        description=(
            "Every setting of the game's rules and the preset they started from: an object "
            "a create request takes as its 'rules' as it is."
        )
    ),
]


class SusunGameCreated(ResponseModel):
    id: str = Field(description="The game's id, for the URLs of its other routes.")
    code: str | None = Field(
        description="The first round's code with one human seat; null with two or more."
    )
    players: int
    round: int
    humans: list[int] = Field(description="The human seats.")
    bots: SusunBots = Field(description="Seat -> bot level.")
    tokens: SeatTokens = Field(
        description="Human seat -> its secret token (only in this response)."
    )
    invitations: SeatInvitations | None = Field(default=None, description=INVITATIONS_DESCRIPTION)
    invite_url: str | None = Field(default=None, description=INVITE_URL_DESCRIPTION)
    rules: ReportedRules
    stake: float
    time_limit: float | None
    corrections: bool


class MyRows(ResponseModel):
    top: list[CardText]
    middle: list[CardText]
    bottom: list[CardText]
    special: SpecialName = Field(description="The special declared (or 'dragon'); null.")
    fouled: bool
    by: Placed = Field(
        description="Who put them down: the player, a bot, or the expert bot after the time."
    )


class RevealedRow(ResponseModel):
    position: Position
    name: str = Field(description="The position's name in the response's language.")
    cards: list[CardText]
    category: Category
    label: str
    bonus: int = Field(
        description="The bonus the row scored ('barang'); 0 if none, and on every row of a"
        " fouled seat or a seat that declared a special (its rows are not compared)."
    )


class RevealedSeat(MyRows):
    seat: int
    rows: list[RevealedRow] = Field(description="Top, middle, bottom, named and labelled.")
    out_of_order: list[OutOfOrder] = Field(description="Why a fouled seat is fouled.")
    points: int
    money: float = Field(description="points x stake.")
    fee: float = Field(description="The room fee on this seat's positive money.")


PairRows = SusunPairRows  # the rows of a revealed pair: the same as the score route's


class RevealedPair(ResponseModel):
    """Two seats head to head; lists are [first, second]."""

    players: list[int]
    rows: SusunPairRows = Field(
        description="1: the first seat's row won, -1: the second's, 0: equal or not compared "
        "(a foul or a special decides the pair)."
    )
    multiplier: list[int]
    points: list[int] = Field(description="Points each scored against the other; sum 0.")
    fouled: list[bool] = Field(description="Pao: fouled rows.")
    special: list[SpecialName]
    sweep: list[bool] = Field(description="Tembus: won all three rows against the other.")
    super: list[bool] = Field(description="Tembus keliling: swept the whole table.")


class SusunRoundResult(ResponseModel):
    seats: list[RevealedSeat]
    pairs: list[RevealedPair]
    fee_total: float


class SusunTotals(ResponseModel):
    points: list[int]
    money: list[float]
    fee: list[float]


class SusunGameView(ResponseModel):
    id: str
    seat: int = Field(description="The token's seat.")
    players: int
    version: int = Field(description="Goes up by one with every change of the game.")
    round: int
    code: str | None = Field(
        description=(
            "This round's code: with one human seat always; with two or more only once the "
            "round is revealed (it determines every hand)."
        )
    )
    hand: list[CardText] = Field(description="This seat's 13 cards, low to high.")
    specials: list[SpecialKind] = Field(
        description="The special hands this seat holds that the rules count (may declare)."
    )
    arranged: list[bool] = Field(description="Per seat: whether it has arranged.")
    ready: list[bool] = Field(
        description=(
            "Per seat: whether its rows are final (arranged and, with corrections, said "
            "ready); every seat once revealed."
        )
    )
    mine: MyRows | None = Field(description="What this seat put down; null before it does.")
    deadline: str | None = Field(
        description="When the time limit runs out (ISO 8601, UTC); null without one."
    )
    seconds_left: float | None = Field(description="Seconds until the deadline; 0 once passed.")
    revealed: bool
    result: SusunRoundResult | None = Field(
        description="Every seat's rows and the scores, once revealed; null before."
    )
    totals: SusunTotals = Field(description="The match so far, this round once revealed.")
    seats: list[SeatInfo] = Field(description=SEATS_DESCRIPTION)
    started: bool = Field(description=STARTED_DESCRIPTION)
    humans: list[int]
    bots: SusunBots
    rules: ReportedRules
    stake: float
    time_limit: float | None
    corrections: bool = Field(description="Whether seats may correct their rows until the reveal.")
    created_at: str
    updated_at: str
