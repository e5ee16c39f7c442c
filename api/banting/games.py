"""Capsa Banting game sessions: create a match, view it from a seat, move, deal the next round.

A match lives in SQLite (``api.server.game_store``) as its rules, seats and every move; each
request rebuilds it by replaying, so any worker process can serve any game. Bot seats move
on the server right after a human's move, up to the next human turn or the end of the round.
Tokens, the order of the checks, versions and round-code secrecy are shared with the Susun
sessions: see ``api.server.sessions``. The game's own refusals are 409 with a ``code``: the
engine's rejection codes, NOT_YOUR_TURN, ROUND_OVER, ROUND_NOT_OVER, EXCHANGE_CLOSED, or
CONFLICT when another request changed the game first.
"""

from __future__ import annotations

from typing import Any

from capsa_fast import banting, format_cards
from flask import Response, after_this_request, url_for

from api.banting.games_schemas import (
    DEFAULT_PLAYERS,
    CreateGameRequest,
    ExchangeInfo,
    ExchangeRequest,
    GameCreated,
    GameRules,
    GameView,
    Hint,
    HintRequest,
    HistoryEntry,
    MoveRequest,
    NextRoundRequest,
    RoundResult,
    TableCombo,
)
from api.banting.schemas import DECK_SIZE, PASS, ScoreLine
from api.server import sessions
from api.server.cards import card_ids
from api.server.common import engine, read_rules, refuse
from api.server.errors import ApiProblem, FieldErrors
from api.server.game_store import (
    GameRecord,
    RoundRecord,
    codes_secret,
    finish_round,
    new_game_id,
    play_bots,
    replay,
    rules_settings,
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
    current_store,
    refuse_code,
    save,
    seat_keys,
    seat_routes,
    seated,
    tag_response,
)

bp = ModelBlueprint(
    "banting_games", __name__, url_prefix="/v1/banting/games", tag="banting-games", lane="store"
)

HAND_SIZE = 13
seat_routes(bp, GameRecord)
ticket_route(bp, "banting")  # POST /<game_id>/ticket: api.server.live


def _bots_after_start(record: GameRecord) -> None:
    """The bots seated by a start move up to the next human turn."""
    game = replay(record)
    play_bots(record, game)
    record.round_over = game.over


table_routes(bp, "banting", GameRecord, banting.BOT_LEVELS, _bots_after_start)
# Names other modules and tests read here.
store = sessions.store
store_unavailable = sessions.store_unavailable
view_etag = sessions.view_etag
CONFLICT_DETAIL = sessions.CONFLICT_DETAIL
CODE_NOT_ALLOWED_DETAIL = sessions.CODE_NOT_ALLOWED_DETAIL


# --- views --------------------------------------------------------------------------------


def _move_fields(combo: Any, language: str) -> dict[str, Any]:
    """``play``, ``kind`` and ``label`` of a move: the combo's, or 'pass' and nulls."""
    if combo is None:
        return {"play": PASS, "kind": None, "label": None}
    label = banting.combo_label(combo, language)
    return {"play": format_cards(list(combo.cards)), "kind": combo.kind, "label": label}


def _rules(game: banting.Game) -> GameRules:
    return GameRules(**game.rules.to_dict())


def scored_cards(game: banting.Game) -> list[int]:
    """Per seat, the cards the scores would use if the round ended now: the result's once
    over; else the counts when the first seat went out (under last-standing play goes on
    after that, RULES.md 3.2 'scoring'), or now when no seat is out yet."""
    if game.result is not None:
        return list(game.result.cards_left)
    counts = [HAND_SIZE] * game.players
    if game.exchanging:  # every seat holds 13 again once the cards owed are given back
        return counts
    for made in game.history:
        counts[made.seat] -= len(made.cards)
        if counts[made.seat] == 0:
            return counts
    return list(game.counts)


def if_ended_now(game: banting.Game, seat: int) -> int:
    """What ``seat`` would score if another seat went out now (seed 003: «Sisa 13 · kalau
    selesai sekarang −39»): minus its cards × their tier multiplier; 0 with no cards."""
    cards = scored_cards(game)[seat]
    if cards == 0:
        return 0
    # A two-seat round where the other seat is out prices exactly this seat's cards, with
    # the engine's own tiers.
    return banting.score([cards, 0], game.rules)[0]


def view(record: GameRecord, game: banting.Game, seat: int, language: str) -> GameView:
    """What ``seat`` may see of ``game``: never another seat's cards, nor, with two or more
    human seats, the round code (which determines every hand) until the round is over.
    Combo labels in ``language``."""
    over = game.over
    your_turn = not over and game.turn == seat
    table = None
    combo, table_seat = game.table, game.table_seat
    if combo is not None and table_seat is not None:
        cards = format_cards(list(combo.cards))
        label = banting.combo_label(combo, language)
        table = TableCombo(seat=table_seat, kind=combo.kind, cards=cards, label=label)
    history = [HistoryEntry(seat=m.seat, **_move_fields(m.combo, language)) for m in game.history]
    # The standard bot plans from this seat's hand, the cards played and the seats' counts
    # only, so its suggestion gives nothing away about the other hands.
    hint = None
    if your_turn:
        suggested = game.hint(seat)
        hint = Hint(
            **_move_fields(suggested.combo, language),
            pass_reasonable=suggested.pass_reasonable,
        )
    exchange = None
    part = game.exchange_view(seat)
    if part is not None:
        exchange = ExchangeInfo(
            received=format_cards(part.received), gave=format_cards(part.gave), give=part.give
        )
    result = None
    if game.result is not None:
        r = game.result
        result = RoundResult(
            winner=r.winner,
            cards_left=list(r.cards_left),
            scores=list(r.scores),
            finishing_order=list(r.finishing_order),
            dragon=r.dragon,
            lines=[ScoreLine(**line) for line in r.lines],
        )
    return GameView(
        id=record.id,
        seat=seat,
        players=record.players,
        version=record.version,
        round=game.round,
        phase="over" if over else "exchange" if game.exchanging else "play",
        code=game.code if over or not record.codes_secret else None,
        hand=format_cards(game.hand(seat)),
        counts=list(game.counts),
        table=table,
        turn=game.turn,
        leader=game.leader,
        passed=list(game.passed),
        one_card=[s for s, count in enumerate(game.counts) if count == 1],
        first_play=game.first_play,
        twos_demoted=game.twos_demoted,
        your_turn=your_turn,
        can_pass=game.can_pass(seat),
        legal_count=len(game.legal_plays(seat)) if your_turn else 0,
        hint=hint,
        exchange=exchange,
        history=history,
        if_ended_now=if_ended_now(game, seat),
        totals=list(game.totals),
        over=over,
        result=result,
        humans=record.humans,
        bots=seat_keys(record.bots),
        seats=seat_list(record),
        started=started(record),
        rules=_rules(game),
        created_at=record.created_at,
        updated_at=record.updated_at,
    )


def _answer(record: GameRecord, game: banting.Game, seat: int, language: str) -> GameView:
    """The seat's view as a route's answer, with the view's ETag."""
    tag_response(record, seat, language)
    return view(record, game, seat, language)


def _save(record: GameRecord, game: banting.Game) -> None:
    record.round_over = game.over
    save(record)


# --- routes -------------------------------------------------------------------------------


def _bot_seats(body: CreateGameRequest, players: int, errors: FieldErrors) -> dict[int, str]:
    seats = {str(seat): seat for seat in range(players)}
    bots: dict[int, str] = {}
    for key, level in body.bots.items():
        field = f"bots/{key}"
        if key not in seats:
            errors.add(field, f"{key!r} is not a seat of this game (seats are 0 to {players - 1}).")
        elif level not in banting.BOT_LEVELS:
            known = ", ".join(banting.BOT_LEVELS)
            errors.add(field, f"Unknown bot level {level!r} (known: {known}).")
        else:
            bots[seats[key]] = level
    if len(body.bots) >= players:
        errors.add("bots", "At least one seat must be human; every seat here is a bot.")
    return bots


@bp.json_post(
    "",
    request_model=CreateGameRequest,
    response_model=GameCreated,
    status=201,
    problems=(403, 503),
    summary="Start a Banting match",
    example={"players": 4, "bots": {"1": "standard", "2": "standard", "3": "standard"}},
)
def create_game(body: CreateGameRequest) -> GameCreated:
    """Deal the first round of a new match and let the bots move up to the first human turn.

    Seats named in 'bots' are played by the server at that level; every other seat is human
    and gets a secret token, returned only in this response. With one human seat the player
    may choose the round code and gets it here (to share the round); with two or more the
    server picks every code and shows it only once its round is over, so 'code' here is
    null and sending one is refused (403 CODE_NOT_ALLOWED): a seat that knew the code would
    know every hand. The Location header is the game's URL.
    """
    errors = FieldErrors()
    rules = read_rules(banting.Rules.from_dict, body.rules, errors)
    code_players = None
    if body.code is not None:
        try:
            code_players, _ = banting.parse_code(body.code)
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
        raise sessions.code_not_allowed()

    game = engine(lambda: banting.Game(rules=rules, players=players, code=body.code), "code")
    game_id = new_game_id()
    seats = new_table(body, humans, "banting", game_id)
    record = GameRecord(
        id=game_id,
        players=players,
        rules=rules_settings(rules),
        bots=bots,
        token_hashes=seats.token_hashes,
        rounds=[RoundRecord(game.code)],
        settings={} if seats.table is None else {"table": seats.table},
    )
    play_bots(record, game)
    record.round_over = game.over
    current_store().create(record)

    location = url_for(".game", game_id=record.id)

    @after_this_request
    def add_location(response: Response) -> Response:
        response.headers["Location"] = location
        return response

    return GameCreated(
        id=record.id,
        code=None if record.codes_secret else record.rounds[0].code,
        players=players,
        round=1,
        humans=humans,
        bots=seat_keys(bots),
        tokens=seats.tokens,
        invitations=seats.invitations,
        invite_url=seats.invite_url,
        rules=_rules(game),
    )


@bp.json_get(
    "/<game_id>",
    response_model=GameView,
    summary="A seat's view of a match",
    problems=GAME_PROBLEMS,
    bearer_auth=True,
    response_headers=ETAG_HEADER,
)
def game(game_id: str) -> GameView:
    """The match as the token's seat sees it: its own hand, every seat's card count and who
    holds one card, the table, who leads, whose turn it is, what the seat would score if
    the round ended now, this round's moves, the totals, and once the round is over the
    result with each seat's line. On this seat's turn also the number of legal plays,
    whether it may pass, and the standard bot's suggestion. The round code: with one human
    seat always; with two or more only once the round is over.

    The ETag header tags this view (the game's version, for this seat); send it back as
    If-Match with a move or a next round so that a retried request is never applied twice.
    """
    found = seated()
    return _answer(found.record, replay(found.record), found.seat, message_language())


@bp.json_post(
    "/<game_id>/moves",
    request_model=MoveRequest,
    response_model=GameView,
    summary="Play cards or pass",
    example={"play": "pass"},
    problems=CHANGE_PROBLEMS,
    bearer_auth=True,
    request_headers=(IF_MATCH_HEADER,),
    response_headers=ETAG_HEADER,
)
def move(body: MoveRequest, game_id: str) -> GameView:
    """Make the token's seat's move, then let the bots move up to the next human turn or the
    end of the round; answers with the seat's new view.

    A move the game refuses is a 409 whose 'code' says why and whose 'detail' names the
    cards (in Indonesian with Accept-Language: id): the rules engine's codes (DOES_NOT_BEAT,
    MUST_INCLUDE_LOWEST, ...), NOT_YOUR_TURN, ROUND_OVER, or CONFLICT when another request
    changed the game while this one was being made (fetch the game and try again). Nothing
    changes on a 409. Unknown or repeated cards are a 422.

    The move may name the version of the game it was chosen on, as If-Match (the view's
    ETag) or as 'version' in the body: when the game has moved on since, it is refused
    (412 VERSION_MISMATCH, or 409 CONFLICT for the body's) and nothing changes, so a move
    retried after a lost answer is never made twice.
    """
    found = seated()
    record, seat = found.record, found.seat
    play: list[int] | str = PASS
    if body.play != PASS:
        errors = FieldErrors()
        if len(body.play) > DECK_SIZE:
            raise refuse("play", f"Expected 0 to {DECK_SIZE} cards, got {len(body.play)}.")
        play = card_ids(body.play, "play", errors)
        errors.raise_if_any()
    check_versions(found, body.version, banting.LANGUAGES)
    language = message_language()

    game = replay(record)
    verdict = game.validate(seat, play, lang=language)
    if not verdict.ok:
        raise ApiProblem(409, verdict.message, code=verdict.code)
    record.record(game.move(seat, play))
    play_bots(record, game)
    _save(record, game)
    return _answer(record, game, seat, language)


@bp.json_post(
    "/<game_id>/exchange",
    request_model=ExchangeRequest,
    response_model=GameView,
    summary="Give a card back in the card exchange",
    example={"cards": ["7d"]},
    problems=CHANGE_PROBLEMS,
    bearer_auth=True,
    request_headers=(IF_MATCH_HEADER,),
    response_headers=ETAG_HEADER,
)
def exchange(body: ExchangeRequest, game_id: str) -> GameView:
    """Under exchange: ranked (RULES.md 3.2), a round after the first begins with the card
    exchange: the last place's highest card has gone to the winner (and with four players
    the third place's to the second place), and each receiver gives back one card of its
    own choice, which may be the one it received; bots choose by themselves. The view's
    'exchange' says what this seat must give; play starts, and the bots move, once every
    card owed is given back. Answers with the seat's new view.

    A card this seat does not hold is a 422 with code NOT_IN_HAND; no exchange open, or
    none owed by this seat, is a 409 EXCHANGE_CLOSED. Versions as with a move (If-Match or
    'version'); nothing changes on a refusal."""
    found = seated()
    record, seat = found.record, found.seat
    errors = FieldErrors()
    cards = card_ids(body.cards, "cards", errors)
    errors.raise_if_any()
    check_versions(found, body.version, banting.LANGUAGES)
    language = message_language()
    game = replay(record)
    part = game.exchange_view(seat)
    hand = game.hand(seat)
    if not game.exchanging or part is None or not part.give:
        detail = banting.verdict_message("EXCHANGE_CLOSED", language, play=[], hand=[])
        raise ApiProblem(409, detail, code="EXCHANGE_CLOSED")
    if cards[0] not in hand:
        detail = banting.verdict_message("NOT_IN_HAND", language, play=cards, hand=hand)
        errors.add("cards/0", detail)
        raise ApiProblem(422, detail, errors=errors.items, code="NOT_IN_HAND")
    record.record_give_back(seat, game.give_back(seat, cards[0]))
    play_bots(record, game)
    _save(record, game)
    return _answer(record, game, seat, language)


@bp.json_post(
    "/<game_id>/hint",
    request_model=HintRequest,
    response_model=Hint,
    summary="A hint from a bot level of your choice",
    example={"level": "master"},
    problems=(*GAME_PROBLEMS, 409),
    body_required=False,
    bearer_auth=True,
)
def hint(body: HintRequest, game_id: str) -> Hint:
    """The move the bot of 'level' would make for the token's seat, on its turn; nothing
    changes. Like the view's hint (the standard bot's) it is never a pass while the seat
    holds a legal play: 'pass_reasonable' says the bot would rather pass. The bots plan
    from this seat's hand, the cards played and the seats' counts only (master samples the
    other hands from the unseen cards), so a hint gives nothing away. 409 NOT_YOUR_TURN or
    ROUND_OVER when the seat is not to move; an unknown level is a 422."""
    found = seated()
    if body.level not in banting.BOT_LEVELS:
        known = ", ".join(banting.BOT_LEVELS)
        raise refuse("level", f"Unknown bot level {body.level!r} (known: {known}).")
    game = replay(found.record)
    language = message_language()
    refusal = "ROUND_OVER" if game.over else "NOT_YOUR_TURN" if game.turn != found.seat else ""
    if refusal:
        detail = banting.verdict_message(refusal, language, play=[], hand=[])
        raise ApiProblem(409, detail, code=refusal)
    suggested = game.hint(found.seat, body.level)
    return Hint(
        **_move_fields(suggested.combo, language), pass_reasonable=suggested.pass_reasonable
    )


@bp.json_post(
    "/<game_id>/rounds",
    request_model=NextRoundRequest,
    response_model=GameView,
    summary="Deal the next round of a match",
    example={"code": "B4K7M2Q9XZ1"},
    problems=CHANGE_PROBLEMS,
    body_required=False,
    bearer_auth=True,
    request_headers=(IF_MATCH_HEADER,),
    response_headers=ETAG_HEADER,
)
def next_round(body: NextRoundRequest, game_id: str) -> GameView:
    """Once the round is over, deal the next one (the body is optional: a 'code' to deal, else
    a fresh one) and let the bots move up to the first human turn; the totals carry over.
    Who leads follows the rules' first_lead: the lowest card, or under previous-winner the
    last round's winner with any combo. 409 ROUND_NOT_OVER while the round runs, and
    MATCH_FULL once the game has played its 500 rounds (a new game plays on).

    A 'code' only in a game with one human seat: with two or more the server picks every
    code (403 CODE_NOT_ALLOWED). The request may name the version of the game it was made
    from (If-Match with the view's ETag, or 'version' in the body): once the game has moved
    on it is refused (412 VERSION_MISMATCH, or 409 CONFLICT) and nothing changes, so a
    retried request never deals two rounds."""
    found = seated()
    language = message_language()
    record, seat = found.record, found.seat
    code = body.code
    if code is not None:
        code_players, _ = engine(lambda: banting.parse_code(code), "code")
        if code_players not in (None, record.players):
            raise refuse(
                "code", f"The code deals {code_players} players; this game has {record.players}."
            )
    check_versions(found, body.version, banting.LANGUAGES)
    if code is not None:
        refuse_code(record)
    game = replay(record)
    if not game.over:
        raise ApiProblem(
            409,
            say(
                "The round is not over yet; the next one is dealt once it is.",
                "Ronde belum selesai; ronde berikutnya dibagi setelah ronde ini selesai.",
            ),
            code="ROUND_NOT_OVER",
        )
    check_rounds_left(record)
    finish_round(record, game)
    engine(lambda: game.next_round(code), "code")
    record.rounds.append(RoundRecord(game.code))
    play_bots(record, game)
    _save(record, game)
    return _answer(record, game, seat, language)
