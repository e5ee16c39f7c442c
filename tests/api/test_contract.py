"""Contract tests: schemathesis drives every route of the app's own /openapi.json.

For each operation it generates requests that fit the document (positive) and requests that
break it (negative: wrong types, missing fields, out-of-range values, bad media types, no
auth), sends them to the app in process, and checks each answer: never a 5xx, a status the
document lists, the documented content type and headers, a body valid against the documented
schema, and every schema-invalid request refused with a 4xx.

One check is left out: "positive data acceptance" (every schema-valid request must succeed).
The document cannot say everything the engine checks, so schema-valid requests can still be
refused with a 422 that names the field: repeated cards (across fields too), rule settings
that contradict each other, a game whose every seat is a bot. The schemas state all they
can (card pattern, counts, ranges), and the test_api*.py files of tests/ cover those 422s
one by one.

The routes of one game get a real game id and its seat's token for most generated ids (the
others stay random and must be 404 or 401), so moves and next rounds reach the game logic.

CAPSA_FAST_CONTRACT_EXAMPLES sets the examples per operation (default 60; each phase of
schemathesis adds its own explicit and boundary cases on top).
"""

from __future__ import annotations

import os
import tempfile
import zlib
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from api import create_app

MAX_EXAMPLES = int(os.environ.get("CAPSA_FAST_CONTRACT_EXAMPLES", "60"))
GAME_ROUTES = ("/v1/banting/games/{game_id}", "/v1/susun/games/{game_id}")


# schemathesis reads the document when the module is collected, so the app is built then
# (schemathesis.pytest.from_fixture does not work with this pytest); its folder is removed
# when the interpreter exits.
_FOLDER = tempfile.TemporaryDirectory(prefix="capsa-contract-")
APP = create_app({"GAMES_DB": str(Path(_FOLDER.name) / "games.sqlite3"), "ACCESS_LOG": False})
# A schema-invalid request counts as refused with any of schemathesis's default statuses or
# 413: the app refuses a body over its limit (64 KiB) before it reads the fields, and a
# generated negative body (a long string in an array) can be that large.
REFUSALS = [
    "400",
    "401",
    "403",
    "404",
    "405",
    "406",
    "409",
    "413",
    "415",
    "422",
    "428",
    "429",
    "5xx",
]
CONFIG = SchemathesisConfig.from_dict(
    {"checks": {"negative_data_rejection": {"expected-statuses": REFUSALS}}}
)
schema = schemathesis.openapi.from_wsgi("/openapi.json", APP, config=CONFIG)


def _new_seat(route: str, bots: dict[str, str]) -> dict[str, str]:
    """A game with one human seat (0) and three bots: its id and the seat's token."""
    response = APP.test_client().post(route, json={"bots": bots})
    assert response.status_code == 201, response.get_data(as_text=True)
    created = response.get_json()
    return {"id": created["id"], "token": created["tokens"]["0"]}


# The real seat of each game's sessions, by the prefix of their routes.
SEATS = {
    "/v1/banting/games": _new_seat(
        "/v1/banting/games", {"1": "random", "2": "random", "3": "random"}
    ),
    "/v1/susun/games": _new_seat("/v1/susun/games", {"1": "beginner", "2": "expert"}),
}


def _seat_for(case: Any) -> dict[str, str]:
    """The seat of the game whose routes ``case`` is about (schemathesis asks for a token on
    every operation; routes outside the sessions ignore it)."""
    found = [seat for prefix, seat in SEATS.items() if case.path.startswith(prefix)]
    return found[0] if found else SEATS["/v1/banting/games"]


@schema.auth()
class SeatToken:
    """The real seat's token wherever the document asks for bearer auth; schemathesis also
    sends requests without it or with a wrong one, and checks that those are refused."""

    def get(self, case: Any, context: Any) -> str:
        return _seat_for(case)["token"]

    def set(self, case: Any, data: str, context: Any) -> None:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}


def _use_real_game(case: Any) -> None:
    """Point three in four generated game ids (chosen by a hash of the id, so a failing
    example replays the same way) at the real game."""
    generated = str((case.path_parameters or {}).get("game_id", ""))
    if zlib.crc32(generated.encode("utf-8", "surrogatepass")) % 4:
        case.path_parameters = {**(case.path_parameters or {}), "game_id": _seat_for(case)["id"]}


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
def test_every_route_keeps_its_contract(case: Any) -> None:
    if case.path.startswith(GAME_ROUTES):
        _use_real_game(case)
    case.call_and_validate(excluded_checks=[schemathesis.checks.positive_data_acceptance])


def test_every_documented_example_is_accepted() -> None:
    """The request examples in the document (which schemathesis sends first) work as shown."""
    client = APP.test_client()
    document = client.get("/openapi.json").get_json()
    tried = 0
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            media = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if media is None or "{game_id}" in path:
                continue  # the game routes' examples need a game: test_api_games plays them
            response = client.open(path, method=method.upper(), json=media["example"])
            assert response.status_code in (200, 201), (path, response.get_data(as_text=True))
            tried += 1
    assert tried >= 12
