"""Stream tickets: short-lived HMAC-signed credentials for ``GET …/events``.

A ticket names the game kind, the game id, the seat and when it expires; it is signed with
HMAC-SHA256 under a secret kept in the session store (``server_secrets``), made once by the
first process that needs it, so every worker (and every host on the same store) verifies
every other's tickets. ``POST …/ticket`` (the seat's bearer token) answers a ticket valid
:data:`TICKET_SECONDS` to open a stream with ``?ticket=``, and sets an HttpOnly,
SameSite=Strict cookie, scoped to the game's events path, valid :data:`COOKIE_SECONDS`, with
which the browser's EventSource reconnects by itself.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
import sqlite3
import threading
import time
from dataclasses import dataclass

from flask import Response, after_this_request, current_app, request
from pydantic import Field

from api.server.routing import ModelBlueprint
from api.server.schemas import RequestModel, ResponseModel
from api.server.sessions import GAME_PROBLEMS, seated

TICKET_SECONDS = 60
# The cookie lets an EventSource reconnect by itself (after a network drop, a server
# restart) for this long; a page asks for a new ticket when it loads.
COOKIE_SECONDS = 12 * 60 * 60
COOKIE_NAME = "capsa_live"
_SECRET_NAME = "stream_tickets"
_secrets: dict[str, bytes] = {}
_lock = threading.Lock()


def store_secret(db_path: str) -> bytes:
    """The store's ticket secret: made once (32 random bytes) and kept in ``server_secrets``
    in the store itself, so every process using the store signs alike. Cached per process."""
    found = _secrets.get(db_path)
    if found is not None:
        return found
    with _lock:
        found = _secrets.get(db_path)
        if found is None:
            folder = os.path.dirname(os.path.abspath(db_path))
            os.makedirs(folder, exist_ok=True)
            conn = sqlite3.connect(db_path, timeout=5.0)
            try:
                with conn:
                    conn.execute(
                        "CREATE TABLE IF NOT EXISTS server_secrets "
                        "(name TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT"
                    )
                    conn.execute(
                        "INSERT OR IGNORE INTO server_secrets VALUES (?, ?)",
                        (_SECRET_NAME, secrets.token_hex(32)),
                    )
                row = conn.execute(
                    "SELECT value FROM server_secrets WHERE name = ?", (_SECRET_NAME,)
                ).fetchone()
            finally:
                conn.close()
            found = bytes.fromhex(row[0])
            _secrets[db_path] = found
    return found


@dataclass(frozen=True, slots=True)
class Ticket:
    kind: str  # "banting" or "susun"
    game_id: str
    seat: int
    expires: int  # Unix seconds


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign(secret: bytes, ticket: Ticket) -> str:
    payload = json.dumps(
        [ticket.kind, ticket.game_id, ticket.seat, ticket.expires], separators=(",", ":")
    ).encode()
    mac = hmac.new(secret, payload, hashlib.sha256).digest()
    return f"{_b64(payload)}.{_b64(mac)}"


def verify(secret: bytes, text: str, kind: str, game_id: str) -> Ticket | None:
    """The ticket ``text`` stands for, if it is signed with ``secret``, unexpired and for
    this game; else None (whatever is wrong with it)."""
    try:
        encoded, _, given = text.partition(".")
        payload = _unb64(encoded)
        wanted = hmac.new(secret, payload, hashlib.sha256).digest()
        if not hmac.compare_digest(wanted, _unb64(given)):
            return None
        got_kind, got_id, seat, expires = json.loads(payload)
    except (ValueError, TypeError):
        return None
    if got_kind != kind or got_id != game_id or not isinstance(seat, int):
        return None
    if not isinstance(expires, int) or expires < time.time():
        return None
    return Ticket(kind, game_id, seat, expires)


class TicketRequest(RequestModel):
    """No fields: the token's seat and the game in the path say what the ticket is for."""


class StreamTicket(ResponseModel):
    ticket: str = Field(
        description="Open the game's events stream with ?ticket= this value within "
        "'expires_in' seconds."
    )
    expires_in: int = Field(description="Seconds the ticket may still open a stream.")


def ticket_route(bp: ModelBlueprint, kind: str) -> None:
    """Register ``POST /<game_id>/ticket`` on the game blueprint ``bp`` (whose seat routes
    have checked the token)."""

    @bp.json_post(
        "/<game_id>/ticket",
        request_model=TicketRequest,
        response_model=StreamTicket,
        summary="A ticket to open the live events stream",
        problems=GAME_PROBLEMS,
        body_required=False,
        bearer_auth=True,
    )
    def stream_ticket(body: TicketRequest, game_id: str) -> StreamTicket:
        """A signed ticket for this seat's live updates (GET .../events?ticket=...), valid
        for 60 seconds to open a stream, and a cookie (HttpOnly, SameSite=Strict, for the
        events path of this game only) with which a browser's EventSource reconnects by
        itself for 12 hours. The seat token itself never goes in a URL."""
        found = seated()
        secret = store_secret(os.fspath(current_app.config["GAMES_DB"]))
        now = int(time.time())
        ticket = sign(secret, Ticket(kind, game_id, found.seat, now + TICKET_SECONDS))
        cookie = sign(secret, Ticket(kind, game_id, found.seat, now + COOKIE_SECONDS))
        path = f"{request.script_root}/v1/{kind}/games/{game_id}/events"

        @after_this_request
        def set_cookie(response: Response) -> Response:
            response.set_cookie(
                COOKIE_NAME,
                cookie,
                max_age=COOKIE_SECONDS,
                path=path,
                secure=request.scheme == "https",
                httponly=True,
                samesite="Strict",
            )
            response.headers["Cache-Control"] = "no-store"
            return response

        return StreamTicket(ticket=ticket, expires_in=TICKET_SECONDS)
