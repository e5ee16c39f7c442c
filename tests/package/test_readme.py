"""The README's examples, run as printed, so none of them can drift.

- Blocks marked ``python`` run in order in one namespace (as a reader pastes them into one
  session). An expression whose comment is a Python literal (``expr  # [1, 2]``, or the
  literal before a ``;``, or a comment on the lines right below it) must equal that literal.
- Blocks marked ``sh`` run with ``bash -euo pipefail``, ``capsa-fast`` on the PATH, against
  the production server started by the test (gunicorn as ``make run`` starts it); their
  ``localhost:8000`` is that server's address, and ``curl`` fails on an HTTP error
  (``--fail-with-body``), so a refused request fails the block.
- ``console`` blocks (the set-up commands) are not run.
- Every ``CAPSA_FAST_*`` setting is in the README's table.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from api.server.settings import AppSettings, ServerSettings
from tests.api.test_server import Server, server
from tests.package import markdown_blocks
from tests.package.markdown_blocks import Block, run_python_blocks, run_shell_block

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"


def blocks(language: str) -> list[Block]:
    return markdown_blocks.blocks(README, language)


def test_python_blocks_run_and_their_commented_values_hold() -> None:
    assert len(blocks("python")) >= 4, "the README's Python examples went missing"
    # The checks found their lines: a parsing slip would otherwise check nothing.
    assert run_python_blocks(README) >= 12


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with server(tmp_path_factory.mktemp("readme")) as up:
        yield up


@pytest.mark.parametrize(
    "block", blocks("sh"), ids=lambda b: f"README.md:{b.line}" if isinstance(b, Block) else ""
)
def test_shell_blocks_run_against_a_live_server(block: Block, live: Server, tmp_path: Path) -> None:
    run_shell_block(README, block, live.port, tmp_path)


def test_every_shell_block_is_run() -> None:
    # The session examples are the ones that drifted: they must be among the run blocks.
    texts = "\n".join(block.text for block in blocks("sh"))
    for needle in ("/v1/banting/games", "/v1/susun/games", "capsa-fast sim", "capsa-fast --help"):
        assert needle in texts


def test_every_setting_is_documented() -> None:
    text = README.read_text(encoding="utf-8")
    for settings in (AppSettings, ServerSettings):
        for name in settings.model_fields:
            assert f"`{settings.variable(name)}`" in text, settings.variable(name)
