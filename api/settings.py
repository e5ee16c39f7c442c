"""The app's settings: each one's config key, environment variable, type, default and meaning.

``create_app`` starts from these defaults, then reads the ``CAPSA_FAST_*`` environment
variables, then the mapping it is given. A variable that does not parse is an error at start-up
naming the variable, never a silently ignored limit. The server's own settings (host, port,
workers, timeouts) are read by ``api.gunicorn_conf``; the README lists both.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from api.equity_schemas import DEFAULT_EQUITY_MAX_SAMPLES
from api.schemas import DEFAULT_MAX_BATCH_HANDS

ENV_PREFIX = "CAPSA_FAST_"
MIB = 1024 * 1024
DAY_SECONDS = 24 * 60 * 60


def parse_bool(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in {"1", "true", "yes", "on"}:
        return True
    if lowered in {"0", "false", "no", "off", ""}:
        return False
    raise ValueError(f"expected true/false, 1/0, yes/no or on/off, got {text!r}")


def parse_positive_int(text: str) -> int:
    value = int(text.strip().replace("_", ""))
    if value <= 0:
        raise ValueError(f"expected a positive integer, got {text!r}")
    return value


def parse_count(text: str) -> int:
    """A non-negative integer (0 turns the setting off where the setting says so)."""
    value = int(text.strip().replace("_", ""))
    if value < 0:
        raise ValueError(f"expected an integer >= 0, got {text!r}")
    return value


def parse_positive_float(text: str) -> float:
    """A number above 0 (seconds, counts written as 2e8)."""
    value = float(text.strip().replace("_", ""))
    if not value > 0 or value == float("inf"):
        raise ValueError(f"expected a number above 0, got {text!r}")
    return value


@dataclass(frozen=True, slots=True)
class Setting:
    key: str  # in app.config
    env: str  # the environment variable, without the CAPSA_FAST_ prefix
    parse: Callable[[str], Any]
    default: Any
    help: str

    @property
    def variable(self) -> str:
        return ENV_PREFIX + self.env


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "MAX_CONTENT_LENGTH",
        "MAX_BODY_BYTES",
        parse_positive_int,
        16 * MIB,
        "Largest request body; bigger ones get 413. 16 MiB fits a full-size 7-card batch.",
    ),
    Setting(
        "MAX_BATCH_HANDS",
        "MAX_BATCH_HANDS",
        parse_positive_int,
        DEFAULT_MAX_BATCH_HANDS,
        "Most hands in one /v1/evaluate/batch request; more get 422.",
    ),
    Setting(
        "EQUITY_TIME_LIMIT",
        "EQUITY_TIME_LIMIT",
        parse_positive_float,
        1.0,
        "Seconds one /v1/poker/equity request may compute: Monte Carlo stops there, and "
        "enumerations estimated to take longer are not started.",
    ),
    Setting(
        "EQUITY_MAX_EXACT_WORK",
        "EQUITY_MAX_EXACT_WORK",
        parse_positive_float,
        2e8,
        "Most hand evaluations (about a nanosecond each) one equity enumeration may take; "
        "larger problems use Monte Carlo, and an explicit exact=true over it gets 422.",
    ),
    Setting(
        "EQUITY_MAX_SAMPLES",
        "EQUITY_MAX_SAMPLES",
        parse_positive_int,
        DEFAULT_EQUITY_MAX_SAMPLES,
        "Most Monte Carlo draws in one equity request (an explicit larger samples: 422).",
    ),
    Setting(
        "EQUITY_THREADS",
        "EQUITY_THREADS",
        parse_positive_int,
        1,
        "Threads one equity request uses (the workers already share the cores).",
    ),
    Setting(
        "GAMES_DB",
        "GAMES_DB",
        str,
        None,  # the instance folder's games.sqlite3, resolved by create_app
        "SQLite file of the Banting game sessions (created on first use).",
    ),
    Setting(
        "FINISHED_GAME_TTL",
        "FINISHED_GAME_TTL",
        parse_positive_int,
        DAY_SECONDS,
        "Seconds a game whose round is over is kept after its last move; then it is 404.",
    ),
    Setting(
        "IDLE_GAME_TTL",
        "IDLE_GAME_TTL",
        parse_positive_int,
        7 * DAY_SECONDS,
        "Seconds a game with a round in progress is kept after its last move.",
    ),
    Setting(
        "RATELIMIT_DEFAULT",
        "RATE_LIMIT",
        str,
        "",
        "Per-client rate limit on every route but /v1/health and /openapi.json, e.g. "
        "'100/second;2000/minute'. Empty: no limit. Over it: 429 with Retry-After.",
    ),
    Setting(
        "RATELIMIT_STORAGE_URI",
        "RATE_LIMIT_STORAGE",
        str,
        "memory://",
        "Where the rate limiter counts: memory:// is per worker process; a shared store "
        "(e.g. redis://host:6379) makes the limit hold across workers and hosts.",
    ),
    Setting(
        "TRUSTED_PROXIES",
        "TRUSTED_PROXIES",
        parse_count,
        0,
        "Number of reverse proxies in front of the app whose X-Forwarded-For is trusted to "
        "name the client (for rate limits and logs). 0: the socket's peer is the client.",
    ),
    Setting(
        "ACCESS_LOG",
        "ACCESS_LOG",
        parse_bool,
        True,
        "One JSON line per request on stderr (method, path, status, duration, request id).",
    ),
)


def defaults() -> dict[str, Any]:
    return {s.key: s.default for s in SETTINGS if s.default is not None}


def from_environment(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The settings given as ``CAPSA_FAST_*`` variables, parsed; ValueError naming the
    variable when one does not parse."""
    environ = os.environ if environ is None else environ
    config: dict[str, Any] = {}
    for setting in SETTINGS:
        text = environ.get(setting.variable)
        if text is None:
            continue
        try:
            config[setting.key] = setting.parse(text)
        except ValueError as exc:
            raise ValueError(f"{setting.variable}: {exc}") from None
    return config
