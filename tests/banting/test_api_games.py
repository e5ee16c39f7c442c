"""HTTP API tests of the Banting game sessions (API.md "Game sessions", the game-play issue).

Each test gets its own SQLite file under ``tmp_path``. The human seats choose their moves
with the package itself (``banting.legal_plays`` on what the view shows), and finished
rounds are checked by replaying the view's history through a local ``banting.Game`` dealt
from the round code (the one a one-human game was created with, or the one the view
reveals once the round is over; a test that must know a secret code sooner reads it from
the store).
"""

from __future__ import annotations

import json
import logging
import re
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from capsa_fast import banting, format_cards, parse_cards, susun
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings

from api import create_app
from api.banting.games import CODE_NOT_ALLOWED_DETAIL, CONFLICT_DETAIL
from api.server import access_log, sessions
from api.server.access_log import JsonFormatter
from api.server.game_store import (
    GameRecord,
    GameStore,
    RoundRecord,
    SusunRecord,
    hash_token,
    replay,
)
from tests.api.helpers import all_refs, assert_problem, field_errors, json_bodies, resolve_ref

GAMES_DB_ENV = "CAPSA_FAST_GAMES_DB"

GAMES = "/v1/banting/games"
THREE_BOTS = {"1": "standard", "2": "beginner", "3": "random"}
CARD = re.compile(r"^[2-9TJQKA][cdhs]$")
STRONG_ETAG = re.compile(r'"[0-9a-f]{20}"')
# 401, 403, 404 for every route of one game; 409 for those that change it.
GAME_ROUTES = [
    ("get", "/v1/banting/games/{game_id}"),
    ("post", "/v1/banting/games/{game_id}/moves"),
    ("post", "/v1/banting/games/{game_id}/rounds"),
]
# ... and the routes that read a game without changing it (a hint on request).
AUTH_ROUTES = [*GAME_ROUTES, ("post", "/v1/banting/games/{game_id}/hint")]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def app(db_path: Path) -> Flask:
    return create_app({"TESTING": True, "GAMES_DB": str(db_path)})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


# --- helpers ------------------------------------------------------------------------------


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: FlaskClient, **body: Any) -> dict[str, Any]:
    response = client.post(GAMES, json=body)
    assert response.status_code == 201, response.get_data(as_text=True)
    created = response.get_json()
    assert response.headers["Location"].endswith(f"{GAMES}/{created['id']}")
    return created


def get_view(client: FlaskClient, game_id: str, token: str) -> dict[str, Any]:
    response = client.get(f"{GAMES}/{game_id}", headers=bearer(token))
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def post_move(client: FlaskClient, game_id: str, token: str, play: Any, **headers: str) -> Any:
    return client.post(
        f"{GAMES}/{game_id}/moves", json={"play": play}, headers={**bearer(token), **headers}
    )


def move(client: FlaskClient, game_id: str, token: str, play: Any) -> dict[str, Any]:
    response = post_move(client, game_id, token, play)
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def stored_code(db_path: Path, game_id: str) -> str:
    """The current round's code as the server keeps it, for a test that must know a code
    the seats are not shown yet."""
    record = GameStore(db_path).load(game_id)
    assert record is not None
    return record.rounds[-1].code


def settings_of(view: dict[str, Any]) -> dict[str, Any]:
    """The view's rules, which Rules.from_dict reads back as they are."""
    return dict(view["rules"])


def legal_moves(view: dict[str, Any]) -> list[Any]:
    """Every legal move of the view's seat, computed by the package from what the view shows."""
    table = view["table"]["cards"] if view["table"] else None
    plays = banting.legal_plays(
        view["hand"],
        table,
        rules=settings_of(view),
        first_play=view["first_play"],
        passed=view["seat"] in view["passed"],
        twos_demoted=view["twos_demoted"],
    )
    moves: list[Any] = [format_cards(list(combo.cards)) for combo in plays]
    return [*moves, "pass"] if table is not None else moves


def choose(view: dict[str, Any]) -> Any:
    """The view's hint, after checking that it is one of the legal moves."""
    legal = legal_moves(view)
    assert view["legal_count"] == len([m for m in legal if m != "pass"])
    assert view["can_pass"] == ("pass" in legal)
    hint = view["hint"]["play"]
    assert hint == "pass" or sorted(hint) in [sorted(m) for m in legal if m != "pass"], hint
    # Seed 003: «Petunjuk» picks cards that can be played; a pass only when nothing can be.
    assert (hint == "pass") == (view["legal_count"] == 0), view["hint"]
    return hint


def code_where_seat_leads(seat: int, players: int = 4, rules: Any = None, openings: int = 1) -> str:
    """The first round code (by seed) in which ``seat`` makes the opening play, with at
    least ``openings`` plays to choose from."""
    for seed in range(1, 10_000):
        code = banting.make_code(players, seed)
        game = banting.Game(rules=rules, players=players, code=code)
        if not game.over and game.turn == seat and len(game.legal_plays(seat)) >= openings:
            return code
    raise AssertionError("no such code")


def string_leaves(node: Any) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from string_leaves(value)
    elif isinstance(node, list):
        for item in node:
            yield from string_leaves(item)


def visible_cards(view: dict[str, Any]) -> set[str]:
    """Cards a seat may see: its hand, the table and the round's plays."""
    cards = set(view["hand"])
    if view["table"]:
        cards |= set(view["table"]["cards"])
    for entry in view["history"]:
        if entry["play"] != "pass":
            cards |= set(entry["play"])
    return cards


def local_round(view: dict[str, Any], code: str) -> banting.Game:
    """The view's round replayed locally from its code and its history."""
    game = banting.Game(rules=settings_of(view), players=view["players"], code=code)
    for entry in view["history"]:
        game.move(entry["seat"], entry["play"])
    return game


def assert_private(response_text: str, view: dict[str, Any], code: str) -> None:
    """No card of another seat's hand anywhere in a running round's view, nor, with two or
    more human seats, the round code (a single human seat is shown its code)."""
    assert not view["over"]
    if len(view["humans"]) == 1:
        assert view["code"] == code
    else:
        assert view["code"] is None
        assert code not in response_text.upper()
    game = local_round(view, code)
    assert format_cards(game.hand(view["seat"])) == view["hand"]
    hidden = {
        card
        for seat in range(view["players"])
        if seat != view["seat"]
        for card in format_cards(game.hand(seat))
    }
    leaves = {s for s in string_leaves(view) if CARD.match(s)}
    assert leaves <= visible_cards(view)
    assert not leaves & hidden
    for card in hidden:
        assert json.dumps(card) not in response_text


def play_round(
    client: FlaskClient, game_id: str, token: str, code: str, view: dict[str, Any]
) -> dict[str, Any]:
    """Play the hint on every turn of the view's (only human) seat until the round is over;
    every answer must be the seat's turn again or the end of the round."""
    for _ in range(60):
        if view["over"]:
            return view
        assert view["your_turn"] and view["turn"] == view["seat"]
        played = len(view["history"])
        play = choose(view)
        response = post_move(client, game_id, token, play)
        assert response.status_code == 200, response.get_data(as_text=True)
        new = response.get_json()
        assert new["version"] == view["version"] + 1
        mine = new["history"][played]
        assert mine["seat"] == view["seat"]
        if play == "pass":
            assert mine["play"] == "pass"
        else:
            assert sorted(mine["play"]) == sorted(play)
        assert STRONG_ETAG.fullmatch(response.headers["ETag"])
        assert_markers(new)
        if not new["over"]:
            assert_private(response.get_data(as_text=True), new, code)
        view = new
    raise AssertionError("the round did not end")


def trick_leader(view: dict[str, Any]) -> int:
    """Who leads the current trick, from the history alone (while no seat is out, as in a
    first-out round): the seat of the trick's first move; a trick ends once every other
    seat has passed after the last play, and then the seat to move leads."""
    leader, passes, new_trick = view["turn"], 0, True
    for entry in view["history"]:
        if new_trick:
            leader, new_trick = entry["seat"], False
        if entry["play"] != "pass":
            passes = 0
            continue
        passes += 1
        if passes == view["players"] - 1:
            passes, new_trick = 0, True
    return view["turn"] if new_trick else leader


def assert_markers(view: dict[str, Any]) -> None:
    """Seed 003 markers: «who leads the trick, who has one card left» and the info line
    «Sisa N · kalau selesai sekarang −X» (cards left × tier multiplier, negated)."""
    counts, seat = view["counts"], view["seat"]
    assert view["one_card"] == [s for s, count in enumerate(counts) if count == 1]
    if view["over"]:
        return
    if view["rules"]["ending"] == "first-out":
        assert view["leader"] == trick_leader(view)
    if 0 not in counts:  # nobody is out yet: the counts are what the scores would use
        left = counts[seat]
        multiplier = tier_multiplier(left, view["rules"]["scoring"])
        assert view["if_ended_now"] == -left * multiplier


def assert_finished(view: dict[str, Any], code: str) -> None:
    """The view of a finished round agrees with replaying its history locally."""
    assert view["over"] and view["turn"] is None and view["code"] == code
    assert not view["your_turn"] and view["hint"] is None and view["legal_count"] == 0
    result = view["result"]
    assert sum(result["scores"]) == 0
    game = local_round(view, code)
    assert game.over
    assert result == {
        "winner": game.result.winner,
        "cards_left": list(game.result.cards_left),
        "scores": list(game.result.scores),
        "finishing_order": list(game.result.finishing_order),
        "dragon": game.result.dragon,
        "lines": game.result.lines,
    }
    assert view["counts"] == list(game.counts)
    assert_result_lines(view)


def tier_multiplier(cards: int, scoring: list[list[int]]) -> int:
    """RULES.md 3.2 'scoring': the multiplier of the highest tier whose threshold is at most
    ``cards`` (0 cards: the winner, who pays nothing)."""
    reached = [multiplier for threshold, multiplier in scoring if threshold <= cards]
    return reached[-1] if cards and reached else 0


def assert_result_lines(view: dict[str, Any]) -> None:
    """Seed 003's result card: «each loser's line (cards left × multiplier = points) and the
    winner's total» (WEB.md), and the seat's «kalau selesai sekarang» agrees with it."""
    result, scoring = view["result"], view["rules"]["scoring"]
    winner, lines = result["winner"], result["lines"]
    assert len(lines) == view["players"]
    for seat, line in enumerate(lines):
        assert line["cards_left"] == result["cards_left"][seat]
        assert line["points"] == result["scores"][seat]
        if seat != winner:
            assert line["multiplier"] == tier_multiplier(line["cards_left"], scoring)
            assert line["points"] == -line["cards_left"] * line["multiplier"]
    assert lines[winner]["cards_left"] == 0 and lines[winner]["multiplier"] == 0
    paid = [line["points"] for seat, line in enumerate(lines) if seat != winner]
    assert lines[winner]["points"] == -sum(paid)
    mine = lines[view["seat"]]
    assert view["if_ended_now"] == (0 if view["seat"] == winner else mine["points"])


# --- a whole round --------------------------------------------------------------------------


def test_full_round_one_human_three_bots(client: FlaskClient) -> None:
    code = code_where_seat_leads(0)
    created = create(client, code=code, bots=THREE_BOTS)
    assert created["code"] == code  # a single human seat gets its code (GameCreated.code)
    assert created["players"] == 4 and created["round"] == 1
    assert created["humans"] == [0] and created["bots"] == THREE_BOTS
    assert list(created["tokens"]) == ["0"]
    assert created["rules"] == banting.Rules.preset("capsa-banting").to_dict()
    token = created["tokens"]["0"]

    response = client.get(f"{GAMES}/{created['id']}", headers=bearer(token))
    view = response.get_json()
    assert view["seat"] == 0 and view["turn"] == 0 and view["your_turn"]
    assert view["first_play"] and view["history"] == [] and view["table"] is None
    assert view["hand"] == format_cards(banting.Game(code=code).hand(0))
    assert view["counts"] == [13, 13, 13, 13] and view["totals"] == [0, 0, 0, 0]
    assert view["result"] is None and view["version"] == 1
    assert_private(response.get_data(as_text=True), view, code)

    view = play_round(client, created["id"], token, code, view)
    assert_finished(view, code)
    assert view["totals"] == view["result"]["scores"]
    assert {entry["seat"] for entry in view["history"]} == {0, 1, 2, 3}
    assert get_view(client, created["id"], token) == view


def test_bots_move_first_up_to_the_human_turn(client: FlaskClient) -> None:
    code = code_where_seat_leads(2)
    created = create(client, code=code, bots={"1": "standard", "2": "standard", "3": "beginner"})
    view = get_view(client, created["id"], created["tokens"]["0"])
    assert view["history"][0]["seat"] == 2  # the lowest card's holder opened
    assert view["your_turn"] or view["over"]
    if not view["over"]:
        assert [entry["seat"] for entry in view["history"]][:2] == [2, 3]
        view = play_round(client, created["id"], created["tokens"]["0"], code, view)
    assert_finished(view, code)


def test_hint_on_request_from_the_master(client: FlaskClient) -> None:
    code = code_where_seat_leads(0, openings=2)
    created = create(client, code=code, bots={"1": "master", "2": "expert", "3": "standard"})
    game_id, token = created["id"], created["tokens"]["0"]
    view = get_view(client, game_id, token)
    url = f"{GAMES}/{game_id}/hint"
    hints = {}
    for level in ("master", "standard"):
        response = client.post(url, json={"level": level}, headers=bearer(token))
        assert response.status_code == 200, response.get_data(as_text=True)
        hints[level] = response.get_json()
        assert hints[level]["play"] in legal_moves(view)
        assert hints[level]["play"] != "pass"
    # No body: the standard bot's hint, the same as the view's.
    plain = client.post(url, headers=bearer(token)).get_json()
    assert plain == hints["standard"] and plain["play"] == view["hint"]["play"]
    assert get_view(client, game_id, token)["version"] == view["version"]  # nothing changed
    bad = client.post(url, json={"level": "grandmaster"}, headers=bearer(token))
    assert set(field_errors(bad)) == {"level"}
    # Once the seat has moved the bots answer, up to its next turn or the end.
    after = move(client, game_id, token, hints["master"]["play"])
    if after["over"]:
        problem = assert_problem(client.post(url, headers=bearer(token)), 409)
        assert problem["code"] == "ROUND_OVER"


def test_hint_is_refused_when_it_is_not_your_turn(client: FlaskClient) -> None:
    created = create(client, players=2, tokens="all")  # two human seats
    view = get_view(client, created["id"], created["tokens"]["0"])
    token = created["tokens"]["1" if view["your_turn"] else "0"]
    response = client.post(f"{GAMES}/{created['id']}/hint", json={}, headers=bearer(token))
    assert assert_problem(response, 409)["code"] == "NOT_YOUR_TURN"


def test_round_code_is_fresh_when_not_given(client: FlaskClient) -> None:
    first = create(client, bots=THREE_BOTS)
    second = create(client, bots=THREE_BOTS)
    assert first["code"] != second["code"] and first["id"] != second["id"]
    assert banting.parse_code(first["code"])[0] == 4
    assert first["tokens"]["0"] != second["tokens"]["0"]


def test_players_from_the_code(client: FlaskClient) -> None:
    code = banting.make_code(3, 12345)
    created = create(client, code=code.lower(), bots={"1": "standard", "2": "random"})
    assert created["players"] == 3 and created["code"] == code and created["humans"] == [0]
    view = get_view(client, created["id"], created["tokens"]["0"])
    assert len(view["counts"]) == 3 and len(view["totals"]) == 3 and view["code"] == code


# --- the match goes on: restarts and rounds -----------------------------------------------


def test_a_restarted_app_continues_the_game(db_path: Path) -> None:
    code = code_where_seat_leads(0)
    first = create_app({"TESTING": True, "GAMES_DB": str(db_path)}).test_client()
    created = create(first, code=code, bots=THREE_BOTS)
    token = created["tokens"]["0"]
    view = move(first, created["id"], token, choose(get_view(first, created["id"], token)))

    second = create_app({"TESTING": True, "GAMES_DB": str(db_path)}).test_client()
    assert get_view(second, created["id"], token) == view
    if not view["over"]:
        view = move(second, created["id"], token, choose(view))
        assert get_view(first, created["id"], token) == view
        view = play_round(second, created["id"], token, code, view)
    assert_finished(view, code)


def test_session_refusals_speak_indonesian_when_asked(client: FlaskClient) -> None:
    # The engine's refusals were Indonesian under Accept-Language: id; the session's own
    # (round not over, a stale version, a code the server picks) are too.
    created = create(client, bots=THREE_BOTS)
    game_id, token = created["id"], created["tokens"]["0"]
    indonesian = bearer(token) | {"Accept-Language": "id"}
    response = client.post(f"{GAMES}/{game_id}/rounds", headers=indonesian)
    problem = assert_problem(response, 409)
    assert problem["code"] == "ROUND_NOT_OVER" and "Ronde belum selesai" in problem["detail"]
    assert response.headers["Content-Language"] == "id"
    stale = client.post(
        f"{GAMES}/{game_id}/moves", json={"play": "pass", "version": 999}, headers=indonesian
    )
    problem = assert_problem(stale, 409)
    assert problem["code"] == "CONFLICT" and "tidak ada yang diubah" in problem["detail"]
    english = assert_problem(client.post(f"{GAMES}/{game_id}/rounds", headers=bearer(token)), 409)
    assert english["detail"].startswith("The round is not over")


def test_next_round_keeps_the_totals(client: FlaskClient) -> None:
    code = code_where_seat_leads(0)
    created = create(client, code=code, bots=THREE_BOTS)
    game_id, token = created["id"], created["tokens"]["0"]
    view = get_view(client, game_id, token)

    response = client.post(f"{GAMES}/{game_id}/rounds", headers=bearer(token))
    problem = assert_problem(response, 409)
    assert problem["code"] == "ROUND_NOT_OVER"
    assert get_view(client, game_id, token) == view

    first = play_round(client, game_id, token, code, view)
    assert_finished(first, code)

    code2 = code_where_seat_leads(2)
    second = client.post(f"{GAMES}/{game_id}/rounds", json={"code": code2}, headers=bearer(token))
    assert second.status_code == 200, second.get_data(as_text=True)
    view = second.get_json()
    assert view["round"] == 2 and view["result"] is None
    assert view["totals"] == first["result"]["scores"]
    # The lowest card's holder (seat 2) opened, then the bots moved up to seat 0's turn.
    assert [entry["seat"] for entry in view["history"]][:2] == [2, 3]
    assert all(entry["seat"] != 0 for entry in view["history"])
    if not view["over"]:
        assert_private(second.get_data(as_text=True), view, code2)

    view = play_round(client, game_id, token, code2, view)
    assert view["round"] == 2 and view["code"] == code2
    assert view["totals"] == [
        a + b for a, b in zip(first["result"]["scores"], view["result"]["scores"], strict=True)
    ]
    assert sum(view["totals"]) == 0

    # Round 3 with a fresh code and an empty body.
    third = client.post(f"{GAMES}/{game_id}/rounds", headers=bearer(token))
    assert third.status_code == 200, third.get_data(as_text=True)
    assert third.get_json()["round"] == 3 and third.get_json()["totals"] == view["totals"]


def test_finished_rounds_are_kept_as_results_and_not_replayed(
    client: FlaskClient, db_path: Path
) -> None:
    rules = {"ending": "last-standing"}  # (play_round's local replay deals rounds as firsts)
    codes = [banting.make_code(4, 1000 + k) for k in range(4)]
    bots = {"1": "standard", "2": "beginner", "3": "random"}
    created = create(client, rules=rules, bots=bots, code=codes[0])
    game_id, token = created["id"], created["tokens"]["0"]
    view = get_view(client, game_id, token)
    for code in codes[1:]:
        view = play_round(client, game_id, token, codes[view["round"] - 1], view)
        body = {"code": code}
        response = client.post(f"{GAMES}/{game_id}/rounds", json=body, headers=bearer(token))
        assert response.status_code == 200, response.get_data(as_text=True)
        view = response.get_json()
    record = GameStore(db_path).load(game_id)
    assert record is not None and len(record.rounds) == 4
    assert all(r.winner is not None and r.scores for r in record.rounds[:3])
    assert record.rounds[3].winner is None
    quick = replay(record)
    # Without the summaries the whole match is replayed: the same position and totals.
    for stored in record.rounds:
        stored.winner, stored.scores = None, None
    full = replay(record)
    assert quick.totals == full.totals == view["totals"] and quick.round == full.round == 4
    assert quick.hand(0) == full.hand(0) and quick.history == full.history
    assert quick.turn == full.turn and quick.counts == full.counts


def test_previous_winner_leads_the_next_round(client: FlaskClient) -> None:
    rules = {"first_lead": "previous-winner"}
    code = code_where_seat_leads(0, rules=rules)
    created = create(client, code=code, bots=THREE_BOTS, rules=rules)
    game_id, token = created["id"], created["tokens"]["0"]
    first = play_round(client, game_id, token, code, get_view(client, game_id, token))
    winner = first["result"]["winner"]

    view = client.post(f"{GAMES}/{game_id}/rounds", json={}, headers=bearer(token)).get_json()
    assert view["round"] == 2
    if winner == 0:
        assert view["history"] == [] and view["your_turn"]
        assert view["first_play"] is False  # the winner leads with any combo
    else:
        assert view["history"][0]["seat"] == winner


# --- tokens and privacy -------------------------------------------------------------------


def test_two_humans_each_see_only_their_own_hand(client: FlaskClient, db_path: Path) -> None:
    created = create(client, players=2, tokens="all")
    assert created["humans"] == [0, 1] and created["bots"] == {}
    assert created["code"] is None  # two human seats: the server keeps the code
    code = stored_code(db_path, created["id"])
    tokens = created["tokens"]
    assert set(tokens) == {"0", "1"} and tokens["0"] != tokens["1"]
    views = [get_view(client, created["id"], tokens[str(seat)]) for seat in (0, 1)]
    assert [view["seat"] for view in views] == [0, 1]
    assert not set(views[0]["hand"]) & set(views[1]["hand"])
    for seat in (0, 1):
        response = client.get(f"{GAMES}/{created['id']}", headers=bearer(tokens[str(seat)]))
        assert_private(response.get_data(as_text=True), response.get_json(), code)
    opener = views[0]["turn"]
    waiting = 1 - opener
    assert views[opener]["your_turn"] and not views[waiting]["your_turn"]
    assert views[waiting]["hint"] is None and views[waiting]["legal_count"] == 0
    assert views[waiting]["can_pass"] is False

    # The waiting seat moves out of turn: refused, nothing changes.
    problem = assert_problem(
        post_move(client, created["id"], tokens[str(waiting)], [views[waiting]["hand"][0]]), 409
    )
    assert problem["code"] == "NOT_YOUR_TURN"
    assert get_view(client, created["id"], tokens[str(waiting)]) == views[waiting]

    # The opener plays; then it is the other seat's turn and the opener's move is out of turn.
    after = move(client, created["id"], tokens[str(opener)], choose(views[opener]))
    assert after["turn"] == waiting and not after["your_turn"]
    problem = assert_problem(post_move(client, created["id"], tokens[str(opener)], "pass"), 409)
    assert problem["code"] == "NOT_YOUR_TURN"
    assert get_view(client, created["id"], tokens[str(waiting)])["your_turn"]


def test_missing_token_is_401(client: FlaskClient) -> None:
    created = create(client, bots=THREE_BOTS)
    for method, route in AUTH_ROUTES:
        url = route.format(game_id=created["id"])
        for headers in ({}, {"Authorization": "Basic dXNlcjpwYXNz"}, {"Authorization": "Bearer"}):
            response = client.open(
                url, method=method.upper(), json={"play": "pass"}, headers=headers
            )
            problem = assert_problem(response, 401)
            assert response.headers["WWW-Authenticate"].startswith("Bearer")
            assert "Bearer" in problem["detail"]
    # What was sent, said without echoing it: an unreadable header is not a missing one.
    url = f"{GAMES}/{created['id']}"
    for header, said in (
        ({}, "got no Authorization header"),
        ({"Authorization": "Basic xyz"}, "got an Authorization header it cannot read"),
        ({"Authorization": "Basic dXNlcjpwYXNz"}, "got the 'basic' scheme"),
    ):
        detail = assert_problem(client.get(url, headers=header), 401)["detail"]
        assert detail.endswith(said + "."), detail
    # Authentication comes before the body and before looking the game up.
    response = client.post(f"{GAMES}/{created['id']}/moves", data="not json")
    assert_problem(response, 401)
    assert_problem(client.get(f"{GAMES}/no-such-game"), 401)


def test_wrong_token_is_403(client: FlaskClient) -> None:
    one = create(client, bots=THREE_BOTS)
    other = create(client, bots=THREE_BOTS)
    for method, route in AUTH_ROUTES:
        url = route.format(game_id=one["id"])
        for token in (other["tokens"]["0"], "not-a-token", one["tokens"]["0"] + "x", one["id"]):
            response = client.open(
                url, method=method.upper(), json={"play": "pass"}, headers=bearer(token)
            )
            assert_problem(response, 403)
    # The 403 comes before the body is read.
    response = client.post(f"{GAMES}/{one['id']}/moves", data="x", headers=bearer("nope"))
    assert_problem(response, 403)


def test_unknown_game_is_404(client: FlaskClient) -> None:
    created = create(client, bots=THREE_BOTS)
    for method, route in AUTH_ROUTES:
        response = client.open(
            route.format(game_id="no-such-game"),
            method=method.upper(),
            json={"play": "pass"},
            headers=bearer(created["tokens"]["0"]),
        )
        assert_problem(response, 404)


def test_tokens_are_stored_as_hashes(client: FlaskClient, db_path: Path) -> None:
    created = create(client, players=3, bots={"1": "standard"}, tokens="all")
    assert len(created["id"]) >= 22  # 16 random bytes
    assert all(len(token) >= 32 for token in created["tokens"].values())  # >= 24 bytes
    conn = sqlite3.connect(db_path)
    try:
        (hashes, rounds) = conn.execute(
            "SELECT token_hashes, rounds FROM banting_games WHERE id = ?", (created["id"],)
        ).fetchone()
    finally:
        conn.close()
    assert json.loads(hashes) == {
        seat: hash_token(token) for seat, token in created["tokens"].items()
    }
    for token in created["tokens"].values():
        assert token not in hashes
    # Two human seats: the server picked the code, kept, and not given to the creator.
    code = json.loads(rounds)[0]["code"]
    assert banting.parse_code(code)[0] == 3 and created["code"] is None


# --- refused moves ------------------------------------------------------------------------


def test_illegal_moves_are_409_and_change_nothing(client: FlaskClient) -> None:
    code = code_where_seat_leads(0)
    created = create(client, code=code, bots=THREE_BOTS)
    game_id, token = created["id"], created["tokens"]["0"]
    view = get_view(client, game_id, token)
    hand = view["hand"]
    lowest = hand[0]
    not_mine = next(card for card in format_cards(list(range(52))) if card not in hand)
    cases = [
        ("pass", "CANNOT_PASS_WHEN_LEADING"),
        ([not_mine], "NOT_IN_HAND"),
        ([hand[-1]], "MUST_INCLUDE_LOWEST"),
        ([], "NOT_A_COMBO"),
        ([lowest, hand[-1]], "NOT_A_COMBO"),  # 13 cards span several ranks: no pair
    ]
    for play, code_expected in cases:
        response = post_move(client, game_id, token, play)
        problem = assert_problem(response, 409)
        assert problem["code"] == code_expected, (play, problem)
        assert response.headers["Content-Language"] == "en"
        verdict = banting.validate(hand, play, rules=settings_of(view), first_play=True)
        assert problem["detail"] == verdict.message
        assert get_view(client, game_id, token) == view

    # Then against a table: a single that does not beat it.
    view = move(client, game_id, token, [lowest])
    if view["over"] or view["table"] is None or len(view["table"]["cards"]) != 1:
        return
    rules = banting.Rules.from_dict(settings_of(view))
    weaker = [c for c in view["hand"] if banting.compare([c], view["table"]["cards"], rules) < 0]
    if weaker:
        problem = assert_problem(post_move(client, game_id, token, [weaker[0]]), 409)
        assert problem["code"] == "DOES_NOT_BEAT"
        assert get_view(client, game_id, token) == view


def test_refusal_in_indonesian(client: FlaskClient) -> None:
    code = code_where_seat_leads(0)
    created = create(client, code=code, bots=THREE_BOTS)
    game_id, token = created["id"], created["tokens"]["0"]
    hand = get_view(client, game_id, token)["hand"]
    english = assert_problem(post_move(client, game_id, token, [hand[-1]]), 409)
    response = post_move(
        client, game_id, token, [hand[-1]], **{"Accept-Language": "id-ID,id;q=0.9,en;q=0.8"}
    )
    indonesian = assert_problem(response, 409)
    assert response.headers["Content-Language"] == "id"
    assert "Accept-Language" in response.headers["Vary"]
    assert indonesian["code"] == english["code"] == "MUST_INCLUDE_LOWEST"
    expected = banting.validate(hand, [hand[-1]], first_play=True, lang="id").message
    assert indonesian["detail"] == expected != english["detail"]


def test_move_after_the_round_is_over_is_409(client: FlaskClient) -> None:
    code = code_where_seat_leads(0)
    created = create(client, code=code, bots=THREE_BOTS)
    game_id, token = created["id"], created["tokens"]["0"]
    view = play_round(client, game_id, token, code, get_view(client, game_id, token))
    for play in ("pass", view["hand"][:1]):
        problem = assert_problem(post_move(client, game_id, token, play), 409)
        assert problem["code"] == "ROUND_OVER"
    assert get_view(client, game_id, token) == view


# --- concurrent moves ---------------------------------------------------------------------


def test_concurrent_moves_one_wins(app: Flask, db_path: Path) -> None:
    code = code_where_seat_leads(0)
    created = create(app.test_client(), code=code, bots=THREE_BOTS)
    game_id, token = created["id"], created["tokens"]["0"]
    view = get_view(app.test_client(), game_id, token)
    play = choose(view)
    assert play != "pass"  # the opening play: cards, so the loser cannot simply repeat it

    barrier = threading.Barrier(2)
    results: list[Any] = [None, None]

    def racer(index: int) -> None:
        racer_client = app.test_client()
        barrier.wait()
        results[index] = post_move(racer_client, game_id, token, play)

    threads = [threading.Thread(target=racer, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    statuses = sorted(response.status_code for response in results)
    assert statuses == [200, 409]
    loser = next(r for r in results if r.status_code == 409)
    problem = assert_problem(loser, 409)
    # CONFLICT if both read the same version; else the loser saw the winner's move made.
    assert problem["code"] in {"CONFLICT", "NOT_IN_HAND", "ROUND_OVER"}
    if problem["code"] == "CONFLICT":
        assert problem["detail"] == CONFLICT_DETAIL

    winner = next(r for r in results if r.status_code == 200).get_json()
    after = get_view(app.test_client(), game_id, token)
    assert after == winner and after["version"] == 2
    seats = [entry["seat"] for entry in after["history"]]
    assert seats[0] == 0 and seats.count(0) == 1  # the move was made once
    game = replay(GameStore(db_path).load(game_id))  # the stored game replays cleanly
    assert format_cards(game.hand(0)) == after["hand"]
    if not after["over"]:
        play_round(app.test_client(), game_id, token, code, after)


def test_a_move_that_loses_the_race_is_409_conflict(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another request saves between this one's read and its write: this one's write is
    refused, whatever it was, and the other's move stands."""
    code = code_where_seat_leads(0, openings=2)
    client = app.test_client()
    created = create(client, code=code, bots=THREE_BOTS)
    game_id, token = created["id"], created["tokens"]["0"]
    view = get_view(client, game_id, token)
    legal = legal_moves(view)
    mine, theirs = legal[0], legal[-1]
    assert mine != theirs

    save = GameStore.save
    interleaved: list[Any] = []

    def save_after_another(store: GameStore, record: GameRecord) -> bool:
        if not interleaved:  # the first save: another request moves just before it
            interleaved.append(None)
            interleaved[0] = post_move(app.test_client(), game_id, token, theirs)
        return save(store, record)

    monkeypatch.setattr(GameStore, "save", save_after_another)
    problem = assert_problem(post_move(client, game_id, token, mine), 409)
    assert problem == {
        "type": "about:blank",
        "title": "Conflict",
        "status": 409,
        "detail": CONFLICT_DETAIL,
        "code": "CONFLICT",
    }
    other = interleaved[0]
    assert other.status_code == 200
    after = get_view(client, game_id, token)
    assert after == other.get_json() and after["version"] == 2
    assert sorted(after["history"][0]["play"]) == sorted(theirs)


# --- what a seat sees (issue 11, item 5) ----------------------------------------------------


def test_if_ended_now_seed_003(client: FlaskClient) -> None:
    """Seed 003: «Sisa 13 · kalau selesai sekarang −39»: 13 cards left, × 3 (the 13-card
    tier of the default scoring), negated; every later view agrees with the counts."""
    code = code_where_seat_leads(0)
    created = create(client, code=code, bots=THREE_BOTS)
    game_id, token = created["id"], created["tokens"]["0"]
    view = get_view(client, game_id, token)
    assert len(view["hand"]) == view["counts"][0] == 13
    assert view["if_ended_now"] == -39
    view = play_round(client, game_id, token, code, view)  # checks each view's markers
    assert_finished(view, code)


def test_if_ended_now_follows_the_rules_tiers(client: FlaskClient) -> None:
    rules = {"scoring": [[1, 2], [8, 5]]}
    code = code_where_seat_leads(0, rules=rules)
    created = create(client, code=code, bots=THREE_BOTS, rules=rules)
    game_id, token = created["id"], created["tokens"]["0"]
    view = get_view(client, game_id, token)
    assert view["rules"]["scoring"] == [[1, 2], [8, 5]]
    assert view["if_ended_now"] == -13 * 5
    seen = {view["if_ended_now"]}
    while not view["over"]:
        view = move(client, game_id, token, choose(view))
        assert_markers(view)
        seen.add(view["if_ended_now"])
    assert_finished(view, code)
    assert len(seen) > 2  # the number moved with the cards played


def test_if_ended_now_under_last_standing_uses_the_cards_at_the_first_out(
    client: FlaskClient,
) -> None:
    """RULES.md 3.2: under last-standing the scores use the cards held when the first seat
    went out, so from then on «kalau selesai sekarang» is already the seat's final score."""
    rules = {"ending": "last-standing"}
    bots = {"1": "standard", "2": "standard", "3": "standard"}
    after_first_out: list[dict[str, Any]] = []
    for seed in range(1, 40):
        code = banting.make_code(4, seed)
        created = create(client, code=code, bots=bots, rules=rules)
        game_id, token = created["id"], created["tokens"]["0"]
        view = get_view(client, game_id, token)
        views = [view]
        while not view["over"]:
            view = move(client, game_id, token, choose(view))
            assert_markers(view)
            views.append(view)
        assert_finished(view, code)
        after_first_out = [v for v in views if not v["over"] and 0 in v["counts"]]
        if after_first_out:
            break
    assert after_first_out, "no round where seat 0 still played after a seat went out"
    final = view["result"]["scores"][0]
    assert view["result"]["winner"] != 0 and final < 0
    for running in after_first_out:
        assert running["if_ended_now"] == final
        # ... though seat 0 has played cards since: its count now would give another number.
        assert running["counts"][0] <= view["result"]["cards_left"][0]
    assert after_first_out[-1]["counts"][0] < view["result"]["cards_left"][0]


def test_one_card_and_leader_markers(client: FlaskClient) -> None:
    """Seed 003: each seat shows «markers for who leads the trick, who has one card left»:
    the view's `leader` and `one_card`, checked on every view by assert_markers."""
    one_card_seen: set[int] = set()
    leaders_seen: set[int] = set()
    for seed in range(1, 30):
        code = banting.make_code(4, seed)
        created = create(client, code=code, bots=THREE_BOTS)
        game_id, token = created["id"], created["tokens"]["0"]
        view = get_view(client, game_id, token)
        assert_markers(view)
        while not view["over"]:
            one_card_seen.update(view["one_card"])
            leaders_seen.add(view["leader"])
            view = move(client, game_id, token, choose(view))
            assert_markers(view)
        one_card_seen.update(view["one_card"])
        if len(one_card_seen) >= 2 and len(leaders_seen) >= 3:
            break
    assert len(one_card_seen) >= 2, one_card_seen  # seats were seen down to one card
    assert len(leaders_seen) >= 3, leaders_seen


def test_result_lines_seed_003(client: FlaskClient) -> None:
    """Seed 003: «The result card lists each loser's line (cards left × multiplier =
    points) and the winner's total»; a dragon's losers pay as if they held 13 cards."""
    code = code_where_seat_leads(0)
    created = create(client, code=code, bots=THREE_BOTS)
    game_id, token = created["id"], created["tokens"]["0"]
    view = play_round(client, game_id, token, code, get_view(client, game_id, token))
    assert_finished(view, code)  # assert_result_lines checks every line's arithmetic
    lines = view["result"]["lines"]
    assert lines == banting.score_lines(view["result"]["cards_left"])

    dragon = next(
        code
        for code in (banting.make_code(4, seed) for seed in range(200_000))
        if banting.Game(code=code).over
    )
    created = create(client, code=dragon, bots=THREE_BOTS)
    view = get_view(client, created["id"], created["tokens"]["0"])
    assert view["over"] and view["result"]["dragon"]
    assert_finished(view, dragon)
    winner = view["result"]["winner"]
    for seat, line in enumerate(view["result"]["lines"]):
        if seat != winner:
            assert line == {"cards_left": 13, "multiplier": 3, "points": -39}
    assert view["result"]["lines"][winner]["points"] == 39 * 3


# --- round codes are secret while they matter (issue 11, item 6; RULES.md 3.3) -------------


class Captured(logging.Handler):
    """Every log record, formatted with its extra fields and any traceback."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(JsonFormatter())
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture
def captured_logs() -> Iterator[Captured]:
    """Captures the records of every logger: the root's (the app's and werkzeug's reach it)
    and the access log's (which does not propagate)."""
    handler = Captured()
    root, access = logging.getLogger(), logging.getLogger(access_log.LOGGER_NAME)
    level = root.level
    root.addHandler(handler)
    access.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        access.removeHandler(handler)
        root.setLevel(level)


def test_two_humans_no_response_or_log_line_holds_the_code_before_the_round_ends(
    db_path: Path, captured_logs: Captured
) -> None:
    """RULES.md 3.3: «in a match with two or more human seats no seat may learn or choose a
    round's code before that round is over (the server picks the codes)». Every response
    (status, headers, body) and every log line of a whole round: create, both humans'
    views and moves, the bots' answers, refused requests; the code shows up only once the
    round is over, and in no log line at all; tokens only in the create response."""
    client = create_app({"TESTING": True, "GAMES_DB": str(db_path)}).test_client()
    exchanges: list[str] = []

    def send(method: str, url: str, token: str | None = None, **kwargs: Any) -> Any:
        headers = {**kwargs.pop("headers", {}), **(bearer(token) if token else {})}
        response = client.open(url, method=method, headers=headers, **kwargs)
        exchanges.append(
            f"{response.status}\n{response.headers}\n{response.get_data(as_text=True)}"
        )
        return response

    response = send(
        "POST", GAMES, json={"bots": {"2": "standard", "3": "beginner"}, "tokens": "all"}
    )
    assert response.status_code == 201
    created = response.get_json()
    assert created["code"] is None and created["humans"] == [0, 1]
    game_id, tokens = created["id"], [created["tokens"]["0"], created["tokens"]["1"]]
    url = f"{GAMES}/{game_id}"
    code = stored_code(db_path, game_id)
    assert code not in exchanges[0].upper()

    # Asking for the code or choosing one gets nowhere, whatever is sent.
    problem = assert_problem(send("POST", f"{url}/rounds", tokens[0], json={"code": code}), 403)
    assert problem == {
        "type": "about:blank",
        "title": "Forbidden",
        "status": 403,
        "detail": CODE_NOT_ALLOWED_DETAIL,
        "code": "CODE_NOT_ALLOWED",
    }
    assert assert_problem(send("POST", f"{url}/rounds", tokens[1]), 409)["code"] == "ROUND_NOT_OVER"

    ended_at = None
    for _ in range(200):
        views = [send("GET", url, token) for token in tokens]
        for response in views:
            assert response.get_json()["code"] is None and not response.get_json()["over"]
        mover = next(seat for seat in (0, 1) if views[seat].get_json()["your_turn"])
        waiting = 1 - mover
        view = views[mover].get_json()
        # Refusals on the way: a move out of turn, an unknown card, and (below) a retry.
        other = views[waiting].get_json()
        send("POST", f"{url}/moves", tokens[waiting], json={"play": other["hand"][:1]})
        send("POST", f"{url}/moves", tokens[mover], json={"play": ["Zz"]})
        tag = views[mover].headers["ETag"]
        response = send(
            "POST",
            f"{url}/moves",
            tokens[mover],
            json={"play": choose(view)},
            headers={"If-Match": tag},
        )
        assert response.status_code == 200
        retried = send(
            "POST", f"{url}/moves", tokens[mover], json={"play": "pass"}, headers={"If-Match": tag}
        )
        assert assert_problem(retried, 412)["code"] == "VERSION_MISMATCH"
        if response.get_json()["over"]:
            ended_at = len(exchanges) - 2
            break
    assert ended_at is not None, "the round did not end"

    for text in exchanges[:ended_at]:
        assert code not in text.upper()
    assert code in exchanges[ended_at].upper()  # the move that ended the round
    for token in tokens:
        view = get_view(client, game_id, token)
        assert view["over"] and view["code"] == code
        assert_finished(view, code)
    for line in captured_logs.lines:
        assert code not in line.upper()
        assert not any(token in line for token in tokens)
    assert any(f'"path":"{url}/moves"' in line for line in captured_logs.lines)
    for text in exchanges[1:]:
        assert not any(token in text for token in tokens)

    # The next round: still no code chosen by a seat, a fresh secret one dealt instead.
    response = send("POST", f"{url}/rounds", tokens[1], json={"code": "B4K7M2Q9XZ1"})
    assert assert_problem(response, 403)["code"] == "CODE_NOT_ALLOWED"
    response = send("POST", f"{url}/rounds", tokens[1])
    assert response.status_code == 200 and response.get_json()["round"] == 2
    second = stored_code(db_path, game_id)
    assert second != code
    if not response.get_json()["over"]:
        assert response.get_json()["code"] is None
        assert second not in exchanges[-1].upper()
        assert all(second not in line.upper() for line in captured_logs.lines)


def test_a_game_that_does_not_replay_logs_no_code(
    client: FlaskClient, db_path: Path, captured_logs: Captured
) -> None:
    """A damaged row is a 500 for the client and a traceback for the operator, whose
    message names the game but not its round code (the engine's message would)."""
    created = create(client, players=2, tokens="all")
    store = GameStore(db_path)
    record = store.load(created["id"])
    assert record is not None
    wrong = banting.make_code(3, 4242)  # a 3-player code in a 2-player game
    record.rounds = [RoundRecord(record.rounds[0].code, [], 0, [1, -1]), RoundRecord(wrong)]
    assert store.save(record)
    response = client.get(f"{GAMES}/{created['id']}", headers=bearer(created["tokens"]["0"]))
    assert_replay_logged_without_code(response, captured_logs, created["id"], wrong)


def assert_replay_logged_without_code(
    response: Any, captured: Captured, game_id: str, code: str
) -> None:
    assert_problem(response, 500)
    logged = "\n".join(captured.lines)
    assert f"game {game_id} does not replay" in logged
    assert "<round code>" in logged
    assert code not in logged.upper()
    assert code not in response.get_data(as_text=True).upper()


def test_a_susun_table_that_does_not_rebuild_logs_no_code(
    client: FlaskClient, db_path: Path, captured_logs: Captured
) -> None:
    """As a Banting game's: a Susun round stored with a code the table cannot take is a
    500, and the operator's traceback names the game but not the code of the round still
    being played."""
    created = client.post("/v1/susun/games", json={"players": 4, "bots": {"3": "expert"}})
    game = created.get_json()
    store = GameStore(db_path)
    record = store.load(game["id"], SusunRecord)
    assert record is not None
    wrong = susun.make_code(3, 4242)  # a 3-player code at a 4-player table
    record.rounds[-1].code = wrong
    assert store.save(record)
    response = client.get(f"/v1/susun/games/{game['id']}", headers=bearer(game["tokens"]["0"]))
    assert_replay_logged_without_code(response, captured_logs, game["id"], wrong)


def test_a_token_sent_without_its_scheme_is_not_said_back(client: FlaskClient) -> None:
    """Without 'Bearer ' a token reads as the scheme's name; the 401 must not repeat it."""
    created = create(client, bots=THREE_BOTS)
    token = created["tokens"]["0"]
    response = client.get(f"{GAMES}/{created['id']}", headers={"Authorization": token})
    problem = assert_problem(response, 401)
    assert token.lower() not in response.get_data(as_text=True).lower()
    assert "Bearer" in problem["detail"]
    basic = client.get(f"{GAMES}/{created['id']}", headers={"Authorization": "Basic dXNlcjpw"})
    assert "'basic' scheme" in assert_problem(basic, 401)["detail"]


@pytest.mark.parametrize(
    "body",
    [
        {"players": 2, "code": "B2000000001"},
        {"code": "FRIDAY-GAME", "bots": {"3": "standard"}},
        {"code": banting.make_code(3, 7), "bots": {"2": "standard"}},  # 3 seats from the code
    ],
)
def test_a_code_is_refused_at_create_with_two_humans(
    client: FlaskClient, db_path: Path, body: dict[str, Any]
) -> None:
    """The creator of a game between people cannot choose its code: they would know every
    hand (RULES.md 3.3). Nothing is created."""
    create(client, bots=THREE_BOTS)  # one game in the store
    problem = assert_problem(client.post(GAMES, json=body), 403)
    assert problem["code"] == "CODE_NOT_ALLOWED" and problem["detail"] == CODE_NOT_ALLOWED_DETAIL
    conn = sqlite3.connect(db_path)
    try:
        assert conn.execute("SELECT COUNT(*) FROM banting_games").fetchone() == (1,)
    finally:
        conn.close()
    # A bad code is still a 422 on its field first, like any other bad field.
    errors = field_errors(client.post(GAMES, json={**body, "code": "no pe"}))
    assert list(errors) == ["code"]
    # Without the code the same game starts, with a code the server picked and kept.
    created = create(client, **{key: value for key, value in body.items() if key != "code"})
    assert created["code"] is None and len(created["humans"]) >= 2
    assert banting.parse_code(stored_code(db_path, created["id"]))[0] == created["players"]


def test_one_human_sees_and_chooses_the_code_salin_link_ronde(client: FlaskClient) -> None:
    """RULES.md 3.3 / seed 003: with a single human seat the code may be shown during the
    round («Salin link ronde» copies a link that deals the same cards to whoever opens it)
    and the player may pick it."""
    first = create(client, bots=THREE_BOTS)
    assert first["code"] is not None
    view = get_view(client, first["id"], first["tokens"]["0"])
    assert view["code"] == first["code"] and not view["over"]
    # The shared link's code deals a friend the very same cards.
    friend = create(client, code=view["code"], bots=THREE_BOTS)
    assert friend["code"] == first["code"]
    replayed = get_view(client, friend["id"], friend["tokens"]["0"])
    assert replayed["hand"] == view["hand"] and len(view["hand"]) == 13
    # The next round's code may be chosen too.
    view = play_round(client, first["id"], first["tokens"]["0"], first["code"], view)
    chosen = code_where_seat_leads(0)
    response = client.post(
        f"{GAMES}/{first['id']}/rounds", json={"code": chosen}, headers=bearer(first["tokens"]["0"])
    )
    assert response.status_code == 200 and response.get_json()["code"] == chosen


# --- moves carry the version they apply to (issue 11, item 7) --------------------------------


def test_views_carry_a_strong_etag_per_version_and_seat(client: FlaskClient) -> None:
    """API.md: «every game view carries `version` and an `ETag`»."""
    created = create(client, players=3, bots={"2": "standard"}, tokens="all")
    game_id, tokens = created["id"], created["tokens"]
    first = [client.get(f"{GAMES}/{game_id}", headers=bearer(tokens[s])) for s in ("0", "1")]
    tags = [response.headers["ETag"] for response in first]
    assert all(STRONG_ETAG.fullmatch(tag) for tag in tags)
    assert tags[0] != tags[1]  # one representation per seat
    again = client.get(f"{GAMES}/{game_id}", headers=bearer(tokens["0"]))
    assert again.headers["ETag"] == tags[0]  # the same view, the same tag
    view = first[0].get_json()
    mover = str(view["turn"])
    moved = client.post(
        f"{GAMES}/{game_id}/moves",
        json={"play": choose(get_view(client, game_id, tokens[mover]))},
        headers=bearer(tokens[mover]),
    )
    assert moved.status_code == 200 and moved.get_json()["version"] == view["version"] + 1
    after = client.get(f"{GAMES}/{game_id}", headers=bearer(tokens[mover]))
    assert moved.headers["ETag"] == after.headers["ETag"] not in tags


def pass_twice_code() -> str:
    """A code where seat 0, against three standard bots and playing the hints, may pass on
    its first turn that allows it and may pass again on its next turn: where a retried pass
    would be legal again."""
    for seed in range(1, 500):
        code = banting.make_code(4, seed)
        game = banting.Game(code=code)
        passed = False
        while not game.over:
            if game.turn != 0:
                game.bot_play(game.turn, "standard")
            elif passed:
                if game.can_pass(0):
                    return code
                break
            elif game.can_pass(0):
                game.move(0, "pass")
                passed = True
            else:  # leading: the hint is a play
                game.move(0, list(game.hint(0).cards))
    raise AssertionError("no such code")


def to_first_pass(client: FlaskClient, game_id: str, token: str) -> Any:
    """Plays seat 0's hints (as pass_twice_code does) up to its first turn that allows a
    pass; returns the GET response of that view."""
    view = get_view(client, game_id, token)
    while not view["can_pass"]:
        view = move(client, game_id, token, choose(view))
    return client.get(f"{GAMES}/{game_id}", headers=bearer(token))


STANDARD_BOTS = {"1": "standard", "2": "standard", "3": "standard"}


def test_a_retried_move_with_an_old_if_match_is_refused(client: FlaskClient) -> None:
    """API.md: a move «may send `If-Match` … and is refused with 412 … when the game has
    moved on, so a retried request is never applied twice». The pass below is sent, then
    sent again as a client would after a timeout, on the seat's next turn where passing is
    legal again: refused, nothing changes. Sent without the tag it is made a second time."""
    created = create(client, code=pass_twice_code(), bots=STANDARD_BOTS)
    game_id, token = created["id"], created["tokens"]["0"]
    response = to_first_pass(client, game_id, token)
    view, tag = response.get_json(), response.headers["ETag"]
    first = post_move(client, game_id, token, "pass", **{"If-Match": tag})
    assert first.status_code == 200, first.get_data(as_text=True)
    now = first.get_json()
    assert now["your_turn"] and now["can_pass"] and now["version"] == view["version"] + 1

    retried = post_move(client, game_id, token, "pass", **{"If-Match": tag})
    problem = assert_problem(retried, 412)
    assert (
        problem["code"] == "VERSION_MISMATCH" and f"version {now['version']}" in problem["detail"]
    )
    assert get_view(client, game_id, token) == now
    # Without a version the same retry is simply made again: why a client should send one.
    again = move(client, game_id, token, "pass")
    assert [e["seat"] for e in again["history"]].count(0) == [
        e["seat"] for e in now["history"]
    ].count(0) + 1


def test_a_retried_move_with_an_old_body_version_is_refused(client: FlaskClient) -> None:
    """The same with `"version"` in the body: 409 CONFLICT, nothing changes."""
    created = create(client, code=pass_twice_code(), bots=STANDARD_BOTS)
    game_id, token = created["id"], created["tokens"]["0"]
    view = to_first_pass(client, game_id, token).get_json()
    url = f"{GAMES}/{game_id}/moves"
    body = {"play": "pass", "version": view["version"]}
    first = client.post(url, json=body, headers=bearer(token))
    assert first.status_code == 200, first.get_data(as_text=True)
    now = first.get_json()
    assert now["your_turn"] and now["can_pass"]

    problem = assert_problem(client.post(url, json=body, headers=bearer(token)), 409)
    assert problem["code"] == "CONFLICT"
    assert f"version {view['version']}" in problem["detail"]
    assert f"version {now['version']}" in problem["detail"]
    assert get_view(client, game_id, token) == now
    # A version from the future is no better; the current one goes through.
    ahead = {"play": "pass", "version": now["version"] + 1}
    assert (
        assert_problem(client.post(url, json=ahead, headers=bearer(token)), 409)["code"]
        == "CONFLICT"
    )
    current = {"play": "pass", "version": now["version"]}
    response = client.post(url, json=current, headers=bearer(token))
    assert response.status_code == 200 and response.get_json()["version"] == now["version"] + 1


def test_if_match_forms(client: FlaskClient) -> None:
    """RFC 9110 If-Match: one of the listed tags must be the view's current ETag (strong
    comparison: a weak tag never matches), or '*'. Anything else is 412 and changes
    nothing."""
    created = create(client, code=code_where_seat_leads(0), bots=THREE_BOTS)
    game_id, token = created["id"], created["tokens"]["0"]
    other = create(client, code=code_where_seat_leads(0), bots=THREE_BOTS)
    response = client.get(f"{GAMES}/{game_id}", headers=bearer(token))
    view, tag = response.get_json(), response.headers["ETag"]
    elsewhere = client.get(f"{GAMES}/{other['id']}", headers=bearer(other["tokens"]["0"]))
    assert elsewhere.get_json()["version"] == view["version"]
    for header in (f"W/{tag}", tag.strip('"') + "0", '"x"', "", elsewhere.headers["ETag"], "**"):
        problem = assert_problem(
            post_move(client, game_id, token, "pass", **{"If-Match": header}), 412
        )
        assert problem["code"] == "VERSION_MISMATCH", header
    # The body is checked first: a bad body is a 400 or 422 whatever its If-Match.
    stale = client.post(
        f"{GAMES}/{game_id}/moves",
        data="not json",
        content_type="application/json",
        headers={**bearer(token), "If-Match": '"x"'},
    )
    assert_problem(stale, 400)
    assert_problem(post_move(client, game_id, token, ["Zz"], **{"If-Match": '"x"'}), 422)
    assert client.get(f"{GAMES}/{game_id}", headers=bearer(token)).get_json() == view

    # A list holding the current tag, then '*': both go through.
    moved = post_move(client, game_id, token, choose(view), **{"If-Match": f'"0", {tag}'})
    assert moved.status_code == 200, moved.get_data(as_text=True)
    view = moved.get_json()
    if not view["over"]:
        moved = post_move(client, game_id, token, choose(view), **{"If-Match": "*"})
        assert moved.status_code == 200, moved.get_data(as_text=True)
    # A GET is not conditional on If-Match: it answers with the current view.
    response = client.get(f"{GAMES}/{game_id}", headers={**bearer(token), "If-Match": tag})
    assert response.status_code == 200 and response.headers["ETag"] == moved.headers["ETag"]


def test_another_seats_tag_is_not_this_seats(client: FlaskClient) -> None:
    created = create(client, players=2, tokens="all")
    game_id, tokens = created["id"], created["tokens"]
    responses = [client.get(f"{GAMES}/{game_id}", headers=bearer(tokens[s])) for s in "01"]
    mover = responses[0].get_json()["turn"]
    view = responses[mover].get_json()
    theirs = responses[1 - mover].headers["ETag"]
    problem = assert_problem(
        post_move(client, game_id, tokens[str(mover)], choose(view), **{"If-Match": theirs}), 412
    )
    assert problem["code"] == "VERSION_MISMATCH"
    mine = responses[mover].headers["ETag"]
    moved = post_move(client, game_id, tokens[str(mover)], choose(view), **{"If-Match": mine})
    assert moved.status_code == 200


def test_a_retried_next_round_is_refused(client: FlaskClient) -> None:
    """A next-round request carries the version too: retried, it never deals two rounds."""
    code = code_where_seat_leads(0)
    created = create(client, code=code, bots=THREE_BOTS)
    game_id, token = created["id"], created["tokens"]["0"]
    url = f"{GAMES}/{game_id}/rounds"
    view = get_view(client, game_id, token)
    # While the round runs a stale tag is 412 and a current one ROUND_NOT_OVER.
    problem = assert_problem(client.post(url, headers={**bearer(token), "If-Match": '"x"'}), 412)
    assert problem["code"] == "VERSION_MISMATCH"
    body = {"version": view["version"]}
    problem = assert_problem(client.post(url, json=body, headers=bearer(token)), 409)
    assert problem["code"] == "ROUND_NOT_OVER"

    view = play_round(client, game_id, token, code, view)
    tag = client.get(f"{GAMES}/{game_id}", headers=bearer(token)).headers["ETag"]
    dealt = client.post(url, headers={**bearer(token), "If-Match": tag})
    assert dealt.status_code == 200 and dealt.get_json()["round"] == 2
    second = dealt.get_json()
    if not second["over"]:
        second = play_round(client, game_id, token, second["code"], second)
    # Round 2 is over as well now: a retry of the request that dealt it would deal round 3.
    problem = assert_problem(client.post(url, headers={**bearer(token), "If-Match": tag}), 412)
    assert problem["code"] == "VERSION_MISMATCH"
    body = {"version": view["version"]}
    problem = assert_problem(client.post(url, json=body, headers=bearer(token)), 409)
    assert problem["code"] == "CONFLICT"
    assert get_view(client, game_id, token) == second
    body = {"version": second["version"]}
    third = client.post(url, json=body, headers=bearer(token))
    assert third.status_code == 200 and third.get_json()["round"] == 3


@pytest.mark.parametrize(
    "version", [0, -1, "1", 1.5, True, None, [1]], ids=lambda v: f"version={v!r}"
)
def test_bad_versions_are_422(client: FlaskClient, version: Any) -> None:
    created = create(client, code=code_where_seat_leads(0), bots=THREE_BOTS)
    game_id, token = created["id"], created["tokens"]["0"]
    view = get_view(client, game_id, token)
    refusals = (
        ("moves", {"play": "pass"}, "CANNOT_PASS_WHEN_LEADING"),
        ("rounds", {}, "ROUND_NOT_OVER"),
    )
    for route, body, refusal in refusals:
        response = client.post(
            f"{GAMES}/{game_id}/{route}", json={**body, "version": version}, headers=bearer(token)
        )
        if version is None:  # null: the same as leaving it out
            assert assert_problem(response, 409)["code"] == refusal
        else:
            assert list(field_errors(response)) == ["version"]
    assert get_view(client, game_id, token) == view


# --- the store on its own -----------------------------------------------------------------


def test_store_refuses_a_stale_save(db_path: Path) -> None:
    store = GameStore(db_path)
    assert store.load("nothing") is None
    code = banting.make_code(2, 99)
    record = GameRecord(
        id="g1",
        players=2,
        rules={"preset": "taiwan"},
        bots={1: "beginner"},
        token_hashes={0: hash_token("secret")},
        rounds=[RoundRecord(code)],
    )
    store.create(record)
    first, second = store.load("g1"), store.load("g1")
    assert first is not None and second is not None
    assert first == second == record
    assert first.seat_of("secret") == 0 and first.seat_of("Secret") is None

    game = replay(first)
    first.record(game.bot_play(game.turn, "standard"))
    assert store.save(first) and first.version == 2
    game = replay(second)
    second.record(game.bot_play(game.turn, "random"))
    assert not store.save(second) and second.version == 1
    loaded = store.load("g1")
    assert loaded is not None and loaded.version == 2
    assert loaded.rounds == first.rounds


def test_games_db_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(GAMES_DB_ENV, raising=False)
    app = create_app({"TESTING": True})
    assert app.config["GAMES_DB"] == str(Path(app.instance_path) / "games.sqlite3")
    monkeypatch.setenv(GAMES_DB_ENV, str(tmp_path / "from-env.sqlite3"))
    assert create_app().config["GAMES_DB"] == str(tmp_path / "from-env.sqlite3")
    explicit = str(tmp_path / "sub" / "dir" / "explicit.sqlite3")
    app = create_app({"GAMES_DB": explicit})
    assert app.config["GAMES_DB"] == explicit
    create(app.test_client(), bots=THREE_BOTS)  # the folders are created on first use
    assert Path(explicit).is_file()
    assert not (tmp_path / "from-env.sqlite3").exists()


# --- bad bodies ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "field", "needle"),
    [
        ({"rules": {"preset": "nope"}}, "rules/preset", "unknown preset"),
        ({"rules": {"triples": "yes"}}, "rules/triples", "true or false"),
        ({"code": "B4 XYZ"}, "code", "' ' is not allowed"),
        ({"code": "round#1"}, "code", "'#' is not allowed"),
        ({"code": ""}, "code", "1 to 32 characters"),
        ({"players": 5}, "players", "4"),
        ({"players": 1}, "players", "2"),
        ({"players": "4"}, "players", ""),
        ({"players": 3, "code": "B4K7M2Q9XZ1"}, "players", "4 players"),
        ({"bots": {"1": "grandmaster"}}, "bots/1", "grandmaster"),
        ({"bots": {"4": "standard"}}, "bots/4", "not a seat"),
        ({"players": 2, "bots": {"2": "standard"}}, "bots/2", "0 to 1"),
        ({"bots": {"x": "standard"}}, "bots/x", "not a seat"),
        ({"bots": {"01": "standard"}}, "bots/01", "not a seat"),
        ({"bots": ["1"]}, "bots", ""),
        ({"bots": {"1": 3}}, "bots/1", ""),
        ({"bots": dict.fromkeys("0123", "standard")}, "bots", "human"),
        ({"players": 2, "bots": dict.fromkeys("01", "random")}, "bots", "human"),
        ({"seats": 4}, "seats", "Unknown field"),
    ],
)
def test_bad_create_bodies_are_422(
    client: FlaskClient, body: dict[str, Any], field: str, needle: str
) -> None:
    errors = field_errors(client.post(GAMES, json=body))
    assert list(errors) == [field]
    assert needle in errors[field]


@pytest.mark.parametrize(
    ("body", "field", "needle"),
    [
        ({"play": ["Zz"]}, "play/0", "Zz"),
        ({"play": ["3d", "3♦"]}, "play/1", "Duplicate"),
        ({"play": "Pass"}, "play", "'pass'"),
        ({"play": "3d"}, "play", "'pass'"),
        ({}, "play", ""),
        ({"play": "pass", "seat": 1}, "seat", "Unknown field"),
    ],
)
def test_bad_move_bodies_are_422(
    client: FlaskClient, body: dict[str, Any], field: str, needle: str
) -> None:
    created = create(client, bots=THREE_BOTS)
    game_id, token = created["id"], created["tokens"]["0"]
    view = get_view(client, game_id, token)
    response = client.post(f"{GAMES}/{game_id}/moves", json=body, headers=bearer(token))
    errors = field_errors(response)
    assert list(errors) == [field]
    assert needle in errors[field]
    assert get_view(client, game_id, token) == view


def test_bad_next_round_bodies_are_422(client: FlaskClient) -> None:
    code = code_where_seat_leads(0)
    created = create(client, code=code, bots=THREE_BOTS)
    game_id, token = created["id"], created["tokens"]["0"]
    view = play_round(client, game_id, token, code, get_view(client, game_id, token))
    url = f"{GAMES}/{game_id}/rounds"
    for body, needle in (
        ({"code": "no pe"}, "not allowed"),
        ({"code": banting.make_code(3, 5)}, "3 players"),
    ):
        errors = field_errors(client.post(url, json=body, headers=bearer(token)))
        assert list(errors) == ["code"] and needle in errors["code"]
    assert_problem(
        client.post(url, data="{", content_type="application/json", headers=bearer(token)), 400
    )
    assert_problem(
        client.post(url, data="{}", content_type="text/plain", headers=bearer(token)), 415
    )
    assert get_view(client, game_id, token) == view


def test_create_body_must_be_json(client: FlaskClient) -> None:
    assert_problem(client.post(GAMES, data="{}", content_type="text/plain"), 415)
    assert_problem(client.post(GAMES, data="{", content_type="application/json"), 400)
    assert_problem(client.post(GAMES), 415)  # creating needs a body, even if it is {}


json_values = json_bodies(
    ["rules", "code", "players", "bots", "play", "1", "0", "preset"],
    ["pass", "3d", "standard", "random", "B4K7M2Q9XZ1", "B2000000001", "taiwan"],
)


def test_arbitrary_json_never_gives_a_500(db_path: Path) -> None:
    client = create_app({"TESTING": True, "GAMES_DB": str(db_path)}).test_client()
    created = create(client, bots=THREE_BOTS)
    token = created["tokens"]["0"]

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(body=json_values)
    def check(body: Any) -> None:
        data = json.dumps(body)
        response = client.post(GAMES, data=data, content_type="application/json")
        if response.status_code == 403:
            # A valid body asking for a code at a table of two or more humans.
            assert assert_problem(response, 403)["code"] == "CODE_NOT_ALLOWED"
        elif response.status_code != 201:
            assert_problem(response, 422)
        for route in ("moves", "rounds"):
            response = client.post(
                f"{GAMES}/{created['id']}/{route}",
                data=data,
                content_type="application/json",
                headers=bearer(token),
            )
            if response.status_code not in (200, 409):
                assert_problem(response, 422)

    check()


# --- /openapi.json ------------------------------------------------------------------------


def test_openapi_documents_the_game_routes(client: FlaskClient) -> None:
    document = client.get("/openapi.json").get_json()
    paths = document["paths"]
    assert set(paths[GAMES]) == {"post"}
    create_op = paths[GAMES]["post"]
    assert "201" in create_op["responses"] and "200" not in create_op["responses"]
    assert "security" not in create_op
    for method, route in GAME_ROUTES:
        operation = paths[route][method]
        assert operation["tags"] == ["banting-games"]
        assert operation["summary"] and operation["description"]
        assert operation["security"] == [{"bearerAuth": []}]
        path_parameter = {
            "name": "game_id",
            "in": "path",
            "required": True,
            "schema": {"type": "string"},
        }
        expected = {"200", "401", "403", "404", "429", "503", "default"}
        if method == "post":
            expected |= {"400", "409", "412", "413", "415", "422"}
            assert operation["parameters"][0] == path_parameter
            (if_match,) = operation["parameters"][1:]
            assert if_match["name"] == "If-Match" and if_match["in"] == "header"
            assert if_match["required"] is False and "412" in if_match["description"]
            body_ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
            version = resolve_ref(document, body_ref)["properties"]["version"]
            assert {"type": "integer", "minimum": 1}.items() <= version["anyOf"][0].items()
        else:
            assert operation["parameters"] == [path_parameter]
        assert set(operation["responses"]) == expected
        assert set(operation["responses"]["200"]["headers"]) == {"ETag"}
    hint = paths[f"{GAMES}/{{game_id}}/hint"]["post"]
    assert hint["security"] == [{"bearerAuth": []}] and hint["requestBody"]["required"] is False
    assert {"200", "401", "403", "404", "409", "422"} <= set(hint["responses"])
    hint_body = resolve_ref(
        document, hint["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    )
    assert "master" in resolve_ref(document, hint_body["properties"]["level"]["$ref"])["enum"]
    assert paths[f"{GAMES}/{{game_id}}/rounds"]["post"]["requestBody"]["required"] is False
    assert paths[f"{GAMES}/{{game_id}}/moves"]["post"]["requestBody"]["required"] is True
    assert document["components"]["securitySchemes"]["bearerAuth"] == {
        "type": "http",
        "scheme": "bearer",
        "description": "A seat's secret token, as given when the game was created.",
    }
    assert {"name": "banting-games"} in document["tags"]
    for ref in all_refs(document):
        resolve_ref(document, ref)
    schemas = document["components"]["schemas"]
    view = schemas["GameView"]["properties"]
    assert {"hand", "counts", "table", "turn", "history", "totals", "result", "code"} <= set(view)
    assert "code" in schemas["Problem"]["properties"]
    bots = resolve_ref(document, schemas["CreateGameRequest"]["properties"]["bots"]["$ref"])
    levels = resolve_ref(document, bots["additionalProperties"]["$ref"])
    assert levels["enum"] == list(banting.BOT_LEVELS)


def test_the_view_shows_the_twos_demoted_by_a_four_of_a_kind(client: FlaskClient) -> None:
    """Seed 000 «Ketika kombinasi piting dikeluarkan, 2 akan dibom» under capsa-klasik: the
    human seat holds the four 3s and opens with them; its view then says twos_demoted, the
    legal plays it is offered follow it, and the ETag differs per language while either
    language's tag names the same version for If-Match."""
    threes = set(parse_cards("3c 3d 3h 3s"))
    code = next(
        code
        for code in (banting.make_code(4, seed) for seed in range(200_000))
        if threes <= set(banting.deal(code)[0])
    )
    created = create(
        client,
        rules={"preset": "capsa-klasik"},
        code=code,
        bots={"1": "standard", "2": "standard", "3": "standard"},
    )
    token = created["tokens"]["0"]
    view = get_view(client, created["id"], token)
    assert view["twos_demoted"] is False and view["your_turn"]
    kicker = next(card for card in view["hand"] if card[0] != "3")
    after = move(client, created["id"], token, ["3c", "3d", "3h", "3s", kicker])
    fours = [e for e in after["history"] if e["kind"] == "four_of_a_kind"]
    assert after["twos_demoted"] == (len(fours) % 2 == 1) and len(fours) >= 1
    assert not after["over"] and after["your_turn"]
    choose(after)  # legal_count and the hint agree with the package's demoted plays
    english = client.get(f"{GAMES}/{created['id']}", headers=bearer(token))
    indonesian = client.get(
        f"{GAMES}/{created['id']}", headers={**bearer(token), "Accept-Language": "id"}
    )
    assert english.headers["ETag"] != indonesian.headers["ETag"]
    response = post_move(
        client, created["id"], token, choose(after), **{"If-Match": indonesian.headers["ETag"]}
    )
    assert response.status_code == 200, response.get_data(as_text=True)


def test_a_banting_game_keeps_at_most_max_rounds(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Banting round stores its moves and each request reads them all, so a game keeps
    MAX_ROUNDS rounds; the next is 409 MATCH_FULL, and the game is left as it was."""
    monkeypatch.setattr(sessions, "MAX_ROUNDS", 1)
    code = code_where_seat_leads(0)
    created = create(client, code=code, bots=THREE_BOTS)
    game_id, token = created["id"], created["tokens"]["0"]
    finished = play_round(client, game_id, token, code, get_view(client, game_id, token))
    response = client.post(f"{GAMES}/{game_id}/rounds", headers=bearer(token))
    problem = assert_problem(response, 409)
    assert problem["code"] == "MATCH_FULL" and "new game" in problem["detail"]
    assert get_view(client, game_id, token) == finished
