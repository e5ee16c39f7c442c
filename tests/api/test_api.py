"""HTTP API tests through the Flask test client (spec: API.md section 2)."""

from __future__ import annotations

import io
import json
import random
import re
from typing import Any

import capsa_fast
import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import api.server.cards
from api import create_app
from api.web import docs
from api.web import page as web
from tests.api.helpers import all_refs, assert_problem, field_errors, json_bodies, resolve_ref

DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]
POST_ROUTES = ["/v1/evaluate", "/v1/evaluate/batch", "/v1/poker/showdown"]
VALID_BODIES = {
    "/v1/evaluate": {"cards": ["Ah", "Kh", "Qh", "Jh", "Th"]},
    "/v1/evaluate/batch": {"hands": [["Ah", "Kh", "Qh"]]},
    "/v1/poker/showdown": {"board": ["2c", "7d", "9h", "Js", "Ks"], "players": [["Ac", "3d"]] * 2},
}


def evaluate(client: FlaskClient, cards: str | list[str]) -> dict[str, Any]:
    tokens = cards.split() if isinstance(cards, str) else cards
    response = client.post("/v1/evaluate", json={"cards": tokens})
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    return response.get_json()


# --- health -----------------------------------------------------------------------------


def test_health_reports_ok_and_package_version(api_client: FlaskClient) -> None:
    response = api_client.get("/v1/health")
    assert response.status_code == 200
    assert response.get_json() == {
        "status": "ok",
        "version": capsa_fast.__version__,
        "checks": {"session_store": "ok"},
    }


# --- /v1/evaluate -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "category", "label", "best"),
    [
        # 3 cards: no 3-card straights or flushes.
        ("Ah Kh Qh", "high_card", "High card, ace high", "Ah Kh Qh"),
        ("7s 7d 2c", "pair", "Pair of sevens", "7s 7d 2c"),
        ("Ah Ad Ac", "three_of_a_kind", "Three of a kind, aces", "Ah Ad Ac"),
        # 5 cards.
        ("Ah Kh Qh Jh Th", "straight_flush", "Royal flush", "Ah Kh Qh Jh Th"),
        ("9h Th Jh Qh Kh", "straight_flush", "Straight flush, king high", "Kh Qh Jh Th 9h"),
        ("As 2d 3c 4h 5s", "straight", "Straight, five high", "5s 4h 3c 2d As"),
        ("Kc Kd 5h 5s 9c", "two_pair", "Two pair, kings and fives", "Kd Kc 5s 5h 9c"),
        # 6 cards: the best five, the 9 left out.
        ("2c 2d 2h 5s 5d 9c", "full_house", "Full house, twos over fives", "2h 2d 2c 5s 5d"),
        # 7 cards.
        ("9h Th Jh Qh Kh Ah 2c", "straight_flush", "Royal flush", "Ah Kh Qh Jh Th"),
        ("As Ks Qs Js 9s 2d 2c", "flush", "Flush, ace high", "As Ks Qs Js 9s"),
        ("7c 7d 7h 7s 2c 3c 4c", "four_of_a_kind", "Four of a kind, sevens", "7s 7h 7d 7c 4c"),
        # Six-high straight beats the wheel the A-A would otherwise make.
        ("2c 3d 4h 5s 6c Ac Ad", "straight", "Straight, six high", "6c 5s 4h 3d 2c"),
    ],
)
def test_evaluate_hand_picked_hands(
    api_client: FlaskClient, cards: str, category: str, label: str, best: str
) -> None:
    result = evaluate(api_client, cards)
    assert result["category"] == category
    assert result["label"] == label
    assert sorted(result["best"]) == sorted(best.split())
    assert isinstance(result["strength"], int)


def test_wheel_is_the_lowest_straight(api_client: FlaskClient) -> None:
    wheel = evaluate(api_client, "As 2d 3c 4h 5s")
    six_high = evaluate(api_client, "2s 3d 4c 5h 6s")
    assert wheel["category"] == six_high["category"] == "straight"
    assert wheel["strength"] < six_high["strength"]


def test_evaluate_accepts_alternate_spellings_and_answers_canonically(
    api_client: FlaskClient,
) -> None:
    result = evaluate(api_client, ["A♥", "kh", "QH", "J♥", "10h"])
    assert result["label"] == "Royal flush"
    assert sorted(result["best"]) == sorted(["Ah", "Kh", "Qh", "Jh", "Th"])


def test_three_and_five_card_strengths_share_one_scale(api_client: FlaskClient) -> None:
    def strength(cards: str) -> int:
        return int(evaluate(api_client, cards)["strength"])

    # A missing kicker counts lower than any card...
    assert strength("Ah Ad Kc") < strength("Ah Ad Kc 3s 2d")
    # ...but the ranks that are there compare first.
    assert strength("Ah Ad Kc") > strength("Ah Ad Qc Js Td")
    # Category first: 3-card trips beat 5-card two pair, 3-card high card loses to a pair.
    assert strength("2c 2d 2h") > strength("Ah Ad Kc Kd Qs")
    assert strength("Ah Kd Qc") < strength("2c 2d 3h 4s 5c")


# --- /v1/evaluate/batch -----------------------------------------------------------------


def random_hands(count: int, sizes: tuple[int, ...], seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    return [rng.sample(DECK, rng.choice(sizes)) for _ in range(count)]


def test_batch_of_mixed_sizes_agrees_with_single_evaluate(api_client: FlaskClient) -> None:
    hands = random_hands(120, (3, 5, 6, 7), seed=7)
    hands.append(["Ah", "Kh", "Qh", "Jh", "Th"])
    response = api_client.post("/v1/evaluate/batch", json={"hands": hands})
    assert response.status_code == 200
    batch = response.get_json()
    assert len(batch["strengths"]) == len(batch["categories"]) == len(hands)
    for index, hand in enumerate(hands):
        single = evaluate(api_client, hand)
        assert batch["strengths"][index] == single["strength"], hand
        assert batch["categories"][index] == single["category"], hand


def test_batch_converts_rare_spellings_on_the_slow_path(api_client: FlaskClient) -> None:
    # "A♤" (white suit) is a card to capsa_fast but not in the API's table of common spellings.
    hands = [["A♤", "K♤", "Q♤", "J♤", "T♤"], ["2c", "2d", "2h"]]
    response = api_client.post("/v1/evaluate/batch", json={"hands": hands})
    assert response.status_code == 200
    assert response.get_json()["categories"] == ["straight_flush", "three_of_a_kind"]


def test_batch_without_the_spelling_table_gives_the_same_answers(
    api_client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    hands = random_hands(60, (3, 5, 6, 7), seed=11)
    fast = api_client.post("/v1/evaluate/batch", json={"hands": hands}).get_json()
    monkeypatch.setattr(api.server.cards, "card_lookup", dict)  # every token takes the fallback
    slow = api_client.post("/v1/evaluate/batch", json={"hands": hands}).get_json()
    assert slow == fast


def test_batch_of_100000_seven_card_hands_succeeds(api_client: FlaskClient) -> None:
    # The default MAX_CONTENT_LENGTH and MAX_BATCH_HANDS must admit a full-size batch.
    hands = random_hands(100_000, (7,), seed=3)
    response = api_client.post("/v1/evaluate/batch", json={"hands": hands})
    assert response.status_code == 200
    result = response.get_json()
    assert len(result["strengths"]) == 100_000
    for index in (0, 1, 99_999):
        single = capsa_fast.poker.evaluate(hands[index])
        assert result["strengths"][index] == single.strength
        assert result["categories"][index] == single.category


# --- /v1/poker/showdown -----------------------------------------------------------------


def showdown(client: FlaskClient, board: str, *players: str) -> dict[str, Any]:
    body = {"board": board.split(), "players": [p.split() for p in players]}
    response = client.post("/v1/poker/showdown", json=body)
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def test_showdown_split_pot(api_client: FlaskClient) -> None:
    # Both aces play A K J 9 7; the third player only has king high.
    result = showdown(api_client, "2c 7d 9h Js Ks", "Ac 3d", "Ad 4c", "5h 6h")
    assert result["winners"] == [0, 1]
    assert result["shares"] == [0.5, 0.5, 0.0]
    first = result["players"][0]
    assert first["category"] == "high_card"
    assert sorted(first["best"]) == sorted(["Ac", "Ks", "Js", "9h", "7d"])
    assert result["players"][0]["strength"] == result["players"][1]["strength"]
    assert result["players"][2]["strength"] < result["players"][0]["strength"]


def test_showdown_board_plays_for_everyone(api_client: FlaskClient) -> None:
    result = showdown(api_client, "Ah Kh Qh Jh Th", "2c 3c", "2d 3d", "2s 3s")
    assert result["winners"] == [0, 1, 2]
    assert result["shares"] == pytest.approx([1 / 3] * 3)
    assert {p["label"] for p in result["players"]} == {"Royal flush"}


def test_showdown_single_winner(api_client: FlaskClient) -> None:
    result = showdown(api_client, "2c 7d 9h Js Ks", "Kd Kh", "Ac Ad")
    assert result["winners"] == [0]
    assert result["shares"] == [1.0, 0.0]
    assert result["players"][0]["category"] == "three_of_a_kind"


# --- errors: 400 / 413 / 415 ------------------------------------------------------------


@pytest.mark.parametrize("route", POST_ROUTES)
@pytest.mark.parametrize("body", ['{"cards": ["Ah",', "", "not json", "{'cards': []}"])
def test_unreadable_json_is_400(api_client: FlaskClient, route: str, body: str) -> None:
    response = api_client.post(route, data=body, content_type="application/json")
    problem = assert_problem(response, 400)
    assert "JSON" in problem["detail"]


@pytest.mark.parametrize(
    "body", ['{"cards": ["As", "Ks", NaN]}', '{"cards": ["As", "Ks", "Qs"], "x": -Infinity}', "NaN"]
)
def test_nan_and_infinity_are_not_json(api_client: FlaskClient, body: str) -> None:
    """RFC 8259 has no NaN or Infinity: such a body is unreadable (400), not invalid (422)."""
    response = api_client.post("/v1/evaluate", data=body, content_type="application/json")
    assert "not a JSON value" in assert_problem(response, 400)["detail"]
    # The same letters inside a string are a bad card, not bad JSON.
    bad_card = {"cards": ["As", "Ks", "NaN"]}
    assert "'NaN'" in field_errors(api_client.post("/v1/evaluate", json=bad_card))["cards/2"]


def test_a_deeply_nested_body_with_nan_is_a_400(api_client: FlaskClient) -> None:
    """Found by the API fuzzer: a body that holds NaN is parsed a second time, and nesting
    thousands deep overflowed that parser's recursion (a 500)."""
    body = '{"cards": ' + "[" * 5_000 + "NaN" + "]" * 5_000 + "}"  # 10 kB, within the limit
    response = api_client.post("/v1/evaluate", data=body, content_type="application/json")
    assert "nested too deeply" in assert_problem(response, 400)["detail"]


@pytest.mark.parametrize("route", POST_ROUTES)
@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
def test_body_that_is_not_json_is_415(
    api_client: FlaskClient, route: str, content_type: str | None
) -> None:
    body = json.dumps(VALID_BODIES[route])
    response = api_client.post(route, data=body, content_type=content_type)
    problem = assert_problem(response, 415)
    assert "application/json" in problem["detail"]


def test_body_over_the_limit_is_413() -> None:
    client = create_app(
        {"TESTING": True, "MAX_BATCH_BODY_BYTES": 1000, "MAX_BODY_BYTES": 100}
    ).test_client()
    hands = random_hands(100, (5,), seed=1)
    response = client.post("/v1/evaluate/batch", json={"hands": hands})
    problem = assert_problem(response, 413)
    assert "1000" in problem["detail"]
    # Under the limit the same app answers normally.
    assert client.post("/v1/evaluate/batch", json={"hands": hands[:3]}).status_code == 200
    # The other routes have their own, smaller limit.
    body = {"cards": ["As", "Ks", "Qs", "Js", "Ts"], "padding": "x" * 100}
    assert "100 bytes" in assert_problem(client.post("/v1/evaluate", json=body), 413)["detail"]


def test_a_chunked_body_over_the_limit_is_413_not_cut(api_client: FlaskClient) -> None:
    """A body without a length (chunked) is read to its end, not silently cut at the limit."""
    body = json.dumps({"cards": ["As", "Ks", "Qs"], "padding": " " * 70_000}).encode()
    stream = io.BytesIO(body)
    environ = {"wsgi.input_terminated": True}
    response = api_client.post(
        "/v1/evaluate",
        input_stream=stream,
        content_type="application/json",
        environ_overrides=environ,
    )
    assert_problem(response, 413)


def test_default_body_limits(api_app: Flask) -> None:
    assert api_app.config["MAX_BATCH_BODY_BYTES"] == 16 * 1024 * 1024
    assert api_app.config["MAX_BODY_BYTES"] == 64 * 1024


# --- errors: 422 on /v1/evaluate --------------------------------------------------------


def test_bad_card_is_422_naming_the_token(api_client: FlaskClient) -> None:
    response = api_client.post("/v1/evaluate", json={"cards": ["Ah", "Kh", "Qh", "Jh", "Zz"]})
    errors = field_errors(response)
    assert list(errors) == ["cards/4"]
    assert "Zz" in errors["cards/4"]


def test_duplicate_card_is_422_naming_the_card(api_client: FlaskClient) -> None:
    # The same card spelt two ways is still the same card.
    response = api_client.post("/v1/evaluate", json={"cards": ["Ah", "Kh", "Qh", "Jh", "a♥"]})
    errors = field_errors(response)
    assert list(errors) == ["cards/4"]
    assert "Ah" in errors["cards/4"] and "cards/0" in errors["cards/4"]


@pytest.mark.parametrize("count", [0, 1, 2, 4, 8, 52])
def test_wrong_card_count_is_422_naming_the_count(api_client: FlaskClient, count: int) -> None:
    response = api_client.post("/v1/evaluate", json={"cards": DECK[:count]})
    errors = field_errors(response)
    assert list(errors) == ["cards"]
    assert f"got {count}" in errors["cards"]


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        (
            {"cards": [1.5, True, None, {}, []]},
            ["cards/0", "cards/1", "cards/2", "cards/3", "cards/4"],
        ),
        ({"cards": "Ah Kh Qh Jh Th"}, ["cards"]),
        ({"cards": 5}, ["cards"]),
        ({"cards": ["Ah", "Kh", None]}, ["cards/2"]),
        ({"cards": ["Ah", "Kh", "Qh", "Jh", "Th"], "extra": 1}, ["extra"]),
        ({}, ["cards"]),
        ([["Ah", "Kh", "Qh"]], [""]),
    ],
    ids=["not-cards", "string", "number", "null", "unknown-field", "missing", "not-an-object"],
)
def test_wrong_types_and_fields_are_422_one_entry_per_field(
    api_client: FlaskClient, body: Any, fields: list[str]
) -> None:
    errors = field_errors(api_client.post("/v1/evaluate", json=body))
    assert sorted(errors) == sorted(fields)


def test_unknown_field_message_says_so(api_client: FlaskClient) -> None:
    body = {"cards": ["Ah", "Kh", "Qh"], "card": ["2c"]}
    assert "Unknown field" in field_errors(api_client.post("/v1/evaluate", json=body))["card"]


# --- errors: 422 on /v1/evaluate/batch --------------------------------------------------


def test_empty_batch_is_422(api_client: FlaskClient) -> None:
    assert list(field_errors(api_client.post("/v1/evaluate/batch", json={"hands": []}))) == [
        "hands"
    ]


def test_too_many_hands_is_422_with_configurable_limit() -> None:
    client = create_app({"TESTING": True, "MAX_BATCH_HANDS": 10}).test_client()
    hands = random_hands(11, (5,), seed=2)
    errors = field_errors(client.post("/v1/evaluate/batch", json={"hands": hands}))
    assert list(errors) == ["hands"]
    assert "10" in errors["hands"] and "11" in errors["hands"]
    assert client.post("/v1/evaluate/batch", json={"hands": hands[:10]}).status_code == 200


def test_default_limit_refuses_100001_hands(api_client: FlaskClient) -> None:
    hands = [["2c", "3d", "4h"]] * 100_001
    errors = field_errors(api_client.post("/v1/evaluate/batch", json={"hands": hands}))
    assert list(errors) == ["hands"]
    assert "100000" in errors["hands"] and "100001" in errors["hands"]


def test_batch_errors_name_each_bad_hand_and_card(api_client: FlaskClient) -> None:
    hands = random_hands(20, (5, 7), seed=5)
    hands[3] = ["2c", "3c", "4c", "5c"]  # 4 cards: no such hand size
    hands[7] = ["2c", "3c", "4c", "5c", "2c"]  # duplicate
    hands[12] = ["2c", "3c", "4c", "Xx", "6c", "7c", "8c"]  # bad token
    hands[15] = ["2c", "3c", 4.5, "5c", "6c"]  # wrong type
    errors = field_errors(api_client.post("/v1/evaluate/batch", json={"hands": hands}))
    # Type errors come from schema validation and are reported on their own first.
    assert list(errors) == ["hands/15/2"]

    hands[15] = ["2c", "3c", "4c", "5c", "6c"]
    errors = field_errors(api_client.post("/v1/evaluate/batch", json={"hands": hands}))
    assert sorted(errors) == ["hands/12/3", "hands/3", "hands/7/4"]
    assert "got 4" in errors["hands/3"]
    assert "2c" in errors["hands/7/4"] and "hands/7/0" in errors["hands/7/4"]
    assert "Xx" in errors["hands/12/3"]


def test_batch_takes_integer_ids_and_refuses_bad_ones(api_client: FlaskClient) -> None:
    hands = [[51, 47, 43, 39, 35], ["As", 47, "Qs", 39, "10s"], [0, 1, 2]]
    answer = api_client.post("/v1/evaluate/batch", json={"hands": hands}).get_json()
    assert answer["categories"] == ["straight_flush", "straight_flush", "three_of_a_kind"]
    assert answer["strengths"][0] == answer["strengths"][1]
    errors = field_errors(
        api_client.post("/v1/evaluate/batch", json={"hands": [[52, 0, 1], [-1, 5, 9], [1, 1, 2]]})
    )
    assert "not a card id: 52" in errors["hands/0/0"]
    assert "not a card id: -1" in errors["hands/1/0"]
    assert "Duplicate card 2d (also at hands/2/0)" in errors["hands/2/1"]
    for bad, got in ((True, "true"), (None, "null"), (1.5, "1.5"), ({}, "an object")):
        errors = field_errors(api_client.post("/v1/evaluate/batch", json={"hands": [[bad, 0, 1]]}))
        assert errors["hands/0/0"].endswith(f"got {got}.")


@pytest.mark.parametrize(
    "body",
    [b"", b"{", b'{"hands": [["As", "Ks", "Qs"]', b'{"hands": [["As",]]}', b"[1] 2", b"\xff"],
)
def test_a_batch_that_is_not_json_is_400(api_client: FlaskClient, body: bytes) -> None:
    response = api_client.post("/v1/evaluate/batch", data=body, content_type="application/json")
    assert "not valid JSON" in assert_problem(response, 400)["detail"]


def test_batch_shape_errors_name_their_fields(api_client: FlaskClient) -> None:
    cases = [
        ([["As", "Ks", "Qs"]], {"": "object"}),
        ({}, {"hands": "required"}),
        ({"hands": "As Ks Qs"}, {"hands": "list"}),
        ({"hands": [["As", "Ks", "Qs"]], "x/y": 1}, {"x~1y": "Unknown field"}),
        ({"hands": [["As", "Ks", "Qs"], "Jd"]}, {"hands/1": "list"}),
    ]
    for body, expected in cases:
        errors = field_errors(api_client.post("/v1/evaluate/batch", json=body))
        assert set(errors) == set(expected), body
        for field, needle in expected.items():
            assert needle in errors[field]


def test_ids_are_cards_on_every_route(api_client: FlaskClient) -> None:
    """API.md: cards in any request may be strings or integer ids 0..51."""
    by_name = api_client.post("/v1/evaluate", json={"cards": ["As", "Ks", "Qs"]}).get_json()
    by_id = api_client.post("/v1/evaluate", json={"cards": [51, 47, 43]}).get_json()
    assert by_id == by_name
    errors = field_errors(api_client.post("/v1/evaluate", json={"cards": [51, 47, 52]}))
    assert "not a card id: 52" in errors["cards/2"]
    errors = field_errors(api_client.post("/v1/evaluate", json={"cards": [51, "As", 47]}))
    assert "Duplicate card As" in errors["cards/1"]
    classify = api_client.post("/v1/banting/classify", json={"cards": [27, 26]}).get_json()
    assert classify["combo"]["kind"] == "pair"


def test_batch_error_list_is_capped(api_client: FlaskClient) -> None:
    hands = [["2c", "3c", "Zz"]] * 500
    problem = assert_problem(api_client.post("/v1/evaluate/batch", json={"hands": hands}), 422)
    assert len(problem["errors"]) == 50
    assert [e["field"] for e in problem["errors"][:2]] == ["hands/0/2", "hands/1/2"]
    assert "first 50" in problem["detail"]


# --- errors: 422 on /v1/poker/showdown --------------------------------------------------


@pytest.mark.parametrize(
    ("board", "players", "field", "needle"),
    [
        ("2c 7d 9h Js", ["Ac 3d", "Ad 4c"], "board", "got 4"),
        ("2c 7d 9h Js Ks", ["Ac 3d 4d", "Ad 4c"], "players/0", "got 3"),
        ("2c 7d 9h Js Ks", ["Ac 3d", "Ad Ks"], "players/1/1", "board/4"),
        ("2c 7d 9h Js Ks", ["Ac 3d", "Ac 4c"], "players/1/0", "players/0/0"),
        ("2c 7d 9h Js Ks", ["Ac 3d", "Ad Q"], "players/1/1", "'Q'"),
        ("2c 7d 9h Js Ks", ["Ac 3d"], "players", "2"),
    ],
    ids=[
        "short-board",
        "three-hole-cards",
        "dup-with-board",
        "dup-between-players",
        "bad",
        "alone",
    ],
)
def test_showdown_errors_name_the_field(
    api_client: FlaskClient, board: str, players: list[str], field: str, needle: str
) -> None:
    body = {"board": board.split(), "players": [p.split() for p in players]}
    errors = field_errors(api_client.post("/v1/poker/showdown", json=body))
    assert list(errors) == [field]
    assert needle in errors[field]


def test_showdown_refuses_24_players(api_client: FlaskClient) -> None:
    players = [["2c", "2d"]] * 24  # the count is checked before the cards
    body = {"board": ["As", "Ks", "Qs", "Js", "Ts"], "players": players}
    assert list(field_errors(api_client.post("/v1/poker/showdown", json=body))) == ["players"]


def test_showdown_with_23_players_uses_51_cards(api_client: FlaskClient) -> None:
    board, rest = DECK[:5], DECK[5:51]
    players = [rest[i : i + 2] for i in range(0, 46, 2)]
    response = api_client.post("/v1/poker/showdown", json={"board": board, "players": players})
    assert response.status_code == 200
    assert len(response.get_json()["players"]) == 23


# --- errors: 404 / 405 / 500 ------------------------------------------------------------


def test_unknown_route_is_404_problem(api_client: FlaskClient) -> None:
    problem = assert_problem(api_client.get("/v1/no-such-route"), 404)
    assert "/v1/no-such-route" in problem["detail"]


def test_wrong_method_is_405_problem(api_client: FlaskClient) -> None:
    response = api_client.get("/v1/evaluate")
    assert_problem(response, 405)
    assert "POST" in response.headers["Allow"]
    assert_problem(api_client.post("/v1/health", json={}), 405)


def test_a_websocket_request_is_400_naming_the_problem(api_client: FlaskClient) -> None:
    upgrade = {"Connection": "Upgrade", "Upgrade": "websocket"}
    problem = assert_problem(api_client.get("/v1/health", headers=upgrade), 400)
    assert problem["detail"].startswith("This server serves no WebSocket")


def test_unexpected_exception_is_500_problem_without_traceback(
    api_app: Flask, caplog: pytest.LogCaptureFixture
) -> None:
    def explode() -> str:
        raise RuntimeError("secret internals")

    api_app.add_url_rule("/explode", view_func=explode)
    response = api_app.test_client().get("/explode")
    problem = assert_problem(response, 500)
    text = response.get_data(as_text=True)
    assert "secret" not in text and "Traceback" not in text
    assert problem["title"] == "Internal Server Error"
    assert "secret internals" in caplog.text  # operators still get the traceback in the log


json_values = json_bodies(["cards", "hands", "board", "players"], ["As", "Zz", "10h"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(route=st.sampled_from(POST_ROUTES), body=json_values)
def test_arbitrary_json_never_gives_a_500(route: str, body: Any) -> None:
    client = create_app({"TESTING": True}).test_client()
    response = client.post(route, data=json.dumps(body), content_type="application/json")
    if response.status_code != 200:
        assert_problem(response, 422)


# --- /openapi.json ----------------------------------------------------------------------


def test_openapi_lists_every_route_with_schemas(api_app: Flask, api_client: FlaskClient) -> None:
    response = api_client.get("/openapi.json")
    assert response.status_code == 200
    document = response.get_json()
    assert document["openapi"].startswith("3.1")
    assert document["info"]["version"] == capsa_fast.__version__

    # Every route but the web page's and the docs page's (HTML and their files, api.web.page and
    # api.web.docs) is an API route.
    pages = (f"{web.bp.name}.", f"{docs.bp.name}.")
    routes = {
        (re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule), method.lower())
        for rule in api_app.url_map.iter_rules()
        for method in rule.methods or ()
        if method not in {"HEAD", "OPTIONS"} and not rule.endpoint.startswith(pages)
    }
    documented = {(path, method) for path, ops in document["paths"].items() for method in ops}
    assert routes == documented
    assert "/" not in document["paths"]
    assert not any(path.startswith(("/static/", "/docs")) for path in document["paths"])
    assert ("/v1/evaluate/batch", "post") in documented

    for path, method in documented:
        operation = document["paths"][path][method]
        success = "201" if "201" in operation["responses"] else "200"
        ok = operation["responses"][success]["content"]["application/json"]["schema"]
        assert ok, path
        assert "default" in operation["responses"]
        if method == "post":
            schema = operation["requestBody"]["content"]["application/json"]["schema"]
            assert resolve_ref(document, schema["$ref"])["additionalProperties"] is False
            for status in ("400", "413", "415", "422"):
                problem = resolve_ref(document, operation["responses"][status]["$ref"])
                assert "application/problem+json" in problem["content"], (path, status)


def test_openapi_refs_all_resolve(api_client: FlaskClient) -> None:
    document = api_client.get("/openapi.json").get_json()
    refs = list(all_refs(document))
    assert refs
    for ref in refs:
        resolve_ref(document, ref)  # raises KeyError if dangling
    assert "$defs" not in json.dumps(document)


def test_openapi_schemas_come_from_the_models(api_client: FlaskClient) -> None:
    document = api_client.get("/openapi.json").get_json()
    schemas = document["components"]["schemas"]
    assert schemas["BatchEvaluateRequest"]["properties"]["hands"]["minItems"] == 1
    categories = schemas["BatchEvaluateResponse"]["properties"]["categories"]["items"]["$ref"]
    assert resolve_ref(document, categories)["enum"] == list(capsa_fast.poker.CATEGORIES)
    problem = schemas["Problem"]
    assert {"type", "title", "status", "detail", "errors"} <= set(problem["properties"])
