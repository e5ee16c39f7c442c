"""What the wheel holds and what each install gives (issue 14, "Packaging").

The wheel is built from this checkout with pip (no build isolation, into the build folder
the editable install already uses, so it recompiles nothing after ``make install``) and then
checked three ways: its file list against the source folders, its metadata (the library's
dependencies without the server's, the ``server`` extra with them, the ``capsa-fast``
command), and the unpacked wheel imported on its own (outside this checkout) serving the API,
the page with its static files, and the /docs page.

A separate check runs the library and the command line in a process where every server
dependency fails to import, as after ``pip install .`` without the extra.
"""

from __future__ import annotations

import email.parser
import os
import subprocess
import sys
import sysconfig
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
WHEEL_BUILD_SECONDS = 600
RUN_SECONDS = 120
# Imports only the server needs: none of them may be needed by the library or the CLI.
SERVER_MODULES = (
    "flask",
    "werkzeug",
    "pydantic",
    "pydantic_settings",
    "gunicorn",
    "uvicorn",
    "uvicorn_worker",
    "flask_limiter",
    "flask_cors",
    "pythonjsonlogger",
)


def _source_files(folder: Path, inside: str) -> set[str]:
    """Every file of a package folder as the wheel names it (``inside`` + relative path),
    without bytecode caches and built extensions."""
    return {
        f"{inside}/{path.relative_to(folder).as_posix()}"
        for path in folder.rglob("*")
        if path.is_file()
        and "__pycache__" not in path.parts
        and path.suffix not in {".pyc", ".so", ".pyd"}
    }


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            *(sys.executable, "-m", "pip", "wheel", str(REPO)),
            *("--no-build-isolation", "--no-deps", "--no-index", "-q", "-w", str(out)),
        ],
        check=True,
        cwd=REPO,
        timeout=WHEEL_BUILD_SECONDS,
    )
    (found,) = out.glob("capsa_fast-*.whl")
    yield found


def test_the_wheel_holds_the_library_the_server_and_their_files(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = _source_files(REPO / "api", "api") | _source_files(
        REPO / "python" / "capsa_fast", "capsa_fast"
    )
    assert expected - names == set()
    # The page's files, its template and the docs page are data, not Python: named here so
    # a packaging change that drops non-Python files fails even if the folders move.
    for name in (
        "api/web/templates/index.html",
        "api/web/static/main.js",
        "api/web/static/app.css",
        "api/web/docs/index.html",
        "api/web/docs/docs.js",
        "api/server/gunicorn_conf.py",
        "capsa_fast/py.typed",
    ):
        assert name in names
    assert any(n.startswith("capsa_fast/_core") and n.endswith((".so", ".pyd")) for n in names)
    assert not any("__pycache__" in n or n.startswith(("tests/", "bench/", "cpp/")) for n in names)


def test_the_wheel_metadata_splits_the_library_from_the_server(wheel: Path) -> None:
    archive = zipfile.ZipFile(wheel)
    info = next(n.split("/")[0] for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
    metadata = email.parser.Parser().parsestr(archive.read(f"{info}/METADATA").decode())
    requires = metadata.get_all("Requires-Dist") or []
    plain = {r.split(";")[0].split(">")[0].split("=")[0].strip() for r in requires if ";" not in r}
    server = {r.split(";")[0].split(">")[0].strip() for r in requires if 'extra == "server"' in r}
    assert plain == {"numpy", "click", "rich"}
    assert {"flask", "pydantic", "pydantic-settings", "gunicorn", "uvicorn"} <= server
    assert not server & {"pytest", "ruff", "mypy", "selenium", "schemathesis"}
    entry_points = archive.read(f"{info}/entry_points.txt").decode()
    assert "capsa-fast = capsa_fast.cli:main" in entry_points


def test_the_unpacked_wheel_serves_on_its_own(wheel: Path, tmp_path: Path) -> None:
    """The wheel's files alone (the checkout's editable install switched off with -S; the
    dependencies from the environment's site-packages) serve the API, the page and /docs."""
    unpacked = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(unpacked)
    script = """
import re, api, capsa_fast
from api import create_app
from api.server.asgi import create_asgi_app
import api.server.gunicorn_conf
root = sys.argv[1]
assert api.__file__.startswith(root) and capsa_fast.__file__.startswith(root), (api.__file__,)
client = create_app({"TESTING": True, "ACCESS_LOG": False}).test_client()
page = client.get("/")
assert page.status_code == 200, page.status_code
assets = re.findall(rb'(?:src|href)="(/static/[^"]+)"', page.data)
assert assets and all(client.get(a.decode()).status_code == 200 for a in assets), assets
assert client.get("/docs").status_code == 200
assert client.get("/docs/docs.js").status_code == 200
answer = client.post("/v1/evaluate", json={"cards": [51, 47, 43, 39, 35]}).get_json()
assert answer["category"] == "straight_flush", answer
assert callable(create_asgi_app)
print("served from", root)
"""
    site_packages = sysconfig.get_paths()["purelib"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(unpacked), site_packages])}
    done = subprocess.run(
        [sys.executable, "-S", "-c", "import sys\n" + script, str(unpacked)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=RUN_SECONDS,
    )
    assert done.returncode == 0, done.stderr
    assert f"served from {unpacked}" in done.stdout


def test_the_library_and_command_line_need_no_server_dependency() -> None:
    """As after ``pip install .``: with every server module unimportable, the library and
    the command line work, and ``capsa-fast serve`` says which extra to install."""
    script = f"""
import sys
class Blocked:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {SERVER_MODULES!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}} (blocked by the test)")
        return None
sys.meta_path.insert(0, Blocked())
import capsa_fast
from capsa_fast import banting, poker, susun
assert poker.evaluate(["As", "Ks", "Qs", "Js", "Ts"]).category == "straight_flush"
assert len(banting.deal("B4K7M2Q9XZ1")) == 4
from click.testing import CliRunner
from capsa_fast.cli import main
runner = CliRunner()
ok = runner.invoke(main, ["eval", "--json", "Qs Qd 7c 4h 2s"])
assert ok.exit_code == 0, ok.output
refused = runner.invoke(main, ["serve", "--json"])
assert refused.exit_code == 1, refused.output
assert 'pip install "capsa_fast[server]"' in refused.output, refused.output
assert not any(m.split(".")[0] in {SERVER_MODULES!r} for m in sys.modules)
print("library alone: ok")
"""
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=RUN_SECONDS,
    )
    assert done.returncode == 0, done.stderr + done.stdout
    assert "library alone: ok" in done.stdout


def test_make_run_installs_the_server_extra_only() -> None:
    """`make run` needs the serving stamp only; the test tools come with `make test`."""
    dry = subprocess.run(
        ["make", "-n", "-B", "run"], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert dry.returncode == 0, dry.stderr
    installs = [line for line in dry.stdout.splitlines() if "pip install" in line]
    assert any('".[server]"' in line for line in installs), installs
    assert not any("test" in line or "docs" in line for line in installs), installs
    assert "capsa-fast serve" in dry.stdout
    dry_test = subprocess.run(
        ["make", "-n", "-B", "pytest"], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    # The suite builds the documentation too (tests/package/test_docs.py).
    assert '".[server,test,docs]"' in dry_test.stdout


def test_the_long_run_modules_are_attributes_of_their_packages() -> None:
    # The README calls banting.sim.simulate, banting.duplicate.play and
    # susun.tournament.play after `from capsa_fast import banting, susun`; in a fresh
    # interpreter (no other test has imported the submodules) that must work as written.
    code = (
        "from capsa_fast import banting, susun\n"
        "print(banting.sim.simulate.__name__, banting.duplicate.play.__name__, "
        "susun.tournament.play.__name__)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout.split() == ["simulate", "play", "play"]
