"""JSON routes declared with their pydantic models.

A route registered through :class:`ModelBlueprint` gets the request body parsed and
validated before the handler runs, its return value serialised, and an :class:`Operation`
record from which ``api.server.openapi`` builds the OpenAPI document, so the document cannot drift
from the models that actually check the traffic.
"""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from flask import Blueprint, Response, current_app, request
from pydantic import BaseModel, ValidationError

from api.server.errors import ApiProblem, validation_problem_from_pydantic

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
    # The thread pool the server runs it in (api.server.bridge): "compute", "store" or "bulk".
    lane: str = "compute"
    # The app config key of its largest body.
    body_limit: str = "MAX_BODY_BYTES"


class ModelBlueprint(Blueprint):
    """A Blueprint whose routes carry their request and response models."""

    def __init__(
        self, name: str, import_name: str, *, tag: str, lane: str = "compute", **kwargs: Any
    ) -> None:
        super().__init__(name, import_name, **kwargs)
        self.tag = tag
        self.lane = lane  # where the server runs this blueprint's routes (api.server.bridge)
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
        decode: Callable[[bytes], Any] | None = None,
        lane: str | None = None,
        body_limit: str = "MAX_BODY_BYTES",
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Register a POST route; the handler receives the validated request model, then the
        rule's variables as keyword arguments. ``problems``: statuses the route answers
        besides those of any body; ``body_required=False``: an empty body reads as ``{}``;
        ``example``: a body the route accepts, shown in the document (and sent by the
        contract tests); ``request_headers`` and ``response_headers``: headers the route
        reads and every success carries, for the document (the handler deals with them).
        ``decode``: reads the raw body instead of ``request_model`` (which then only documents
        it; the handler gets what ``decode`` returns, and may return a ready Response);
        ``lane`` and ``body_limit``: see :class:`Operation`."""

        def decorator(handler: Callable[..., Any]) -> Callable[..., Any]:
            @functools.wraps(handler)
            def view(**variables: Any) -> Response:
                if decode is None:
                    body = parse_body(request_model, required=body_required, limit=body_limit)
                else:
                    body = decode(read_json_body(limit=body_limit))
                result = handler(body, **variables)
                if isinstance(result, Response):
                    return result
                return json_response(result, status)

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
                    lane=lane or self.lane,
                    body_limit=body_limit,
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
        lane: str | None = None,
    ) -> Callable[[Callable[..., ResponseT]], Callable[..., ResponseT]]:
        """Register a GET route without a body; the handler receives the rule's variables.
        ``response_headers`` and ``lane``: as for :meth:`json_post`."""

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
                    lane=lane or self.lane,
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


# Where the body is kept once read; the ASGI bridge (api.server.bridge), which has read the whole
# body already, puts it there, so the app takes it without copying it again.
BODY_ENVIRON_KEY = "capsa_fast_api_body"
# When the request must be answered by (``time.monotonic()`` seconds), put there by the bridge
# for the lanes that have a budget (the session store's: api.server.sessions reads it).
DEADLINE_ENVIRON_KEY = "capsa_fast_api_deadline"
# Set by the live events stream (api.server.live.stream) on the view request it makes for a
# seat whose stream ticket it has verified: the seat (api.server.sessions reads it). A WSGI
# environ key, which no client can set (its headers arrive as HTTP_*). Such requests are the
# server's own: neither access-logged nor rate-limited.
LIVE_SEAT_ENVIRON_KEY = "capsa_fast_api.live_seat"
_READ_SIZE = 1 << 20


def read_body(limit: str = "MAX_BODY_BYTES") -> bytes:
    """The request body, at most ``app.config[limit]`` bytes: a 413 problem beyond (a
    declared Content-Length at once, a chunked body as soon as it passes the limit), a 400
    when the body cannot be read (a broken chunked encoding). Read once per request."""
    most = int(current_app.config[limit])
    too_large = ApiProblem(413, f"The request body is larger than the limit of {most} bytes.")
    cached: bytes | None = request.environ.get(BODY_ENVIRON_KEY)
    if cached is not None:
        if len(cached) > most:
            raise too_large
        return cached
    declared = request.content_length
    if declared is not None and declared > most:
        raise too_large
    stream = request.environ.get("wsgi.input")
    # Without a length, a body runs to the end of the input only where the server says the
    # input ends (wsgi.input_terminated: a chunked body); else there is none.
    if stream is None or (declared is None and not request.environ.get("wsgi.input_terminated")):
        data = b""
    else:
        wanted = most + 1 if declared is None else declared
        parts: list[bytes] = []
        size = 0
        try:
            while size < wanted:
                part = stream.read(min(_READ_SIZE, wanted - size))
                if not part:
                    break
                parts.append(part)
                size += len(part)
        except Exception as exc:  # the server's parser: bad chunk framing, a dropped client
            raise ApiProblem(400, f"The request body could not be read: {exc}.") from None
        if size > most:
            raise too_large
        data = b"".join(parts)
    request.environ[BODY_ENVIRON_KEY] = data
    return data


def read_json_body(limit: str = "MAX_BODY_BYTES") -> bytes:
    """The body (as :func:`read_body`) of a request that must say it is JSON (415 else)."""
    if not request.is_json:
        got = request.mimetype or "no Content-Type"
        raise ApiProblem(415, f"The request body must be application/json, got {got}.")
    return read_body(limit)


def parse_body(
    model: type[RequestT], *, required: bool = True, limit: str = "MAX_BODY_BYTES"
) -> RequestT:
    """The request body validated as ``model``: 415, 413, 400 or 422 problems otherwise.

    ``required=False``: an empty body (no bytes at all) is read as ``{}``.
    """
    # An optional body is read before the Content-Type check, since an empty one needs no
    # type. Bodies are small here (limit): pydantic-core parses and validates in one step.
    if not required and not read_body(limit):
        return model.model_validate({})
    body = read_json_body(limit)
    _refuse_non_json_numbers(body)
    try:
        return model.model_validate_json(body)
    except ValidationError as exc:
        raise validation_problem_from_pydantic(exc, body) from None


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON value (RFC 8259); send a number or null")


def _refuse_non_json_numbers(body: bytes) -> None:
    """400 for a body with NaN or Infinity outside strings: pydantic's parser reads them,
    but they are not JSON. Only bodies holding those letters are parsed a second time."""
    if b"NaN" not in body and b"Infinity" not in body:
        return
    try:
        json.loads(body, parse_constant=_no_constant)
    except ValueError as exc:
        raise ApiProblem(400, f"The request body is not valid JSON: {exc}.") from None
    except RecursionError:  # arrays or objects nested thousands deep
        raise ApiProblem(400, "The request body is nested too deeply.") from None


def json_response(result: BaseModel | Mapping[str, Any], status: int = 200) -> Response:
    if isinstance(result, BaseModel):
        text = result.model_dump_json()
    else:
        text = json.dumps(result, ensure_ascii=False)
    return Response(text, status=status, mimetype="application/json")
