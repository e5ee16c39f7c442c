"""The browser tests' fixtures: one live server and one headless Chromium for the session,
and per test a page on a clean browser whose console must stay free of errors.

The browser is Debian's chromium driven through Debian's chromedriver (``make
browser-deps`` installs both when missing). Selenium is given the driver's path, so it
never runs Selenium Manager and never downloads a driver or a browser.
"""

from __future__ import annotations

import os
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from werkzeug.serving import WSGIRequestHandler, make_server

from api import create_app
from tests.browser.helpers import DESKTOP, Page

CHROMIUM = Path(os.environ.get("CAPSA_FAST_CHROMIUM", "/usr/bin/chromium"))
CHROMEDRIVER = Path(os.environ.get("CAPSA_FAST_CHROMEDRIVER", "/usr/bin/chromedriver"))
BROWSER_DIR = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if BROWSER_DIR in Path(str(item.path)).parents:
            item.add_marker(pytest.mark.browser)


class QuietHandler(WSGIRequestHandler):
    """No line per request on stderr: a failing test's output shows what matters."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        pass


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app (API and page) on a free local port, with its own games database; served by
    werkzeug in a thread, one thread per request, so the page's requests run concurrently
    as they would under gunicorn."""
    db = tmp_path_factory.mktemp("web") / "games.sqlite3"
    app = create_app({"GAMES_DB": str(db), "ACCESS_LOG": False})
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=QuietHandler)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)


def _chrome_options(profile: str) -> webdriver.ChromeOptions:
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    options.add_argument("--headless=new")
    options.add_argument("--no-sandbox")  # the tests run as root here and in CI
    options.add_argument("--disable-dev-shm-usage")
    options.add_argument("--disable-gpu")
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={DESKTOP[0]},{DESKTOP[1]}")
    # No first-run UI, sync, component updates or field trials: nothing goes out.
    options.add_argument("--no-first-run")
    options.add_argument("--disable-sync")
    options.add_argument("--disable-component-update")
    options.add_argument("--disable-background-networking")
    options.add_argument("--disable-field-trial-config")
    # The console (errors included) is read back through get_log("browser").
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return options


@pytest.fixture(scope="session")
def browser() -> Iterator[webdriver.Chrome]:
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.is_file()]
    if missing:
        pytest.fail(
            f"{', '.join(missing)} not found: `make browser-deps` installs Debian's chromium "
            "and chromium-driver",
            pytrace=False,
        )
    # Belt and braces: were Selenium Manager ever reached, it must not go online.
    os.environ["SE_OFFLINE"] = "true"
    with tempfile.TemporaryDirectory(prefix="capsa-chromium-") as profile:
        driver = webdriver.Chrome(
            service=Service(executable_path=str(CHROMEDRIVER)),
            options=_chrome_options(profile),
        )
        try:
            yield driver
        finally:
            driver.quit()


@pytest.fixture
def page(browser: webdriver.Chrome, live_server: str) -> Iterator[Page]:
    """The page on a desktop-sized window with empty storage (a first visit); after the
    test, the browser console must hold no error."""
    page = Page(browser, live_server)
    page.reset()
    yield page
    page.assert_console_clean()
