"""POST /v1/poker/equity: answers as the package gives them, limits, and 422s that name the
field and the bad token (spec: API.md section 2)."""

from __future__ import annotations

from pathlib import Path

import capsa_fast as cf
import pytest
from flask.testing import FlaskClient

from api import create_app
from tests.api.helpers import assert_problem, field_errors

ROUTE = "/v1/poker/equity"


def post(client: FlaskClient, body: object) -> dict[str, object]:
    response = client.post(ROUTE, json=body)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    return response.get_json()


def test_exact_answer_is_the_package_answer(api_client: FlaskClient) -> None:
    got = post(api_client, {"players": ["AhKh", "QQ+,AKs"], "board": ["Qc", "7d", "2h"]})
    want = cf.poker.equity(["AhKh", "QQ+,AKs"], "Qc 7d 2h")
    assert got["exact"] is True and got["stderr"] == 0 and got["samples"] == 0
    assert got["equity"] == pytest.approx(want.equity)
    assert got["win"] == pytest.approx(want.win)
    assert got["tie"] == pytest.approx(want.tie)
    assert got["combos"] == want.combos
    assert got["method"] == want.method


def test_hands_as_card_lists_and_dead_cards(api_client: FlaskClient) -> None:
    got = post(api_client, {"players": [["As", "Ks"], "TT+"], "dead": ["Ts", "2c"]})
    want = cf.poker.equity(["AsKs", "TT+"], dead="Ts 2c")
    assert got["equity"] == pytest.approx(want.equity)


def test_board_and_dead_as_strings_as_in_python(api_client: FlaskClient) -> None:
    # cf.poker.equity takes board="Qc7d2h" and dead=""; the route takes the same strings.
    listed = post(api_client, {"players": ["AhKh", "QQ"], "board": ["Qc", "7d", "2h"]})
    for board in ("Qc7d2h", "Qc 7d 2h"):
        got = post(api_client, {"players": ["AhKh", "QQ"], "board": board, "dead": ""})
        assert got["equity"] == listed["equity"]
    errors = field_errors(
        api_client.post(ROUTE, json={"players": ["AhKh", "QQ"], "board": "Qc7dZz"})
    )
    assert "Zz" in errors["board"], errors
    errors = field_errors(api_client.post(ROUTE, json={"players": ["AhKh", "QQ"], "dead": "Ah"}))
    assert "Duplicate card Ah" in errors["players/0"], errors


def test_monte_carlo_with_samples_and_seed_is_repeatable(api_client: FlaskClient) -> None:
    players, board = ["AA", "TT+,AK", "random"], ["Kc", "7d", "2h", "5s"]
    body = {"players": players, "board": board, "samples": 20_000, "seed": 7}
    first, second = post(api_client, body), post(api_client, body)
    assert first == second
    assert first["exact"] is False and first["samples"] == 20_000 and first["stderr"] > 0
    exact = cf.poker.equity(players, board, exact=True)
    assert abs(first["equity"][0] - exact.equity[0]) <= 4 * first["stderr"]


def test_too_big_for_exact_becomes_monte_carlo_within_the_time_limit(tmp_path: Path) -> None:
    app = create_app(
        {
            "TESTING": True,
            "GAMES_DB": str(tmp_path / "g.sqlite3"),
            "EQUITY_TIME_LIMIT": 0.2,
            "EQUITY_MAX_EXACT_WORK": 1e6,
        }
    )
    got = post(app.test_client(), {"players": ["random"] * 5, "target_stderr": 0.0001})
    assert got["exact"] is False and got["samples"] > 0
    # Stopped by the time limit (0.2 s) long before the target error.
    assert got["stderr"] > 0.0001


def test_exact_over_the_limit_is_422(tmp_path: Path) -> None:
    app = create_app(
        {"TESTING": True, "GAMES_DB": str(tmp_path / "g.sqlite3"), "EQUITY_MAX_EXACT_WORK": 1e6}
    )
    response = app.test_client().post(ROUTE, json={"players": ["QQ+,AKs", "random"], "exact": True})
    assert "limit" in field_errors(response)["exact"]


def test_exact_that_would_list_too_many_deals_is_422(api_client: FlaskClient) -> None:
    """Three random hands on the river: a billion deals, each cheap, so the work estimate
    alone would allow it; a bounded request lists at most 500,000 deals."""
    body = {"players": ["random"] * 3, "board": ["Kc", "7d", "2h", "5s", "9c"], "exact": True}
    assert "exact enumeration" in field_errors(api_client.post(ROUTE, json=body))["exact"]


def test_samples_over_the_limit_is_422(tmp_path: Path) -> None:
    app = create_app(
        {"TESTING": True, "GAMES_DB": str(tmp_path / "g.sqlite3"), "EQUITY_MAX_SAMPLES": 1000}
    )
    response = app.test_client().post(ROUTE, json={"players": ["AA", "KK"], "samples": 1001})
    assert "1000" in field_errors(response)["samples"]


# Every card but Ah Kh and six more: too few left for QQ's player and a board.
DEAD_44 = [c for c in (r + s for r in "23456789TJQKA" for s in "cdhs") if c not in "AhKh"][:44]


@pytest.mark.parametrize(
    ("body", "field", "needle"),
    [
        ({"players": ["AhKh", "QQ+,AKx"]}, "players/1", "'AKx'"),
        ({"players": ["A5s-K2s", "QQ"]}, "players/0", "'A5s-K2s'"),
        ({"players": ["AhKh", "QQ:1.5"]}, "players/1", "'QQ:1.5'"),
        ({"players": ["AhKh", ["Ah", "2c"]]}, "players/1/0", "Duplicate card Ah"),
        ({"players": ["AhKh", "QQ"], "dead": ["Kh"]}, "players/0", "Duplicate card Kh"),
        ({"players": ["AhKh", "QQ"], "board": ["2c", "3d"]}, "board", "0, 3, 4 or 5"),
        ({"players": ["AhKh", "QQ"], "board": ["2c", "3d", "Zz"]}, "board/2", "Zz"),
        ({"players": ["AhKh", "AhQh"]}, "players/1", "Duplicate card Ah"),
        ({"players": ["AA", "AA", "AA"]}, "players", "never be dealt"),
        ({"players": ["AhKh", "QQ"], "dead": DEAD_44}, "dead", "not enough cards"),
        ({"players": ["AhKh", "QQ"], "board": ["Qc", "Qs", "Qd"]}, "players/1", "no combination"),
    ],
)
def test_bad_input_is_422_naming_the_field(
    api_client: FlaskClient, body: dict[str, object], field: str, needle: str
) -> None:
    errors = field_errors(api_client.post(ROUTE, json=body))
    assert needle in errors[field], errors


def test_a_value_no_member_of_a_union_fits_is_one_error_at_its_path(
    api_client: FlaskClient,
) -> None:
    """A player is a string (a hand or range) or a list of cards: 5 is one bad field,
    named by its path in the body, not one error per kind of value it could have been."""
    problem = assert_problem(api_client.post(ROUTE, json={"players": ["AhKh", 5]}), 422)
    assert [e["field"] for e in problem["errors"]] == ["players/1"]
    message = problem["errors"][0]["message"]
    assert "valid string" in message and "valid array" in message


def test_a_field_with_two_faults_is_one_entry(api_client: FlaskClient) -> None:
    # Both cards of player 1 are player 0's: one entry for players/1 naming both.
    body = {"players": ["AhKh:0.5", "AhKh"]}
    problem = assert_problem(api_client.post(ROUTE, json=body), 422)
    assert [e["field"] for e in problem["errors"]] == ["players/1"]
    assert "Ah" in problem["errors"][0]["message"] and "Kh" in problem["errors"][0]["message"]
    assert problem["detail"] == "1 field is invalid; see 'errors'."


@pytest.mark.parametrize(
    "body",
    [
        {"players": ["AhKh"]},
        {"players": ["AA"] * 11},
        {"players": ["AhKh", 5]},
        {"players": ["AhKh", "QQ"], "samples": 0},
        {"players": ["AhKh", "QQ"], "samples": 1},  # one draw has no standard error
        {"players": ["AhKh", "QQ"], "seed": -1},
        {"players": ["AhKh", "QQ"], "target_stderr": 0.0},
        {"players": ["AhKh", "QQ"], "exact": "yes"},
        {"players": ["AhKh", "QQ"], "threads": 2},
    ],
)
def test_schema_violations_are_422(api_client: FlaskClient, body: dict[str, object]) -> None:
    assert_problem(api_client.post(ROUTE, json=body), 422)


def test_documented_in_openapi(api_client: FlaskClient) -> None:
    document = api_client.get("/openapi.json").get_json()
    operation = document["paths"][ROUTE]["post"]
    example = operation["requestBody"]["content"]["application/json"]["example"]
    assert post(api_client, example)["exact"] is True
    assert "422" in operation["responses"]
