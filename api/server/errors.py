"""RFC 9457 problem details: every error the API returns is ``application/problem+json``.

Handlers raise :class:`ApiProblem` (or :class:`ValidationProblem` for 422s); werkzeug's own
HTTP errors (404, 405, 413, ...) and unexpected exceptions are converted here too, so no
route ever has to build an error response by hand.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from http import HTTPStatus
from typing import Any

from flask import Flask, Response, request
from pydantic import ValidationError
from werkzeug.exceptions import HTTPException, MethodNotAllowed, NotFound, RequestEntityTooLarge
from werkzeug.routing import WebsocketMismatch

from api.server.schemas import FieldError, Problem

PROBLEM_MIMETYPE = "application/problem+json"

# Every problem uses the RFC's default type "about:blank": each status here has one meaning,
# so the status code is the identifier and the title must then be the HTTP status phrase.
# Phrases follow RFC 9110 (Python 3.11's HTTPStatus still has the older names for 413/422).
ABOUT_BLANK = "about:blank"
_RFC9110_PHRASES = {413: "Content Too Large", 422: "Unprocessable Content"}

# Enough to fix a request by hand, small enough that a 100,000-hand batch of garbage does not
# produce a multi-megabyte error document.
MAX_FIELD_ERRORS = 50


def status_title(status: int) -> str:
    """The RFC 9110 reason phrase for ``status``."""
    if status in _RFC9110_PHRASES:
        return _RFC9110_PHRASES[status]
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


class ApiProblem(Exception):
    """An error response; raise it anywhere inside a request."""

    def __init__(
        self,
        status: int,
        detail: str,
        *,
        errors: list[FieldError] | None = None,
        headers: dict[str, str] | None = None,
        code: str | None = None,
        rows: list[str] | None = None,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.errors = errors
        self.headers = headers or {}
        self.code = code
        self.rows = rows


# Messages and field paths can echo what was sent (a setting's value, a bot seat's key): at
# most this many characters of each, so a huge bad value gives a small problem document.
MAX_ECHO_CHARS = 300


def _shorten(text: str) -> str:
    return text if len(text) <= MAX_ECHO_CHARS else text[: MAX_ECHO_CHARS - 3] + "..."


class FieldErrors:
    """Collects per-field validation errors, keeping the first :data:`MAX_FIELD_ERRORS`.

    Field paths are JSON-pointer-like without the leading slash ("hands/3/1"); the request
    body itself is "".
    """

    def __init__(self, limit: int = MAX_FIELD_ERRORS) -> None:
        self.limit = limit
        self.items: list[FieldError] = []
        self.total = 0
        self._listed: dict[str, tuple[int, list[str]]] = {}  # field: (its index, messages)

    def add(self, field: str, message: str) -> None:
        """One more fault; a field already listed gets the message added to its entry (one
        entry per bad field: a range holding two cards of another player's hand)."""
        field = _shorten(field)
        if field in self._listed:
            index, messages = self._listed[field]
            if message not in messages:
                messages.append(message)
                self.items[index] = FieldError(field=field, message=_shorten(" ".join(messages)))
            return
        self.total += 1
        if len(self.items) < self.limit:
            self._listed[field] = (len(self.items), [message])
            self.items.append(FieldError(field=field, message=_shorten(message)))

    @property
    def full(self) -> bool:
        """True once more errors were seen than are kept: scans may stop looking."""
        return self.total > self.limit

    def __bool__(self) -> bool:
        return self.total > 0

    def raise_if_any(self) -> None:
        if self:
            raise ValidationProblem(self)


class ValidationProblem(ApiProblem):
    """422: the body is well-formed JSON but some fields are invalid."""

    def __init__(self, errors: FieldErrors) -> None:
        if errors.total == 1:
            detail = "1 field is invalid; see 'errors'."
        elif errors.total <= errors.limit:
            detail = f"{errors.total} fields are invalid; see 'errors'."
        else:
            # Scans stop once the list is full, so the total is only a lower bound.
            detail = (
                f"More than {errors.limit} fields are invalid; the first {errors.limit} are listed."
            )
        super().__init__(422, detail, errors=errors.items)


def field_path(loc: Iterable[int | str]) -> str:
    return "/".join(str(part) for part in loc)


def body_loc(loc: tuple[int | str, ...], body: Any, missing: bool) -> tuple[int | str, ...]:
    """``loc`` as a path into ``body``: without the names pydantic gives a union's members
    ("constrained-str", "literal[...]", "none") or a dict's keys ("[key]"), which are no
    fields of the request. ``missing``: the last part is a required field the body lacks."""
    path: list[int | str] = []
    at = body
    for k, part in enumerate(loc):
        in_dict = isinstance(at, dict) and isinstance(part, str) and part in at
        in_list = isinstance(at, list) and isinstance(part, int) and 0 <= part < len(at)
        if in_dict or in_list:
            at = at[part]
        elif not (missing and k == len(loc) - 1):
            continue
        path.append(part)
    return tuple(path)


def validation_problem_from_pydantic(exc: ValidationError, body: bytes | None = None) -> ApiProblem:
    """Map a pydantic error to 400 (the body is not JSON at all) or 422 (it is, but invalid).

    With the ``body``, each bad field gets one entry at its path in the body: a value that
    fits none of a union's members is one error (its messages joined), not one per member.
    """
    details = exc.errors(include_url=False, include_context=False, include_input=False)
    for err in details:
        if err["type"] == "json_invalid":
            reason = err["msg"].removeprefix("Invalid JSON: ")
            return ApiProblem(400, f"The request body is not valid JSON: {reason}.")
    parsed: Any = None
    if body is not None:
        try:
            parsed = json.loads(body)
        except ValueError:
            body = None
    messages: dict[str, list[str]] = {}
    for err in details:
        loc = tuple(err["loc"])
        if body is not None:
            loc = body_loc(loc, parsed, err["type"] == "missing")
        message = "Unknown field" if err["type"] == "extra_forbidden" else err["msg"]
        found = messages.setdefault(field_path(loc), [])
        if message not in found:
            found.append(message)
    errors = FieldErrors()
    for path, found in messages.items():
        rest = [m[:1].lower() + m[1:] for m in found[1:]]
        errors.add(path, "; or ".join([found[0], *rest]) + ".")
    return ValidationProblem(errors)


def problem_response(
    status: int,
    detail: str,
    *,
    errors: list[FieldError] | None = None,
    headers: dict[str, str] | None = None,
    code: str | None = None,
    rows: list[str] | None = None,
) -> Response:
    problem = Problem(
        type=ABOUT_BLANK,
        title=status_title(status),
        status=status,
        detail=detail,
        errors=errors,
        code=code,
        rows=rows,
    )
    response = Response(
        problem.model_dump_json(exclude_none=True), status=status, mimetype=PROBLEM_MIMETYPE
    )
    response.headers.update(headers or {})
    return response


def api_problem_response(exc: ApiProblem) -> Response:
    return problem_response(
        exc.status, exc.detail, errors=exc.errors, headers=exc.headers, code=exc.code, rows=exc.rows
    )


def _requested_path() -> str:
    """The path as sent: werkzeug's ``request.path`` drops extra leading slashes."""
    raw = request.environ.get("PATH_INFO", "")
    return "/" * (len(raw) - len(raw.lstrip("/")) - 1) + request.path


def refuse_empty_path_segments() -> None:
    """A before-request hook: a path with ``//`` anywhere is a 404. Routing already refuses
    one inside the path (``merge_slashes`` is off), but werkzeug matches ``//v1/health`` as
    ``/v1/health``."""
    if request.environ.get("PATH_INFO", "").startswith("//"):
        raise NotFound()


def _http_exception_detail(exc: HTTPException) -> str:
    # werkzeug's descriptions are written for HTML pages; say what went wrong instead.
    if exc.code == 404:
        return f"No route matches {_requested_path()}."
    if isinstance(exc, MethodNotAllowed):
        allowed = ", ".join(sorted(exc.valid_methods or ()))
        return f"{request.method} is not allowed on {request.path}; allowed: {allowed}."
    if isinstance(exc, RequestEntityTooLarge):
        limit = request.max_content_length
        return f"The request body is larger than the limit of {limit} bytes."
    if isinstance(exc, WebsocketMismatch):
        return f"This server serves no WebSocket; send {request.path} as a plain HTTP request."
    return exc.description or status_title(exc.code or 500)


def register_error_handlers(app: Flask) -> None:
    app.before_request(refuse_empty_path_segments)

    @app.errorhandler(ApiProblem)
    def handle_problem(exc: ApiProblem) -> Response:
        return api_problem_response(exc)

    @app.errorhandler(HTTPException)
    def handle_http_exception(exc: HTTPException) -> Response:
        status = exc.code or 500
        headers = {}
        if isinstance(exc, MethodNotAllowed) and exc.valid_methods:
            headers["Allow"] = ", ".join(sorted(exc.valid_methods))
        return problem_response(status, _http_exception_detail(exc), headers=headers)

    @app.errorhandler(Exception)
    def handle_unexpected(exc: Exception) -> Response:
        # Log the traceback for operators; the client only learns that it was our fault.
        app.logger.exception("Unhandled error on %s %s", request.method, request.path)
        return problem_response(500, "An unexpected error occurred while handling the request.")
