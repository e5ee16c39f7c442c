"""Which code may import which: the layout's direction of imports, read from the source.

The library (``python/capsa_fast``) never imports its own command line: the commands in
``capsa_fast/cli/`` import the library, and only the entry points (``__main__.py`` modules,
run by ``python -m``) reach into ``cli``. Every import statement counts, at the top of a
module or inside a function, absolute or relative, and so does ``importlib.import_module``
with a literal name.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

# The checkout's root, wherever under tests/ this file sits.
ROOT = next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").is_file())
LIBRARY = ROOT / "python" / "capsa_fast"
HELP_OPTION = re.compile(r"^ *(-h, )?--help +Show this message and exit\.$", re.MULTILINE)


def module_name(path: Path, top: Path) -> str:
    """The dotted name of the module at ``path`` in the package whose folder is ``top``."""
    parts = [top.name, *path.relative_to(top).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_names(path: Path, top: Path) -> list[tuple[str, int]]:
    """Every module the source at ``path`` imports, as absolute dotted names with their line:
    ``from X import a`` gives X and X.a (a may be a submodule), relative imports resolved
    against the module's own package, ``importlib.import_module("X")`` gives X."""
    name = module_name(path, top)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                if node.level - 1 >= len(base_parts):
                    raise AssertionError(f"{path}:{node.lineno}: relative import above the top")
                base = ".".join(base_parts[: len(base_parts) - (node.level - 1)])
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            found.append((source, node.lineno))
            found += [(f"{source}.{alias.name}", node.lineno) for alias in node.names]
        elif isinstance(node, ast.Call) and called(node) in ("import_module", "__import__"):
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.append((first.value, node.lineno))
    return found


def called(node: ast.Call) -> str:
    """The name a call calls: ``f`` for ``f(...)`` and ``m.f(...)``."""
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return node.func.id if isinstance(node.func, ast.Name) else ""


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_the_library_never_imports_its_command_line() -> None:
    cli = LIBRARY / "cli"
    modules = sorted(LIBRARY.rglob("*.py"))
    assert len(modules) > 20 and cli / "sim.py" in modules  # the walk sees the package
    wrong = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in modules
        if cli not in path.parents and path.name != "__main__.py"
        for name, line in imported_names(path, LIBRARY)
        if within(name, "capsa_fast.cli") or name.rpartition(".")[2] == "__main__"
    ]
    assert not wrong, "the library imports the command line:\n" + "\n".join(wrong)


@pytest.mark.parametrize(
    ("source", "where", "expected"),
    [
        ("from ..cli.sim import command", "banting/sim.py", "capsa_fast.cli.sim"),
        ("from ... import cli", "banting/sim/__init__.py", "capsa_fast.cli"),
        ("import capsa_fast.cli._common as c", "susun/ev.py", "capsa_fast.cli._common"),
        (
            "def main():\n    from .cli import _common\n",
            "__init__.py",
            "capsa_fast.cli._common",
        ),
        ("importlib.import_module('capsa_fast.cli.sim')", "poker.py", "capsa_fast.cli.sim"),
    ],
)
def test_every_kind_of_import_is_seen(
    tmp_path: Path, source: str, where: str, expected: str
) -> None:
    top = tmp_path / "capsa_fast"
    path = top / where
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source + "\n", encoding="utf-8")
    assert expected in [name for name, _ in imported_names(path, top)]


@pytest.mark.parametrize(
    ("module", "command"),
    [("capsa_fast.banting.sim", "sim"), ("capsa_fast.susun.tournament", "tournament")],
)
def test_the_library_entry_points_still_run_their_commands(module: str, command: str) -> None:
    # `python -m` on a library module runs the command through its __main__.py, with the
    # same options as `capsa-fast COMMAND` and no warning from runpy.
    def help_text(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", *args, "--help"], capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0 and done.stderr == "", done.stderr
        return done.stdout

    def words(text: str, prog: str) -> list[str]:
        # The same words however wide the lines, the help option aside (`capsa-fast` adds -h).
        body, found = HELP_OPTION.subn("", text.replace(prog, "PROG"))
        assert found == 1, text
        return body.split()

    own = help_text(module)
    assert own.startswith(f"Usage: python -m {module} [OPTIONS]")
    through_cli = help_text("capsa_fast", command)
    assert words(own, f"python -m {module}") == words(
        through_cli, f"python -m capsa_fast {command}"
    )
