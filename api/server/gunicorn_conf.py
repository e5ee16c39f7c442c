"""gunicorn settings for the production server, from ``CAPSA_FAST_*`` environment variables.

``make run`` and ``capsa-fast serve`` start
``gunicorn -c python:api.server.gunicorn_conf 'api.server.asgi:create_asgi_app()'``. The
settings are ``api.server.settings.ServerSettings`` (the app's own are ``AppSettings``);
docs/production.md lists both.

The design (docs/production.md): gunicorn's master runs one worker process per core; each
worker is uvicorn (``api.server.worker``: an event loop that reads requests whole, with deadlines
and size caps on headers and bodies) in front of the Flask app, which runs in thread pools
per kind of route (``api.server.bridge``). A slow client holds a few KB of an event loop, never a
thread. Workers are replaced after ``max_requests`` plus up to ``max_requests_jitter``
requests (at random per worker, so they do not all restart at once), which gives back the
memory a heavy request left behind.

The app is loaded once in the master before the workers fork (``preload_app``), so a bad
setting stops the server at start-up with a message naming it, not in every worker.

Shutdown: on SIGTERM or SIGINT the master stops accepting connections and each worker
finishes the requests it is serving (for up to ``graceful_timeout`` seconds) before it exits.
Every game move is committed to SQLite before its response is sent, so a graceful stop never
loses a move that a client was told about.
"""

from __future__ import annotations

from api.server.settings import ServerSettings

_settings = ServerSettings.from_environment()

bind = f"{_settings.host}:{_settings.port}"
workers = _settings.workers
worker_class = "api.server.worker.Worker"
# The worker's event loop sends the heartbeat: a worker whose loop stalls this long is
# replaced (requests themselves run in threads and are bounded by their own limits).
timeout = _settings.timeout
graceful_timeout = _settings.graceful_timeout
keepalive = _settings.keepalive
backlog = _settings.backlog
max_requests = _settings.max_requests
max_requests_jitter = _settings.max_requests_jitter
preload_app = True
# The app writes its own JSON access log (api.server.access_log); gunicorn's would repeat it.
accesslog = None
errorlog = "-"
loglevel = _settings.log_level
proc_name = "capsa_fast"
# gunicorn 23+ opens a control socket in $HOME by default; two servers would share it.
control_socket_disable = True
capture_output = _settings.capture_output

# gunicorn's and uvicorn's own messages (start, worker boot and exit, shutdown) as JSON
# lines as well.
_json_handler = {
    "class": "logging.StreamHandler",
    "formatter": "json",
    "stream": "ext://sys.stderr",
}
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "api.server.access_log.JsonFormatter"}},
    "handlers": {"stderr": _json_handler},
    "loggers": {
        "gunicorn.error": {"handlers": ["stderr"], "level": loglevel.upper(), "propagate": False},
        "gunicorn.access": {"handlers": [], "propagate": False},
    },
    "root": {"handlers": ["stderr"], "level": "WARNING"},
}
