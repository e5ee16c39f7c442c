"""Capsa Susun game sessions: create a table, view it from a seat, arrange in secret, reveal,
deal the next round (RULES.md 4.5; API.md "Game sessions (Susun)").

A match lives in SQLite (``api.server.game_store.SusunRecord``) as its rules, stake, time limit,
seats, and per round its code, when it was dealt and what each seat put down; each request
rebuilds the table with ``susun.Table.resume``. Bots arrange as soon as a round is dealt.
Before the reveal a seat sees its own hand and rows and who has arranged, never another
seat's cards, rows or declared special; once every seat has arranged (or the time limit has
passed: the expert bot then arranges the late seats at the next request), every seat sees
everything. With ``corrections`` a seat may send its rows again, ``ready`` or not, and the
reveal waits for every seat to be ready (or the time limit). Tokens, the order of the
checks, versions (ETag, If-Match, ``version``) and round-code secrecy are those of
``api.server.sessions``. The table's own refusals are 409 with a ``code``: FOULED (with the
``rows`` out of order), ALREADY_ARRANGED, ALREADY_REVEALED, NO_SUCH_SPECIAL, ROUND_NOT_OVER,
or CONFLICT.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, cast

from capsa_fast import LANGUAGES, _core, format_cards, susun
from flask import Response, after_this_request, current_app, url_for

from api.server.cards import card_ids
from api.server.common import engine, read_rules, refuse
from api.server.errors import ApiProblem, FieldErrors
from api.server.game_store import (
    SusunRecord,
    SusunRound,
    codes_secret,
    new_game_id,
    replaying,
)
from api.server.language import message_language, say
from api.server.live.tickets import ticket_route
from api.server.routing import ModelBlueprint
from api.server.seats import new_table, refuse_table_fields, seat_list, started, table_routes
from api.server.sessions import (
    CHANGE_PROBLEMS,
    ETAG_HEADER,
    GAME_PROBLEMS,
    IF_MATCH_HEADER,
    check_rounds_left,
    check_versions,
    code_not_allowed,
    current_store,
    refuse_code,
    save,
    seat_keys,
    seat_routes,
    seated,
    tag_response,
)
from api.susun.games_schemas import (
    BOT_LEVELS,
    DEFAULT_PLAYERS,
    ArrangementRequest,
    CreateSusunGameRequest,
    MyRows,
    NextSusunRoundRequest,
    PairRows,
    Placed,
    RevealedPair,
    RevealedRow,
    RevealedSeat,
    SusunGameCreated,
    SusunGameRules,
    SusunGameView,
    SusunRoundResult,
    SusunTotals,
)
from api.susun.schemas import OutOfOrder, Position, SpecialKind, SpecialName

bp = ModelBlueprint(
    "susun_games", __name__, url_prefix="/v1/susun/games", tag="susun-games", lane="store"
)
seat_routes(bp, SusunRecord)
ticket_route(bp, "susun")  # POST /<game_id>/ticket: api.server.live

HAND_SIZE = 13
# A master bot's first decision at a preset's rules makes its bank from the shipped codes
# (capsa_fast.susun.deep_banks); should those not match the model, the bank is built a step
# a decision, sampling meanwhile, so no request waits seconds for a whole bank
# (capsa_fast.susun.Table).
DEEP_BANK_STEP = _core.SUSUN_DEEP_SERVER_BANK_STEP
ROW_SIZES = {"top": 3, "middle": 5, "bottom": 5}


def clock() -> Callable[[], float]:
    """The app's clock (seconds since the epoch): ``time.time`` unless the config's CLOCK
    says otherwise (tests move one by hand)."""
    found: Callable[[], float] | None = current_app.config.get("CLOCK")
    return found or time.time


# --- the table from its record ---------------------------------------------------------------


def _corrections(record: SusunRecord) -> bool:
    return bool(record.settings.get("corrections", False))


def _seat_rows(stored: dict[str, Any]) -> susun.SeatRows:
    return susun.SeatRows(
        list(stored["top"]),
        list(stored["middle"]),
        list(stored["bottom"]),
        stored.get("special"),
        bool(stored.get("fouled", False)),
        stored.get("by", "player"),
    )


def _stored_rows(rows: susun.SeatRows, ready: bool) -> dict[str, Any]:
    return {
        "ready": ready,
        "top": rows.top,
        "middle": rows.middle,
        "bottom": rows.bottom,
        "special": rows.special,
        "fouled": rows.fouled,
        "by": rows.by,
    }


def _totals_before(record: SusunRecord, rules: susun.Rules) -> susun.Totals:
    stake = float(record.settings.get("stake", 1))
    totals = susun.Totals([0] * record.players, [0.0] * record.players, [0.0] * record.players)
    for finished in record.rounds[:-1]:
        for seat, points in enumerate(finished.points or []):
            money = points * stake
            totals.points[seat] += points
            totals.money[seat] += money
            totals.fee[seat] += rules.room_fee * money if money > 0 else 0.0
    return totals


def rebuild(record: SusunRecord) -> susun.Table:
    """The match as a live Table at its current round. The time limit is applied (the late
    seats arranged by the expert bot and recorded) when it has passed."""
    with replaying(record):
        rules = susun.Rules.from_dict(record.rules)
        current = record.rounds[-1]
        table = susun.Table.resume(
            rules,
            record.players,
            current.code,
            round=len(record.rounds),
            dealt_at=current.dealt_at,
            placed={seat: _seat_rows(rows) for seat, rows in current.placed.items()},
            totals=_totals_before(record, rules),
            stake=float(record.settings.get("stake", 1)),
            time_limit=record.settings.get("time_limit"),
            clock=clock(),
            deep_bank_step=DEEP_BANK_STEP,
            corrections=_corrections(record),
            waiting=[seat for seat, rows in current.placed.items() if not rows.get("ready", True)],
        )
    if table.expire():
        _note(record, table)
    return table


def _note(record: SusunRecord, table: susun.Table) -> None:
    """Copy what the seats put down (and the points once revealed) into the record."""
    current = record.rounds[-1]
    ready = table.ready
    for seat in range(record.players):
        rows = table.rows(seat)
        if rows is not None:
            current.placed[seat] = _stored_rows(rows, ready[seat])
    result = table.result
    current.points = None if result is None else result.points
    record.round_over = result is not None


def _bots_arrange(record: SusunRecord, table: susun.Table) -> None:
    for seat, level in sorted(record.bots.items()):
        if not table.revealed and not table.arranged[seat]:
            table.bot_arrange(seat, level)
    _note(record, table)


def _bots_after_start(record: SusunRecord) -> None:
    """The bots seated by a start arrange at once."""
    _bots_arrange(record, rebuild(record))


table_routes(bp, "susun", SusunRecord, BOT_LEVELS, _bots_after_start)


# --- the seat's view ---------------------------------------------------------------------------


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds")


def _revealed(table: susun.Table, language: str) -> SusunRoundResult | None:
    result = table.result
    if result is None:
        return None
    seats = []
    for s in result.seats:
        rows = s.rows
        checked = susun.check(rows.top, rows.middle, rows.bottom, table.rules, lang=language)
        seats.append(
            RevealedSeat(
                seat=s.seat,
                top=format_cards(rows.top),
                middle=format_cards(rows.middle),
                bottom=format_cards(rows.bottom),
                special=cast(SpecialName, rows.special),
                fouled=rows.fouled,
                by=cast(Placed, rows.by),
                rows=[
                    RevealedRow(
                        position=cast(Position, row.position),
                        name=row.name,
                        cards=format_cards(row.cards),
                        category=row.category,
                        label=row.label,
                        # A fouled seat's rows, or a declared special's, are not
                        # compared, so no row of theirs scores a bonus (RULES.md 4.1-4.4).
                        bonus=0 if rows.fouled or rows.special else row.bonus,
                    )
                    for row in checked.rows
                ],
                out_of_order=cast(list[OutOfOrder], checked.out_of_order if rows.fouled else []),
                points=s.points,
                money=s.money,
                fee=s.fee,
            )
        )
    pairs = []
    for pair in result.pairs:
        wins = pair["rows"]
        sweep = [
            all(wins[p] == 1 for p in wins) and pair["special"] == [None, None],
            all(wins[p] == -1 for p in wins) and pair["special"] == [None, None],
        ]
        pairs.append(
            RevealedPair(
                players=pair["players"],
                rows=PairRows(**wins),
                multiplier=pair["multiplier"],
                points=pair["points"],
                fouled=pair["fouled"],
                special=pair["special"],
                sweep=[sweep[0] and not pair["fouled"][0], sweep[1] and not pair["fouled"][1]],
                super=pair["super"],
            )
        )
    return SusunRoundResult(seats=seats, pairs=pairs, fee_total=result.fee_total)


def view(record: SusunRecord, table: susun.Table, seat: int, language: str) -> SusunGameView:
    """What ``seat`` may see: its own hand and rows and who has arranged; every seat's rows
    and the scores only once the table is revealed; the code as the secrecy rule says."""
    revealed = table.revealed
    mine = table.rows(seat)
    deadline = table.deadline
    totals = table.totals
    rules = table.rules
    return SusunGameView(
        id=record.id,
        seat=seat,
        players=record.players,
        version=record.version,
        round=table.round,
        code=table.code if revealed or not record.codes_secret else None,
        hand=format_cards(table.hand(seat)),
        specials=cast(list[SpecialKind], table.specials(seat)),
        arranged=table.arranged,
        ready=table.ready,
        mine=None
        if mine is None
        else MyRows(
            top=format_cards(mine.top),
            middle=format_cards(mine.middle),
            bottom=format_cards(mine.bottom),
            special=cast(SpecialName, mine.special),
            fouled=mine.fouled,
            by=cast(Placed, mine.by),
        ),
        deadline=None if deadline is None else _iso(deadline),
        seconds_left=None if deadline is None else max(0.0, deadline - clock()()),
        revealed=revealed,
        result=_revealed(table, language),
        totals=SusunTotals(points=totals.points, money=totals.money, fee=totals.fee),
        humans=record.humans,
        seats=seat_list(record),
        started=started(record),
        bots=seat_keys(record.bots),
        rules=SusunGameRules(**rules.to_dict()),
        stake=table.stake,
        time_limit=table.time_limit,
        corrections=table.corrections,
        created_at=record.created_at,
        updated_at=record.updated_at,
    )


def _answer(record: SusunRecord, table: susun.Table, seat: int, language: str) -> SusunGameView:
    tag_response(record, seat, language)
    return view(record, table, seat, language)


# --- routes -------------------------------------------------------------------------------


def _bot_seats(body: CreateSusunGameRequest, players: int, errors: FieldErrors) -> dict[int, str]:
    seats = {str(seat): seat for seat in range(players)}
    bots: dict[int, str] = {}
    for key, level in body.bots.items():
        field = f"bots/{key}"
        if key not in seats:
            errors.add(field, f"{key!r} is not a seat of this game (seats are 0 to {players - 1}).")
        elif level not in BOT_LEVELS:
            errors.add(field, f"Unknown bot level {level!r} (known: {', '.join(BOT_LEVELS)}).")
        else:
            bots[seats[key]] = level
    if len(body.bots) >= players:
        errors.add("bots", "At least one seat must be human; every seat here is a bot.")
    return bots


@bp.json_post(
    "",
    request_model=CreateSusunGameRequest,
    response_model=SusunGameCreated,
    status=201,
    problems=(403, 503),
    summary="Start a Susun table",
    example={"players": 4, "bots": {"1": "expert", "2": "expert", "3": "expert"}, "stake": 100},
)
def create_game(body: CreateSusunGameRequest) -> SusunGameCreated:
    """Deal the first round of a new table; the bots arrange at once (in secret).

    Seats named in 'bots' are played by the server at that level; every other seat is human
    and gets a secret token, returned only in this response. With one human seat the player
    may choose the round code and gets it here; with two or more the server picks every code
    and shows it only once its round is revealed ('code' is null here, and sending one is
    refused with 403 CODE_NOT_ALLOWED). The Location header is the game's URL."""
    errors = FieldErrors()
    rules = read_rules(susun.Rules.from_dict, body.rules, errors)
    code_players = None
    if body.code is not None:
        try:
            code_players, _ = susun.parse_code(body.code)
        except ValueError as exc:
            errors.add("code", str(exc))
    players = body.players or code_players or DEFAULT_PLAYERS
    if body.players is not None and code_players not in (None, body.players):
        errors.add("players", f"The code deals {code_players} players, not {body.players}.")
    bots = _bot_seats(body, players, errors)
    refuse_table_fields(body, errors)
    errors.raise_if_any()
    assert rules is not None
    humans = [seat for seat in range(players) if seat not in bots]
    if body.code is not None and codes_secret(len(humans)):
        raise code_not_allowed()

    table = engine(
        lambda: susun.Table(
            rules,
            players=players,
            code=body.code,
            stake=body.stake,
            time_limit=body.time_limit,
            clock=clock(),
            deep_bank_step=DEEP_BANK_STEP,
            corrections=body.corrections,
        ),
        "code",
    )
    assert table.code is not None
    game_id = new_game_id()
    seats = new_table(body, humans, "susun", game_id)
    settings: dict[str, Any] = {
        "stake": table.stake,
        "time_limit": table.time_limit,
        "corrections": table.corrections,
    }
    if seats.table is not None:
        settings["table"] = seats.table
    record = SusunRecord(
        id=game_id,
        players=players,
        rules=rules.to_dict(),
        bots=bots,
        token_hashes=seats.token_hashes,
        rounds=[SusunRound(table.code, table.dealt_at)],
        settings=settings,
    )
    _bots_arrange(record, table)
    current_store().create(record)

    location = url_for(".game", game_id=record.id)

    @after_this_request
    def add_location(response: Response) -> Response:
        response.headers["Location"] = location
        return response

    return SusunGameCreated(
        id=record.id,
        code=None if record.codes_secret else table.code,
        players=players,
        round=1,
        humans=humans,
        bots=seat_keys(bots),
        tokens=seats.tokens,
        invitations=seats.invitations,
        invite_url=seats.invite_url,
        rules=SusunGameRules(**rules.to_dict()),
        stake=table.stake,
        time_limit=table.time_limit,
        corrections=table.corrections,
    )


@bp.json_get(
    "/<game_id>",
    response_model=SusunGameView,
    summary="A seat's view of a Susun table",
    problems=GAME_PROBLEMS,
    bearer_auth=True,
    response_headers=ETAG_HEADER,
)
def game(game_id: str) -> SusunGameView:
    """The table as the token's seat sees it: its hand, the specials it may declare, its own
    rows once put down, who has arranged, the deadline; once revealed every seat's rows,
    each head-to-head result, points, money at the stake, the room fee; the match totals.
    Never another seat's cards or rows before the reveal. Row names and labels follow
    Accept-Language ('id': Indonesian). The ETag tags this view: send it back as If-Match."""
    record, seat, table = _fresh()
    return _answer(record, table, seat, message_language())


def _fresh() -> tuple[SusunRecord, int, susun.Table]:
    """The seat's record and table. When the time limit has passed since the last request,
    the expert bot's rows for the late seats are stored before anything else happens."""
    found = seated()
    record: SusunRecord = found.record
    was_revealed = record.rounds[-1].points is not None
    table = rebuild(record)
    if table.revealed and not was_revealed:
        save(record)
    return record, found.seat, table


def _rows_of(body: ArrangementRequest, errors: FieldErrors) -> list[list[int]] | None:
    sent = {name: getattr(body, name) for name in ROW_SIZES if name in body.model_fields_set}
    if body.declare is not None:
        if sent:
            errors.add("declare", "Send either the rows or 'declare', not both.")
        return None
    seen: dict[int, str] = {}
    rows = []
    for name, size in ROW_SIZES.items():
        cards = sent.get(name)
        if cards is None:
            errors.add(name, "Field required (or send 'declare' instead).")
            continue
        rows.append(card_ids(cards, name, errors, sizes=(size,), seen=seen))
    return rows


@bp.json_post(
    "/<game_id>/arrangement",
    request_model=ArrangementRequest,
    response_model=SusunGameView,
    summary="Arrange this seat's cards, or declare a special",
    example={
        "top": ["2c", "3d", "4h"],
        "middle": ["5s", "6c", "7d", "8h", "9s"],
        "bottom": ["Tc", "Jd", "Qh", "Ks", "Ac"],
    },
    problems=CHANGE_PROBLEMS,
    bearer_auth=True,
    request_headers=(IF_MATCH_HEADER,),
    response_headers=ETAG_HEADER,
)
def arrangement(body: ArrangementRequest, game_id: str) -> SusunGameView:
    """Put down the seat's rows (exactly its 13 cards: else 422), or declare a special hand
    it holds ('declare'). Fouled rows (bottom >= middle >= top broken) are refused with 409
    FOULED naming the rows out of order unless 'confirm_foul' is true; arranging twice is 409
    ALREADY_ARRANGED, after the reveal 409 ALREADY_REVEALED, an unheld or uncounted special
    409 NO_SUCH_SPECIAL; nothing changes on a refusal. At a table with corrections the rows
    may be sent again until the reveal, 'ready' false keeping them open to change (without
    corrections 'ready' false is 422). When this was the last seat to be ready, the table is
    revealed and scored in this answer. May name the version it was made from (If-Match with
    the view's ETag: 412 VERSION_MISMATCH; 'version': 409 CONFLICT)."""
    errors = FieldErrors()
    rows = _rows_of(body, errors)
    errors.raise_if_any()
    found = seated()
    if not body.ready and not _corrections(found.record):
        raise refuse(
            "ready",
            say(
                "This table allows no corrections (its 'corrections' is false): an "
                "arrangement is final, so 'ready' must be true.",
                "Meja ini tidak mengizinkan perbaikan ('corrections' bernilai false): susunan "
                "langsung final, jadi 'ready' harus true.",
            ),
        )
    check_versions(found, body.version, LANGUAGES)
    record, seat, table = _fresh()
    language = message_language()
    try:
        if rows is None:
            assert body.declare is not None
            table.declare(seat, body.declare, ready=body.ready)
        else:
            table.arrange(
                seat,
                rows[0],
                rows[1],
                rows[2],
                confirm_foul=body.confirm_foul,
                ready=body.ready,
            )
    except susun.IllegalArrangement as exc:
        raise ApiProblem(
            409, _sentence(exc.message), code=exc.code, rows=exc.rows or None
        ) from None
    except ValueError as exc:
        raise refuse("declare" if rows is None else "top", _sentence(str(exc))) from None
    _note(record, table)
    save(record)
    return _answer(record, table, seat, language)


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


@bp.json_post(
    "/<game_id>/rounds",
    request_model=NextSusunRoundRequest,
    response_model=SusunGameView,
    summary="Deal the next round of a Susun table",
    example={"code": "S4K7M2Q9XZ1"},
    problems=CHANGE_PROBLEMS,
    body_required=False,
    bearer_auth=True,
    request_headers=(IF_MATCH_HEADER,),
    response_headers=ETAG_HEADER,
)
def next_round(body: NextSusunRoundRequest, game_id: str) -> SusunGameView:
    """Once the table is revealed, deal the next round (the body is optional: a 'code' to
    deal, else a fresh one); the bots arrange at once and the totals carry over. 409
    ROUND_NOT_OVER before the reveal, MATCH_FULL after 500 rounds (a new game plays
    on). A 'code' only with one human seat (403 CODE_NOT_ALLOWED otherwise). May name the
    version it was made from, as for an arrangement, so a retried request never deals two
    rounds."""
    code = body.code
    if code is not None:
        found_players, _ = engine(lambda: susun.parse_code(code), "code")
        players = seated().record.players
        if found_players not in (None, players):
            raise refuse(
                "code", f"The code deals {found_players} players; this game has {players}."
            )
    found = seated()
    check_versions(found, body.version, LANGUAGES)
    if code is not None:
        refuse_code(found.record)
    record, seat, table = _fresh()
    language = message_language()
    if not table.revealed:
        raise ApiProblem(
            409,
            say(
                "The round is not revealed yet; the next one is dealt once every seat has "
                "arranged.",
                "Ronde belum dibuka; ronde berikutnya dibagi setelah semua kursi menyusun.",
            ),
            code="ROUND_NOT_OVER",
        )
    check_rounds_left(record)
    engine(lambda: table.next_round(code), "code")
    assert table.code is not None
    # A finished round is kept as its code and points (the totals need no more), so a
    # request's cost does not grow with the length of the match.
    record.rounds[-1].placed = {}
    record.rounds.append(SusunRound(table.code, table.dealt_at))
    record.round_over = False
    _bots_arrange(record, table)
    save(record)
    return _answer(record, table, seat, language)
