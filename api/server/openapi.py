"""The OpenAPI 3.1 document, generated from the routes' pydantic models."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from flask import Flask
from pydantic import BaseModel
from pydantic.json_schema import (
    GenerateJsonSchema,
    JsonRef,
    JsonSchemaMode,
    JsonSchemaValue,
    models_json_schema,
)

from api.server.errors import PROBLEM_MIMETYPE, status_title
from api.server.openapi_links import add_links
from api.server.rate_limit import EXEMPT_PATHS
from api.server.routing import ModelBlueprint, Operation
from api.server.schemas import NAMED_SCHEMAS, SCHEMA_REF, Problem

OPENAPI_VERSION = "3.1.0"
BEARER_SCHEME = "bearerAuth"
TOO_MANY_REQUESTS = 429  # any route but EXEMPT_PATHS, when the server sets a rate limit
# Flask converters like <int:game_id> become OpenAPI templates like {game_id}.
_SCHEMAS = SCHEMA_REF.format(model="")
_RULE_VARIABLE = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")


class _SchemaGenerator(GenerateJsonSchema):
    """pydantic's generator, told about the named schemas the models point at with ``$ref``
    (``api.server.schemas.named``, ``model_ref``): pydantic looks a ``$ref`` up to drop the
    keys beside it that repeat the target, and knows only the definitions it has made so
    far. A reference it does not know is left as it is (the tests check none dangles)."""

    def get_schema_from_definitions(self, json_ref: JsonRef) -> JsonSchemaValue | None:
        if json_ref not in self.json_to_defs_refs:
            return NAMED_SCHEMAS.get(json_ref.removeprefix(SCHEMA_REF.format(model="")))
        return super().get_schema_from_definitions(json_ref)


def _refs(node: Any) -> Iterator[str]:
    """The component names of every schema ``$ref`` in a JSON value."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith(_SCHEMAS):
                yield value.removeprefix(_SCHEMAS)
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from _refs(item)


def _referenced(schemas: dict[str, Any], roots: list[Any]) -> dict[str, Any]:
    """The schemas the roots reach through ``$ref``s. A model a response is documented as
    another schema (``model_ref``) still has pydantic's definition, which nothing uses."""
    reached: set[str] = set()
    pending = [name for root in roots for name in _refs(root)]
    while pending:
        name = pending.pop()
        if name not in reached:
            reached.add(name)
            pending.extend(_refs(schemas[name]))
    return {name: schema for name, schema in schemas.items() if name in reached}


def _response_name(status: int | None) -> str:
    """Component name for a problem response, e.g. 415 -> "UnsupportedMediaType"."""
    if status is None:
        return "Problem"
    return re.sub(r"[^A-Za-z]", "", status_title(status).title())


def _problem_response(description: str, problem_ref: dict[str, str]) -> dict[str, Any]:
    return {"description": description, "content": {PROBLEM_MIMETYPE: {"schema": problem_ref}}}


def build_openapi(app: Flask, *, title: str, version: str) -> dict[str, Any]:
    """Describe every route registered through a :class:`ModelBlueprint` on ``app``."""
    operations: dict[str, tuple[ModelBlueprint, Operation]] = {
        f"{bp.name}.{op.endpoint}": (bp, op)
        for bp in app.blueprints.values()
        if isinstance(bp, ModelBlueprint)
        for op in bp.operations
    }

    # All models in one call so shared definitions are emitted once and names stay unique
    # (pydantic adds -Input/-Output only where a model's two modes really differ).
    wanted: list[tuple[type[BaseModel], JsonSchemaMode]] = [(Problem, "serialization")]
    for _, op in operations.values():
        if op.request_model is not None:
            wanted.append((op.request_model, "validation"))
        if op.response_model is not None:
            wanted.append((op.response_model, "serialization"))
    refs, definitions = models_json_schema(
        list(dict.fromkeys(wanted)), ref_template=SCHEMA_REF, schema_generator=_SchemaGenerator
    )
    problem_ref = refs[(Problem, "serialization")]

    problem_statuses = sorted(
        {TOO_MANY_REQUESTS, *(s for _, op in operations.values() for s in op.problems)}
    )
    responses = {
        _response_name(status): _problem_response(status_title(status), problem_ref)
        for status in problem_statuses
    }
    responses[_response_name(TOO_MANY_REQUESTS)] = {
        **_problem_response(
            "Over the server's per-client rate limit (only when one is set: RATELIMIT_DEFAULT).",
            problem_ref,
        ),
        "headers": {
            "Retry-After": {
                "description": "Seconds until the limit lets this client through again.",
                "schema": {"type": "string"},
            }
        },
    }
    responses[_response_name(None)] = _problem_response(
        "Any other error (404, 405, 500), as RFC 9457 problem details.", problem_ref
    )

    paths: dict[str, dict[str, Any]] = {}
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        found = operations.get(rule.endpoint)
        if found is None:
            continue  # e.g. Flask's static route
        bp, op = found
        path = _RULE_VARIABLE.sub(r"{\1}", rule.rule)
        problems = op.problems if path in EXEMPT_PATHS else (*op.problems, TOO_MANY_REQUESTS)
        if op.response_model is None:
            # Titled, so that a client generator names its type after what it is.
            success_schema: dict[str, Any] = {"type": "object", "title": "FreeFormObject"}
        else:
            success_schema = refs[(op.response_model, "serialization")]
        success: dict[str, Any] = {
            "description": status_title(op.status),
            "content": {"application/json": {"schema": success_schema}},
        }
        if op.response_headers:
            success["headers"] = {name: dict(spec) for name, spec in op.response_headers.items()}
        operation: dict[str, Any] = {
            "tags": [bp.tag],
            "operationId": rule.endpoint.replace(".", "_"),
            "summary": op.summary,
            "responses": {
                str(op.status): success,
                **{
                    str(status): {"$ref": f"#/components/responses/{_response_name(status)}"}
                    for status in sorted(problems)
                },
                "default": {"$ref": f"#/components/responses/{_response_name(None)}"},
            },
        }
        if op.description:
            operation["description"] = op.description
        if op.request_model is not None:
            media: dict[str, Any] = {"schema": refs[(op.request_model, "validation")]}
            if op.example is not None:
                media["example"] = dict(op.example)
            operation["requestBody"] = {
                "required": op.body_required,
                "content": {"application/json": media},
            }
        parameters: list[dict[str, Any]] = [
            {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
            for name in sorted(rule.arguments)
        ]
        parameters += [{**header, "in": "header"} for header in op.request_headers]
        if parameters:
            operation["parameters"] = parameters
        if op.bearer_auth:
            operation["security"] = [{BEARER_SCHEME: []}]
        paths.setdefault(path, {})[op.method] = operation
    add_links(paths)

    tags = sorted({bp.tag for bp, _ in operations.values()})
    # The models' schemas and the named schemas they point at (value sets, the card).
    models = definitions.get("$defs", {})
    if clash := sorted(models.keys() & NAMED_SCHEMAS.keys()):
        raise ValueError(f"a model and a named schema share a name: {clash}")
    schemas = _referenced({**models, **NAMED_SCHEMAS}, [paths, responses])
    components: dict[str, Any] = {
        "schemas": dict(sorted(schemas.items())),
        "responses": responses,
    }
    if any(op.bearer_auth for _, op in operations.values()):
        components["securitySchemes"] = {
            BEARER_SCHEME: {
                "type": "http",
                "scheme": "bearer",
                "description": "A seat's secret token, as given when the game was created.",
            }
        }
    return {
        "openapi": OPENAPI_VERSION,
        "info": {"title": title, "version": version},
        "tags": [{"name": tag} for tag in tags],
        "paths": paths,
        "components": components,
    }
