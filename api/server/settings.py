"""Every setting of the app and of its server, read from ``CAPSA_FAST_*`` environment variables
with pydantic-settings: one field per setting, with its type, default and meaning.

:class:`AppSettings` are the app's (``create_app`` starts from their defaults, then the
environment, then the mapping it is given; each lands in ``app.config`` under its config key).
:class:`ServerSettings` are the server's (``api.server.gunicorn_conf``, ``api.server.worker``,
``api.server.asgi``). A variable that does not parse is an error at start-up naming the variable,
never a silently ignored limit. docs/production.md lists them all.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextvars import ContextVar
from typing import Any, ClassVar, Self

from capsa_fast._threads import MAX_THREADS, usable_cores
from pydantic import Field, PositiveFloat, PositiveInt, ValidationError
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from api.poker.equity_schemas import DEFAULT_EQUITY_MAX_SAMPLES
from api.poker.schemas import DEFAULT_MAX_BATCH_HANDS

ENV_PREFIX = "CAPSA_FAST_"
KIB = 1024
MIB = 1024 * KIB
GIB = 1024 * MIB
DAY_SECONDS = 24 * 60 * 60


# False while settings are built from an explicit mapping instead of the environment.
_READ_ENVIRONMENT: ContextVar[bool] = ContextVar("capsa_fast_read_environment", default=True)


class _EnvSettings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, extra="ignore", frozen=True, validate_default=True
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # The environment only (no .env or secrets files), unless a mapping replaces it.
        return (init_settings, env_settings) if _READ_ENVIRONMENT.get() else (init_settings,)

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> Self:
        """The settings from ``environ`` (default: the process environment); ValueError naming
        the first variable that does not parse."""
        values = {
            name: environ[cls.variable(name)]
            for name in cls.model_fields
            if environ is not None and cls.variable(name) in environ
        }
        token = _READ_ENVIRONMENT.set(environ is None)
        try:
            return cls(**values)
        except ValidationError as exc:
            error = exc.errors(include_url=False)[0]
            field = str(error["loc"][0]) if error["loc"] else "?"
            given = error.get("input")
            raise ValueError(f"{cls.variable(field)}: {error['msg']} (got {given!r})") from None
        finally:
            _READ_ENVIRONMENT.reset(token)

    @classmethod
    def variable(cls, name: str) -> str:
        return ENV_PREFIX + name.upper()


class AppSettings(_EnvSettings):
    """The app's settings; each lands in ``app.config`` under the key in ``CONFIG_KEYS`` (its
    name in upper case unless listed)."""

    CONFIG_KEYS: ClassVar[dict[str, str]] = {
        "rate_limit": "RATELIMIT_DEFAULT",
        "rate_limit_storage": "RATELIMIT_STORAGE_URI",
    }

    max_body_bytes: PositiveInt = Field(
        64 * KIB, description="Largest request body on every route but the batch; more is 413."
    )
    max_batch_body_bytes: PositiveInt = Field(
        16 * MIB,
        description="Largest body of POST /v1/evaluate/batch; more is 413 (a full-size "
        "batch of 7-card hands is about 6 MB).",
    )
    max_batch_hands: PositiveInt = Field(
        DEFAULT_MAX_BATCH_HANDS, description="Most hands in one batch request; more is 422."
    )
    equity_time_limit: PositiveFloat = Field(
        1.0,
        allow_inf_nan=False,
        description="Seconds one /v1/poker/equity request may compute: Monte Carlo stops "
        "there, and enumerations estimated to take longer are not started.",
    )
    equity_max_exact_work: PositiveFloat = Field(
        2e8,
        allow_inf_nan=False,
        description="Most hand evaluations (about a nanosecond each) one equity enumeration "
        "may take; larger problems use Monte Carlo, and exact=true over it is 422.",
    )
    equity_max_samples: PositiveInt = Field(
        DEFAULT_EQUITY_MAX_SAMPLES,
        description="Most Monte Carlo draws in one equity request (a larger samples: 422).",
    )
    equity_threads: int = Field(
        1,
        ge=1,
        le=MAX_THREADS,
        description="Threads one equity request uses (the workers already share the cores).",
    )
    games_db: str | None = Field(
        None, description="SQLite file of the game sessions (default: instance/games.sqlite3)."
    )
    # 1 GiB holds some 800,000 games (about 1.3 KB each, a round's moves included); the
    # expiry frees their pages for new ones. 0 leaves the disk as the only bound.
    games_db_max_bytes: int = Field(
        GIB,
        ge=0,
        description="Largest size of the session store; a write that would pass it is 503 "
        "and the health check says 503. 0: no limit but the disk's.",
    )
    games_db_min_free_bytes: int = Field(
        16 * MIB,
        ge=0,
        description="Free disk space the health check wants beside the session store; less "
        "is a 503 (the disk is full or nearly so).",
    )
    store_busy_timeout: PositiveFloat = Field(
        1.0,
        description="The session store's budget: a game request answers within this many "
        "seconds of arriving while the store is locked (503 with Retry-After if it stays so).",
    )
    finished_game_ttl: PositiveInt = Field(
        DAY_SECONDS, description="Seconds a game whose round is over is kept after its last move."
    )
    idle_game_ttl: PositiveInt = Field(
        7 * DAY_SECONDS, description="Seconds a game with a round in progress is kept."
    )
    rate_limit: str = Field(
        "",
        description="Per-client rate limit on every route but /v1/health, /openapi.json and "
        "/docs, e.g. '100/second;2000/minute'. Empty: none.",
    )
    rate_limit_storage: str = Field(
        "memory://", description="Where the rate limiter counts (redis://host:6379 to share)."
    )
    trusted_proxies: int = Field(
        0, ge=0, description="Reverse proxies whose X-Forwarded-For names the client."
    )
    access_log: bool = Field(True, description="One JSON line per request on stderr.")
    cors_origins: str = Field(
        "",
        description="Comma-separated origins allowed to call the API from a browser (CORS), "
        "e.g. 'https://example.org'; '*' for any. Empty: CORS off.",
    )

    def config(self, only_set: bool = False) -> dict[str, Any]:
        """The settings as app config entries (``only_set``: those given, not defaults)."""
        names = self.model_fields_set if only_set else type(self).model_fields
        return {
            self.CONFIG_KEYS.get(name, name.upper()): getattr(self, name)
            for name in names
            if getattr(self, name) is not None
        }


class ServerSettings(_EnvSettings):
    """The server's settings (gunicorn master, uvicorn workers, the bridge's lanes)."""

    host: str = Field("127.0.0.1", description="Address to listen on.")
    port: int = Field(8000, ge=0, le=65535, description="Port to listen on.")
    workers: PositiveInt = Field(
        default_factory=usable_cores, description="Worker processes (default: one per core)."
    )
    # Two, not more: a worker's Python runs one thread at a time (the GIL), so more threads
    # only queue for it. Mixed load, same period, 2 vs 4: 1,106 vs 940 req/s (median of
    # three runs each), p99 45 vs 58 ms (docs/production.md).
    compute_threads: PositiveInt = Field(
        2, description="Threads per worker for the stateless routes."
    )
    store_threads: PositiveInt = Field(
        2, description="Threads per worker for the game session routes (the store's lane)."
    )
    bulk_threads: PositiveInt = Field(1, description="Threads per worker for batch requests.")
    lane_queue_limit: PositiveInt = Field(
        64,
        description="Requests one lane of a worker may hold (running and waiting); more are "
        "503 at once.",
    )
    max_connections: PositiveInt = Field(
        4096, description="Open connections per worker; past that new requests get 503."
    )
    header_timeout: PositiveFloat = Field(
        10.0, description="Seconds a request's line and headers may take to arrive; then 408."
    )
    max_header_bytes: PositiveInt = Field(
        64 * KIB, description="Largest request line plus headers; more is 431."
    )
    body_timeout: PositiveFloat = Field(
        30.0, description="Seconds a request's body may take to arrive; then 408."
    )
    keepalive: PositiveInt = Field(5, description="Seconds an idle kept-alive connection lives.")
    timeout: PositiveInt = Field(
        30, description="Seconds a worker may go without a heartbeat before it is replaced."
    )
    graceful_timeout: PositiveInt = Field(
        30, description="Seconds in-flight requests get to finish on SIGTERM."
    )
    # Fifty thousand, not fewer: each restart leaves one worker serving alone for a second
    # or two (they restart one at a time). Mixed load with slow clients, 0 vs 10,000: 891
    # and 937 vs 847 and 892 req/s, p99 about 8 ms higher (docs/production.md).
    max_requests: int = Field(
        50_000, ge=0, description="Requests after which a worker is replaced (0: never)."
    )
    max_requests_jitter: int = Field(
        5_000, ge=0, description="Up to this many more, at random per worker."
    )
    backlog: PositiveInt = Field(2048, description="Listen backlog.")
    log_level: str = Field("info", description="gunicorn's log level.")
    capture_output: bool = Field(False, description="Send workers' stray prints to the log.")


def defaults() -> dict[str, Any]:
    """Every app setting's default, as config entries."""
    return AppSettings.from_environment({}).config()


def config_entries(config: Mapping[str, Any]) -> dict[str, Any]:
    """``config`` with each setting also accepted under its own name (its variable without
    ``CAPSA_FAST_``): ``RATE_LIMIT`` lands as Flask-Limiter's ``RATELIMIT_DEFAULT``."""
    keys = {name.upper(): key for name, key in AppSettings.CONFIG_KEYS.items()}
    return {keys.get(name, name): value for name, value in config.items()}


def from_environment(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The app settings given as ``CAPSA_FAST_*`` variables, parsed, as config entries;
    ValueError naming the variable when one does not parse."""
    return AppSettings.from_environment(environ).config(only_set=True)
