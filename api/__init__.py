"""HTTP JSON API over capsa_fast.

Production: ``gunicorn 'api:create_app()'``. Development: ``flask --app api run``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask

from api import banting, games, meta, poker, susun
from api.errors import register_error_handlers
from api.schemas import DEFAULT_MAX_BATCH_HANDS

__all__ = ["DEFAULT_CONFIG", "create_app"]

DEFAULT_CONFIG: dict[str, Any] = {
    # Request bodies above this get a 413. A 100,000-hand batch of 7 cards is about 4.4 MB
    # of compact JSON and under 8 MB with spaces or \u2660-escaped suits, so 16 MiB fits it.
    "MAX_CONTENT_LENGTH": 16 * 1024 * 1024,
    # Most hands one /v1/evaluate/batch request may carry.
    "MAX_BATCH_HANDS": DEFAULT_MAX_BATCH_HANDS,
    # "GAMES_DB": the SQLite file of the Banting game sessions. Default: the environment
    # variable CAPSA_FAST_GAMES_DB, else games.sqlite3 in the app's instance folder.
}


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app; ``config`` overrides :data:`DEFAULT_CONFIG` and Flask's defaults."""
    app = Flask(__name__, static_folder=None)
    app.config.from_mapping(DEFAULT_CONFIG)
    app.config["GAMES_DB"] = games.default_games_db(app)
    if config:
        app.config.from_mapping(config)
    register_error_handlers(app)
    app.register_blueprint(meta.bp)
    app.register_blueprint(poker.bp)
    app.register_blueprint(banting.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(susun.bp)
    return app
