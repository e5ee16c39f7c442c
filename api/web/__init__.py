"""The web game's page (templates/, static/) and the API's documentation page (docs/)."""

from __future__ import annotations
