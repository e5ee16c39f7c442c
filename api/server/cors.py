"""Cross-origin requests (CORS) with flask-cors, off unless CORS_ORIGINS names origins.

With ``CAPSA_FAST_CORS_ORIGINS="https://a.example,https://b.example"`` (or ``*``) a web page
from those origins may call every route: preflight OPTIONS requests are answered, the
headers a client sends (Authorization, If-Match, Accept-Language, X-Request-Id) are allowed,
and the ones it needs to read (ETag, Retry-After, X-Request-Id, Content-Language, the rate
limit's) are exposed. Credentials (cookies) are never involved: seats use bearer tokens.
"""

from __future__ import annotations

from flask import Flask
from flask_cors import CORS

ALLOWED_HEADERS = ["Authorization", "Content-Type", "If-Match", "Accept-Language", "X-Request-Id"]
EXPOSED_HEADERS = [
    "ETag",
    "Retry-After",
    "X-Request-Id",
    "Content-Language",
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Reset",
]
MAX_AGE_SECONDS = 600


def origins(setting: str) -> list[str]:
    return [origin.strip() for origin in setting.split(",") if origin.strip()]


def init_app(app: Flask) -> None:
    allowed = origins(str(app.config.get("CORS_ORIGINS") or ""))
    if not allowed:
        return
    CORS(
        app,
        origins="*" if "*" in allowed else allowed,
        allow_headers=ALLOWED_HEADERS,
        expose_headers=EXPOSED_HEADERS,
        methods=["GET", "POST", "OPTIONS"],
        max_age=MAX_AGE_SECONDS,
        supports_credentials=False,
        vary_header=True,
    )
