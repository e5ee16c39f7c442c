"""The web game (WEB.md): ``GET /`` serves the one page, ``/static/…`` its modules and styles.

The page is a client of the public HTTP API like any other (it calls the same /v1 routes),
so these routes hold no game logic. They are a plain Blueprint, not a ModelBlueprint: they
answer HTML, JavaScript and CSS rather than JSON, so ``api.openapi`` leaves them out of the
API's document (which describes the JSON routes only), as it would Flask's own static route.

Caching: a page load revalidates every file (``no-cache`` with an ETag, a 304 when nothing
changed), so a new version of the page is never mixed with old modules; on localhost a
revalidation costs well under a millisecond. The page sets a strict Content-Security-Policy:
everything comes from this origin, no inline script, nothing fetched from outside.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, render_template, send_from_directory

STATIC_DIR = Path(__file__).parent / "static"
TEMPLATE_DIR = Path(__file__).parent / "templates"

bp = Blueprint(
    "web",
    __name__,
    static_folder=None,
    template_folder=str(TEMPLATE_DIR),
)

# The page's ES modules, preloaded from the template so the browser fetches them in one
# round instead of discovering the import graph level by level.
MODULES = sorted(path.relative_to(STATIC_DIR).as_posix() for path in STATIC_DIR.rglob("*.js"))

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


def _page_headers(response: Response) -> Response:
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    # The address may hold a round code (/?code=…): never pass it on to another site.
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@bp.get("/")
def page() -> Response:
    """The game page. ``/?code=…`` opens a shared round; the page reads the code itself."""
    response = Response(render_template("index.html", modules=MODULES), mimetype="text/html")
    response.headers["Cache-Control"] = "no-cache"
    return _page_headers(response)


@bp.get("/static/<path:filename>")
def static_file(filename: str) -> Response:
    """A file of the page (404 problem for anything else); revalidated on every load."""
    response = send_from_directory(STATIC_DIR, filename, max_age=0, conditional=True, etag=True)
    response.headers["Cache-Control"] = "no-cache"
    return _page_headers(response)
