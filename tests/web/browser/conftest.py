"""The browser tests' fixtures: one live server and one headless Chromium for the session,
and per test a page on a clean browser whose console must stay free of errors.

The browser is Debian's chromium driven through Debian's chromedriver (``make
browser-deps`` installs both when missing). Selenium is given the driver's path, so it
never runs Selenium Manager and never downloads a driver or a browser.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from capsa_fast.cli import serve
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from tests.web.browser.helpers import DESKTOP, REPO, Api, Page

CHROMIUM = Path(os.environ.get("CAPSA_FAST_CHROMIUM", "/usr/bin/chromium"))
CHROMEDRIVER = Path(os.environ.get("CAPSA_FAST_CHROMEDRIVER", "/usr/bin/chromedriver"))
BROWSER_DIR = Path(__file__).parent
SERVER_START_SECONDS = 30
SERVER_STOP_SECONDS = 10


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if BROWSER_DIR in Path(str(item.path)).parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app (API and page) served as `make run` and `capsa-fast serve` serve it (gunicorn
    with the production config and app: uvicorn workers, the app in its thread lanes, every
    setting at its default but the workers' count and the log) in its own processes, with
    its own games database: the page's requests are timed as a player would see them, not
    slowed by the test process. Chromium opens connections ahead of need and may never send
    a request on them; the production workers park such a connection on their event loop
    (and close it after the header deadline), so they need no setting of their own here.

    The listening socket is opened here, on a free port, and handed to gunicorn: requests
    wait in its backlog until a worker takes them, so there is no port to race for and no
    start-up to poll."""
    folder = tmp_path_factory.mktemp("web")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    listener.set_inheritable(True)
    port = listener.getsockname()[1]
    env = {
        **os.environ,
        "CAPSA_FAST_WORKERS": "2",
        "CAPSA_FAST_GAMES_DB": str(folder / "games.sqlite3"),
        "CAPSA_FAST_ACCESS_LOG": "false",
        "CAPSA_FAST_LOG_LEVEL": "warning",
    }
    log_path = folder / "server.log"
    with log_path.open("w") as log:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "-c",
                serve.CONFIG,
                "--bind",
                f"fd://{listener.fileno()}",
                serve.APP,
            ],
            cwd=REPO,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            pass_fds=(listener.fileno(),),
        )
    listener.close()  # gunicorn holds its own copy
    base = f"http://127.0.0.1:{port}"
    try:
        health = Api(base).call("GET", "/v1/health", timeout=SERVER_START_SECONDS)
        if health.status != 200:
            pytest.fail(
                f"the live server did not start ({health.status}):\n{log_path.read_text()}",
                pytrace=False,
            )
        yield base
    finally:
        # A graceful stop, as in production: the workers close idle connections (the
        # browser's unused early ones too) at once and finish the requests in flight.
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=SERVER_STOP_SECONDS)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


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
def browser(live_server: str) -> Iterator[webdriver.Chrome]:
    """One headless Chromium for the session; it quits before the live server stops."""
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
