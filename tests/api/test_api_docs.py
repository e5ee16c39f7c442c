"""``GET /docs`` (browsable documentation from the package's own files) and CORS."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from api import create_app
from api.web import docs

# A URL with a scheme or a protocol-relative one: anything that would leave this server.
EXTERNAL = re.compile(
    r"""(?:https?:)?//[\w.-]+\.[a-z]{2,}|(?:src|href)\s*=\s*["']?(?:https?:)?//"""
)


def test_docs_page_and_its_files_are_served_with_a_strict_policy(api_client: FlaskClient) -> None:
    page = api_client.get("/docs")
    assert page.status_code == 200 and page.mimetype == "text/html"
    policy = page.headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "connect-src 'self'" in policy
    html = page.get_data(as_text=True)
    assert 'src="docs/docs.js"' in html and 'href="docs/docs.css"' in html
    for name, mimetype in (("docs.js", "text/javascript"), ("docs.css", "text/css")):
        asset = api_client.get(f"/docs/{name}")
        assert asset.status_code == 200 and asset.mimetype == mimetype
    assert api_client.get("/docs/other.js").status_code == 404
    # The script reads the document this server serves, relative to the page.
    assert 'fetch("openapi.json")' in api_client.get("/docs/docs.js").get_data(as_text=True)


@pytest.mark.parametrize("name", sorted(docs.FILES))
def test_docs_files_make_no_external_requests(name: str) -> None:
    """Every file of the page names nothing outside this server (no CDN, no fonts, no
    analytics); the policy above would block such requests anyway."""
    text = resources.files("api.web.docs").joinpath(name).read_text(encoding="utf-8")
    assert not EXTERNAL.search(text), EXTERNAL.search(text)
    assert "import(" not in text and "@import" not in text


def test_docs_files_ship_in_the_package() -> None:
    folder = Path(docs.__file__).parent
    assert {path.name for path in folder.iterdir()} >= set(docs.FILES)


def test_docs_are_not_rate_limited(tmp_path: Path) -> None:
    client = create_app(
        {"RATELIMIT_DEFAULT": "1/minute", "GAMES_DB": str(tmp_path / "g.sqlite3")}
    ).test_client()
    for _ in range(3):
        assert client.get("/docs").status_code == 200


def test_cors_is_off_by_default(api_client: FlaskClient) -> None:
    response = api_client.post(
        "/v1/evaluate", json={"cards": ["As", "Ks", "Qs"]}, headers={"Origin": "https://a.test"}
    )
    assert response.status_code == 200
    assert "Access-Control-Allow-Origin" not in response.headers


def test_cors_allows_the_configured_origins_only(tmp_path: Path) -> None:
    client = create_app(
        {"CORS_ORIGINS": "https://a.test, https://b.test", "GAMES_DB": str(tmp_path / "g.db")}
    ).test_client()
    preflight = client.options(
        "/v1/banting/games/x/moves",
        headers={
            "Origin": "https://b.test",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "Authorization, If-Match, Content-Type",
        },
    )
    assert preflight.status_code == 200
    assert preflight.headers["Access-Control-Allow-Origin"] == "https://b.test"
    allowed = preflight.headers["Access-Control-Allow-Headers"].lower()
    assert {"authorization", "if-match", "content-type"} <= {h.strip() for h in allowed.split(",")}
    response = client.post(
        "/v1/evaluate", json={"cards": ["As", "Ks", "Qs"]}, headers={"Origin": "https://a.test"}
    )
    assert response.headers["Access-Control-Allow-Origin"] == "https://a.test"
    assert "ETag" in response.headers["Access-Control-Expose-Headers"]
    other = client.post(
        "/v1/evaluate", json={"cards": ["As", "Ks", "Qs"]}, headers={"Origin": "https://c.test"}
    )
    assert other.status_code == 200 and "Access-Control-Allow-Origin" not in other.headers
