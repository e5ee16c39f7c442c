"""Shared by the API tests: posting JSON and reading RFC 9457 problem responses."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from flask.testing import FlaskClient
from hypothesis import strategies as st

PROBLEM = "application/problem+json"


def post(client: FlaskClient, route: str, body: Any, **kwargs: Any) -> dict[str, Any]:
    """POST ``body`` as JSON, expect a 200 JSON answer, return it."""
    response = client.post(route, json=body, **kwargs)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    return response.get_json()


def assert_problem(response: Any, status: int) -> dict[str, Any]:
    """The response is an RFC 9457 problem with ``status``; returns the problem object."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == PROBLEM
    problem = response.get_json(force=True)
    assert problem["type"] == "about:blank"
    assert problem["status"] == status
    assert isinstance(problem["title"], str) and problem["title"]
    assert isinstance(problem["detail"], str) and problem["detail"]
    if status == 422:
        assert problem["errors"], "a 422 must list the bad fields"
        for entry in problem["errors"]:
            assert set(entry) == {"field", "message"}
            assert isinstance(entry["field"], str) and entry["message"]
    else:
        assert "errors" not in problem
    return problem


def field_errors(response: Any) -> dict[str, str]:
    """field -> message of a 422 response."""
    return {e["field"]: e["message"] for e in assert_problem(response, 422)["errors"]}


def resolve_ref(document: dict[str, Any], ref: str) -> Any:
    """The node a local ``$ref`` points at; KeyError when it dangles."""
    assert ref.startswith("#/"), ref
    node: Any = document
    for part in ref[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def all_refs(node: Any) -> Iterator[str]:
    """Every ``$ref`` value anywhere in a JSON document."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                yield value
            else:
                yield from all_refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from all_refs(item)


def json_bodies(field_names: list[str], words: list[str]) -> st.SearchStrategy[Any]:
    """Arbitrary JSON, biased towards a route's field names and meaningful strings, for the
    tests that no request body ever gives a 500."""
    return st.recursive(
        st.none()
        | st.booleans()
        | st.integers(-3, 200)
        | st.floats(allow_nan=False, allow_infinity=False)  # JSON has neither
        | st.sampled_from(words)
        | st.text(max_size=4),
        lambda children: (
            st.lists(children, max_size=6)
            | st.dictionaries(st.sampled_from([*field_names, "x"]), children)
        ),
        max_leaves=30,
    )
