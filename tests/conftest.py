"""Fixtures shared by the test files: the Flask app and its test client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api import create_app


@pytest.fixture
def api_app(tmp_path: Path) -> Iterator[Flask]:
    yield create_app({"TESTING": True, "GAMES_DB": str(tmp_path / "games.sqlite3")})


@pytest.fixture
def api_client(api_app: Flask) -> FlaskClient:
    return api_app.test_client()
