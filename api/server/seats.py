"""Tables for several people, for both games: invitations, claiming a seat, the host's start.

A create request with ``"invite": true`` (each other human seat gets its own code) or
``"open": true`` (one code, first come first served) returns the creator's token only; a
create with two or more human seats that names neither, nor ``"tokens": "all"``, invites.
What a table of people adds to a stored game is kept in its ``settings["table"]``:

- ``host``: the creator's seat (it starts the table and frees seats);
- ``started``: false until the host starts; before that only the view (the lobby), the
  start, freeing a seat and the stream ticket answer, other changes are 409 NOT_STARTED;
- ``claimed``: the human seats someone holds; an unclaimed seat's token hash is that of a
  token nobody was given, so it is a human seat nobody can act for;
- ``invitations``: seat -> SHA-256 of its code, or ``open``: the hash of the open code;
- ``names``: seat -> display name, as given.

Joining claims a seat with an optimistic save (the store's version check): of concurrent
joins for one seat exactly one is stored, the others reload, find it taken and get 409
SEAT_TAKEN. A code stays known after its seat is claimed, so using it again is 409
SEAT_TAKEN, not 404 (docs/choices.md). Games without ``settings["table"]`` (one human seat,
or ``"tokens": "all"``) are started and every human seat is held, as before.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from flask import current_app, g, request

from api.server.common import refuse
from api.server.errors import ApiProblem
from api.server.game_store import SessionRecord, hash_token, new_token
from api.server.language import say
from api.server.live.bus import bus_for
from api.server.routing import ModelBlueprint
from api.server.session_schemas import (
    Invitation,
    Joined,
    JoinRequest,
    SeatInfo,
    StartedTable,
    StartRequest,
    TableRequest,
)
from api.server.sessions import GAME_PROBLEMS, current_store, seated

INVITATION_BYTES = 12
# Routes of a game that answer before its host starts it (by endpoint name).
LOBBY_ENDPOINTS = frozenset({"game", "start_table", "stream_ticket"})
# A join retries after another request saved the game first, at most this often.
JOIN_ATTEMPTS = 8


@dataclass
class NewTable:
    """What a create request's seats come to: the stored hashes and table settings, and what
    the response carries."""

    token_hashes: dict[int, str]
    table: dict[str, Any] | None
    tokens: dict[str, str]
    invitations: dict[str, Invitation] | None
    invite_url: str | None


def refuse_table_fields(body: TableRequest, errors: Any) -> None:
    """A create may ask for one of invite, open and tokens: 'all' only."""
    chosen = [name for name in ("invite", "open") if getattr(body, name)]
    if body.tokens is not None:
        if body.tokens != "all":
            errors.add("tokens", f"Expected 'all', got {body.tokens!r}.")
        chosen.append("tokens")
    if len(chosen) > 1:
        errors.add(chosen[1], f"Choose one of invite, open and tokens: got {', '.join(chosen)}.")


def _join_url(kind: str, game_id: str, code: str) -> str:
    return f"/?join={code}&game={kind}/{game_id}"


def new_table(body: TableRequest, humans: list[int], kind: str, game_id: str) -> NewTable:
    """Tokens and invitations for a new game's human seats (``humans``, not empty)."""
    tokens = {seat: new_token() for seat in humans}
    hashes = {seat: hash_token(token) for seat, token in tokens.items()}
    invite = body.invite or (not body.open and body.tokens is None and len(humans) > 1)
    if body.tokens == "all" or not (invite or body.open):
        # Every human seat's token to the creator: started, every seat held.
        plain: dict[str, Any] | None = None
        if body.name is not None:
            names = {str(humans[0]): body.name}
            plain = {"host": humans[0], "started": True, "claimed": humans, "names": names}
        return NewTable(hashes, plain, {str(s): t for s, t in tokens.items()}, None, None)
    host, others = humans[0], humans[1:]
    codes: dict[str, str] = {}
    table: dict[str, Any] = {
        "host": host,
        "started": False,
        "claimed": [host],
        "names": {} if body.name is None else {str(host): body.name},
        "secret": len(humans) > 1,
    }
    invitations: dict[str, Invitation] | None = None
    invite_url = None
    if body.open:
        code = secrets.token_urlsafe(INVITATION_BYTES)
        table["open"] = hash_token(code)
        invite_url = _join_url(kind, game_id, code)
    else:
        invitations = {}
        for seat in others:
            code = secrets.token_urlsafe(INVITATION_BYTES)
            codes[str(seat)] = hash_token(code)
            invitations[str(seat)] = Invitation(code=code, url=_join_url(kind, game_id, code))
        table["invitations"] = codes
    return NewTable(hashes, table, {str(host): tokens[host]}, invitations, invite_url)


def table_of(record: SessionRecord) -> dict[str, Any] | None:
    found: dict[str, Any] | None = record.settings.get("table")
    return found


def started(record: SessionRecord) -> bool:
    table = table_of(record)
    return table is None or bool(table.get("started", True))


def seat_list(record: SessionRecord) -> list[SeatInfo]:
    """Who sits where, for every view: a bot, a human seat someone holds, or an empty one."""
    table = table_of(record) or {}
    names: dict[str, str] = table.get("names", {})
    claimed = set(table.get("claimed", record.token_hashes))
    seats = []
    for seat in range(record.players):
        bot = seat in record.bots
        seats.append(
            SeatInfo(
                seat=seat,
                name=None if bot else names.get(str(seat)),
                kind="bot" if bot else "human",
                connected=bot or seat in claimed,
                away=False,
            )
        )
    return seats


def check_lobby(record: SessionRecord, endpoint: str) -> None:
    """409 NOT_STARTED for a change to a game its host has not started."""
    if not started(record) and endpoint not in LOBBY_ENDPOINTS:
        raise ApiProblem(
            409,
            say(
                "The host has not started this table yet; wait for the start.",
                "Tuan rumah belum memulai meja ini; tunggu sampai dimulai.",
            ),
            code="NOT_STARTED",
        )


def _publish(record: SessionRecord) -> None:
    kind = record.TABLE.removesuffix("_games")
    try:
        bus_for(current_store().path).publish(kind, record.id, record.version)
    except OSError as exc:  # the streams' resync catches up
        current_app.logger.warning("live publish failed for %s: %r", record.id, exc)


def _matches(code: str, stored: str) -> bool:
    return hmac.compare_digest(hash_token(code), stored)


def _seat_for(record: SessionRecord, code: str) -> int:
    """The seat ``code`` claims at ``record`` (404 for a code of no seat here, 409
    SEAT_TAKEN when its seat, or every open seat, is claimed already)."""
    table = table_of(record) or {}
    claimed = set(table.get("claimed", []))
    humans = [seat for seat in range(record.players) if seat not in record.bots]
    found = None
    for key, stored in table.get("invitations", {}).items():
        if _matches(code, stored):
            found = int(key)
    if found is None and "open" in table and _matches(code, table["open"]):
        free = [seat for seat in humans if seat not in claimed]
        if not free:
            raise seat_taken("Every seat of this table is taken.")
        return free[0]
    if found is None:
        raise ApiProblem(404, "This invitation is for no seat of this game.")
    if found in claimed or found not in humans:
        raise seat_taken(f"Seat {found} is taken: an invitation works once.")
    return found


def seat_taken(detail: str) -> ApiProblem:
    return ApiProblem(409, detail, code="SEAT_TAKEN")


def table_routes(
    bp: ModelBlueprint,
    kind: str,
    record_type: type[SessionRecord],
    bot_levels: Collection[str],
    after_fill: Callable[[Any], None],
) -> None:
    """Register ``POST /<game_id>/seats`` (join) and ``POST /<game_id>/start`` on ``bp``
    (after :func:`api.server.sessions.seat_routes`), and refuse changes before the start.
    ``after_fill(record)`` lets the bots seated by a start act (and marks the record)."""

    @bp.before_request
    def _lobby() -> None:
        found = getattr(g, "seated", None)
        if found is not None and request.method != "OPTIONS":
            check_lobby(found.record, (request.endpoint or "").rpartition(".")[2])

    @bp.json_post(
        "/<game_id>/seats",
        request_model=JoinRequest,
        response_model=Joined,
        status=201,
        summary="Claim a seat with an invitation",
        problems=(404, 409, 503),
        example={"invitation": "q3Vn1w8cX0aZ2b7Y", "name": "Ana"},
    )
    def join_table(body: JoinRequest, game_id: str) -> Joined:
        """Claim the seat an invitation names (or, with an open table's code, the first free
        human seat) and get that seat's token, in this response only. A code works once: a
        seat already claimed is 409 SEAT_TAKEN, and so is an open table with no free seat; a
        code of no seat of this game is 404. Of concurrent joins for one seat exactly one
        wins. The name (1 to 24 characters, no control characters) is shown to every seat
        as given."""
        for _ in range(JOIN_ATTEMPTS):
            record = current_store().load(game_id, record_type)
            if record is None:
                raise ApiProblem(404, "There is no game with this id.")
            seat = _seat_for(record, body.invitation)
            token = new_token()
            table = table_of(record)
            assert table is not None
            table["claimed"] = sorted({*table["claimed"], seat})
            table.setdefault("names", {})[str(seat)] = body.name
            record.token_hashes[seat] = hash_token(token)
            if current_store().save(record):
                _publish(record)
                return Joined(seat=seat, token=token)
        raise seat_taken("Other players claimed the seats first; try again.")

    @bp.json_post(
        "/<game_id>/start",
        request_model=StartRequest,
        response_model=StartedTable,
        summary="Start a table (host only)",
        problems=(*GAME_PROBLEMS, 409),
        body_required=False,
        bearer_auth=True,
        example={"fill": next(iter(bot_levels))},
    )
    def start_table(body: StartRequest, game_id: str) -> StartedTable:
        """The host (the creator's token) starts the table once every human seat is
        claimed; with 'fill' (a bot level) bots of that level take the seats nobody claimed.
        Another seat's token is 403 NOT_HOST; open seats without 'fill' 409 SEATS_OPEN; a
        table already started 409 ALREADY_STARTED."""
        found = seated()
        record = found.record
        table = table_of(record)
        if table is None or found.seat != table["host"]:
            detail = "Only the host (the creator's seat) starts the table."
            raise ApiProblem(403, detail, code="NOT_HOST")
        if table["started"]:
            raise ApiProblem(409, "This table has started already.", code="ALREADY_STARTED")
        if body.fill is not None and body.fill not in bot_levels:
            known = ", ".join(bot_levels)
            raise refuse("fill", f"Unknown bot level {body.fill!r} (known: {known}).")
        empty = [s for s in sorted(record.token_hashes) if s not in table["claimed"]]
        if empty and body.fill is None:
            seats = ", ".join(map(str, empty))
            raise ApiProblem(
                409,
                f"Seats {seats} are not claimed yet: wait for their players, or send "
                "'fill' with a bot level to seat bots there.",
                code="SEATS_OPEN",
            )
        for seat in empty:
            del record.token_hashes[seat]
            record.bots[seat] = body.fill or ""
        table["started"] = True
        after_fill(record)
        if not current_store().save(record):
            raise ApiProblem(409, "The table changed meanwhile; try again.", code="CONFLICT")
        _publish(record)
        return StartedTable(started=True, seats=seat_list(record))
