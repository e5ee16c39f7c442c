"""Schema parts both games' session routes share: the table size, the round code's bound and
a request's game version (``api.banting.games_schemas``, ``api.susun.games_schemas``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, WithJsonSchema
from pydantic.config import JsonDict

from api.server.schemas import named

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
