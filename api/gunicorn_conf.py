"""gunicorn settings for the production server, from ``CAPSA_FAST_*`` environment variables.

``make run`` starts ``gunicorn -c python:api.gunicorn_conf 'api:create_app()'``. The app's
own settings (limits, database, rate limit) are read by ``api.settings``; the README lists
both. The app is loaded once in the master before the workers fork (``preload_app``), so a
bad setting stops the server at start-up with a message naming it, not in every worker.

Shutdown: on SIGTERM or SIGINT the master stops accepting connections and each worker
finishes the request it is serving (for up to ``graceful_timeout`` seconds) before it exits.
Every game move is committed to SQLite before its response is sent, so a graceful stop never
loses a move that a client was told about.
"""

from __future__ import annotations

import os

from api.settings import parse_bool, parse_positive_int


def _env(name: str, default: str) -> str:
    return os.environ.get(f"CAPSA_FAST_{name}", default)


def _int(name: str, default: int) -> int:
    try:
        return parse_positive_int(_env(name, str(default)))
    except ValueError as exc:
        raise ValueError(f"CAPSA_FAST_{name}: {exc}") from None


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


bind = f"{_env('HOST', '127.0.0.1')}:{_int('PORT', 8000)}"
# Sync workers, two per core: a sync worker spends part of each request off the CPU (it
# waits for the client to close the connection), and a full-size batch holds one worker
# for ~0.2 s without stalling the others. Measured best on 2 cores (README, "Load").
workers = _int("WORKERS", 2 * _cores())
threads = _int("THREADS", 1)  # > 1 switches gunicorn to its gthread worker
# A worker silent for this long is killed and replaced (the bound on any one request).
timeout = _int("TIMEOUT", 30)
graceful_timeout = _int("GRACEFUL_TIMEOUT", 30)
keepalive = _int("KEEPALIVE", 5)  # seconds (gthread workers keep connections alive)
backlog = _int("BACKLOG", 2048)
# Bounds on the request line and headers before the app sees anything.
limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 8190
preload_app = True
# The app writes its own JSON access log (api.access_log); gunicorn's would repeat it.
accesslog = None
errorlog = "-"
loglevel = _env("LOG_LEVEL", "info")
proc_name = "capsa_fast"
# gunicorn 23+ opens a control socket in $HOME by default; two servers would share it.
control_socket_disable = True
capture_output = parse_bool(_env("CAPTURE_OUTPUT", "false"))

# gunicorn's own messages (start, worker boot and exit, shutdown) as JSON lines as well.
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "api.access_log.JsonFormatter"}},
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "formatter": "json",
            "stream": "ext://sys.stderr",
        }
    },
    "loggers": {
        "gunicorn.error": {"handlers": ["stderr"], "level": loglevel.upper(), "propagate": False},
        "gunicorn.access": {"handlers": [], "propagate": False},
    },
    "root": {"handlers": ["stderr"], "level": "WARNING"},
}
