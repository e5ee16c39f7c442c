"""Fenced code blocks of a Markdown file (the README, the docs' pages), and running its
``python`` blocks as a reader would: in order, in one namespace, checking each expression
whose comment is a Python literal (``expr  # [1, 2]``, or the literal before a ``;``, or a
comment on the lines right below it) against that literal.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
