"""Schema parts both games' session routes share: the table size, the round code's bound and
a request's game version (``api.banting.games_schemas``, ``api.susun.games_schemas``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, WithJsonSchema
from pydantic.config import JsonDict

from api.server.schemas import RequestModel, ResponseModel, named, value_set

MIN_PLAYERS = 2
MAX_PLAYERS = 4
# Round codes are at most 32 characters; the bound keeps errors from echoing huge inputs.
MAX_CODE_LENGTH = 32
# What the package reads as a round code: 1 to 32 letters, digits, '-' and '_' once
# surrounding spaces are stripped (capsa_fast._codes.canonical_code); for the document.
CODE_PATTERN = r"^\s*[0-9A-Za-z_-]+\s*$"


def seat_map(name: str, values: JsonDict, description: str) -> JsonDict:
    """A named object schema whose keys are seats ('0' to '3'); returns a ``$ref`` to it."""
    return named(
        name,
        {
            "type": "object",
            "propertyNames": {"pattern": "^[0-3]$"},
            "additionalProperties": values,
            "description": description,
        },
    )


SeatTokens = Annotated[
    dict[str, str],
    WithJsonSchema(
        seat_map(
            "SeatTokens",
            {"type": "string"},
            "Seat (a string key) -> its secret token, to be sent as 'Authorization: Bearer "
            "<token>'.",
        )
    ),
]

GameVersion = Annotated[
    int,
    Field(
        ge=1,
        description=(
            "The game's version this request applies to (a view's 'version'); when the game "
            "is at another version the request is refused with 409 CONFLICT and changes "
            "nothing, so a retried request is never applied twice. Omitted: not checked."
        ),
    ),
]


# --- tables for several people (api.server.seats) --------------------------------------------

MAX_NAME_LENGTH = 24
# 1 to 24 characters, none of them a control character (C0, DEL, C1).
NAME_PATTERN = "^[^\\x00-\\x1f\\x7f-\\x9f]{1,24}$"

DisplayName = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_NAME_LENGTH,
        pattern=NAME_PATTERN,
        description=(
            "A display name: 1 to 24 characters, no control characters. Returned as given: "
            "every client escapes it where it shows it."
        ),
        examples=["Ana"],
    ),
]
TokensChoice = Annotated[
    str,
    WithJsonSchema(
        value_set(
            "TokensChoice",
            ("all",),
            "'all': return every human seat's token (hot-seat play, tests); no invitations.",
        )
    ),
]
InvitationCode = Annotated[
    str,
    Field(
        min_length=1,
        max_length=64,
        description="An invitation code from the create response (an 'invitations' code or "
        "the code in 'invite_url').",
        examples=["q3Vn1w8cX0aZ2b7Y"],
    ),
]


SeatKind = Annotated[
    str,
    WithJsonSchema(value_set("SeatKind", ("human", "bot"), "Who plays a seat: a person or a bot.")),
]


class TableRequest(RequestModel):
    """The fields of a create request that name the seats for other people."""

    invite: bool = Field(
        default=False,
        description=(
            "Give every human seat but the creator's an invitation (one code per seat). A "
            "create with two or more human seats and neither 'open' nor 'tokens' does this."
        ),
    )
    open: bool = Field(
        default=False,
        description="One invitation link for every other human seat: first come, first served.",
    )
    tokens: TokensChoice | None = Field(
        default=None,
        description="'all': every human seat's token in the response, no invitations.",
    )
    name: DisplayName | None = Field(default=None, description="The creator's display name.")


class Invitation(ResponseModel):
    code: str = Field(description="The code a player sends to POST .../seats (works once).")
    url: str = Field(description="The page's link that joins this seat.")


SeatInvitations = Annotated[
    dict[str, Invitation],
    WithJsonSchema(
        seat_map(
            "SeatInvitations",
            named(
                "SeatInvitation",
                {
                    "type": "object",
                    "properties": {
                        "code": {"type": "string"},
                        "url": {"type": "string"},
                    },
                    "required": ["code", "url"],
                    "additionalProperties": False,
                    "description": (
                        "A seat's invitation: the code to send to POST .../seats (it works "
                        "once) and the page's link that joins the seat."
                    ),
                },
            ),
            "Seat (a string key) -> its invitation.",
        )
    ),
]


class JoinRequest(RequestModel):
    invitation: InvitationCode
    name: DisplayName


class Joined(ResponseModel):
    seat: int = Field(description="The seat claimed.")
    token: str = Field(description="That seat's secret token (only in this response).")


class StartRequest(RequestModel):
    fill: str | None = Field(
        default=None,
        description=(
            "A bot level: seat bots of this level in the human seats nobody claimed. "
            "Omitted: every human seat must be claimed (409 SEATS_OPEN otherwise)."
        ),
        examples=["standard"],
    )


class SeatInfo(ResponseModel):
    seat: int
    name: str | None = Field(description="The player's display name as given; null if none.")
    kind: SeatKind
    connected: bool = Field(description="A bot, or a human seat someone holds.")
    away: bool = Field(description="Whether a computer plays this seat for an absent player.")


class StartedTable(ResponseModel):
    started: bool
    seats: list[SeatInfo] = Field(description="Who sits where now.")


INVITATIONS_DESCRIPTION = (
    "With 'invite' (or two or more human seats and no 'open' or 'tokens'): seat -> its "
    "invitation, for each human seat but the creator's; null otherwise."
)
INVITE_URL_DESCRIPTION = "With 'open': the one link that joins the table's free seats; else null."
SEATS_DESCRIPTION = "Who sits where: a bot, a human seat someone holds, or one still open."
STARTED_DESCRIPTION = (
    "False while a table of people waits for its host's start (POST .../start): the lobby."
)
