"""A typed client, generated from the live server's /openapi.json, plays the games.

The server is the production one (gunicorn, as ``make run`` starts it). openapi-python-client
generates a client from the document it serves; tests/api/typed_client_program.py, a game
loop written against that client, and the client itself pass ``mypy --strict`` (cards and
rules go from responses into requests with no cast); then the program plays a Capsa Banting
round against three bots and puts down a Capsa Susun arrangement through it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.api.test_openapi_client import generate_client
from tests.api.test_server import Server, server

PROGRAM = Path(__file__).with_name("typed_client_program.py")


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with server(tmp_path_factory.mktemp("typed-client-server")) as running:
        yield running


@pytest.fixture(scope="module")
def client_folder(live: Server, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The generated client package and a copy of the program, side by side."""
    status, document = live.request("GET", "/openapi.json")
    assert status == 200
    folder = generate_client(document, tmp_path_factory.mktemp("typed-client"))
    shutil.copy(PROGRAM, folder / PROGRAM.name)
    return folder


def test_the_program_and_the_client_pass_mypy_strict(client_folder: Path) -> None:
    config = client_folder / "mypy.ini"  # not the project's configuration
    config.write_text("[mypy]\n", encoding="utf-8")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--config-file",
            str(config),
            "--cache-dir",
            str(client_folder / ".mypy_cache"),
            PROGRAM.name,
            "capsa_fast_api_client",
        ],
        cwd=client_folder,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert output.startswith("Success: no issues found"), output


def test_the_program_plays_a_banting_round_and_a_susun_arrangement(
    client_folder: Path, live: Server
) -> None:
    result = subprocess.run(
        [sys.executable, PROGRAM.name, f"http://127.0.0.1:{live.port}"],
        cwd=client_folder,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 3, result.stdout
    assert lines[0].startswith("banting: round over, winner seat "), lines
    assert lines[1].startswith("susun: rows put down"), lines
    assert lines[2] == "done"
