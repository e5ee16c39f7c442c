"""The documentation site builds with ``mkdocs build --strict``: no broken link, no missing
page or anchor, no Python reference that does not resolve (mkdocs.yml, docs/).

The second test builds a copy of the site with one broken link added, so a configuration
that stopped being strict would fail here instead of passing with the link unchecked. The
pages' ``python`` blocks run as the README's do (one namespace per page, commented values
checked; ``py`` blocks, which need packages the project does not install, are not run).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.package.markdown_blocks import blocks, run_python_blocks

REPO = Path(__file__).resolve().parents[2]
BUILD_SECONDS = 120
# A Markdown link's target: [text](target) or ![alt](target), up to a space or ')'.
LINK = re.compile(r"\]\(([^)\s]+)\)")
PAGES_WITH_CODE = [p for p in sorted((REPO / "docs").glob("*.md")) if blocks(p, "python")]


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
