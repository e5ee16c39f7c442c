"""Schema parts both games' session routes share: the table size, the round code's bound and
a request's game version (``api.banting.games_schemas``, ``api.susun.games_schemas``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

MIN_PLAYERS = 2
MAX_PLAYERS = 4
# Round codes are at most 32 characters; the bound keeps errors from echoing huge inputs.
MAX_CODE_LENGTH = 32

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
