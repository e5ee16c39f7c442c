"""Request and response models of the Banting game-session routes (``api.banting.games``).

As elsewhere the models check shape and types; cards, seats, bot levels, round codes and
rules are checked by the routes with ``capsa_fast``, so every such error reads the same as
on the stateless routes.
"""

from __future__ import annotations

from typing import Annotated, Literal

from capsa_fast import banting
from pydantic import Field, WithJsonSchema

from api.banting.schemas import BantingRules, BantingSettings, ComboKind, Play, Rules, ScoreLine
from api.server.schemas import (
    Card,
    CardText,
    RequestModel,
    ResponseModel,
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

DEFAULT_PLAYERS = 4

BOT_LEVEL = value_set(
    "BantingBotLevel",
    banting.BOT_LEVELS,
    "A Banting bot's level (RULES.md 3.4), weakest to strongest; the -v1/-v2 ones are "
    "earlier standard bots, kept for comparison.",
)
RoundCode = Annotated[
    str,
    Field(
        max_length=MAX_CODE_LENGTH,
        # Checked by the package (whose messages name the bad character); stated here.
        json_schema_extra={"minLength": 1, "pattern": CODE_PATTERN},
        description=(
            "A round code (any case): an issued one, 'B', the number of players and 13 "
            "characters of Crockford base32 (e.g. 'B44D3BFCNXW9N3Z'; the short form of 9, "
            "e.g. 'B4K7M2Q9XZ1', deals too), or any word of 1 to 32 "
            "letters, digits, '-' and '_'. It determines every hand of the round."
        ),
        examples=["B4K7M2Q9XZ1"],
    ),
]
BotLevels = Annotated[
    dict[str, str],
    WithJsonSchema(
        seat_map("BantingBots", BOT_LEVEL, "Seat (a string key) -> bot level, for bot seats.")
    ),
    Field(
        description=(
            "Seat (as a string key, '0'..players-1) -> bot level. Seats not named are human; "
            "at least one seat must be."
        ),
        examples=[{"1": "standard", "2": "beginner", "3": "beginner"}],
    ),
]
BotLevel = Annotated[str, WithJsonSchema(BOT_LEVEL)]
Phase = Annotated[
    Literal["exchange", "play", "over"],
    WithJsonSchema(
        value_set(
            "GamePhase",
            ("exchange", "play", "over"),
            "Where a Banting round is: its card exchange, its play, or over.",
        )
    ),
]
PlayOrPass = Annotated[
    list[Card] | Literal["pass"],
    Field(description="The cards played (canonical spelling), or 'pass'."),
]


# --- requests -----------------------------------------------------------------------------


class CreateGameRequest(TableRequest):
    rules: Rules
    code: RoundCode | None = Field(
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
            f"Number of seats; omitted: an issued code's, else {DEFAULT_PLAYERS}. It must agree "
            "with an issued code's when both are given."
        ),
    )
    bots: BotLevels = Field(default_factory=dict)


class MoveRequest(RequestModel):
    play: Play
    version: GameVersion | None = None


class HintRequest(RequestModel):
    level: BotLevel = Field(
        default="standard",
        description=(
            "The bot level whose move is suggested: standard (the view's hint), or master "
            "(a search of up to about 50 ms), ..."
        ),
        examples=["master"],
    )


class NextRoundRequest(RequestModel):
    code: RoundCode | None = Field(
        default=None,
        description=(
            "The next round's code; omitted: a fresh random deal. Only in a game with one "
            "human seat: with two or more, the server picks every code (403 "
            "CODE_NOT_ALLOWED)."
        ),
    )
    version: GameVersion | None = None


class ExchangeRequest(RequestModel):
    cards: list[Card] = Field(
        description="The one card this seat gives back in the exchange (its own choice).",
        min_length=1,
        max_length=1,
        examples=[["7d"]],
        json_schema_extra={"uniqueItems": True},  # as every card list says
    )
    version: GameVersion | None = None


# --- responses ----------------------------------------------------------------------------


class GameRules(BantingSettings):
    """Every setting of the game's rules (``Rules.to_dict``): ``straights`` as the list of
    runs low to high, ``straight_order`` its name (or 'custom'), and the preset it started
    from. It checks the report is whole; the document shows it as ``BantingRules``."""

    straight_order: str
    preset: str


# The rules a response reports, documented as the schema a request's rules take, so that a
# client can send a game's rules back as they are (e.g. to start another game like it).
ReportedRules = Annotated[
    GameRules,
    WithJsonSchema(model_ref(BantingRules)),
    Field(
        description=(
            "Every setting of the game's rules, 'straights' as the list of runs low to "
            "high, 'straight_order' its name (or 'custom'), and the preset they started "
            "from: an object a create request takes as its 'rules' as it is."
        )
    ),
]


class GameCreated(ResponseModel):
    id: str = Field(description="The game's id, for the URLs of the other game routes.")
    code: str | None = Field(
        description=(
            "The first round's code when the game has one human seat (who may choose it and "
            "share it); null with two or more human seats, whose views show each round's "
            "code only once that round is over (it determines every hand)."
        )
    )
    players: int
    round: int = Field(description="1: the match has just begun.")
    humans: list[int] = Field(description="The human seats, each with a token.")
    bots: BotLevels = Field(description="Seat -> bot level, for the bot seats.")
    tokens: SeatTokens = Field(
        description=(
            "Seat -> its secret token, to be sent as 'Authorization: Bearer <token>'. Shown "
            "only here: the server keeps a hash, so a lost token cannot be recovered."
        )
    )
    invitations: SeatInvitations | None = Field(default=None, description=INVITATIONS_DESCRIPTION)
    invite_url: str | None = Field(default=None, description=INVITE_URL_DESCRIPTION)
    rules: ReportedRules


class TableCombo(ResponseModel):
    seat: int = Field(description="Who played it.")
    kind: ComboKind
    cards: list[CardText]
    label: str = Field(description="Readable name, in the response's Content-Language.")


class HistoryEntry(ResponseModel):
    seat: int
    play: PlayOrPass
    kind: ComboKind | None = Field(description="The combo played; null for a pass.")
    label: str | None = Field(
        description="Readable name of the combo (in the response's Content-Language); null "
        "for a pass."
    )


class Hint(ResponseModel):
    play: PlayOrPass = Field(
        description="Cards to play; 'pass' only when the seat has no legal play (seed 003)."
    )
    kind: ComboKind | None
    label: str | None
    pass_reasonable: bool = Field(
        description="The bot (the standard bot in a view) would rather pass here; the hint "
        "still names its best play."
    )


class RoundResult(ResponseModel):
    winner: int
    cards_left: list[int] = Field(
        description=(
            "Cards each seat held when the first went out (13 for the losers of a dragon), "
            "the numbers the scores come from."
        )
    )
    scores: list[int] = Field(description="Points per seat this round; they sum to 0.")
    finishing_order: list[int] = Field(
        description="Seats in the order they went out (first-out: just the winner)."
    )
    dragon: bool = Field(description="The round ended at the deal: the winner held all 13 ranks.")
    lines: list[ScoreLine] = Field(
        description=(
            "Per seat, how its points come about: a loser's cards left × its tier multiplier "
            "= the points it pays (negative); the winner's line (multiplier 0) holds its "
            "total, the sum of what the losers pay."
        )
    )


class ExchangeInfo(ResponseModel):
    """This seat's part in the round's card exchange (RULES.md 3.2 ``exchange: ranked``)."""

    received: list[CardText] = Field(description="The cards this seat received.")
    gave: list[CardText] = Field(description="The cards this seat gave.")
    give: int = Field(
        description="How many cards this seat must still give back (POST .../exchange): 1 or 0."
    )


class GameView(ResponseModel):
    """What one seat may see: its own hand, the public state and the round's history."""

    id: str
    seat: int = Field(description="The seat whose view this is (the token's).")
    players: int
    version: int = Field(description="Goes up by one with every change to the game.")
    round: int = Field(description="1-based round number within the match.")
    phase: Phase = Field(
        description=(
            "exchange: the round's card exchange is open (no seat's turn until every card "
            "owed is given back); play; over: the round is over."
        )
    )
    code: str | None = Field(
        description=(
            "The round's code. With two or more human seats only once the round is over (it "
            "determines every hand, so it is withheld while the round runs; null before); "
            "with one human seat always, so the player can share the round."
        )
    )
    hand: list[CardText] = Field(description="This seat's cards, low to high in Big Two order.")
    counts: list[int] = Field(description="Cards held per seat.")
    table: TableCombo | None = Field(description="The combo to beat; null when leading.")
    turn: int | None = Field(description="The seat to move; null once the round is over.")
    leader: int | None = Field(description="The seat that led the current trick.")
    passed: list[int] = Field(description="Seats that passed since the current trick began.")
    one_card: list[int] = Field(description="The seats holding exactly one card, in seat order.")
    first_play: bool = Field(
        description="The next play opens the round and must hold the lowest dealt card."
    )
    twos_demoted: bool = Field(
        description=(
            "Under two_demotion: a four of a kind played this round has made the 2s the "
            "lowest singles (seed 000). Always false without the setting."
        )
    )
    your_turn: bool
    can_pass: bool = Field(description="It is this seat's turn and there is a table to pass on.")
    legal_count: int = Field(
        description="Number of legal plays this seat has now (passing excluded); 0 off turn."
    )
    hint: Hint | None = Field(
        description=(
            "A play for this seat (seed 003 «Petunjuk»): the standard bot's move, never a "
            "pass while the seat has a legal play; null off turn."
        )
    )
    exchange: ExchangeInfo | None = Field(
        description=(
            "Under exchange: ranked, what this seat gave and received in this round's "
            "exchange and whether it owes a card back; null when it took no part."
        )
    )
    history: list[HistoryEntry] = Field(description="This round's moves, in order.")
    if_ended_now: int = Field(
        description=(
            "What this seat would score if the round ended now with another seat out: minus "
            "its cards left × the tier multiplier for that many (seed 003: 'Sisa 13 · kalau "
            "selesai sekarang −39'). The cards counted are those the scores use: under "
            "last-standing, once a seat is out, the ones held then. 0 for a seat with none "
            "counted (a winner's gain is in 'result'). Once the round is over, the same from "
            "the result's cards_left."
        )
    )
    totals: list[int] = Field(description="Points per seat over the finished rounds.")
    over: bool
    result: RoundResult | None = Field(description="Once the round is over; null before.")
    seats: list[SeatInfo] = Field(description=SEATS_DESCRIPTION)
    started: bool = Field(description=STARTED_DESCRIPTION)
    humans: list[int]
    bots: BotLevels = Field(description="Seat -> bot level, for the bot seats.")
    rules: ReportedRules
    created_at: str = Field(description="ISO 8601, UTC.")
    updated_at: str = Field(description="ISO 8601, UTC: the last change.")
