"""JSON routes declared with their pydantic models.

A route registered through :class:`ModelBlueprint` gets the request body parsed and
validated before the handler runs, its return value serialised, and an :class:`Operation`
record from which ``api.openapi`` builds the OpenAPI document, so the document cannot drift
from the models that actually check the traffic.
"""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from flask import Blueprint, Response, request
from pydantic import BaseModel, ValidationError

from api.errors import ApiProblem, validation_problem_from_pydantic

RequestT = TypeVar("RequestT", bound=BaseModel)
ResponseT = TypeVar("ResponseT", bound=BaseModel | Mapping[str, Any])

# Statuses every JSON-body route can answer besides its success; the document lists them.
BODY_PROBLEMS = (400, 413, 415, 422)


@dataclass(frozen=True, slots=True)
class Operation:
    """One method on one path, as the OpenAPI document describes it."""

    method: str  # lower case, as OpenAPI spells it
    endpoint: str  # Flask endpoint inside the blueprint; the full path comes from the URL map
    summary: str
    description: str
    request_model: type[BaseModel] | None
    # None: the handler returns a free-form JSON object (only /openapi.json does).
    response_model: type[BaseModel] | None
    problems: tuple[int, ...]
    status: int = 200  # of a success
    body_required: bool = True
    bearer_auth: bool = False  # the route takes `Authorization: Bearer <token>`
    example: Mapping[str, Any] | None = None  # a request body the route accepts
    # OpenAPI parameter objects of the request headers the route reads (e.g. If-Match).
    request_headers: tuple[Mapping[str, Any], ...] = ()
    # OpenAPI header objects, by name, that every success carries (e.g. ETag).
    response_headers: Mapping[str, Mapping[str, Any]] | None = None


class ModelBlueprint(Blueprint):
    """A Blueprint whose routes carry their request and response models."""

    def __init__(self, name: str, import_name: str, *, tag: str, **kwargs: Any) -> None:
        super().__init__(name, import_name, **kwargs)
        self.tag = tag
        self.operations: list[Operation] = []

    def json_post(
        self,
        rule: str,
        *,
        request_model: type[RequestT],
        response_model: type[BaseModel],
        summary: str,
        status: int = 200,
        problems: tuple[int, ...] = (),
        body_required: bool = True,
        bearer_auth: bool = False,
        example: Mapping[str, Any] | None = None,
        request_headers: tuple[Mapping[str, Any], ...] = (),
        response_headers: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> Callable[[Callable[..., ResponseT]], Callable[..., ResponseT]]:
        """Register a POST route; the handler receives the validated request model, then the
        rule's variables as keyword arguments. ``problems``: statuses the route answers
        besides those of any body; ``body_required=False``: an empty body reads as ``{}``;
        ``example``: a body the route accepts, shown in the document (and sent by the
        contract tests); ``request_headers`` and ``response_headers``: headers the route
        reads and every success carries, for the document (the handler deals with them)."""

        def decorator(handler: Callable[..., ResponseT]) -> Callable[..., ResponseT]:
            @functools.wraps(handler)
            def view(**variables: Any) -> Response:
                body = parse_body(request_model, required=body_required)
                return json_response(handler(body, **variables), status)

            self._register(
                rule,
                view,
                handler,
                Operation(
                    method="post",
                    endpoint=handler.__name__,
                    summary=summary,
                    description=inspect.cleandoc(handler.__doc__ or ""),
                    request_model=request_model,
                    response_model=response_model,
                    problems=tuple(sorted({*BODY_PROBLEMS, *problems})),
                    status=status,
                    body_required=body_required,
                    bearer_auth=bearer_auth,
                    example=example,
                    request_headers=request_headers,
                    response_headers=response_headers,
                ),
            )
            return handler

        return decorator

    def json_get(
        self,
        rule: str,
        *,
        response_model: type[BaseModel] | None,
        summary: str,
        problems: tuple[int, ...] = (),
        bearer_auth: bool = False,
        response_headers: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> Callable[[Callable[..., ResponseT]], Callable[..., ResponseT]]:
        """Register a GET route without a body; the handler receives the rule's variables.
        ``response_headers``: as for :meth:`json_post`."""

        def decorator(handler: Callable[..., ResponseT]) -> Callable[..., ResponseT]:
            @functools.wraps(handler)
            def view(**variables: Any) -> Response:
                return json_response(handler(**variables))

            self._register(
                rule,
                view,
                handler,
                Operation(
                    method="get",
                    endpoint=handler.__name__,
                    summary=summary,
                    description=inspect.cleandoc(handler.__doc__ or ""),
                    request_model=None,
                    response_model=response_model,
                    problems=tuple(sorted(problems)),
                    bearer_auth=bearer_auth,
                    response_headers=response_headers,
                ),
            )
            return handler

        return decorator

    def _register(
        self,
        rule: str,
        view: Callable[..., Response],
        handler: Callable[..., Any],
        operation: Operation,
    ) -> None:
        self.add_url_rule(
            rule,
            endpoint=handler.__name__,
            view_func=view,
            methods=[operation.method.upper()],
        )
        self.operations.append(operation)


def parse_body(model: type[RequestT], *, required: bool = True) -> RequestT:
    """The request body validated as ``model``: 415, 413, 400 or 422 problems otherwise.

    ``required=False``: an empty body (no bytes at all) is read as ``{}``.
    """
    # get_data raises 413 when the body exceeds MAX_CONTENT_LENGTH. An optional body is read
    # (and kept) before the Content-Type check, since an empty one needs no type.
    if not required and not request.get_data(cache=True):
        return model.model_validate({})
    if not request.is_json:
        got = request.mimetype or "no Content-Type"
        raise ApiProblem(415, f"The request body must be application/json, got {got}.")
    body = request.get_data(cache=False)
    try:
        # Parsing and validating in one step in pydantic-core is the fastest path we have for
        # big batches (faster than json.loads alone); malformed JSON comes back as json_invalid.
        return model.model_validate_json(body)
    except ValidationError as exc:
        raise validation_problem_from_pydantic(exc) from None


def json_response(result: BaseModel | Mapping[str, Any], status: int = 200) -> Response:
    if isinstance(result, BaseModel):
        text = result.model_dump_json()
    else:
        text = json.dumps(result, ensure_ascii=False)
    return Response(text, status=status, mimetype="application/json")
