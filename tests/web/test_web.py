"""The web page's routes (api.web.page) and its files, without a browser: what is served, with
which headers, and that the page's strings and DOM hooks are complete. The page itself is
played in a real browser by tests/web/browser."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from api.web import page as web
from tests.api.helpers import assert_problem

STATIC = Path(web.__file__).parent / "static"
MODULES = sorted(STATIC.rglob("*.js"))


def test_page_is_served_with_a_strict_policy(api_client: FlaskClient) -> None:
    response = api_client.get("/")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy
    assert "'unsafe-inline'" not in policy  # no inline script or style anywhere
    assert response.headers["Referrer-Policy"] == "no-referrer"  # /?code=… stays here
    assert response.headers["Cache-Control"] == "no-cache"
    html = response.get_data(as_text=True)
    assert '<html lang="id">' in html  # Indonesian by default
    assert '<body data-state="setup">' in html
    assert "<script>" not in html and "style=" not in html
    assert not re.search(r"(src|href)=\"(https?:)?//", html), "nothing from another site"


def test_a_round_link_opens_the_same_page(api_client: FlaskClient) -> None:
    plain = api_client.get("/").get_data(as_text=True)
    linked = api_client.get("/?code=B4K7M2Q9XZ1")
    assert linked.status_code == 200
    assert linked.get_data(as_text=True) == plain  # the page reads the code itself


def test_every_module_is_preloaded_and_served(api_client: FlaskClient) -> None:
    html = api_client.get("/").get_data(as_text=True)
    version = web.asset_version()
    preloaded = set(
        re.findall(rf'<link rel="modulepreload" href="/static/{version}/([^"]+)">', html)
    )
    assert preloaded == {path.relative_to(STATIC).as_posix() for path in MODULES}
    assert f'<script type="module" src="/static/{version}/main.js">' in html
    for name in sorted(preloaded):
        response = api_client.get(f"/static/{version}/{name}")
        response.close()  # a file response holds its file open until closed
        assert response.status_code == 200, name
        assert response.mimetype in ("text/javascript", "application/javascript"), name
        assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_files_of_this_version_are_cached_for_good(api_client: FlaskClient) -> None:
    version = web.asset_version()
    assert re.fullmatch(r"[0-9a-f]{12}", version)
    current = api_client.get(f"/static/{version}/app.css")
    current.close()
    assert current.status_code == 200
    assert current.mimetype == "text/css"
    assert current.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    # A page from before a change asks for an old version: it gets the file, uncached.
    old = api_client.get("/static/000000000000/app.css")
    old.close()
    assert old.status_code == 200
    assert old.headers["Cache-Control"] == "no-cache"
    tag = current.headers["ETag"]
    again = api_client.get(f"/static/{version}/app.css", headers={"If-None-Match": tag})
    again.close()
    assert again.status_code == 304


def test_the_version_follows_the_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a.js").write_text("export const a = 1;\n")
    monkeypatch.setattr(web, "STATIC_DIR", tmp_path)
    first = web.asset_version()
    assert web.asset_version() == first
    (tmp_path / "a.js").write_text("export const a = 22;\n")
    assert web.asset_version() != first
    assert web.modules() == ["a.js"]


@pytest.mark.parametrize(
    "path",
    [
        "/static/v/nope.js",
        "/static/v/../page.py",
        "/static/v/%2e%2e/page.py",
        "/static/v/",
        "/static/app.css",  # every file sits under a version
    ],
)
def test_only_the_page_files_are_served(api_client: FlaskClient, path: str) -> None:
    assert_problem(api_client.get(path), 404)


def test_imports_resolve() -> None:
    """Every relative import of every module, static or dynamic, names a file that exists (a
    typo would only show as a blank page)."""
    for module in MODULES:
        text = module.read_text(encoding="utf-8")
        static = re.findall(r'^import .*? from "(\.{1,2}/[^"]+)";', text, flags=re.M | re.S)
        dynamic = re.findall(r'\bimport\("(\.{1,2}/[^"]+)"\)', text)
        for target in static + dynamic:
            assert (module.parent / target).resolve().is_file(), (module.name, target)


def _strings(language: str) -> set[str]:
    text = (STATIC / "shared" / "i18n.js").read_text(encoding="utf-8")
    block = re.search(rf"^const {language} = \{{\n(.*?)^\}};", text, flags=re.M | re.S)
    assert block is not None, language
    return set(re.findall(r'^\s+"?([\w>-]+)"?:', block.group(1), flags=re.M))


def test_both_languages_have_every_string() -> None:
    indonesian, english = _strings("id"), _strings("en")
    assert len(indonesian) > 150
    assert indonesian == english, indonesian ^ english


def test_every_fixed_text_key_exists() -> None:
    """t("key") with a literal key, in any module, names a string of the table."""
    keys = _strings("id")
    used = set()
    for module in MODULES:
        used |= set(re.findall(r'\bt\("([\w>-]+)"', module.read_text(encoding="utf-8")))
    assert used, "no t() calls found"
    assert used <= keys, used - keys


def _table(language: str) -> dict[str, str]:
    """The i18n table of ``language`` as key -> text (a text may sit on the key's next
    line)."""
    text = (STATIC / "shared" / "i18n.js").read_text(encoding="utf-8")
    block = re.search(rf"^const {language} = \{{\n(.*?)^\}};", text, flags=re.M | re.S)
    assert block is not None, language
    pairs = re.findall(r'^\s+"?([\w>-]+)"?:\s*"((?:[^"\\]|\\.)*)",', block.group(1), flags=re.M)
    return dict(pairs)


# Seed 003's words for the Banting screen (WEB.md), by the key the page shows them with:
# the setup's rows and choices (first letter capitalised as a label needs), the levels and
# the buttons. English as WEB.md gives it.
SEED_WORDS = {
    "id": {
        "rulesTitle": "Aturan meja",
        "suit_order": "Urutan jenis",
        "suit_order_dchs": "♦ terkecil",
        "suit_order_cdhs": "♣ terkecil",
        "straights": "2 di straight",
        "straights_two-high": "Boleh",
        "straights_no-two": "Tidak",
        "flush_compare": "Adu flush",
        "flush_compare_suit-first": "Jenis dulu",
        "flush_compare_rank-first": "Angka dulu",
        "first_lead": "Siapa mulai",
        "first_lead_lowest-card": "Kartu terkecil",
        "first_lead_previous-winner": "Pemenang lalu",
        "level_beginner": "Pemula",
        "level_standard": "Standar",
        "start": "Mulai Main",
        "speedFast": "Animasi: Cepat",
        "play": "Keluarkan",
        "pass": "Lewat",
        "hint": "Petunjuk",
        "info": "Sisa {n} · kalau selesai sekarang {x}",
        "copyLink": "Salin link ronde",
        "autoArrange": "Susun Otomatis",
        "submit": "Kirim susunan",
    },
    "en": {
        "suit_order": "Suit order",
        "suit_order_dchs": "♦ lowest",
        "suit_order_cdhs": "♣ lowest",
        "straights": "2 in straights",
        "straights_two-high": "Allowed",
        "straights_no-two": "Not allowed",
        "flush_compare": "Flush comparison",
        "flush_compare_suit-first": "Suit first",
        "flush_compare_rank-first": "Rank first",
        "first_lead": "Who starts",
        "first_lead_lowest-card": "Lowest card",
        "first_lead_previous-winner": "Previous winner",
        "level_beginner": "Beginner",
        "level_standard": "Standard",
    },
}


@pytest.mark.parametrize("language", SEED_WORDS)
def test_the_seed_words_are_in_the_table(language: str) -> None:
    table = _table(language)
    assert len(table) > 150  # the parse found the table
    wrong = {
        key: (table.get(key), words)
        for key, words in SEED_WORDS[language].items()
        if table.get(key) != words
    }
    assert not wrong, wrong


def test_dom_contract_actions_exist() -> None:
    """Every data-action of WEB.md's contract is made by the template or a module."""
    sources = (web.TEMPLATE_DIR / "index.html").read_text(encoding="utf-8") + "".join(
        module.read_text(encoding="utf-8") for module in MODULES
    )
    for action in (
        "game",
        "start",
        "play",
        "pass",
        "hint",
        "next-round",
        "copy-link",
        "lang",
        "speed",
        "auto-arrange",
        "submit",
        "confirm-foul",
        "declare",
    ):
        assert re.search(rf'(data-action="{action}"|action: "{action}")', sources), action
    for role in ("table", "status", "info", "code", "result"):
        assert re.search(rf'(data-role="{role}"|role: "{role}"|liveLine\("{role}")', sources), role
