"""The app factory: create_app (re-exported as ``api.create_app``).

Production: ``capsa-fast serve`` (or ``make run``), which runs
``gunicorn -c python:api.server.gunicorn_conf 'api.server.asgi:create_asgi_app()'``: this app
behind the uvicorn workers of ``api.server.worker`` and the lanes of ``api.server.bridge``.
Development: ``flask --app api run``. Settings: ``api.server.settings``.

The server's dependencies are the package's "server" extra: ``pip install
"capsa_fast[server]"``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from api.banting import games as banting_games
from api.banting import routes as banting
from api.poker import equity
from api.poker import evaluate as poker
from api.server import access_log, cors, meta, rate_limit, settings
from api.server.errors import register_error_handlers
from api.susun import games as susun_games
from api.susun import routes as susun
from api.web import docs
from api.web import page as web

__all__ = ["DEFAULT_CONFIG", "create_app", "default_games_db"]

# Every setting's default (api.server.settings documents each); GAMES_DB defaults to the instance
# folder, resolved per app.
DEFAULT_CONFIG: dict[str, Any] = settings.defaults()


def default_games_db(app: Flask) -> str:
    """The session store when ``GAMES_DB`` is not set: in the app's instance folder."""
    return os.path.join(app.instance_path, "games.sqlite3")


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app: :data:`DEFAULT_CONFIG`, then ``CAPSA_FAST_*`` environment variables,
    then ``config``. A setting that does not parse raises ValueError naming it."""
    # "api", not this module's name: the app's name, root path and instance folder stay those
    # of the top-level package.
    app = Flask("api", static_folder=None)
    # '//' in a path is a 404 problem like any unknown path, not werkzeug's HTML redirect
    # (routing redirects never reach the error handlers).
    app.url_map.merge_slashes = False
    app.config.from_mapping(DEFAULT_CONFIG)
    app.config["GAMES_DB"] = default_games_db(app)
    app.config.from_mapping(settings.from_environment())
    if config:
        app.config.from_mapping(settings.config_entries(config))
    proxies = int(app.config.get("TRUSTED_PROXIES") or 0)
    if proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies)  # type: ignore[method-assign]
    access_log.init_app(app)  # first, so it times and ids every request, refused ones too
    rate_limit.init_app(app)
    cors.init_app(app)
    register_error_handlers(app)
    app.register_blueprint(meta.bp)
    app.register_blueprint(poker.bp)
    app.register_blueprint(equity.bp)
    app.register_blueprint(banting.bp)
    app.register_blueprint(banting_games.bp)
    app.register_blueprint(susun.bp)
    app.register_blueprint(susun_games.bp)
    app.register_blueprint(docs.bp)
    app.register_blueprint(web.bp)  # the web game's page (WEB.md), outside the API document
    return app
