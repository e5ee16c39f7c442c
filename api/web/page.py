"""The web game (WEB.md): ``GET /`` serves the one page, ``/static/<version>/…`` its modules,
stylesheet and icon.

The page is a client of the public HTTP API like any other (it calls the same /v1 routes),
so these routes hold no game logic. They are a plain Blueprint, not a ModelBlueprint: they
answer HTML, JavaScript and CSS rather than JSON, so ``api.server.openapi`` leaves them out of the
API's document (which describes the JSON routes only), as it would Flask's own static route.

Caching: the files live under a version, a hash of their contents, so they can be cached
for good (``immutable``): a browser asks for them once, and a changed file gets a new
version and so a new address. The ES modules import each other by relative paths, which
stay inside the same version. The page itself (``/``) is revalidated on every load, so it
always names the current version. The page sets a strict Content-Security-Policy:
everything comes from this origin, no inline script or style, nothing from outside.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from flask import Blueprint, Response, render_template, send_from_directory

STATIC_DIR = Path(__file__).parent / "static"
TEMPLATE_DIR = Path(__file__).parent / "templates"
# Hex digits of the content hash that name a version of the files.
VERSION_DIGITS = 12
FOREVER = 365 * 24 * 3600

bp = Blueprint("web", __name__, static_folder=None, template_folder=str(TEMPLATE_DIR))

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
        "object-src 'none'",
    )
)


def _files() -> list[Path]:
    return sorted(path for path in STATIC_DIR.rglob("*") if path.is_file())


_seen: dict[tuple[tuple[str, int, int], ...], str] = {}


def asset_version() -> str:
    """The hash of every file under api/web/static (names and contents). Recomputed only when a
    file's size or modification time changes, so an edited file is served under a new
    version even by a server that keeps running (as the development server does)."""
    files = _files()
    key = tuple((p.relative_to(STATIC_DIR).as_posix(), *_stamp(p)) for p in files)
    found = _seen.get(key)
    if found is None:
        digest = hashlib.sha256()
        for path in files:
            digest.update(path.relative_to(STATIC_DIR).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
        found = digest.hexdigest()[:VERSION_DIGITS]
        _seen.clear()
        _seen[key] = found
    return found


def _stamp(path: Path) -> tuple[int, int]:
    stat = path.stat()
    return stat.st_size, stat.st_mtime_ns


def modules() -> list[str]:
    """The page's ES modules, preloaded from the template so the browser fetches them in one
    round instead of discovering the import graph level by level."""
    return [p.relative_to(STATIC_DIR).as_posix() for p in _files() if p.suffix == ".js"]


def _page_headers(response: Response) -> Response:
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    # The address may hold a round code (/?code=…): never pass it on to another site.
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@bp.get("/")
def page() -> Response:
    """The game page. ``/?code=…`` opens a shared round; the page reads the code itself."""
    html = render_template("index.html", version=asset_version(), modules=modules())
    response = Response(html, mimetype="text/html")
    response.headers["Cache-Control"] = "no-cache"
    return _page_headers(response)


@bp.get("/static/<version>/<path:filename>")
def static_file(version: str, filename: str) -> Response:
    """A file of the page (a 404 problem for anything else). Under the current version it
    may be cached for good; under another (a page loaded before the files changed) it is
    the current file, which must then not be cached under that old name."""
    response = send_from_directory(STATIC_DIR, filename, conditional=True, etag=True)
    if version == asset_version():
        response.headers["Cache-Control"] = f"public, max-age={FOREVER}, immutable"
    else:
        response.headers["Cache-Control"] = "no-cache"
    return _page_headers(response)
