"""The api/ packages' direction of imports, read from the source: a game's package (Banting,
Susun, poker) and the page's package never import one another; what they share lives in
``api.server``. Every import statement counts, at the top of a module or inside a function,
absolute or relative, and so does ``importlib.import_module`` with a literal name.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").is_file())
API = ROOT / "api"
SHARED = "server"
# The packages of api/ that serve one part each: all but the shared one.
PARTS = ("banting", "poker", "susun", "web")


def api_packages(top: Path) -> list[str]:
    return sorted(p.parent.name for p in top.glob("*/__init__.py"))


def dotted(path: Path, top: Path) -> tuple[str, ...]:
    """``api/susun/games.py`` -> (api, susun, games); a package's __init__ is the package."""
    parts = (top.name, *path.relative_to(top).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def sources(path: Path, top: Path) -> list[tuple[str, int]]:
    """The absolute names a module imports, with their lines. ``from X import a`` names X.a
    as well as X, since ``a`` may be a submodule (``from api import susun``)."""
    here = dotted(path, top)
    package = here if path.name == "__init__.py" else here[:-1]
    names: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                kept = package[: len(package) - node.level + 1]
                base = ".".join(part for part in (*kept, node.module) if part)
            names.append((base, node.lineno))
            names.extend((f"{base}.{alias.name}", node.lineno) for alias in node.names)
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            callee = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            first = node.args[0]
            if callee in ("import_module", "__import__") and isinstance(first, ast.Constant):
                names.append((str(first.value), node.lineno))
    return names


def crossings(top: Path) -> list[str]:
    """Each import by one part's package of another part's package, as 'file:line -> package'."""
    found: dict[str, None] = {}
    others = [[part] for part in PARTS]
    for part in PARTS:
        for path in sorted((top / part).rglob("*.py")):
            for name, line in sources(path, top):
                pieces = name.split(".")
                if pieces[0] == top.name and pieces[1:2] != [part] and pieces[1:2] in others:
                    where = path.relative_to(top.parent).as_posix()
                    found[f"{where}:{line} -> {top.name}.{pieces[1]}"] = None
    return list(found)


def test_api_is_the_packages_of_the_layout() -> None:
    assert api_packages(API) == sorted((SHARED, *PARTS))
    assert [p.name for p in API.glob("*.py")] == ["__init__.py"], "modules belong in a package"


def test_no_part_of_api_imports_another_part() -> None:
    assert len(list((API / "susun").rglob("*.py"))) >= 4  # the walk sees the modules
    wrong = crossings(API)
    assert not wrong, "a package of api/ imports another's (share through api.server):\n" + (
        "\n".join(wrong)
    )


def fake_api(tmp_path: Path, where: str, source: str) -> Path:
    top = tmp_path / "api"
    for part in (SHARED, *PARTS):
        (top / part).mkdir(parents=True)
        (top / part / "__init__.py").write_text('"""A part."""\n', encoding="utf-8")
    (top / where).write_text(source + "\n", encoding="utf-8")
    return top


@pytest.mark.parametrize(
    ("where", "source", "crossed"),
    [
        (
            "susun/games_schemas.py",
            "from api.banting.games_schemas import GameVersion",
            "1 -> api.banting",
        ),
        ("susun/games.py", "import api.banting.games as banting_games", "1 -> api.banting"),
        ("banting/routes.py", "from api import susun", "1 -> api.susun"),
        ("banting/games.py", "def f():\n    from ..susun import schemas", "2 -> api.susun"),
        ("banting/__init__.py", "from .. import poker", "1 -> api.poker"),
        ("poker/evaluate.py", "importlib.import_module('api.web.page')", "1 -> api.web"),
        ("web/page.py", "from api.susun.routes import bp", "1 -> api.susun"),
    ],
)
def test_every_kind_of_crossing_is_seen(
    tmp_path: Path, where: str, source: str, crossed: str
) -> None:
    assert crossings(fake_api(tmp_path, where, source)) == [f"api/{where}:{crossed}"]


@pytest.mark.parametrize(
    ("where", "source"),
    [
        ("susun/games_schemas.py", "from api.server.session_schemas import GameVersion"),
        ("banting/games.py", "from api.server import sessions"),
        ("banting/routes.py", "from .schemas import Rules"),
        ("poker/equity.py", "from ..server import cards"),
        ("web/page.py", "import api.server.errors"),
    ],
)
def test_the_shared_package_and_the_own_are_allowed(
    tmp_path: Path, where: str, source: str
) -> None:
    assert crossings(fake_api(tmp_path, where, source)) == []
