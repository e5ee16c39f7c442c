"""Fixtures shared by the test files: the Flask app and its test client, a run of a
test on every batch loop of the poker evaluator, and a local Ray of 2 CPUs."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import capsa_fast
import pytest
from flask import Flask
from flask.testing import FlaskClient

from api import create_app
from tests.poker.helpers import batch_path_set


def pytest_report_header(config: pytest.Config) -> str:
    """Which run-time dispatched loops this run exercises (CAPSA_FAST_ISA caps them)."""
    from capsa_fast import _core

    return (
        f"capsa_fast paths: batch loops {', '.join(capsa_fast.poker.batch_paths())} "
        f"(each_batch_path runs each; default {capsa_fast.poker.batch_path()}), "
        f"Susun scans {_core.susun_scan_path()}, CAPSA_FAST_ISA cap {_core.isa_cap()}"
    )


@pytest.fixture
def api_app(tmp_path: Path) -> Iterator[Flask]:
    yield create_app({"TESTING": True, "GAMES_DB": str(tmp_path / "games.sqlite3")})


@pytest.fixture
def api_client(api_app: Flask) -> FlaskClient:
    return api_app.test_client()


@pytest.fixture(params=capsa_fast.poker.batch_paths())
def each_batch_path(request: pytest.FixtureRequest) -> Iterator[str]:
    """Runs the test once per batch loop this CPU can run (portable reference first)."""
    with batch_path_set(request.param):
        yield request.param


@pytest.fixture(scope="session")
def local_ray() -> Iterator[Any]:
    """A local Ray instance with 2 CPUs, started once for the session (by the first test
    that asks for it) and always shut down at its end."""
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()
