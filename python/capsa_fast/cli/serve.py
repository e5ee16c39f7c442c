"""``capsa-fast serve``: the HTTP API, served as in production (gunicorn, uvicorn workers)."""

from __future__ import annotations

import os
import sys

import click

from ._common import emit_json, json_option

APP = "api.server.asgi:create_asgi_app()"
CONFIG = "python:api.server.gunicorn_conf"


@click.command(name="serve")
@click.option("--host", help="Address to listen on [CAPSA_FAST_HOST, default 127.0.0.1].")
@click.option("--port", type=int, help="Port [CAPSA_FAST_PORT, default 8000].")
@click.option("--workers", type=int, help="Worker processes [CAPSA_FAST_WORKERS, one per core].")
@json_option
def command(host: str | None, port: int | None, workers: int | None, as_json: bool) -> None:
    """Serve the HTTP API: gunicorn with api/server/gunicorn_conf.py, the same command `make run`
    starts. Every other setting comes from its CAPSA_FAST_* variable (docs/production.md lists
    them). With --json: print the settings it would serve with, as one JSON object,
    and exit. Needs the server's dependencies: pip install "capsa_fast[server]".
    """
    given = {"HOST": host, "PORT": port, "WORKERS": workers}
    for name, value in given.items():
        if value is not None:
            os.environ[f"CAPSA_FAST_{name}"] = str(value)
    try:
        from api.server.settings import AppSettings, ServerSettings
    except ImportError as exc:
        raise click.ClickException(
            f"the server's dependencies are not installed ({exc}); "
            'install them with: pip install "capsa_fast[server]"'
        ) from None
    try:
        server = ServerSettings.from_environment()
        app = AppSettings.from_environment()
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        app_settings = app.model_dump()
        if app_settings["games_db"] is None:
            from flask import Flask

            from api import default_games_db

            app_settings["games_db"] = default_games_db(Flask("api"))
        emit_json(
            {
                "command": [sys.executable, "-m", "gunicorn", "-c", CONFIG, APP],
                "server": server.model_dump(),
                "app": app_settings,
            }
        )
        return
    # The process becomes gunicorn: signals (SIGTERM for a graceful stop) go straight to it.
    os.execv(sys.executable, [sys.executable, "-m", "gunicorn", "-c", CONFIG, APP])
