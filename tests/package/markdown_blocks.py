"""Fenced code blocks of a Markdown file (the README, the docs' pages), run as a reader
would run them.

- ``python`` blocks in order, in one namespace, checking each expression whose comment is
  a Python literal (``expr  # [1, 2]``, or the literal before a ``;``, or a comment on the
  lines right below it) against that literal;
- ``sh`` blocks with ``bash -euo pipefail``, ``capsa-fast`` on the PATH, against a live
  server: their ``localhost:8000`` is that server's address, and ``curl`` fails on an HTTP
  error (``--fail-with-body``), so a refused request fails the block.
"""

from __future__ import annotations

import ast
import io
import os
import re
import subprocess
import sys
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SHELL_BLOCK_SECONDS = 300
CURL_FAILS_ON_HTTP_ERRORS = 'curl() { command curl --fail-with-body "$@"; }\n'
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Block:
    language: str
    line: int  # of the opening fence in its file
    text: str


def blocks(path: Path, language: str) -> list[Block]:
    text = path.read_text(encoding="utf-8")
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


def run_python_blocks(path: Path) -> int:
    """Runs the file's ``python`` blocks in one namespace; fails naming the file and line of
    an expression that does not equal its commented value. Returns how many were checked."""
    namespace: dict[str, Any] = {"__name__": path.stem}
    checked = 0
    for block in blocks(path, "python"):
        name = f"{path.name}:{block.line}"
        expectations = checked_expressions(block.text)
        # One statement at a time, so each checked expression is evaluated where it stands.
        for node in ast.parse(block.text).body:
            where = f"{path.name}:{block.line + node.lineno}"
            if isinstance(node, ast.Expr) and node.lineno in expectations:
                got = eval(compile(ast.Expression(node.value), name, "eval"), namespace)
                assert got == expectations[node.lineno], (where, got)
                checked += 1
            else:
                exec(compile(ast.Module([node], type_ignores=[]), name, "exec"), namespace)
    return checked


def run_shell_block(path: Path, block: Block, port: int, cwd: Path) -> None:
    """Runs one ``sh`` block against the server on 127.0.0.1:``port``, in ``cwd``; fails
    naming the file and line, with the end of the block's output."""
    script = CURL_FAILS_ON_HTTP_ERRORS + block.text.replace("localhost:8000", f"127.0.0.1:{port}")
    env = {
        **os.environ,
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
    }
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=SHELL_BLOCK_SECONDS,
    )
    assert done.returncode == 0, (
        f"{path.name}:{block.line} failed ({done.returncode}):\n{done.stderr[-3000:]}\n"
        f"{done.stdout[-2000:]}"
    )
