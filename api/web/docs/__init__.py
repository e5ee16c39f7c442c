"""``GET /docs``: the API's documentation, browsable, from its own OpenAPI document.

A small page of this package's own (``index.html``, ``docs.js``, ``docs.css``, served from
these files, no CDN) reads ``/openapi.json`` and shows every operation by tag: its summary,
description, parameters, request body (schema and example), responses, and a form that sends
the example (or an edited body) to the server and shows the answer. The page is served with
a Content-Security-Policy that allows nothing but this server, so it cannot load or send
anything elsewhere.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from flask import Blueprint, Response

bp = Blueprint("docs", __name__)

# Nothing but this server: scripts, styles, fetches and images come from here or nowhere.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
FILES = {"index.html": "text/html", "docs.js": "text/javascript", "docs.css": "text/css"}
PATHS = ("/docs", "/docs/docs.js", "/docs/docs.css")


@cache
def _read(name: str) -> bytes:
    return resources.files(__name__).joinpath(name).read_bytes()


def _serve(name: str) -> Response:
    response = Response(_read(name), mimetype=FILES[name])
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Cache-Control"] = "public, max-age=300"
    return response


@bp.get("/docs")
def page() -> Response:
    return _serve("index.html")


@bp.get("/docs/<any('docs.js', 'docs.css'):name>")
def asset(name: str) -> Response:
    return _serve(name)
