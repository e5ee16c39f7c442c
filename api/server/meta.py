"""Service routes: health check, every game's rule presets and the OpenAPI document."""

from __future__ import annotations

import sqlite3
from typing import Any

import capsa_fast
from flask import current_app
from pydantic import Field

from api.banting import routes as banting
from api.banting.schemas import PresetsResponse
from api.server import sessions
from api.server.openapi import build_openapi
from api.server.routing import ModelBlueprint
from api.server.schemas import Health, ResponseModel
from api.susun import routes as susun
from api.susun.schemas import SusunPresetsResponse

bp = ModelBlueprint("meta", __name__, tag="meta")

_OPENAPI_KEY = "capsa_fast_api.openapi"


class AllPresetsResponse(ResponseModel):
    """Presets of every game, by game."""

    banting: PresetsResponse = Field(description="Capsa Banting presets.")
    susun: SusunPresetsResponse = Field(description="Capsa Susun presets.")


# Its own lane (api.server.bridge), so heavy stateless requests filling "compute" do not hold up
# the probe that monitors the server.
@bp.json_get(
    "/v1/health", response_model=Health, summary="Health check", problems=(503,), lane="probe"
)
def health() -> Health:
    """200 while the app can serve requests: the engine is loaded and the game session store
    can be opened and read. 503 (a problem naming the failed check) otherwise."""
    try:
        sessions.store(current_app).check()
    except (sqlite3.Error, OSError) as exc:
        raise sessions.store_unavailable(exc) from None
    return Health(status="ok", version=capsa_fast.__version__, checks={"session_store": "ok"})


@bp.json_get(
    "/v1/rules/presets", response_model=AllPresetsResponse, summary="Every game's rule presets"
)
def all_presets() -> AllPresetsResponse:
    """The presets of each game with all their settings, and each game's default."""
    return AllPresetsResponse(banting=banting.presets(), susun=susun.presets())


@bp.json_get("/openapi.json", response_model=None, summary="This API's OpenAPI 3.1 document")
def openapi() -> dict[str, Any]:
    """Generated from the same pydantic models that validate requests."""
    # Routes are fixed once the app serves traffic, so build the document once per app.
    document: dict[str, Any] | None = current_app.extensions.get(_OPENAPI_KEY)
    if document is None:
        document = build_openapi(
            current_app, title="capsa_fast API", version=capsa_fast.__version__
        )
        current_app.extensions[_OPENAPI_KEY] = document
    return document
