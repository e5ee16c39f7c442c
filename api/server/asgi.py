"""The app as the production server runs it: ``create_app()`` behind ``api.server.bridge``.

``gunicorn -c python:api.server.gunicorn_conf 'api.server.asgi:create_asgi_app()'`` (what
``make run`` and ``capsa-fast serve`` start). Each route runs in its lane: game sessions in
"store" (a locked session store holds those threads only), the batch and equity in "bulk",
the health check in "probe" (one thread of its own), everything else in "compute"; body
limits are the route's (``MAX_BATCH_BODY_BYTES`` for the batch, ``MAX_BODY_BYTES``
elsewhere), applied before a body is read.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

from flask import Flask
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RequestRedirect

from api.server.app import create_app
from api.server.bridge import Route, WsgiBridge
from api.server.live.stream import LiveFront
from api.server.routing import ModelBlueprint
from api.server.settings import ServerSettings

__all__ = ["create_asgi_app", "router"]

LANES = ("compute", "store", "bulk", "probe")


def router(app: Flask) -> Callable[[str, str], Route]:
    """The lane and body limit of a request to ``app``, from the route it matches (a path no
    route matches gets the small limit and the compute lane; the app then answers 404)."""
    adapter = app.url_map.bind("localhost")
    table: dict[str, tuple[str, str]] = {
        f"{bp.name}.{op.endpoint}": (op.lane, op.body_limit)
        for bp in app.blueprints.values()
        if isinstance(bp, ModelBlueprint)
        for op in bp.operations
    }
    config = app.config

    def route(method: str, path: str) -> Route:
        try:
            endpoint, _ = adapter.match(path, method)
        except (HTTPException, RequestRedirect):
            return Route("compute", int(config["MAX_BODY_BYTES"]))
        lane, limit = table.get(str(endpoint), ("compute", "MAX_BODY_BYTES"))
        return Route(lane, int(config[limit]))

    return route


def create_asgi_app(
    config: Mapping[str, Any] | None = None, server: ServerSettings | None = None
) -> LiveFront:
    """The ASGI app: the live events streams (``api.server.live``) in front of
    ``create_app(config)`` behind the bridge, sized by ``server`` (default: the
    ``CAPSA_FAST_*`` environment)."""
    app = create_app(config)
    server = server or ServerSettings.from_environment()
    bridge = WsgiBridge(
        app,
        lanes={
            "compute": server.compute_threads,
            "store": server.store_threads,
            "bulk": server.bulk_threads,
            "probe": 1,  # the health check alone: it answers while the others are full
        },
        route=router(app),
        body_timeout=server.body_timeout,
        queue_limit=server.lane_queue_limit,
        access_log=bool(app.config.get("ACCESS_LOG", True)),
        budgets={"store": float(app.config["STORE_BUSY_TIMEOUT"])},
    )
    return LiveFront(bridge, lambda: os.fspath(app.config["GAMES_DB"]))
