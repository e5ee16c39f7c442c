"""Structured access logs: one JSON object per request, on the ``capsa_fast.access`` logger.

A line holds what an operator needs to follow a request and nothing a seat would not want
shared: method, path (game ids included, never a query string, body or token), status,
duration, response size, client address and a request id. The id comes from the client's
``X-Request-Id`` when it is a short plain token, else it is made here; either way the
response carries it back, so a client's report can be matched to the line. "Short" is at
most 40 characters: room for a UUID or a 32-digit trace id, and none for a seat's token
(43 characters), so a client that sends its token as its request id does not get it
written into the log.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import sys
import time
from datetime import UTC, datetime
from typing import Any

from flask import Flask, Response, g, request
from pythonjsonlogger.json import JsonFormatter as JsonFormatterBase

from api.server.routing import LIVE_SEAT_ENVIRON_KEY

LOGGER_NAME = "capsa_fast.access"
REQUEST_ID_HEADER = "X-Request-Id"
# At most 40: a seat's token (api.server.game_store.TOKEN_BYTES, 43 characters) never fits.
_CLIENT_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,40}")


class JsonFormatter(JsonFormatterBase):
    """A record as one JSON line (python-json-logger): time, level, logger, message, then
    the record's ``fields`` (given as ``extra``) flat, and ``exception`` with a traceback."""

    def __init__(self) -> None:
        super().__init__(
            "%(message)s",
            rename_fields={"exc_info": "exception"},
            json_ensure_ascii=False,
            json_serializer=_compact_dumps,
        )

    def add_fields(
        self, log_record: dict[str, Any], record: logging.LogRecord, message_dict: dict[str, Any]
    ) -> None:
        log_record["time"] = datetime.fromtimestamp(record.created, UTC).isoformat(
            timespec="milliseconds"
        )
        log_record["level"] = record.levelname.lower()
        log_record["logger"] = record.name
        super().add_fields(log_record, record, message_dict)
        # uvicorn's own records carry the message again with terminal colour codes.
        log_record.pop("color_message", None)
        log_record.update(log_record.pop("fields", None) or {})


def _compact_dumps(value: Any, **kwargs: Any) -> str:
    return json.dumps(value, separators=(",", ":"), **kwargs)


def access_logger() -> logging.Logger:
    """The access logger, writing JSON lines to stderr unless a handler was set up already
    (by an embedding application or a test)."""
    logger = logging.getLogger(LOGGER_NAME)
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonFormatter())
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False
    return logger


def request_id() -> str:
    """This request's id (the client's when usable, else a new random one)."""
    rid: str | None = g.get("request_id")
    if rid is None:
        given = request.headers.get(REQUEST_ID_HEADER, "")
        rid = given if _CLIENT_REQUEST_ID.fullmatch(given) else secrets.token_hex(8)
        g.request_id = rid
    return rid


def init_app(app: Flask) -> None:
    """Time every request, give it an id, and (if ACCESS_LOG) log it when it is answered."""
    logger = access_logger() if app.config.get("ACCESS_LOG", True) else None

    @app.before_request
    def _start() -> None:
        g.started = time.perf_counter()
        request_id()

    @app.after_request
    def _finish(response: Response) -> Response:
        response.headers[REQUEST_ID_HEADER] = request_id()
        # The live stream's own view requests (api.server.live) are not the client's.
        if logger is not None and LIVE_SEAT_ENVIRON_KEY not in request.environ:
            started = g.get("started", time.perf_counter())
            fields = {
                "event": "request",
                "method": request.method,
                "path": request.path,
                "status": response.status_code,
                "duration_ms": round((time.perf_counter() - started) * 1000, 3),
                "bytes": response.calculate_content_length(),
                "client": request.remote_addr,
                "request_id": request_id(),
            }
            logger.info(
                "%s %s %s",
                request.method,
                request.path,
                response.status_code,
                extra={"fields": fields},
            )
        return response
