"""HTTP JSON API over capsa_fast.

Production: ``capsa-fast serve`` (or ``make run``), which runs
``gunicorn -c python:api.server.gunicorn_conf 'api.server.asgi:create_asgi_app()'``: the app of
``create_app`` behind the uvicorn workers of ``api.server.worker`` and the lanes of
``api.server.bridge``. Development: ``flask --app api run``. Settings: ``api.server.settings``.

The packages, one per part the API serves: ``api.server`` (the app factory, settings, the
ASGI bridge, the worker, the session store, what every route shares), ``api.poker``
(evaluate, equity), ``api.banting`` (Capsa Banting), ``api.susun`` (Capsa Susun) and
``api.web`` (the game's page and the API's documentation page). No game package imports
another's.

The server's dependencies are the package's "server" extra: ``pip install
"capsa_fast[server]"``.
"""

from __future__ import annotations

from api.server.app import DEFAULT_CONFIG, create_app, default_games_db

__all__ = ["DEFAULT_CONFIG", "create_app", "default_games_db"]
