"""Per-client rate limiting with Flask-Limiter, off unless RATELIMIT_DEFAULT is set.

The limit (e.g. "100/second;2000/minute") applies to each client address on every route
except the health check and the OpenAPI document, which monitors and tools poll. Counters
live in RATELIMIT_STORAGE_URI: "memory://" keeps them per worker process (so with N workers
a client may get up to N times the limit); a shared store such as "redis://host:6379" makes
the limit hold across workers and hosts. A request over the limit gets a 429 problem with
Retry-After; every limited response carries X-RateLimit-Limit/-Remaining/-Reset.
"""

from __future__ import annotations

from flask import Flask, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse_many

from api.server.routing import LIVE_SEAT_ENVIRON_KEY

# Routes never limited: liveness probes and the API description and its page.
EXEMPT_PATHS = frozenset(
    {"/v1/health", "/openapi.json", "/docs", "/docs/docs.js", "/docs/docs.css"}
)
_EXTENSION_KEY = "capsa_fast_api.limiter"


def _exempt() -> bool:
    # The live stream's own view requests too: its pushes are the server's, not the client's.
    return request.path in EXEMPT_PATHS or LIVE_SEAT_ENVIRON_KEY in request.environ


def init_app(app: Flask) -> Limiter | None:
    """Attach the limiter when a limit is configured; None (and no overhead) otherwise."""
    limit = str(app.config.get("RATELIMIT_DEFAULT") or "").strip()
    if not limit:
        return None
    try:
        parse_many(limit)
    except ValueError as exc:
        raise ValueError(f"rate limit {limit!r} does not parse: {exc}") from None
    app.config["RATELIMIT_DEFAULT"] = limit
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    limiter = Limiter(
        key_func=get_remote_address,
        app=app,
        default_limits_exempt_when=_exempt,
    )
    app.extensions[_EXTENSION_KEY] = limiter
    return limiter
