"""Contract tests: schemathesis drives every route of the app's own /openapi.json.

For each operation it generates requests that fit the document (positive) and requests that
break it (negative: wrong types, missing fields, out-of-range values, bad media types, no
auth), sends them to the app in process, and checks each answer: never a 5xx, a status the
document lists, the documented content type and headers, a body valid against the documented
schema, and every schema-invalid request refused with a 4xx.

One of schemathesis's checks is replaced: "positive data acceptance" (every schema-valid
request must succeed). The document cannot state every rule the server checks (a card twice
across fields, rule settings that contradict each other, whose turn it is), so a schema-valid
request can still be refused; each such refusal must be one of the checks the docs page
lists under "Checks the server adds beyond the schema" (SERVER_CHECKS mirrors that list, and
a test holds the two together). The test_api*.py files of tests/ cover those refusals one by
one.

The routes of one game get a real game id and its seat's token for most generated ids (the
others stay random and must be 404 or 401), so moves and next rounds reach the game logic.

Then schemathesis's stateful phase plays scenarios of several calls: it creates games and
follows the document's links (api.server.openapi_links) from a create response to the routes
of that game and from a game's view to its changes, the id (and the view's ETag) taken from
the answers, and a seat's token from the create response (tokens are bearer auth, not
parameters, so the auth hook below sends them, as a client would).

CAPSA_FAST_CONTRACT_EXAMPLES sets the examples per operation (default 60; each phase of
schemathesis adds its own explicit and boundary cases on top), and
CAPSA_FAST_CONTRACT_SCENARIOS the stateful phase's scenarios (default 100, of up to 8 calls).
"""

from __future__ import annotations

import os
import re
import tempfile
import zlib
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import schemathesis
from capsa_fast import banting, susun
from hypothesis import HealthCheck, Phase, settings
from schemathesis import GenerationMode
from schemathesis.config import SchemathesisConfig
from schemathesis.core.failures import FailureGroup

from api import create_app
from api.server.openapi_links import add_links

MAX_EXAMPLES = int(os.environ.get("CAPSA_FAST_CONTRACT_EXAMPLES", "60"))
# The stateful phase: this many scenarios of up to STEPS calls each.
SCENARIOS = int(os.environ.get("CAPSA_FAST_CONTRACT_SCENARIOS", "100"))
STEPS = 8
GAME_ROUTES = ("/v1/banting/games/{game_id}", "/v1/susun/games/{game_id}")
CREATES = ("/v1/banting/games", "/v1/susun/games")
DOCS_PAGE = Path(__file__).resolve().parents[2] / "docs" / "http-api.md"
DOCS_SECTION = "## Checks the server adds beyond the schema"


# schemathesis reads the document when the module is collected, so the app is built then
# (schemathesis.pytest.from_fixture does not work with this pytest); its folder is removed
# when the interpreter exits.
_FOLDER = tempfile.TemporaryDirectory(prefix="capsa-contract-")
APP = create_app({"GAMES_DB": str(Path(_FOLDER.name) / "games.sqlite3"), "ACCESS_LOG": False})
# A schema-invalid request counts as refused with any of schemathesis's default statuses,
# 412 or 413: a change whose If-Match names no current view is refused before its body is
# used (a generated negative body can hold a null the models read as absent), and the app
# refuses a body over its limit (64 KiB) before it reads the fields, which a generated
# negative body (a long string in an array) can pass.
REFUSALS = [
    "400",
    "401",
    "403",
    "404",
    "405",
    "406",
    "409",
    "412",
    "413",
    "415",
    "422",
    "428",
    "429",
    "5xx",
]
# The stateful phase follows the document's own links only: schemathesis's inference would
# add links from a Banting create to the Susun routes (both take a game_id).
CONFIG = SchemathesisConfig.from_dict(
    {
        "checks": {"negative_data_rejection": {"expected-statuses": REFUSALS}},
        "phases": {"stateful": {"inference": {"algorithms": []}}},
    }
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
# A seat's token by game id: the games above, and each game the stateful phase creates.
TOKENS = {seat["id"]: seat["token"] for seat in SEATS.values()}


def _seat_for(case: Any) -> dict[str, str]:
    """The seat of the game whose routes ``case`` is about (schemathesis asks for a token on
    every operation; routes outside the sessions ignore it)."""
    found = [seat for prefix, seat in SEATS.items() if case.path.startswith(prefix)]
    return found[0] if found else SEATS["/v1/banting/games"]


# refresh_interval=None: no caching, as the token depends on the game of each request.
@schema.auth(refresh_interval=None)
class SeatToken:
    """A real seat's token wherever the document asks for bearer auth (the token of the
    game in the path when it is one the test created, as a client that read the create
    response's 'tokens' would send); schemathesis also sends requests without it or with a
    wrong one, and checks that those are refused."""

    def get(self, case: Any, context: Any) -> str:
        game_id = (case.path_parameters or {}).get("game_id")
        if isinstance(game_id, str) and game_id in TOKENS:
            return TOKENS[game_id]
        return _seat_for(case)["token"]

    def set(self, case: Any, data: str, context: Any) -> None:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}


def _use_real_game(case: Any) -> None:
    """Point three in four generated game ids (chosen by a hash of the id, so a failing
    example replays the same way) at the real game."""
    generated = str((case.path_parameters or {}).get("game_id", ""))
    if zlib.crc32(generated.encode("utf-8", "surrogatepass")) % 4:
        case.path_parameters = {**(case.path_parameters or {}), "game_id": _seat_for(case)["id"]}


# --- the checks the server adds ---------------------------------------------------------------

_BANTING_MOVE_CODES = ("NOT_YOUR_TURN", "ROUND_OVER", *banting.CODES)
# Every refusal of a schema-valid request, by the label of its entry in the docs page's list
# (DOCS_SECTION, in bold): the statuses and a pattern of the problem's signature, which is its
# code where it has one, "<field>: <message>" for each entry of a 422, else its detail.
SERVER_CHECKS: dict[str, tuple[tuple[int, ...], str]] = {
    "A card twice": ((422,), r": Duplicate card |: \S+ is both on the table and in the hand"),
    "Card counts from a set": ((422,), r": Expected \d+(, \d+)* or \d+ cards, got \d+\.$"),
    "Cards and ranges written as text": (
        (422,),
        r": (not a card: |not a range token: |the range is empty$)",
    ),
    "Equity deals": ((422,), r": (samples asks for Monte Carlo; .* exact|not enough cards left)"),
    "Card ids in a batch": ((422,), r"^hands/\d+/\d+: Expected a card: .*, got -?\d+\.0\.$"),
    "Combos": (
        (422,),
        r"^(a|b): .*(is not a combo|cannot be compared)|^table: The table must be a combo"
        r"|^twos_demoted: The 2s are only demoted under the two_demotion setting",
    ),
    "Rule settings that must agree": (
        (422,),
        r"^rules(/\w+)?: (straight_order .* does not match straights"
        r"|straights: (a run is listed twice|unknown order 'custom')"
        r"|suit_order must be the four suits"
        r"|scoring: thresholds must be strictly increasing"
        r"|bomb_ends: true needs ending: last-standing"
        r"|super_min_players \(legacy\) means super_players)",
    ),
    "Scores": ((422,), r"^cards_left: cards_left: exactly one player has 0 cards"),
    "Limits the server sets": (
        (422,),
        r"^(samples: At most \d+ samples|hands: At most \d+ hands|exact: exact enumeration)",
    ),
    "Seats and round codes": (
        (422,),
        r"^bots/[^:]*: '.*' is not a seat of this game|^bots: At least one seat must be human"
        r"|^code: |^players: The code deals",
    ),
    "Codes the server picks": ((403,), r"^CODE_NOT_ALLOWED$"),
    "Unknown game, other seat": (
        (403, 404),
        r"^There is no game with this id\.$|^This token belongs to no seat of this game\.$",
    ),
    "Versions": ((409, 412), r"^(VERSION_MISMATCH|CONFLICT)$"),
    "A Banting move out of turn or against the rules": (
        (409,),
        rf"^({'|'.join(_BANTING_MOVE_CODES)})$",
    ),
    "A Banting card exchange": ((409, 422), r"^(EXCHANGE_CLOSED|NOT_IN_HAND)$"),
    "Rounds": ((409,), r"^(ROUND_NOT_OVER|MATCH_FULL)$"),
    "A Susun arrangement": (
        (409, 422),
        rf"^({'|'.join(susun.TABLE_CODES)})$|^\w+: (The rows must hold exactly this seat's 13 "
        r"cards|This table allows no corrections)",
    ),
    "Tables for several people": (
        (403, 404, 409, 422),
        r"^(SEAT_TAKEN|NOT_STARTED|SEATS_OPEN|ALREADY_STARTED|NOT_HOST)$"
        r"|^This invitation is for no seat of this game\.$"
        r"|^(open|tokens): Choose one of invite, open and tokens|^fill: Unknown bot level",
    ),
}


def _signatures(status: int, problem: dict[str, Any]) -> list[str]:
    if problem.get("code"):
        return [problem["code"]]
    if status == 422:
        return [f"{entry['field']}: {entry['message']}" for entry in problem.get("errors", [])]
    return [str(problem.get("detail", ""))]


def undocumented_refusals(case: Any, response: Any) -> list[str]:
    """What no entry of SERVER_CHECKS names in a 4xx answer to a schema-valid request
    (schemathesis's positive mode); [] for any other answer."""
    meta = case.meta
    status = response.status_code
    if meta is None or meta.generation.mode != GenerationMode.POSITIVE or not 400 <= status < 500:
        return []
    try:
        problem = response.json()
    except ValueError:
        return [f"{case.method} {case.path}: {status} {response.text[:200]}"]
    patterns = [pattern for statuses, pattern in SERVER_CHECKS.values() if status in statuses]
    return [
        f"{case.method} {case.path}: {status} {signature}"[:300]
        for signature in _signatures(status, problem)
        if not any(re.search(pattern, signature) for pattern in patterns)
    ]


def _docs_section() -> str:
    text = DOCS_PAGE.read_text(encoding="utf-8")
    start = text.index(DOCS_SECTION + "\n")
    end = text.find("\n## ", start + len(DOCS_SECTION))
    return text[start : None if end < 0 else end]


def test_the_docs_list_every_check_the_test_knows() -> None:
    """The docs page's list of checks and SERVER_CHECKS name the same checks, and the page
    names every code the checks answer with."""
    section = _docs_section()
    assert re.findall(r"^- \*\*(.+?)\*\*:", section, re.MULTILINE) == list(SERVER_CHECKS)
    for label, (statuses, pattern) in SERVER_CHECKS.items():
        entry = section[section.index(f"**{label}**") :].split("\n- ", 1)[0]
        for status in statuses:
            assert str(status) in entry, (label, status)
        for code in re.findall(r"\b[A-Z][A-Z_]{3,}\b", pattern):
            assert f"`{code}`" in entry, (label, code)


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
def test_every_route_keeps_its_contract(case: Any) -> None:
    if case.path.startswith(GAME_ROUTES):
        _use_real_game(case)
    response = case.call()
    # positive_data_acceptance wants every schema-valid request to succeed; the server adds
    # checks the document cannot state, so each refusal must be one the docs page lists.
    case.validate_response(response, excluded_checks=[schemathesis.checks.positive_data_acceptance])
    assert not undocumented_refusals(case, response), undocumented_refusals(case, response)


# --- the stateful phase -----------------------------------------------------------------------

# Calls of the stateful phase: operation -> status -> count; and those to a game the phase
# created itself (so its id came from a create response, through a link).
CALLS: dict[str, Counter[int]] = defaultdict(Counter)
CREATED_CALLS: dict[str, Counter[int]] = defaultdict(Counter)
CREATED: set[str] = set()
# schemathesis's failed checks in the stateful phase, kept rather than raised: the app's
# state lives on between scenarios, so Hypothesis could not replay a failing one.
FAILURES: list[str] = []
# Refusals of schema-valid requests that no entry of SERVER_CHECKS names.
UNDOCUMENTED: Counter[str] = Counter()


class GameWorkflow(schema.as_state_machine()):  # type: ignore[misc]
    """schemathesis's state machine over the document's links, which keeps the token of
    each game it creates (as a client reads 'tokens'), counts its calls and keeps the
    failures of schemathesis's checks."""

    def after_call(self, response: Any, case: Any) -> None:
        super().after_call(response, case)
        label = f"{case.method} {case.path}"
        CALLS[label][response.status_code] += 1
        game_id = (case.path_parameters or {}).get("game_id")
        if game_id in CREATED:
            CREATED_CALLS[label][response.status_code] += 1
        if case.path in CREATES and response.status_code == 201:
            created = response.json()
            seat = str(created["humans"][0])
            TOKENS[created["id"]] = created["tokens"][seat]
            CREATED.add(created["id"])

    def validate_response(
        self, response: Any, case: Any, additional_checks: Any = None, **kwargs: Any
    ) -> None:
        try:
            case.validate_response(
                response,
                excluded_checks=[schemathesis.checks.positive_data_acceptance],
                additional_checks=additional_checks,
                transport_kwargs=kwargs or None,
                recorder=self.recorder,
            )
        except FailureGroup as failures:
            FAILURES.append(str(failures))
        UNDOCUMENTED.update(undocumented_refusals(case, response))


def test_stateful_phase_follows_the_links_into_games() -> None:
    """schemathesis's stateful phase creates games and follows the links to every route of
    a game, with the created game's id and a seat's token: each route that takes the token
    answers past the seat checks (not 401, 403 or 404) for a game the phase created, each
    view with a 200; no answer is a 5xx, none fails a check, and every refusal of a
    schema-valid request is a documented check."""
    GameWorkflow.run(
        settings=settings(
            max_examples=SCENARIOS,
            stateful_step_count=STEPS,
            deadline=None,
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
    )
    report = "\n".join(f"{op}: {dict(statuses)}" for op, statuses in sorted(CALLS.items()))
    for create in CREATES:
        assert CALLS[f"POST {create}"][201], report
    for label, operation in _game_operations().items():
        if not operation.get("security"):
            continue  # a route that takes no seat token has no seat checks to get past
        reached = CREATED_CALLS[label]
        assert sum(n for status, n in reached.items() if status not in (401, 403, 404)), (
            label,
            report,
        )
        if label.startswith("GET "):
            assert reached[200], (label, report)
    assert not any(status >= 500 for statuses in CALLS.values() for status in statuses), report
    assert not FAILURES, "\n\n".join(FAILURES[:5])
    assert not UNDOCUMENTED, UNDOCUMENTED.most_common(20)


# --- the links ----------------------------------------------------------------------------------


def _document() -> dict[str, Any]:
    document: dict[str, Any] = APP.test_client().get("/openapi.json").get_json()
    return document


def _game_operations() -> dict[str, dict[str, Any]]:
    """Every operation on one game, by "METHOD path"."""
    return {
        f"{method.upper()} {path}": operation
        for path, operations in _document()["paths"].items()
        if path.startswith(GAME_ROUTES)
        for method, operation in operations.items()
    }


def test_every_game_route_is_linked_from_its_create() -> None:
    """Each create's 201 links to every route of its game, the id from the response's 'id'
    and the token said in the link's description; each view links to every route of the
    same game, with its ETag as the If-Match of the routes that read one."""
    document = _document()
    by_id = {
        operation["operationId"]: (path, method, operation)
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
    }
    linked: set[str] = set()
    for create in CREATES:
        links = document["paths"][create]["post"]["responses"]["201"]["links"]
        routes = {
            operation["operationId"]
            for path, operations in document["paths"].items()
            if path.startswith(create + "/{game_id}")
            for method, operation in operations.items()
            # joining takes an invitation from the create's body, which no link carries
            if method == "get" or operation.get("security")
        }
        assert set(links) == routes and len(routes) >= 3, (create, sorted(links))
        assert not any(key.endswith("_join_table") for key in links)
        for link in links.values():
            assert link["operationId"] in by_id
            path, method, target = by_id[link["operationId"]]
            assert path.startswith(create + "/")
            assert link["parameters"] == {"path.game_id": "$response.body#/id"}
            says_token = "'tokens'" in link["description"]
            assert says_token == (target.get("security") == [{"bearerAuth": []}]), path
            assert not says_token or "'Authorization: Bearer <token>'" in link["description"]
            linked.add(f"{method.upper()} {path}")
        view = document["paths"][create + "/{game_id}"]["get"]["responses"]["200"]
        assert "ETag" in view["headers"]
        for link in view["links"].values():
            path, method, target = by_id[link["operationId"]]
            reads_if_match = any(p["name"] == "If-Match" for p in target.get("parameters", []))
            expected = {"path.game_id": "$request.path.game_id"}
            if reads_if_match:
                expected["header.If-Match"] = "$response.header.ETag"
            assert link["parameters"] == expected, (path, method)
    joins = {f"POST {create}/{{game_id}}/seats" for create in CREATES}
    assert linked == set(_game_operations()) - joins
    assert {
        "POST /v1/banting/games/{game_id}/moves",
        "POST /v1/susun/games/{game_id}/arrangement",
    } <= linked


def test_a_new_resource_gets_its_links() -> None:
    """Links come from the paths alone: a collection added later (a table, say) with a
    create and routes under its id is linked like the games, and nothing else is: not a
    route under its id that takes no token (a join, whose code no link can carry)."""

    def operation(name: str, status: str) -> dict[str, Any]:
        return {"operationId": name, "summary": name, "responses": {status: {"description": ""}}}

    paths: dict[str, dict[str, Any]] = {
        "/v1/tables": {"post": operation("create_table", "201")},
        "/v1/tables/{table_id}": {"get": operation("table", "200")},
        "/v1/tables/{table_id}/seats": {"post": operation("sit", "200")},
        "/v1/tables/{table_id}/join": {"post": operation("join", "201")},
        "/v1/evaluate": {"post": operation("evaluate", "200")},
    }
    paths["/v1/tables/{table_id}/seats"]["post"]["security"] = [{"bearerAuth": []}]
    paths["/v1/tables/{table_id}"]["get"]["responses"]["200"]["headers"] = {"ETag": {}}
    paths["/v1/tables/{table_id}/seats"]["post"]["parameters"] = [
        {"name": "If-Match", "in": "header"}
    ]
    add_links(paths)
    created = paths["/v1/tables"]["post"]["responses"]["201"]["links"]
    assert {name: link["parameters"] for name, link in created.items()} == {
        "table": {"path.table_id": "$response.body#/id"},
        "sit": {"path.table_id": "$response.body#/id"},
    }
    onward = paths["/v1/tables/{table_id}"]["get"]["responses"]["200"]["links"]
    assert onward["sit"]["parameters"] == {
        "path.table_id": "$request.path.table_id",
        "header.If-Match": "$response.header.ETag",
    }
    assert "links" not in paths["/v1/evaluate"]["post"]["responses"]["200"]
    assert "links" not in paths["/v1/tables/{table_id}/seats"]["post"]["responses"]["200"]


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
