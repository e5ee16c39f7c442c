"""What the game sessions of both games share: the session store, seat tokens, versions and
round-code secrecy (``api.banting.games`` for Capsa Banting, ``api.susun.games`` for Capsa Susun).

A human seat is identified by its secret token (``Authorization: Bearer <token>``). The
routes of one game check, in this order: no bearer token 401, unknown game 404, a token that
is none of this game's seats 403 (all before the body is read); then the body (415, 400,
422); then the version the request names (an If-Match without the view's current ETag 412,
a body's ``version`` that is not the game's 409 CONFLICT); a round code where the server
picks the codes 403 CODE_NOT_ALLOWED; then the game itself (409 with a ``code``).

Round codes are secret while they matter (RULES.md 3.3, 4.5): a code determines every hand,
so in a game with two or more human seats the server picks every code and shows it only once
its round is over. With one human seat against bots the player may choose the code and sees
it all along (seed 003, «Salin link ronde»).
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Flask, Response, after_this_request, current_app, g, request

from api.server.errors import ApiProblem, api_problem_response
from api.server.game_store import GameStore, SessionRecord
from api.server.language import say
from api.server.live.bus import bus_for
from api.server.routing import DEADLINE_ENVIRON_KEY, LIVE_SEAT_ENVIRON_KEY

_STORE_KEY = "capsa_fast_api.game_store"
# A game request answers within STORE_BUSY_TIMEOUT of its arrival (docs/production.md): it
# waits for a locked store until this share of that time has passed, keeping the rest to
# answer (503 when the store stayed locked).
STORE_WAIT_SHARE = 0.7
# Statuses the routes of one game answer besides those of a body.
GAME_PROBLEMS = (401, 403, 404, 503)
# ... and those that change it: a refused move or round, a stale If-Match.
CHANGE_PROBLEMS = (*GAME_PROBLEMS, 409, 412)
CONFLICT_DETAIL = "The game changed while your move was being made; fetch it and try again."
CODE_NOT_ALLOWED_DETAIL = (
    "A game with two or more human seats is dealt from codes the server picks: a seat that "
    "knew a round's code would know every hand. Leave 'code' out."
)
CONFLICT_DETAIL_ID = "Permainan berubah saat langkahmu diproses; ambil lagi lalu coba lagi."
CODE_NOT_ALLOWED_DETAIL_ID = (
    "Permainan dengan dua pemain manusia atau lebih dibagi dari kode yang dipilih server: "
    "pemain yang tahu kode sebuah ronde akan tahu semua kartu. Jangan kirim 'code'."
)
# Routes of a game that take no seat token (api.server.seats: joining takes an invitation).
TOKENLESS_ENDPOINTS = frozenset({"join_table"})
# A view's ETag: this many hex digits of a SHA-256 (the tag only has to differ between views).
ETAG_HEX_DIGITS = 20
ETAG_HEADER = {
    "ETag": {
        "description": (
            "The tag of this seat's view at this version of the game; send it back as "
            "If-Match with a change (a move, an arrangement, a next round)."
        ),
        "schema": {"type": "string"},
    }
}
IF_MATCH_HEADER = {
    "name": "If-Match",
    "required": False,
    "description": (
        "The ETag of the view this request was made from (or a list of tags, or '*'). When "
        "the game has moved on since, the request is refused with 412 VERSION_MISMATCH and "
        "changes nothing. Omitted: not checked."
    ),
    "schema": {"type": "string"},
}


def store(app: Flask) -> GameStore:
    """The app's session store, as its GAMES_DB, FINISHED_GAME_TTL, IDLE_GAME_TTL,
    STORE_BUSY_TIMEOUT, GAMES_DB_MAX_BYTES and GAMES_DB_MIN_FREE_BYTES say."""
    config = app.config
    path = os.fspath(config["GAMES_DB"])
    wanted: dict[str, Any] = {
        "finished_ttl": float(config["FINISHED_GAME_TTL"]),
        "idle_ttl": float(config["IDLE_GAME_TTL"]),
        "busy_timeout": float(config["STORE_BUSY_TIMEOUT"]),
        "max_bytes": int(config["GAMES_DB_MAX_BYTES"]),
        "min_free_bytes": int(config["GAMES_DB_MIN_FREE_BYTES"]),
    }
    found: GameStore | None = app.extensions.get(_STORE_KEY)
    if (
        found is None
        or found.path != path
        or any(getattr(found, name) != value for name, value in wanted.items())
    ):
        found = GameStore(path, **wanted)
        app.extensions[_STORE_KEY] = found
    return found


def current_store() -> GameStore:
    return store(current_app)


def store_deadline() -> float:
    """Until when this request may wait for a locked store (``time.monotonic()`` seconds):
    :data:`STORE_WAIT_SHARE` of STORE_BUSY_TIMEOUT after it arrived (at the bridge, which
    counts its time in the lane's queue, else now)."""
    budget = float(current_app.config["STORE_BUSY_TIMEOUT"])
    given = request.environ.get(DEADLINE_ENVIRON_KEY)
    answer_by = time.monotonic() + budget if given is None else float(given)
    return answer_by - (1 - STORE_WAIT_SHARE) * budget


def store_unavailable(exc: Exception) -> ApiProblem:
    """The 503 for a store locked past its busy timeout, unreadable or full (each write is
    one transaction, so nothing was changed); the cause goes to the log only."""
    current_app.logger.error("Game session store failed on %s: %r", request.path, exc)
    return ApiProblem(
        503,
        "The game session store is busy or unavailable; nothing was changed. Try again.",
        headers={"Retry-After": "1"},
        code="SESSION_STORE_UNAVAILABLE",
    )


def _store_failed(exc: sqlite3.Error | OSError) -> Response:
    return api_problem_response(store_unavailable(exc))


# --- seats ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seated:
    """The match a request is about, as loaded, and the seat its token belongs to."""

    record: Any  # the game's SessionRecord subclass
    seat: int


def bearer_token() -> str:
    auth = request.authorization
    if auth is None or auth.type.lower() != "bearer" or not auth.token:
        if auth is None:
            # werkzeug gives None for a header it cannot read (Basic with bad base64, too).
            given = request.headers.get("Authorization")
            got = "an Authorization header it cannot read" if given else "no Authorization header"
        elif auth.type.lower() != "bearer":
            # A token sent without 'Bearer ' reads as the scheme: never say it back.
            named = len(auth.type) <= 12 and auth.type.isalpha()
            got = f"the {auth.type!r} scheme" if named else "another scheme, or no scheme"
        else:
            got = "no token"
        raise ApiProblem(
            401,
            f"This route needs a seat's token as 'Authorization: Bearer <token>'; got {got}.",
            headers={"WWW-Authenticate": 'Bearer realm="capsa_fast"'},
        )
    return auth.token


def seat_routes(bp: Blueprint, kind: type[SessionRecord]) -> None:
    """Make ``bp``'s routes with a ``game_id`` answer 401, 404 or 403 before the body is
    even read, and a failing store 503; the route then reads :func:`seated`."""

    @bp.before_request
    def _authenticate() -> None:
        current_store().set_deadline(store_deadline())
        game_id = (request.view_args or {}).get("game_id")
        if game_id is None or request.method == "OPTIONS":
            return  # a CORS preflight carries no token; the request that follows does
        if (request.endpoint or "").rpartition(".")[2] in TOKENLESS_ENDPOINTS:
            return  # joining a table takes an invitation instead (api.server.seats)
        live_seat = request.environ.get(LIVE_SEAT_ENVIRON_KEY)
        token = bearer_token() if live_seat is None else ""
        record = current_store().load(game_id, kind)
        if record is None:
            raise ApiProblem(404, "There is no game with this id.")
        if live_seat is None:
            seat = record.seat_of(token)
        else:
            seat = live_seat if live_seat in record.token_hashes else None
        if seat is None:
            raise ApiProblem(403, "This token belongs to no seat of this game.")
        g.seated = Seated(record, seat)

    @bp.teardown_request
    def _no_deadline(_exc: BaseException | None) -> None:
        current_store().set_deadline(None)  # the thread's next request sets its own

    bp.register_error_handler(sqlite3.Error, _store_failed)
    # The store's folder or file cannot be made or opened (a bad GAMES_DB path, a read-only
    # disk): as unavailable as a locked store, and /v1/health says so too.
    bp.register_error_handler(OSError, _store_failed)


def seated() -> Seated:
    found: Seated = g.seated
    return found


def seat_keys(mapping: Mapping[int, str]) -> dict[str, str]:
    return {str(seat): value for seat, value in sorted(mapping.items())}


# --- versions -------------------------------------------------------------------------------


def view_etag(record: SessionRecord, seat: int, language: str) -> str:
    """The (strong, unquoted) entity tag of ``seat``'s view of the game at its version: a
    seat's view is a function of the game, its version, the seat and the language of its
    labels (Accept-Language)."""
    text = f"{record.id}:{record.version}:{seat}:{language}".encode()
    return hashlib.sha256(text).hexdigest()[:ETAG_HEX_DIGITS]


def check_versions(found: Seated, version: int | None, languages: Iterable[str]) -> None:
    """A change goes ahead only at the version of the game it names, if it names one: as
    If-Match, one of whose tags must be the current ETag of the seat's view in one of
    ``languages`` (strong comparison, RFC 9110 13.1.1) or '*' (412 otherwise), or as the
    body's ``version`` (409 CONFLICT otherwise)."""
    record = found.record
    if "If-Match" in request.headers:
        tags = request.if_match
        # The seat's view in any language tags the same version of the game.
        current = (view_etag(record, found.seat, lang) for lang in languages)
        if not (tags.star_tag or any(tags.contains(tag) for tag in current)):
            raise ApiProblem(
                412,
                say(
                    "If-Match names no current view of this seat: the game has moved on since "
                    f"(it is at version {record.version} now). Nothing was changed; fetch it "
                    "and try again.",
                    "If-Match tidak menyebut tampilan terkini kursi ini: permainan sudah "
                    f"berlanjut (kini versi {record.version}). Tidak ada yang diubah; ambil "
                    "lagi lalu coba lagi.",
                ),
                code="VERSION_MISMATCH",
            )
    if version is not None and version != record.version:
        raise ApiProblem(
            409,
            say(
                f"This request is for version {version} of the game, which is at version "
                f"{record.version} now; nothing was changed. Fetch it and try again.",
                f"Permintaan ini untuk versi {version} permainan, yang kini di versi "
                f"{record.version}; tidak ada yang diubah. Ambil lagi lalu coba lagi.",
            ),
            code="CONFLICT",
        )


def code_not_allowed() -> ApiProblem:
    """The 403 for a round code sent where the server picks the codes, in the request's
    language."""
    return ApiProblem(
        403, say(CODE_NOT_ALLOWED_DETAIL, CODE_NOT_ALLOWED_DETAIL_ID), code="CODE_NOT_ALLOWED"
    )


# The rounds one game keeps (each request reads them all: a Banting round stores its
# moves, about 600 bytes); past this a match goes on in a new game.
MAX_ROUNDS = 500


def check_rounds_left(record: SessionRecord) -> None:
    """409 MATCH_FULL once the game holds :data:`MAX_ROUNDS` rounds."""
    if len(record.rounds) >= MAX_ROUNDS:
        raise ApiProblem(
            409,
            say(
                f"This game has played {MAX_ROUNDS} rounds, the most one game keeps; "
                "start a new game to play on.",
                f"Permainan ini sudah {MAX_ROUNDS} ronde, batas satu permainan; "
                "mulai permainan baru untuk main lagi.",
            ),
            code="MATCH_FULL",
        )


def refuse_code(record: SessionRecord) -> None:
    """403 when the server picks this game's round codes (two or more human seats)."""
    if record.codes_secret:
        raise code_not_allowed()


def tag_response(record: SessionRecord, seat: int, language: str) -> None:
    """Give this request's response the ETag of ``seat``'s view of ``record``."""
    tag = view_etag(record, seat, language)

    @after_this_request
    def add_etag(response: Response) -> Response:
        response.set_etag(tag)
        return response


def save(record: SessionRecord) -> None:
    """Store a changed match; 409 CONFLICT when another request saved it first."""
    found = current_store()
    if not found.save(record):
        raise ApiProblem(409, say(CONFLICT_DETAIL, CONFLICT_DETAIL_ID), code="CONFLICT")
    # Every worker process holding live streams of this game pushes the new version.
    kind = record.TABLE.removesuffix("_games")
    try:
        bus_for(found.path).publish(kind, record.id, record.version)
    except OSError as exc:  # the streams' resync catches up
        current_app.logger.warning("live publish failed for %s: %r", record.id, exc)
