"""The documentation: the site and the examples in it.

- ``mkdocs build --strict`` passes: no broken link, no missing page or anchor, no Python
  reference that does not resolve (mkdocs.yml, docs/); and a copy of the site with one
  broken link added fails, so a configuration that stopped being strict fails here too;
- every ``CAPSA_FAST_*`` setting of the server is in the production page's table;
- the README's and CONTRIBUTING's relative links (outside the site) point at files;
- the pages' ``python`` and ``sh`` blocks run as the README's do (one namespace per page,
  commented values checked; the shell blocks against a live server); ``py`` blocks (they
  need packages the project does not install) and ``console`` blocks (set-up steps) are
  not run.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from api.server.settings import AppSettings, ServerSettings
from tests.api.test_server import Server, server
from tests.package.markdown_blocks import Block, blocks, run_python_blocks, run_shell_block

REPO = Path(__file__).resolve().parents[2]
BUILD_SECONDS = 120
# A Markdown link's target: [text](target) or ![alt](target), up to a space or ')'.
LINK = re.compile(r"\]\(([^)\s]+)\)")
PAGES = sorted((REPO / "docs").glob("*.md"))
PAGES_WITH_CODE = [page for page in PAGES if blocks(page, "python")]
SHELL_BLOCKS = [(page, block) for page in PAGES for block in blocks(page, "sh")]


def build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
        cwd=config.parent,
        capture_output=True,
        text=True,
        timeout=BUILD_SECONDS,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )


def test_the_docs_build_strictly(tmp_path: Path) -> None:
    done = build(REPO / "mkdocs.yml", tmp_path / "site")
    assert done.returncode == 0, done.stderr[-4000:]
    site = tmp_path / "site"
    for page in ("index", "playing", "rules", "http-api", "performance", "internals"):
        path = site / (page + ".html" if page == "index" else page + "/index.html")
        assert path.is_file(), path
    # mkdocstrings rendered the reference from the docstrings and the C++ module's stub.
    core = (site / "reference" / "core" / "index.html").read_text(encoding="utf-8")
    assert 'id="capsa_fast._core.evaluate_batch"' in core
    banting = (site / "reference" / "banting" / "index.html").read_text(encoding="utf-8")
    assert 'id="capsa_fast.banting.Game"' in banting


def test_every_setting_is_on_the_production_page() -> None:
    text = (REPO / "docs" / "production.md").read_text(encoding="utf-8")
    for settings in (AppSettings, ServerSettings):
        for name in settings.model_fields:
            assert (
                f"| `{settings.variable(name)}`" in text or f", `{settings.variable(name)}`" in text
            ), settings.variable(name)


def test_the_readme_and_contributing_link_to_files_that_exist() -> None:
    # mkdocs checks the site's links; these two files live outside it, at the root.
    for name in ("README.md", "CONTRIBUTING.md"):
        text = (REPO / name).read_text(encoding="utf-8")
        targets = [t for t in LINK.findall(text) if "://" not in t and not t.startswith("#")]
        assert targets, f"{name}: no links found"
        for target in targets:
            path = REPO / target.split("#", 1)[0]
            assert path.exists(), f"{name} links to {target}, which does not exist"


def test_a_broken_link_fails_the_build(tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copy(REPO / "mkdocs.yml", copy / "mkdocs.yml")
    shutil.copytree(REPO / "docs", copy / "docs")
    (copy / "python").symlink_to(REPO / "python", target_is_directory=True)
    index = copy / "docs" / "index.md"
    index.write_text(
        index.read_text(encoding="utf-8") + "\n[gone](no-such-page.md)\n", encoding="utf-8"
    )
    done = build(copy / "mkdocs.yml", tmp_path / "site")
    assert done.returncode != 0, "a link to a missing page passed --strict"
    assert "no-such-page.md" in done.stderr, done.stderr[-4000:]


def test_the_pages_with_python_examples_are_found() -> None:
    names = {page.name for page in PAGES_WITH_CODE}
    assert {"library.md", "rl.md"} <= names, names


@pytest.mark.parametrize("page", PAGES_WITH_CODE, ids=lambda page: page.name)
def test_python_blocks_run_and_their_commented_values_hold(page: Path) -> None:
    # Each page checks some values: a parsing slip would otherwise check nothing.
    assert run_python_blocks(page) >= 3


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with server(tmp_path_factory.mktemp("docs")) as up:
        yield up


@pytest.mark.parametrize(
    ("page", "block"),
    SHELL_BLOCKS,
    ids=[f"{page.name}:{block.line}" for page, block in SHELL_BLOCKS],
)
def test_shell_blocks_run_against_a_live_server(
    page: Path, block: Block, live: Server, tmp_path: Path
) -> None:
    run_shell_block(page, block, live.port, tmp_path)
