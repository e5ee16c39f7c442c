"""/openapi.json names each value set once, has one card schema for requests and responses,
reports a game's rules in the schema its requests take, states the prose rules it can
(``uniqueItems``, ``minLength``, exclusive fields), and counts ``2.0`` as an integer as
JSON Schema does, as the server does."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest
from flask.testing import FlaskClient

from api.server.schemas import CARD_PATTERN, NAMED_SCHEMAS
from tests.api.helpers import all_refs, post
from tests.api.test_openapi_client import openapi_document

SCHEMAS = "#/components/schemas/"
CARD = SCHEMAS + "Card"
THREE_BOTS = {"1": "beginner", "2": "beginner", "3": "beginner"}


@pytest.fixture
def document(api_client: FlaskClient) -> dict[str, Any]:
    return openapi_document(api_client)


def nodes(node: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """Every object in a JSON document, with its JSON-pointer path."""
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from nodes(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from nodes(value, f"{path}/{index}")


def create(client: FlaskClient, game: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(f"/v1/{game}/games", json=body)
    assert response.status_code == 201, response.get_data(as_text=True)
    created = response.get_json()
    assert isinstance(created, dict)
    return created


def validator(document: dict[str, Any], name: str) -> jsonschema.Draft202012Validator:
    """A JSON Schema validator of the component ``name``, its references resolved."""
    return jsonschema.Draft202012Validator(
        {"$ref": SCHEMAS + name, "components": document["components"]}
    )


def test_every_value_set_is_one_named_component(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    inline = [
        path
        for path, node in nodes(document)
        if "enum" in node and path.rsplit("/", 1)[0] != "/components/schemas"
    ]
    assert not inline, f"inline enums (name them with api.server.schemas.value_set): {inline}"
    value_sets = {name for name, schema in schemas.items() if "enum" in schema}
    assert {"Category", "ComboKind", "RejectionCode", "SpecialHand", "Comparison"} <= value_sets
    used = {ref.removeprefix(SCHEMAS) for ref in all_refs(document)}
    assert value_sets <= used, value_sets - used
    assert set(NAMED_SCHEMAS) <= set(schemas)
    for name in value_sets:
        values = schemas[name]["enum"]
        assert len(values) == len(set(values)) and schemas[name]["description"], name
    # Sets of numbers name their members for client generators (no VALUE_NEGATIVE_1).
    for name in value_sets:
        if schemas[name]["type"] == "integer":
            assert len(schemas[name]["x-enum-varnames"]) == len(schemas[name]["enum"]), name


def test_requests_and_responses_share_one_card_schema(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    card = schemas["Card"]
    assert [form["type"] for form in card["anyOf"]] == ["string", "integer"]
    # The card pattern is stated once, in Card; everything else points at it.
    patterns = [path for path, node in nodes(document) if node.get("pattern") == CARD_PATTERN]
    assert patterns == ["/components/schemas/Card/anyOf/0"]
    assert schemas["GameView"]["properties"]["hand"]["items"] == {"$ref": CARD}
    assert {"$ref": CARD} in [
        form.get("items") for form in schemas["MoveRequest"]["properties"]["play"]["anyOf"]
    ]
    assert schemas["SusunGameView"]["properties"]["hand"]["items"] == {"$ref": CARD}
    assert schemas["ArrangementRequest"]["properties"]["top"]["items"] == {"$ref": CARD}


def card_lists(document: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every list of cards in a request body's schema."""
    for name, schema in document["components"]["schemas"].items():
        if name.endswith("Request"):
            for path, node in nodes(schema, name):
                if node.get("type") == "array" and node.get("items") == {"$ref": CARD}:
                    yield path, node


def test_request_card_lists_say_no_card_twice(document: dict[str, Any]) -> None:
    # Lists that must hold two cards or more do not say it (schemathesis crashes on them:
    # api.server.schemas._count_schema); the server refuses their repeats all the same.
    found = dict(card_lists(document))
    assert len(found) >= 20
    short = {path for path, node in found.items() if node.get("minItems", 0) <= 1}
    assert len(short) >= 10
    assert {path for path in short if found[path].get("uniqueItems") is not True} == set()
    assert {path for path in set(found) - short if "uniqueItems" in found[path]} == set()


@pytest.mark.parametrize(
    ("route", "body"),
    [
        ("/v1/banting/classify", {"cards": ["As", "Ks", "As"]}),
        ("/v1/banting/validate", {"hand": ["3d", "3d"], "play": ["3d"]}),
        ("/v1/banting/compare", {"a": ["3d", "3d"], "b": ["4d", "4s"]}),
        ("/v1/poker/equity", {"players": ["AhKh", "QQ"], "board": ["2c", "3c", "2c"]}),
    ],
)
def test_a_card_list_with_a_card_twice_is_schema_invalid_and_refused(
    api_client: FlaskClient, document: dict[str, Any], route: str, body: dict[str, Any]
) -> None:
    schema = document["paths"][route]["post"]["requestBody"]["content"]["application/json"]
    name = schema["schema"]["$ref"].removeprefix(SCHEMAS)
    assert not validator(document, name).is_valid(body)
    assert api_client.post(route, json=body).status_code == 422


def test_round_codes_state_what_the_package_reads(
    api_client: FlaskClient, document: dict[str, Any]
) -> None:
    schemas = document["components"]["schemas"]
    for name in ("CreateGameRequest", "CreateSusunGameRequest"):
        code = schemas[name]["properties"]["code"]["anyOf"][0]
        assert code["minLength"] == 1 and code["maxLength"] == 32
        check = jsonschema.Draft202012Validator(code)
        for good in ("B4K7M2Q9XZ1", " free-word_2 "):
            assert check.is_valid(good)
        for bad in ("", "   ", "no spaces", "kód"):
            assert not check.is_valid(bad)
            response = api_client.post("/v1/banting/games", json={"code": bad, "bots": THREE_BOTS})
            assert response.status_code == 422, bad


def test_arrangement_rows_and_declare_exclude_each_other(
    api_client: FlaskClient, document: dict[str, Any]
) -> None:
    check = validator(document, "ArrangementRequest")
    rows = {
        "top": ["2c", "3d", "4h"],
        "middle": ["5s", "6c", "7d", "8h", "9s"],
        "bottom": ["Tc", "Jd", "Qh", "Ks", "Ac"],
    }
    assert check.is_valid(rows)
    assert check.is_valid({"declare": "dragon"})
    refused = [{**rows, "declare": "dragon"}, {"top": rows["top"]}, {}, {"confirm_foul": True}]
    created = create(api_client, "susun", {"bots": THREE_BOTS})
    token = created["tokens"]["0"]
    for body in refused:
        assert not check.is_valid(body), body
        response = api_client.post(
            f"/v1/susun/games/{created['id']}/arrangement",
            json=body,
            headers={"Authorization": f"Bearer {token}"},
        )
        assert response.status_code == 422, body
    # The score route's players: a hand or rows, the same way.
    player = validator(document, "SusunPlayerRequest")
    assert player.is_valid(rows)
    assert not player.is_valid({**rows, "hand": [*rows["top"], *rows["middle"], *rows["bottom"]]})


@pytest.mark.parametrize(("game", "name"), [("banting", "BantingRules"), ("susun", "SusunRules")])
def test_a_view_reports_its_rules_in_the_schema_requests_take(
    api_client: FlaskClient, document: dict[str, Any], game: str, name: str
) -> None:
    schemas = document["components"]["schemas"]
    view_name = "GameView" if game == "banting" else "SusunGameView"
    created_name = "GameCreated" if game == "banting" else "SusunGameCreated"
    request_name = "CreateGameRequest" if game == "banting" else "CreateSusunGameRequest"
    for model in (view_name, created_name):
        assert schemas[model]["properties"]["rules"]["$ref"] == SCHEMAS + name
    assert {"$ref": SCHEMAS + name} in schemas[request_name]["properties"]["rules"]["anyOf"]
    preset = "taiwan" if game == "banting" else "two-four"
    created = create(api_client, game, {"rules": {"preset": preset}, "bots": {}})
    validator(document, name).validate(created["rules"])
    # A game's rules, sent back as they are, start a game with the same rules.
    again = create(api_client, game, {"rules": created["rules"], "bots": {}})
    assert again["rules"] == created["rules"]


@pytest.mark.parametrize(
    ("route", "as_float", "as_int"),
    [
        ("/v1/evaluate", {"cards": [0.0, 5.0, 9, 13, 51.0]}, {"cards": [0, 5, 9, 13, 51]}),
        ("/v1/banting/score", {"cards_left": [0.0, 5.0]}, {"cards_left": [0, 5]}),
        (
            "/v1/evaluate/batch",
            {"hands": [[0.0, 5, 9, 13, 51.0], ["As", 40.0, "Qs"]]},
            {"hands": [[0, 5, 9, 13, 51], ["As", 40, "Qs"]]},
        ),
        (
            "/v1/banting/legal-plays",
            {"hand": ["3d", "4d", "5d"], "limit": 2.0},
            {"hand": ["3d", "4d", "5d"], "limit": 2},
        ),
        (
            "/v1/banting/score",
            {"cards_left": [0, 12], "rules": {"scoring": [[1.0, 2.0]]}},
            {"cards_left": [0, 12], "rules": {"scoring": [[1, 2]]}},
        ),
        (
            "/v1/susun/arrange",
            {"hand": list(range(13)), "strategy": "naive", "top_k": 2.0, "players": 3.0},
            {"hand": list(range(13)), "strategy": "naive", "top_k": 2, "players": 3},
        ),
    ],
)
def test_an_integer_written_with_a_zero_fraction_is_that_integer(
    api_client: FlaskClient, route: str, as_float: dict[str, Any], as_int: dict[str, Any]
) -> None:
    assert post(api_client, route, as_float) == post(api_client, route, as_int)


def test_a_game_takes_integral_numbers_too(api_client: FlaskClient) -> None:
    created = create(api_client, "banting", {"players": 4.0, "bots": THREE_BOTS})
    assert created["players"] == 4
    token = {"Authorization": f"Bearer {created['tokens']['0']}"}
    view = api_client.get(f"/v1/banting/games/{created['id']}", headers=token).get_json()
    assert view["your_turn"]
    hint = view["hint"]["play"]
    response = api_client.post(
        f"/v1/banting/games/{created['id']}/moves",
        json={"play": hint, "version": float(view["version"])},
        headers=token,
    )
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.get_json()["version"] > view["version"]
    # 2.5 is no integer: refused where one is expected.
    response = api_client.post(
        f"/v1/banting/games/{created['id']}/moves",
        json={"play": "pass", "version": view["version"] + 0.5},
        headers=token,
    )
    assert response.status_code == 422
