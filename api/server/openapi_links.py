"""OpenAPI links (the Link Object of OpenAPI 3.1): how one answer feeds the next request.

A create (a POST whose success is 201) makes a resource that the routes below it, at
``<create path>/{id}...``, act on: its 201 response links to each of them, the path variable
taken from the response's ``id``. The resource's view (the GET among those routes) links on to
every route of the same resource (the variable taken from the request's path), giving its ETag
as the If-Match of the routes that read one: read the view, then act on what it showed. A
stateful tester (schemathesis) follows the links from a create to a real game, and a reader
of the document sees how a game is played.

A route of the resource that takes no token (joining a table, which takes an invitation
code from the create's body, not a path variable) gets no link: a link cannot carry the code.

Only creates and views link on: schemathesis starts its scenarios at any POST with links, and
a move with a random game id is only a 404.

The seat's token is not a parameter (it is the bearer scheme, which OpenAPI keeps outside the
parameters): the description of each link to a route that takes it says where the token comes
from, and a client, or a tester's auth hook, sends it.

Everything is derived from the paths, so a resource added later (a table for several
people, a card exchange) gets its links without a line here.
"""

from __future__ import annotations

from typing import Any

# The member of a create response that names the resource; the response header that tags a
# view and the request header that sends the tag back with a change.
ID_MEMBER = "id"
ETAG = "ETag"
IF_MATCH = "If-Match"
CREATED_TOKEN = (
    "Authenticate as one of the created seats: send its token ('tokens' in this response, by "
    "seat) as 'Authorization: Bearer <token>' (the bearerAuth scheme, not a parameter)."
)
SAME_TOKEN = "Send the same seat's token as this request ('Authorization: Bearer <token>')."


def _variable(segment: str) -> str | None:
    """``game_id`` for the path segment ``{game_id}``, None for a plain segment."""
    if segment.startswith("{") and segment.endswith("}"):
        return segment[1:-1]
    return None


def _resource_routes(
    paths: dict[str, dict[str, Any]], collection: str
) -> tuple[str | None, list[tuple[str, str, dict[str, Any]]]]:
    """The variable naming one resource of ``collection`` and every (path, method,
    operation) under ``<collection>/{variable}`` that is its view or takes a seat's token."""
    prefix = collection + "/"
    variable: str | None = None
    routes: list[tuple[str, str, dict[str, Any]]] = []
    for path, operations in sorted(paths.items()):
        if not path.startswith(prefix):
            continue
        found = _variable(path[len(prefix) :].split("/", 1)[0])
        if found is None:
            continue
        variable = found
        routes += [
            (path, method, operation)
            for method, operation in sorted(operations.items())
            if method == "get" or operation.get("security")
        ]
    return variable, routes


def _success(operation: dict[str, Any]) -> dict[str, Any] | None:
    """The response object of the operation's success (its one 2xx)."""
    for status, response in operation.get("responses", {}).items():
        if status.startswith("2") and "$ref" not in response:
            found: dict[str, Any] = response
            return found
    return None


def _reads_if_match(operation: dict[str, Any]) -> bool:
    return any(
        parameter.get("in") == "header" and parameter.get("name") == IF_MATCH
        for parameter in operation.get("parameters", ())
    )


def _token_note(target: dict[str, Any], note: str) -> str:
    """`` <note>`` for a target that takes a bearer token, else nothing."""
    return f" {note}" if target.get("security") else ""


def _created_link(target: dict[str, Any], variable: str) -> dict[str, Any]:
    """From a create's 201 to ``target``, a route of the resource it made."""
    return {
        "operationId": target["operationId"],
        "parameters": {f"path.{variable}": f"$response.body#/{ID_MEMBER}"},
        "description": (
            f"{target['summary']}, on what this request created ({variable}: this "
            f"response's '{ID_MEMBER}').{_token_note(target, CREATED_TOKEN)}"
        ),
    }


def _onward_link(target: dict[str, Any], variable: str, *, etag: bool) -> dict[str, Any]:
    """From the resource's view to ``target``, a route of the same resource."""
    parameters = {f"path.{variable}": f"$request.path.{variable}"}
    said = f"the same {variable} as this request"
    if etag and _reads_if_match(target):
        parameters[f"header.{IF_MATCH}"] = f"$response.header.{ETAG}"
        said += f", {IF_MATCH} this response's {ETAG}"
    return {
        "operationId": target["operationId"],
        "parameters": parameters,
        "description": f"{target['summary']}, on {said}.{_token_note(target, SAME_TOKEN)}",
    }


def add_links(paths: dict[str, dict[str, Any]]) -> None:
    """Give every create's 201 and its resource's view their ``links`` (in place)."""
    for collection, operations in sorted(paths.items()):
        create = operations.get("post")
        if create is None or "201" not in create.get("responses", {}):
            continue
        variable, routes = _resource_routes(paths, collection)
        if variable is None:
            continue
        create["responses"]["201"]["links"] = {
            target["operationId"]: _created_link(target, variable) for _, _, target in routes
        }
        for _, method, source in routes:
            response = _success(source)
            if method != "get" or response is None:
                continue
            etag = ETAG in response.get("headers", {})
            response["links"] = {
                target["operationId"]: _onward_link(target, variable, etag=etag)
                for _, _, target in routes
            }
