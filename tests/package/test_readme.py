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

import ast
import io
import os
import re
import subprocess
import sys
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from api.server.settings import AppSettings, ServerSettings
from tests.api.test_server import Server, server

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
SHELL_BLOCK_SECONDS = 300
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Block:
    language: str
    line: int  # of the opening fence in README.md
    text: str


def blocks(language: str) -> list[Block]:
    text = README.read_text(encoding="utf-8")
    return [
        Block(m.group(1), text.count("\n", 0, m.start()) + 1, m.group(2))
        for m in FENCE.finditer(text)
        if m.group(1) == language
    ]


def expected_value(comment: str) -> tuple[bool, Any]:
    """(True, value) when the comment (without '#') is a literal, or starts with one ended
    by ';'; else (False, None)."""
    for candidate in (comment, comment.split(";", 1)[0]):
        try:
            return True, ast.literal_eval(candidate.strip())
        except (ValueError, SyntaxError):
            continue
    return False, None


def checked_expressions(source: str) -> dict[int, Any]:
    """The expected value of each top-level expression statement whose comment is a
    literal, by the statement's first line."""
    tree = ast.parse(source)
    comments: dict[int, str] = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            comments[token.start[0]] = token.string[1:].strip()
    lines = source.splitlines()
    starts = sorted(node.lineno for node in tree.body)
    found: dict[int, Any] = {}
    for node in tree.body:
        if not isinstance(node, ast.Expr):
            continue
        end = node.end_lineno or node.lineno
        candidates = [n for n in range(node.lineno, end + 1) if n in comments]
        # Comment-only lines right below the statement continue its comment.
        below = end + 1
        while below <= len(lines) and lines[below - 1].strip().startswith("#"):
            if below in starts:
                break
            candidates.append(below)
            below += 1
        for number in candidates:
            ok, value = expected_value(comments[number])
            if ok:
                found[node.lineno] = value
                break
    return found


def test_python_blocks_run_and_their_commented_values_hold() -> None:
    found = blocks("python")
    assert len(found) >= 4, "the README's Python examples went missing"
    namespace: dict[str, Any] = {"__name__": "readme"}
    checked = 0
    for block in found:
        name = f"README.md:{block.line}"
        expectations = checked_expressions(block.text)
        # One statement at a time, so each checked expression is evaluated where it stands.
        for node in ast.parse(block.text).body:
            where = f"README.md:{block.line + node.lineno}"
            if isinstance(node, ast.Expr) and node.lineno in expectations:
                got = eval(compile(ast.Expression(node.value), name, "eval"), namespace)
                assert got == expectations[node.lineno], where
                checked += 1
            else:
                exec(compile(ast.Module([node], type_ignores=[]), name, "exec"), namespace)
    # The checks found their lines: a parsing slip would otherwise check nothing.
    assert checked >= 12


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with server(tmp_path_factory.mktemp("readme")) as up:
        yield up


CURL_FAILS_ON_HTTP_ERRORS = 'curl() { command curl --fail-with-body "$@"; }\n'


@pytest.mark.parametrize(
    "block", blocks("sh"), ids=lambda b: f"README.md:{b.line}" if isinstance(b, Block) else ""
)
def test_shell_blocks_run_against_a_live_server(block: Block, live: Server, tmp_path: Path) -> None:
    script = CURL_FAILS_ON_HTTP_ERRORS + block.text.replace(
        "localhost:8000", f"127.0.0.1:{live.port}"
    )
    env = {
        **os.environ,
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
    }
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=SHELL_BLOCK_SECONDS,
    )
    assert done.returncode == 0, (
        f"README.md:{block.line} failed ({done.returncode}):\n{done.stderr[-3000:]}\n"
        f"{done.stdout[-2000:]}"
    )


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
