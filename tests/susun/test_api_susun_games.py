"""Capsa Susun game sessions over HTTP (API.md "Game sessions (Susun)", RULES.md 4.5).

What a user would notice if these failed: a seat seeing another seat's cards, rows or
declared special before the reveal; a round code given away in a game between people; a
refused arrangement changing the table; a retried request applied twice; the time limit not
arranging late seats; scores that differ from the engine's; a restart losing a table.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from capsa_fast import _core, format_cards, parse_cards, susun
from flask import Flask
from flask.testing import FlaskClient

from api import create_app
from api.server import sessions
from tests.api.helpers import assert_problem

GAMES = "/v1/susun/games"
EXPERTS = {"1": "expert", "2": "expert", "3": "expert"}


class Clock:
    def __init__(self) -> None:
        self.now = 1_900_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


def make_app(db_path: Path, clock: Clock) -> Flask:
    return create_app(
        {"TESTING": True, "GAMES_DB": str(db_path), "CLOCK": clock, "ACCESS_LOG": False}
    )


@pytest.fixture
def client(db_path: Path, clock: Clock) -> FlaskClient:
    return make_app(db_path, clock).test_client()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: FlaskClient, **body: Any) -> dict[str, Any]:
    response = client.post(GAMES, json=body)
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()


def view(client: FlaskClient, game_id: str, token: str, **headers: str) -> dict[str, Any]:
    response = client.get(f"{GAMES}/{game_id}", headers={**bearer(token), **headers})
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def arrange(
    client: FlaskClient, game_id: str, token: str, body: dict[str, Any], **headers: str
) -> Any:
    return client.post(
        f"{GAMES}/{game_id}/arrangement", json=body, headers={**bearer(token), **headers}
    )


def rows_body(a: Any) -> dict[str, list[str]]:
    return {
        "top": format_cards(a.top),
        "middle": format_cards(a.middle),
        "bottom": format_cards(a.bottom),
    }


def best_rows(hand: list[str], rules: Any = None) -> dict[str, list[str]]:
    return rows_body(susun.arrange(hand, rules))


# --- the seed 001 example --------------------------------------------------------------------

# A code word whose deal, with three expert bots, puts a straight, a pair of aces and a flush
# on the bots' bottom rows, and lets seat 0 put a full house there. Found by dealing the words
# SEED001-0, SEED001-1, ... and arranging the bots' hands with the ev strategy until one fit;
# the test checks it again.
SEED_001_CODE = "SEED001-2437"
SEED_001_ROWS = {
    "top": ["7h", "Qs", "Ad"],
    "middle": ["3s", "4s", "5c", "Jd", "Jc"],
    "bottom": ["2d", "2c", "2s", "9d", "9s"],
}


def test_seed_001_example_through_http(client: FlaskClient) -> None:
    """Seed 001, four players at stake 100: bottom rows full house / flush / straight /
    pair of aces give +300 / +100 / -100 / -300 for that row alone."""
    created = create(client, code=SEED_001_CODE, bots=EXPERTS, stake=100)
    token = created["tokens"]["0"]
    assert created["code"] == SEED_001_CODE  # one human seat: the code may be shown
    answer = arrange(client, created["id"], token, SEED_001_ROWS)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    result = answer.get_json()["result"]
    categories = {s["seat"]: s["rows"][2]["category"] for s in result["seats"]}
    bottom = {seat: 0 for seat in categories}
    for pair in result["pairs"]:
        i, j = pair["players"]
        bottom[i] += 100 * pair["rows"]["bottom"]
        bottom[j] -= 100 * pair["rows"]["bottom"]
    by_category = {categories[seat]: bottom[seat] for seat in bottom}
    assert by_category == {"full_house": 300, "flush": 100, "straight": -100, "pair": -300}
    pair_seat = next(s for s in result["seats"] if s["rows"][2]["category"] == "pair")
    assert pair_seat["rows"][2]["label"] == "Pair of aces"
    # The whole table scores as the engine scores the same deal and rows.
    table = susun.Table(code=SEED_001_CODE, stake=100)
    table.arrange(0, SEED_001_ROWS["top"], SEED_001_ROWS["middle"], SEED_001_ROWS["bottom"])
    for seat in (1, 2, 3):
        table.bot_arrange(seat, "expert")
    assert table.result is not None
    assert [s["points"] for s in result["seats"]] == table.result.points
    assert [s["money"] for s in result["seats"]] == table.result.money
    assert result["fee_total"] == pytest.approx(table.result.fee_total)


# --- a match -----------------------------------------------------------------------------------


def test_a_match_with_a_restart_between_requests(db_path: Path, clock: Clock) -> None:
    first = make_app(db_path, clock).test_client()
    created = create(first, bots=EXPERTS, stake=50, rules={"preset": "susun-specials"})
    game_id, token = created["id"], created["tokens"]["0"]
    totals = [0, 0, 0, 0]
    for round_number in (1, 2, 3):
        # a fresh app (a restarted server) for every request
        seen = view(make_app(db_path, clock).test_client(), game_id, token)
        assert seen["round"] == round_number and not seen["revealed"]
        assert seen["arranged"] == [False, True, True, True]  # the bots arrange at the deal
        body = best_rows(seen["hand"], seen["rules"])
        answer = arrange(make_app(db_path, clock).test_client(), game_id, token, body)
        assert answer.status_code == 200, answer.get_data(as_text=True)
        done = answer.get_json()
        assert done["revealed"] and done["mine"]["by"] == "player"
        points = [s["points"] for s in done["result"]["seats"]]
        assert sum(points) == 0
        totals = [a + b for a, b in zip(totals, points, strict=True)]
        assert done["totals"]["points"] == totals
        assert done["totals"]["money"] == [50.0 * p for p in totals]
        # the same deal and rows score the same in the engine
        table = susun.Table("susun-specials", code=done["code"], stake=50)
        table.arrange(0, body["top"], body["middle"], body["bottom"])
        for seat in (1, 2, 3):
            table.bot_arrange(seat, "expert")
        assert table.result is not None and table.result.points == points
        nxt = (
            make_app(db_path, clock)
            .test_client()
            .post(f"{GAMES}/{game_id}/rounds", headers=bearer(token))
        )
        assert nxt.status_code == 200, nxt.get_data(as_text=True)


# --- refusals ------------------------------------------------------------------------------------


def fouled_rows(a: Any) -> dict[str, list[str]]:
    """The best arrangement with the bottom's first three cards moved to the top."""
    return {
        "top": format_cards(a.bottom[:3]),
        "middle": format_cards(a.middle),
        "bottom": format_cards([*a.top, *a.bottom[3:]]),
    }


def test_refusals_change_nothing(client: FlaskClient) -> None:
    # The first code word whose seat-0 hand gives fouled rows that way.
    code = next(
        f"REFUSE-{n}"
        for n in range(1000)
        if susun.check(**fouled_rows(susun.arrange(susun.deal(f"REFUSE-{n}", 2)[0]))).fouled
    )
    created = create(client, bots={"1": "standard"}, players=2, code=code)
    game_id, token = created["id"], created["tokens"]["0"]
    before = view(client, game_id, token)
    hand = before["hand"]
    a = susun.arrange(hand)
    other = next(c for c in format_cards(range(52)) if c not in hand)
    wrong = rows_body(a) | {"top": [other, *format_cards(a.top[1:])]}
    problem = assert_problem(arrange(client, game_id, token, wrong), 422)
    assert "exactly this seat's 13 cards" in problem["errors"][0]["message"]
    twice = rows_body(a) | {"top": [format_cards(a.middle)[0], *format_cards(a.top[1:])]}
    assert_problem(arrange(client, game_id, token, twice), 422)
    fouled = fouled_rows(a)
    problem = assert_problem(arrange(client, game_id, token, fouled), 409)
    assert problem["code"] == "FOULED" and problem["rows"]
    assert_problem(arrange(client, game_id, token, {"declare": "six_pairs"}), 409)
    both = rows_body(a) | {"declare": "dragon"}
    assert_problem(arrange(client, game_id, token, both), 422)
    unknown = assert_problem(arrange(client, game_id, token, {"declare": "zzz"}), 422)
    assert [e["field"] for e in unknown["errors"]] == ["declare"]  # one entry, at its path
    null = assert_problem(arrange(client, game_id, token, rows_body(a) | {"declare": None}), 422)
    assert [e["field"] for e in null["errors"]] == ["declare"]  # null is not a special's name
    assert view(client, game_id, token)["version"] == before["version"]
    confirmed = arrange(client, game_id, token, fouled | {"confirm_foul": True})
    assert confirmed.status_code == 200
    done = confirmed.get_json()
    assert done["revealed"] and done["mine"]["fouled"]
    assert done["result"]["seats"][0]["out_of_order"]
    again = assert_problem(arrange(client, game_id, token, rows_body(a)), 409)
    assert again["code"] == "ALREADY_REVEALED"
    assert view(client, game_id, token)["version"] == done["version"]


def trips_on_top(hand: list[str]) -> dict[str, list[str]] | None:
    """A three of a kind on top (a bonus row there) over the other ten cards, lowest five in
    the middle: fouled when the middle is below the trips; None without a three."""
    cards = parse_cards(hand)
    ranks = [c // 4 for c in cards]
    rank = next((r for r in set(ranks) if ranks.count(r) >= 3), None)
    if rank is None:
        return None
    top = [c for c in cards if c // 4 == rank][:3]
    rest = sorted(c for c in cards if c not in top)
    return {
        "top": format_cards(top),
        "middle": format_cards(rest[:5]),
        "bottom": format_cards(rest[5:]),
    }


def test_a_fouled_seat_shows_no_bonus_row_at_the_reveal(client: FlaskClient) -> None:
    # RULES.md 4.2: a fouled player's rows are not compared, so trips on top score nothing.
    def fits(code: str) -> bool:
        rows = trips_on_top(susun.deal(code, 2)[0])
        if rows is None:
            return False
        checked = susun.check(**rows)
        return checked.fouled and checked.rows[0].bonus > 0

    code = next(f"TRIPS-{n}" for n in range(3000) if fits(f"TRIPS-{n}"))
    created = create(client, bots={"1": "standard"}, players=2, code=code)
    game_id, token = created["id"], created["tokens"]["0"]
    rows = trips_on_top(view(client, game_id, token)["hand"])
    assert rows is not None
    done = arrange(client, game_id, token, rows | {"confirm_foul": True}).get_json()
    seat = done["result"]["seats"][0]
    assert seat["fouled"] and seat["rows"][0]["category"] == "three_of_a_kind"
    assert [row["bonus"] for row in seat["rows"]] == [0, 0, 0]


def test_arranging_twice_is_refused(client: FlaskClient) -> None:
    created = create(client, players=3, bots={"2": "expert"}, tokens="all")
    game_id, token = created["id"], created["tokens"]["0"]
    hand = view(client, game_id, token)["hand"]
    assert arrange(client, game_id, token, best_rows(hand)).status_code == 200
    problem = assert_problem(arrange(client, game_id, token, best_rows(hand)), 409)
    assert problem["code"] == "ALREADY_ARRANGED"


# --- secrecy -----------------------------------------------------------------------------------


def test_two_humans_see_only_their_own_hands_until_the_reveal(
    client: FlaskClient, db_path: Path
) -> None:
    """RULES.md 4.5: seats arrange in secret; round codes are secret with two or more
    humans; after the reveal every seat sees everything."""
    created = create(client, bots={"2": "expert", "3": "expert"}, tokens="all")
    assert created["code"] is None
    game_id, tokens = created["id"], created["tokens"]
    views = {seat: view(client, game_id, tokens[seat]) for seat in ("0", "1")}
    hands = {seat: views[seat]["hand"] for seat in views}
    assert not set(hands["0"]) & set(hands["1"])
    for seat, other in (("0", "1"), ("1", "0")):
        text = json.dumps(views[seat])
        assert views[seat]["code"] is None and views[seat]["result"] is None
        assert not any(f'"{card}"' in text for card in hands[other])
    with sqlite_code(db_path, game_id) as code:
        assert code not in json.dumps(views)
    a0 = best_rows(hands["0"])
    after = arrange(client, game_id, tokens["0"], a0).get_json()
    seen_by_1 = view(client, game_id, tokens["1"])
    assert seen_by_1["arranged"][0] and seen_by_1["mine"] is None
    assert not any(f'"{card}"' in json.dumps(seen_by_1) for card in hands["0"])
    assert after["code"] is None
    done = arrange(client, game_id, tokens["1"], best_rows(hands["1"])).get_json()
    assert done["revealed"] and done["code"] is not None
    assert set(done["result"]["seats"][0]["top"]) <= set(hands["0"])
    mine = client.post(
        f"{GAMES}/{game_id}/rounds", json={"code": "MINE"}, headers=bearer(tokens["0"])
    )
    problem = assert_problem(mine, 403)
    assert problem["code"] == "CODE_NOT_ALLOWED"
    refused = assert_problem(
        client.post(GAMES, json={"code": "MINE", "bots": {"3": "expert"}}), 403
    )
    assert refused["code"] == "CODE_NOT_ALLOWED"


class sqlite_code:
    """The current round's code as the server stores it (for a test that must know it)."""

    def __init__(self, db_path: Path, game_id: str) -> None:
        from api.server.game_store import GameStore, SusunRecord

        record = GameStore(db_path).load(game_id, SusunRecord)
        assert record is not None
        self.code = record.rounds[-1].code

    def __enter__(self) -> str:
        return self.code

    def __exit__(self, *exc: object) -> None:
        return None


def test_two_humans_arranging_at_once(db_path: Path, clock: Clock) -> None:
    app = make_app(db_path, clock)
    created = create(app.test_client(), bots={"2": "expert", "3": "expert"}, tokens="all")
    game_id, tokens = created["id"], created["tokens"]
    bodies = {
        seat: best_rows(view(app.test_client(), game_id, tokens[seat])["hand"])
        for seat in ("0", "1")
    }
    statuses: dict[str, int] = {}
    barrier = threading.Barrier(2)

    def go(seat: str) -> None:
        client = app.test_client()
        barrier.wait()
        for _ in range(5):  # a client retries a CONFLICT, as the problem says
            response = arrange(client, game_id, tokens[seat], bodies[seat])
            statuses[seat] = response.status_code
            if response.status_code != 409:
                return
            assert response.get_json()["code"] == "CONFLICT"

    threads = [threading.Thread(target=go, args=(seat,)) for seat in ("0", "1")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert statuses == {"0": 200, "1": 200}
    final = view(app.test_client(), game_id, tokens["0"])
    assert final["revealed"] and final["arranged"] == [True] * 4


# --- versions ----------------------------------------------------------------------------------


def test_a_retried_arrangement_with_an_old_version_is_refused(client: FlaskClient) -> None:
    created = create(client, players=2, bots={"1": "expert"})
    game_id, token = created["id"], created["tokens"]["0"]
    response = client.get(f"{GAMES}/{game_id}", headers=bearer(token))
    tag, first = response.headers["ETag"], response.get_json()
    body = best_rows(first["hand"])
    done = arrange(client, game_id, token, body, **{"If-Match": tag})
    assert done.status_code == 200
    assert client.post(f"{GAMES}/{game_id}/rounds", headers=bearer(token)).status_code == 200
    # a lost answer: the old request comes again, on the next round
    stale = arrange(client, game_id, token, body, **{"If-Match": tag})
    assert assert_problem(stale, 412)["code"] == "VERSION_MISMATCH"
    stale = arrange(client, game_id, token, body | {"version": first["version"]})
    assert assert_problem(stale, 409)["code"] == "CONFLICT"
    assert not view(client, game_id, token)["arranged"][0]


# --- the time limit ---------------------------------------------------------------------------


def test_the_deadline_passing_arranges_the_late_seats(client: FlaskClient, clock: Clock) -> None:
    """Seed 001: «Perhitungan ... pada saat waktu yang diberikan kepada pemain telah habis»."""
    created = create(
        client, bots={"1": "expert", "2": "expert"}, players=4, time_limit=45, tokens="all"
    )
    game_id, tokens = created["id"], created["tokens"]
    seen = view(client, game_id, tokens["0"])
    assert seen["seconds_left"] == 45 and seen["deadline"].endswith("+00:00")
    assert arrange(client, game_id, tokens["0"], best_rows(seen["hand"])).status_code == 200
    clock.now += 44
    assert not view(client, game_id, tokens["3"])["revealed"]
    clock.now += 1
    late = view(client, game_id, tokens["3"])
    assert late["revealed"] and late["seconds_left"] == 0
    assert late["mine"]["by"] == "time"
    assert [s["by"] for s in late["result"]["seats"]] == ["player", "bot", "bot", "time"]
    choice = _core.susun_bot_choice(
        parse_cards(late["hand"]),
        susun.Rules.preset("capsa-susun").core,
        "ev",
        susun.ev.ev_model(susun.Rules.preset("capsa-susun"), 4),
    )
    if choice[4] is None:
        assert late["mine"]["top"] == format_cards(choice[0])
    problem = assert_problem(arrange(client, game_id, tokens["3"], best_rows(late["hand"])), 409)
    assert problem["code"] == "ALREADY_REVEALED"


# --- corrections (RULES.md 4.5) -------------------------------------------------------------


def other_rows(hand: list[str]) -> dict[str, list[str]]:
    """An unfouled arrangement of ``hand`` other than :func:`best_rows`'."""
    best = best_rows(hand)
    for strategy in ("percentile", "naive"):
        rows = rows_body(susun.arrange(hand, strategy=strategy))
        if {k: sorted(v) for k, v in rows.items()} != {k: sorted(v) for k, v in best.items()}:
            return rows
    raise AssertionError("no second arrangement for this hand")


def same_rows(seen: dict[str, Any], rows: dict[str, list[str]]) -> bool:
    return all(sorted(seen[k]) == sorted(rows[k]) for k in ("top", "middle", "bottom"))


def test_with_corrections_two_seats_correct_until_both_are_ready(client: FlaskClient) -> None:
    """Seed 004: «pemain hanya boleh memperbaiki kartu sebelum batas waktu ... Setelah kartu
    dibuka ... susunan biasanya tidak dapat diubah»: rows sent again replace the earlier
    ones; the views say who is ready and never show another seat's cards; the reveal comes
    when both humans are ready; after it, 409 ALREADY_REVEALED."""
    created = create(client, bots={"2": "expert"}, players=3, corrections=True, tokens="all")
    assert created["corrections"] is True
    game_id, tokens = created["id"], created["tokens"]
    hands = {seat: view(client, game_id, tokens[seat])["hand"] for seat in ("0", "1")}
    first, second = best_rows(hands["0"]), other_rows(hands["0"])
    answer = arrange(client, game_id, tokens["0"], first | {"ready": False})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    seen = answer.get_json()
    assert seen["arranged"] == [True, False, True] and seen["ready"] == [False, False, True]
    assert seen["corrections"] and not seen["revealed"] and same_rows(seen["mine"], first)
    answer = arrange(client, game_id, tokens["0"], second | {"ready": False})
    assert answer.status_code == 200 and same_rows(answer.get_json()["mine"], second)
    assert arrange(client, game_id, tokens["0"], second).get_json()["ready"][0]  # ready
    by_1 = view(client, game_id, tokens["1"])
    assert by_1["ready"] == [True, False, True] and by_1["mine"] is None
    assert not any(f'"{card}"' in json.dumps(by_1) for card in hands["0"])
    # a ready seat may still take it back while another is not
    taken_back = arrange(client, game_id, tokens["0"], first | {"ready": False}).get_json()
    assert taken_back["ready"] == [False, False, True]
    assert not arrange(client, game_id, tokens["1"], best_rows(hands["1"])).get_json()["revealed"]
    done = arrange(client, game_id, tokens["0"], first).get_json()
    assert done["revealed"] and done["ready"] == [True, True, True]
    assert same_rows(done["result"]["seats"][0], first)
    for body in (second, second | {"ready": False}):
        problem = assert_problem(arrange(client, game_id, tokens["0"], body), 409)
        assert problem["code"] == "ALREADY_REVEALED"
    assert view(client, game_id, tokens["0"])["version"] == done["version"]


def test_with_corrections_the_time_limit_reveals_what_was_put_down(
    client: FlaskClient, clock: Clock, db_path: Path
) -> None:
    created = create(
        client, bots={"1": "expert"}, players=3, time_limit=30, corrections=True, tokens="all"
    )
    game_id, tokens = created["id"], created["tokens"]
    hand = view(client, game_id, tokens["0"])["hand"]
    rows = other_rows(hand)
    assert arrange(client, game_id, tokens["0"], rows | {"ready": False}).status_code == 200
    clock.now += 29
    restarted = make_app(db_path, clock).test_client()  # the seat not ready is stored
    assert view(restarted, game_id, tokens["2"])["ready"] == [False, True, False]
    clock.now += 1
    late = view(restarted, game_id, tokens["0"])
    assert late["revealed"] and late["ready"] == [True, True, True]
    assert [s["by"] for s in late["result"]["seats"]] == ["player", "bot", "time"]
    assert same_rows(late["result"]["seats"][0], rows)
    problem = assert_problem(arrange(restarted, game_id, tokens["0"], best_rows(hand)), 409)
    assert problem["code"] == "ALREADY_REVEALED"


def test_without_corrections_ready_false_is_refused_and_rows_are_final(
    client: FlaskClient,
) -> None:
    created = create(client, bots={"1": "expert"}, players=2)
    assert created["corrections"] is False
    game_id, token = created["id"], created["tokens"]["0"]
    seen = view(client, game_id, token)
    assert seen["corrections"] is False and seen["ready"] == [False, True]
    problem = assert_problem(
        arrange(client, game_id, token, best_rows(seen["hand"]) | {"ready": False}), 422
    )
    assert [e["field"] for e in problem["errors"]] == ["ready"]
    assert view(client, game_id, token)["version"] == seen["version"]
    wrong = assert_problem(client.post(GAMES, json={"corrections": "yes"}), 422)
    assert [e["field"] for e in wrong["errors"]] == ["corrections"]


# --- specials ------------------------------------------------------------------------------------


def test_a_special_is_declared_and_hidden_until_the_reveal(client: FlaskClient) -> None:
    code = next(
        f"PAIRS-{n}"
        for n in range(100_000)
        if _core.susun_holds_special(susun.deal(f"PAIRS-{n}")[0], "six_pairs")
    )
    created = create(
        client, code=code, rules={"preset": "susun-specials"}, bots={"1": "expert"}, players=2
    )
    game_id, token = created["id"], created["tokens"]["0"]
    seen = view(client, game_id, token)
    assert "six_pairs" in seen["specials"]
    done = arrange(client, game_id, token, {"declare": "six_pairs"}).get_json()
    assert done["revealed"] and done["mine"]["special"] == "six_pairs"
    pair = done["result"]["pairs"][0]
    assert pair["special"][0] == "six_pairs" and pair["rows"] == {
        "top": 0,
        "middle": 0,
        "bottom": 0,
    }
    assert done["result"]["seats"][0]["points"] in (6, 0, -208)


def test_openapi_documents_the_susun_session_routes(client: FlaskClient) -> None:
    document = client.get("/openapi.json").get_json()
    paths = {
        (path, method)
        for path, operations in document["paths"].items()
        if path.startswith(GAMES)
        for method in operations
    }
    assert paths == {
        (GAMES, "post"),
        (GAMES + "/{game_id}", "get"),
        (GAMES + "/{game_id}/arrangement", "post"),
        (GAMES + "/{game_id}/rounds", "post"),
        (GAMES + "/{game_id}/ticket", "post"),
        (GAMES + "/{game_id}/seats", "post"),
        (GAMES + "/{game_id}/start", "post"),
    }
    for path, method in paths:
        operation = document["paths"][path][method]
        assert operation["tags"] == ["susun-games"]
        assert operation["summary"] and operation["description"]
        if path.endswith("/seats"):  # joining takes an invitation, not a token
            assert "security" not in operation and "401" not in operation["responses"]
        elif "{game_id}" in path:
            assert operation["security"] and "401" in operation["responses"]
        if path.endswith(("}", "/arrangement", "/rounds")):
            assert "ETag" in operation["responses"]["200"]["headers"]
        if path.endswith(("/arrangement", "/rounds")):
            assert {"409", "412"} <= set(operation["responses"])


def test_a_game_keeps_at_most_max_rounds(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each request reads the game's rounds, so a game keeps MAX_ROUNDS of them; past that
    the next round is 409 MATCH_FULL (in the request's language) and a new game plays on."""
    monkeypatch.setattr(sessions, "MAX_ROUNDS", 2)
    created = create(client, players=2, bots={"1": "expert"})
    game_id, token = created["id"], created["tokens"]["0"]
    for number in (1, 2):
        seen = view(client, game_id, token)
        assert seen["round"] == number
        assert arrange(client, game_id, token, best_rows(seen["hand"])).status_code == 200
        response = client.post(f"{GAMES}/{game_id}/rounds", headers=bearer(token))
        if number == 1:
            assert response.status_code == 200, response.get_data(as_text=True)
    problem = assert_problem(response, 409)
    assert problem["code"] == "MATCH_FULL" and "2 rounds" in problem["detail"]
    indonesian = client.post(
        f"{GAMES}/{game_id}/rounds", headers={**bearer(token), "Accept-Language": "id"}
    )
    assert "2 ronde" in assert_problem(indonesian, 409)["detail"]
    assert view(client, game_id, token)["round"] == 2


def test_master_bots_build_their_bank_a_step_a_request(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without its shipped codes, a master bot's first decisions at a preset's rules would
    build a whole bank (5-7 s for one request); the server's tables pass a step, so such a
    bank is built a step a decision instead."""
    from capsa_fast.susun import table as table_module

    steps: list[int] = []
    choose = table_module.bot_choice

    def spy(hand: Any, rules: Any, players: int, strategy: str, bank_step: int = 0) -> Any:
        steps.append(bank_step)
        return choose(hand, rules, players, strategy, bank_step)

    monkeypatch.setattr(table_module, "bot_choice", spy)
    created = create(client, players=2, bots={"1": "master"})
    seen = view(client, created["id"], created["tokens"]["0"])
    done = arrange(client, created["id"], created["tokens"]["0"], best_rows(seen["hand"]))
    assert done.status_code == 200
    client.post(f"{GAMES}/{created['id']}/rounds", headers=bearer(created["tokens"]["0"]))
    assert steps == [_core.SUSUN_DEEP_SERVER_BANK_STEP] * 2
