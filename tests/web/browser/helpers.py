"""Driving the web page as a person does, through WEB.md's DOM contract only (data-state,
data-action, data-setting, data-card, data-seat, data-role, data-row), and reading the
game the page plays from the public HTTP API with the token the page keeps in the
browser's storage, to check what the page shows against what the server holds.

Every wait is explicit and bounded (WebDriverWait); nothing sleeps.
"""

from __future__ import annotations

import contextlib
import json
import re
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from selenium.common.exceptions import (
    ElementClickInterceptedException,
    ElementNotInteractableException,
    JavascriptException,
    StaleElementReferenceException,
    TimeoutException,
)
from selenium.webdriver.chrome.webdriver import WebDriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

REPO = Path(__file__).resolve().parents[3]
SCREENSHOTS = REPO / "build" / "screenshots"
DESKTOP = (1280, 900)
PHONE = (360, 740)
# Upper bounds, never expected durations: the deal and the bots' replies animate, and the
# machine may be busy; a wait returns as soon as its condition holds.
WAIT = 20.0
POLL = 0.05

T = TypeVar("T")

# One snapshot of what the page shows, read in a single script (fewer round trips, and
# every field from the same moment). The player's cards are the visible data-card elements
# outside the table, the result, the Susun rows and the other seats.
_SNAPSHOT_JS = r"""
const shown = (e) => e.getClientRects().length > 0;
const text = (sel) => [...document.querySelectorAll(sel)].filter(shown)
  .map((e) => e.textContent.trim()).filter(Boolean).join(" | ");
const notMine = '[data-role="table"],[data-role="result"],[data-row],'
  + '[data-seat]:not([data-seat="0"])';
const hand = [...document.querySelectorAll("[data-card]")]
  .filter((e) => shown(e) && !e.closest(notMine));
const seats = {};
for (const e of document.querySelectorAll("[data-seat][data-count]")) {
  if (e.closest('[data-role="result"]')) continue;
  seats[e.dataset.seat] = {
    count: Number(e.dataset.count),
    turn: e.hasAttribute("data-turn"),
    leader: e.hasAttribute("data-leader"),
    one_card: e.hasAttribute("data-one-card"),
    shown: shown(e),
  };
}
const button = (action) => {
  const e = [...document.querySelectorAll(`[data-action="${action}"]`)].find(shown);
  return e ? { disabled: e.hasAttribute("disabled") || e.disabled === true,
               text: e.textContent.trim() } : null;
};
const rows = {};
for (const e of document.querySelectorAll("[data-row]")) {
  if (!shown(e)) continue;
  rows[e.dataset.row] = { hand: e.dataset.hand ?? null,
    cards: [...e.querySelectorAll("[data-card]")].map((c) => c.dataset.card) };
}
return {
  state: document.body.dataset.state ?? null,
  lang: document.documentElement.lang,
  hand: hand.map((e) => e.dataset.card),
  selected: hand.filter((e) => e.getAttribute("aria-pressed") === "true")
    .map((e) => e.dataset.card),
  table: [...document.querySelectorAll('[data-role="table"] [data-card]')].filter(shown)
    .map((e) => e.dataset.card),
  seats,
  rows,
  status: text('[data-role="status"]'),
  info: text('[data-role="info"]'),
  code: text('[data-role="code"]'),
  buttons: Object.fromEntries(["start", "play", "pass", "hint", "next-round", "copy-link",
    "auto-arrange", "submit", "confirm-foul", "declare", "lang"].map((a) => [a, button(a)])),
  result: [...document.querySelectorAll('[data-role="result"] [data-seat][data-points]')]
    .filter(shown)
    .map((e) => ({ seat: Number(e.dataset.seat), points: e.dataset.points ?? null,
                   money: e.dataset.money ?? null, text: e.textContent.trim() })),
};
"""

# The (game id, token) pairs the page keeps in its storage: any stored JSON object, at any
# depth, holding a string "id" and a string "token".
_SESSIONS_JS = r"""
const found = [];
const walk = (key, value) => {
  if (!value || typeof value !== "object") return;
  if (typeof value.id === "string" && typeof value.token === "string") {
    found.push({ key, id: value.id, token: value.token });
  }
  for (const v of Object.values(value)) walk(key, v);
};
for (const storage of [localStorage, sessionStorage]) {
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    try { walk(key, JSON.parse(storage.getItem(key))); } catch (e) { /* not JSON */ }
  }
}
return found;
"""

# Which element covers the middle of `e` (a control that another element hides is not
# usable, whatever is_displayed says).
_HIT_JS = r"""
const e = arguments[0];
const r = e.getBoundingClientRect();
const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
return { left: r.left, top: r.top, right: r.right, bottom: r.bottom,
         width: window.innerWidth, height: window.innerHeight,
         hit: hit !== null && (hit === e || e.contains(hit)) };
"""


# A point of `e` (as an offset from its middle, in CSS pixels) where a tap reaches `e`
# itself; null when nothing of it shows.
_VISIBLE_POINT_JS = r"""
const e = arguments[0];
const r = e.getBoundingClientRect();
for (const fy of [0.5, 0.25, 0.75, 0.1, 0.9]) {
  for (const fx of [0.5, 0.25, 0.75, 0.1, 0.9]) {
    const x = r.left + r.width * fx, y = r.top + r.height * fy;
    const hit = document.elementFromPoint(x, y);
    if (hit && (hit === e || e.contains(hit))) {
      return [Math.round(x - (r.left + r.width / 2)), Math.round(y - (r.top + r.height / 2))];
    }
  }
}
return null;
"""


# --- the HTTP API -------------------------------------------------------------------------


@dataclass
class Answer:
    status: int
    body: Any
    headers: Mapping[str, str]


class Api:
    """The public HTTP API of the live server, as any other client sees it."""

    def __init__(self, base: str) -> None:
        self.base = base

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        lang: str = "id",
        timeout: float = WAIT,
    ) -> Answer:
        """The answer, whatever its status; an unreachable server is an answer of status
        0 (the server is starting, or gone)."""
        headers = {"Accept": "application/json", "Accept-Language": lang}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(self.base + path, data, headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                raw, status, got = response.read(), response.status, dict(response.headers)
        except urllib.error.HTTPError as error:
            raw, status, got = error.read(), error.code, dict(error.headers)
        except (urllib.error.URLError, ConnectionError):
            return Answer(0, None, {})
        return Answer(status, json.loads(raw) if raw else None, got)

    def get(self, path: str, token: str | None = None, lang: str = "id") -> Any:
        answer = self.call("GET", path, token=token, lang=lang)
        assert answer.status == 200, (path, answer.status, answer.body)
        return answer.body

    def post(self, path: str, body: Any, token: str | None = None, lang: str = "id") -> Any:
        answer = self.call("POST", path, body, token=token, lang=lang)
        assert answer.status in (200, 201), (path, answer.status, answer.body)
        return answer.body


# --- the page -----------------------------------------------------------------------------


def signed_number(text: str) -> int:
    """-39 from '−39' (the seed's minus sign), '-39', '39' or '+39'."""
    return int(text.replace("\u2212", "-").replace("+", ""))


class Page:
    """One browser tab on the live server's page."""

    def __init__(self, driver: WebDriver, base: str) -> None:
        self.driver = driver
        self.base = base
        self.api = Api(base)
        self.console: list[dict[str, Any]] = []
        self._games: dict[tuple[str, str], str] = {}  # (id, token) -> the game it plays

    # --- window, storage, console ---------------------------------------------------------

    def reset(self) -> None:
        """A first visit on a desktop window: no stored game or preference."""
        self.driver.get("about:blank")
        self.clear_storage()
        self.read_console()  # the previous test's leftovers were its own to check
        self.console.clear()
        self.desktop()
        self.open("/")

    def clear_storage(self) -> None:
        """Forget everything the page stored (another person's browser, as far as the page
        can tell); done from outside the page, which keeps running meanwhile."""
        self.driver.execute_cdp_cmd(
            "Storage.clearDataForOrigin",
            {"origin": self.base, "storageTypes": "local_storage,session_storage"},
        )
        self._games.clear()

    def desktop(self) -> None:
        self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        self.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
        self.driver.set_window_size(*DESKTOP)

    def phone(self) -> None:
        """A phone held upright: a 360 × 740 CSS-pixel screen, touch, the page's own viewport
        meta deciding the layout width (as on a real phone)."""
        width, height = PHONE
        self.driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 2, "mobile": True},
        )
        self.driver.execute_cdp_cmd(
            "Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5}
        )

    def open(self, path: str = "/") -> None:
        self.driver.get(self.base + path)
        self.wait(lambda: self.js("return document.readyState") == "complete", "page load")
        self.wait(lambda: self.state() is not None, "document.body[data-state]")

    def read_console(self) -> list[dict[str, Any]]:
        entries = self.driver.get_log("browser")
        self.console.extend(entries)
        return entries

    def console_errors(self) -> list[str]:
        self.read_console()
        return [e["message"] for e in self.console if e.get("level") == "SEVERE"]

    def assert_console_clean(self) -> None:
        errors = self.console_errors()
        assert not errors, "errors in the browser console:\n" + "\n".join(errors)

    def screenshot(self, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        assert self.driver.save_screenshot(str(path)), path
        return path

    # --- reading and waiting --------------------------------------------------------------

    def js(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(script, *args)

    def snapshot(self) -> dict[str, Any]:
        return self.js(_SNAPSHOT_JS)

    def state(self) -> str | None:
        return self.js("return document.body ? (document.body.dataset.state ?? null) : null")

    def wait(
        self,
        condition: Callable[[], T],
        what: str | Callable[[], str],
        timeout: float = WAIT,
    ) -> T:
        """Wait until ``condition()`` is truthy and return it; on a timeout fail saying what
        was awaited (``what`` may be a function giving the last difference seen)."""
        try:
            return WebDriverWait(
                self.driver,
                timeout,
                poll_frequency=POLL,
                ignored_exceptions=(StaleElementReferenceException, JavascriptException),
            ).until(lambda _: condition())
        except TimeoutException:
            detail = what() if callable(what) else what
            raise AssertionError(f"waited {timeout:g} s for {detail}") from None

    def wait_state(self, *states: str, timeout: float = WAIT) -> str:
        return self.wait(
            lambda: s if (s := self.state()) in states else None,
            lambda: f"body[data-state] in {states}; it is {self.state()!r}",
            timeout,
        )

    def find(self, selector: str) -> WebElement:
        """The one visible element matching ``selector`` (waits for it to appear)."""

        def visible() -> WebElement | None:
            shown = [
                e for e in self.driver.find_elements("css selector", selector) if e.is_displayed()
            ]
            if len(shown) > 1:
                raise AssertionError(f"{len(shown)} visible elements match {selector}")
            return shown[0] if shown else None

        return self.wait(visible, f"a visible {selector}")

    def action(self, name: str) -> WebElement:
        return self.find(f'[data-action="{name}"]')

    def is_disabled(self, element: WebElement) -> bool:
        return bool(self.js("return arguments[0].hasAttribute('disabled')", element))

    def click(self, element: WebElement) -> None:
        """A person's click: the element must be visible, enabled and reachable. Where
        another element covers its middle (cards fanned over each other), the tap goes to
        a part of it that shows; where nothing of it shows, it is scrolled to the middle; a
        click that something passing intercepts (a closing overlay, a card still moving) is
        tried again until the element itself gets it."""

        def clicked() -> bool:
            try:
                element.click()
            except ElementClickInterceptedException:
                point = self.js(_VISIBLE_POINT_JS, element)
                if point is None:
                    # In the viewport but wholly under something (a row under the setup's
                    # sticky «Mulai Main» bar): a person scrolls it to the middle first.
                    self.js("arguments[0].scrollIntoView({block: 'center'})", element)
                    return False
                ActionChains(self.driver).move_to_element_with_offset(
                    element, point[0], point[1]
                ).click().perform()
            except ElementNotInteractableException:
                return False
            return True

        self.wait(clicked, lambda: f"a click on {element.get_attribute('outerHTML')[:200]}")

    def press(self, name: str) -> None:
        """Click the enabled button ``data-action=name`` (opening the menu that holds it
        first when it is hidden in one)."""
        button = self.reveal(f'[data-action="{name}"]')
        self.wait(lambda: not self.is_disabled(button), f"[data-action={name}] enabled")
        self.click(button)

    def double_press(self, name: str) -> None:
        """Double-click the enabled button ``data-action=name``, as an impatient player
        does: the page must act once."""
        button = self.reveal(f'[data-action="{name}"]')
        self.wait(lambda: not self.is_disabled(button), f"[data-action={name}] enabled")
        ActionChains(self.driver).double_click(button).perform()

    def reveal(self, selector: str) -> WebElement:
        """The element, made visible the way a person would: when it sits in a closed
        menu, by pressing the button that controls the menu (aria-controls)."""
        found = self.wait(
            lambda: self.driver.find_elements("css selector", selector), f"a {selector}"
        )
        shown = [e for e in found if e.is_displayed()]
        element = shown[0] if shown else found[0]
        if not shown:
            opener = self.js(
                """
                for (let e = arguments[0]; e; e = e.parentElement) {
                  if (e.id) {
                    const b = document.querySelector(`[aria-controls="${e.id}"]`);
                    if (b) return b;
                  }
                }
                return null;
                """,
                element,
            )
            assert opener is not None, f"{selector} is hidden and no control opens it"
            self.click(opener)
            self.wait(element.is_displayed, f"{selector} shown")
        return element

    def usable(self, element: WebElement) -> dict[str, Any]:
        """Where the element is and whether a tap on its middle reaches it."""
        return self.js(_HIT_JS, element)

    # --- settings ---------------------------------------------------------------------

    def setting(self, name: str) -> WebElement:
        return self.find(f'[data-setting="{name}"]')

    def setting_values(self, name: str) -> list[str]:
        """The values a setting offers (a select's options or a radio group's radios)."""
        return self.js(
            """
            const e = arguments[0];
            if (e.tagName === "SELECT") return [...e.options].map((o) => o.value);
            if (e.type === "radio") return [...document.querySelectorAll(
                `input[type=radio][name="${e.name}"]`)].map((r) => r.value);
            return [...e.querySelectorAll("input[type=radio]")].map((r) => r.value);
            """,
            self.setting(name),
        )

    def setting_value(self, name: str) -> str:
        return self.js(
            """
            const e = arguments[0];
            if (e.tagName === "SELECT" || e.tagName === "INPUT" && e.type !== "radio")
              return e.value;
            const radios = e.type === "radio"
              ? document.querySelectorAll(`input[type=radio][name="${e.name}"]`)
              : e.querySelectorAll("input[type=radio]");
            const on = [...radios].find((r) => r.checked);
            return on ? on.value : null;
            """,
            self.setting(name),
        )

    def choose(self, name: str, value: str) -> None:
        """Set a setting as a person does: pick the option, click the radio's label, type
        into a field."""
        element = self.setting(name)
        tag = element.tag_name.lower()
        if tag == "select":
            self.click(element)
            option = element.find_element("css selector", f'option[value="{value}"]')
            self.click(option)
        elif tag == "input" and element.get_attribute("type") not in ("radio", "checkbox"):
            element.clear()
            element.send_keys(value)
        else:
            radio = self.js(
                """
                const e = arguments[0], v = arguments[1];
                const radios = e.type === "radio"
                  ? document.querySelectorAll(`input[type=radio][name="${e.name}"]`)
                  : e.querySelectorAll("input[type=radio]");
                return [...radios].find((r) => r.value === v) ?? null;
                """,
                element,
                value,
            )
            assert radio is not None, f"{name} offers no {value!r}"
            # The radio may be drawn as a styled label; a person taps what is shown.
            target = (
                radio
                if radio.is_displayed()
                else self.js(
                    "return arguments[0].closest('label') ?? "
                    "document.querySelector(`label[for='${arguments[0].id}']`)",
                    radio,
                )
            )
            self.click(target)
        self.wait(lambda: self.setting_value(name) == value, f"{name} set to {value!r}")

    def turn_on(self, game: str, name: str, values: Sequence[str]) -> str:
        """On ``game``'s setup, the two-valued setting ``name`` offers ``values``, the first
        chosen on a first visit; choosing the second changes its explanation, returned."""
        self.switch_game(game)
        self.wait_state("setup")
        assert self.setting_values(name) == list(values)
        assert self.setting_value(name) == values[0]
        before = self.described(name)
        self.choose(name, values[1])
        return self.wait(
            lambda: text if (text := self.described(name)) != before else None,
            f"the {name} explanation to change",
        )

    def described(self, name: str) -> str:
        """The text that explains a setting: what its aria-describedby names, else the
        text of the row holding it (the nearest ancestor holding no other setting)."""
        return self.js(
            """
            const e = arguments[0];
            const ids = (e.getAttribute("aria-describedby") || "").split(/\\s+/).filter(Boolean);
            if (ids.length) return ids.map((id) => document.getElementById(id))
              .filter(Boolean).map((d) => d.textContent.trim()).join(" ");
            let row = e;
            while (row.parentElement &&
                   row.parentElement.querySelectorAll("[data-setting]").length === 1) {
              row = row.parentElement;
            }
            return row.innerText.trim();
            """,
            self.setting(name),
        )

    # --- the games the page plays, read from the server ----------------------------------

    def sessions(self) -> list[dict[str, str]]:
        return self.js(_SESSIONS_JS)

    def session(self, game: str) -> tuple[str, str]:
        """(game id, token) of the ``game`` ('banting' or 'susun') the page plays, as kept in
        the browser's storage: the stored pair the server knows as a game of that kind."""

        def known() -> tuple[str, str] | None:
            stored = [(found["id"], found["token"]) for found in self.sessions()]
            for pair in stored:
                if self._games.get(pair) == game:
                    return pair
            for pair in stored:
                if pair in self._games:
                    continue
                answer = self.api.call("GET", f"/v1/{game}/games/{pair[0]}", token=pair[1])
                if answer.status == 200:
                    self._games[pair] = game
                    return pair
            return None

        return self.wait(known, f"a stored {game} session that the server knows")

    def view(self, game: str = "banting", lang: str = "id") -> dict[str, Any]:
        game_id, token = self.session(game)
        return self.api.get(f"/v1/{game}/games/{game_id}", token=token, lang=lang)

    # --- common steps -------------------------------------------------------------------

    def switch_game(self, game: str) -> None:
        switch = self.find(f'[data-action="game"][data-game="{game}"]')
        if switch.get_attribute("aria-pressed") != "true":
            self.click(switch)
        self.wait(
            lambda: switch.get_attribute("aria-pressed") == "true",
            f"the {game} switch pressed",
        )

    def set_speed(self, fast: bool) -> None:
        """The menu's animation speed: «Cepat» (fast) or normal."""
        button = self.reveal('[data-action="speed"]')
        if (button.get_attribute("aria-pressed") == "true") != fast:
            self.click(button)
        self.wait(
            lambda: (button.get_attribute("aria-pressed") == "true") == fast,
            f"the speed button's aria-pressed {str(fast).lower()}",
        )
        self.close_menu()

    def close_menu(self) -> None:
        """Close an open menu with Escape, as a keyboard user does."""
        opener = self.driver.find_elements("css selector", '[aria-controls][aria-expanded="true"]')
        for button in opener:
            self.click(button)
            self.wait(lambda b=button: b.get_attribute("aria-expanded") == "false", "menu closed")

    def skip_animation(self) -> None:
        """A tap on the table, as a person taps to skip the deal or the bots' moves."""
        tables = [
            e
            for e in self.driver.find_elements("css selector", '[data-role="table"]')
            if e.is_displayed()
        ]
        target = tables[0] if tables else self.driver.find_element("css selector", "main")
        # When the animation ends and the screen changes under the tap, there is nothing
        # left to skip.
        with contextlib.suppress(
            ElementClickInterceptedException,
            ElementNotInteractableException,
            StaleElementReferenceException,
        ):
            target.click()


# The two window sizes every screen is checked at, by name (for test parameters).
SIZES: dict[str, Callable[[Page], None]] = {"phone": Page.phone, "desktop": Page.desktop}


class Banting:
    """Capsa Banting on the page: start, select, play, and wait until the page shows what
    the server holds."""

    def __init__(self, page: Page) -> None:
        self.page = page

    def start(self, **settings: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """Choose ``settings`` on the setup screen, press «Mulai Main», tap through the deal;
        returns the server's view and the page's snapshot once they agree."""
        page = self.page
        page.switch_game("banting")
        page.wait_state("setup")
        for name, value in settings.items():
            page.choose(name, value)
        page.press("start")
        if page.wait_state("dealing", "playing", "round-over") == "dealing":
            page.skip_animation()
        page.wait_state("playing", "round-over")
        return self.synced()

    def view(self, lang: str = "id") -> dict[str, Any]:
        return self.page.view("banting", lang)

    def synced(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """Wait until the page shows the server's game (hand, table, counts, markers, state);
        returns (view, snapshot). The game changes only by the player's moves, so the view
        is read once and the page polled against it (read again now and then, in case)."""
        last: list[str] = []
        polls = [0]
        view = self.view()

        def agree() -> tuple[dict[str, Any], dict[str, Any]] | None:
            nonlocal view
            polls[0] += 1
            if polls[0] % 20 == 0:
                view = self.view()
            snap = self.page.snapshot()
            last[:] = banting_differences(snap, view)
            return None if last else (view, snap)

        return self.page.wait(
            agree, lambda: "the page to show the server's game: " + "; ".join(last)
        )

    def moved_on(self, version: int) -> dict[str, Any]:
        """Wait until the server's game is past ``version`` (the page's move reached it)."""
        return self.page.wait(
            lambda: v if (v := self.view())["version"] > version else None,
            f"the server's game to move past version {version}",
        )

    def card(self, card: str) -> WebElement:
        """The player's card ``card`` (not a table or result card of the same name)."""
        for element in self.page.driver.find_elements("css selector", f'[data-card="{card}"]'):
            outside = self.page.js(
                'return !arguments[0].closest(\'[data-role="table"],[data-role="result"],'
                '[data-row],[data-seat]:not([data-seat="0"])\')',
                element,
            )
            if outside and element.is_displayed():
                return element
        raise AssertionError(f"{card} is not among the player's cards")

    def select(self, cards: Sequence[str]) -> dict[str, Any]:
        """Tap the cards so that exactly ``cards`` are selected; returns the snapshot."""
        page = self.page
        for card in page.snapshot()["selected"]:
            if card not in cards:
                page.click(self.card(card))
                page.wait(lambda c=card: c not in page.snapshot()["selected"], f"{card} deselected")
        for card in cards:
            if card not in page.snapshot()["selected"]:
                element = self.card(card)
                page.click(element)
                page.wait(
                    lambda e=element: e.get_attribute("aria-pressed") == "true",
                    f"{card} selected (aria-pressed)",
                )
        return page.snapshot()

    def hint_and_move(self, view: dict[str, Any], skip: bool = False) -> dict[str, Any]:
        """Press «Petunjuk», check it selects the server's hint, then press «Keluarkan» (or
        «Lewat» when nothing can be played); returns the server's view after the move.
        ``skip``: then tap to skip the bots' replies, as an impatient player does."""
        page = self.page
        hint = view["hint"]
        assert hint is not None, "the player's turn without a hint"
        page.press("hint")
        if hint["play"] == "pass":
            page.press("pass")
        else:
            page.wait(
                lambda: same_cards(page.snapshot()["selected"], hint["play"]),
                lambda: (
                    f"«Petunjuk» to select {hint['play']}; selected {page.snapshot()['selected']}"
                ),
            )
            page.press("play")
        after = self.moved_on(view["version"])
        if skip:
            page.skip_animation()
        return after

    def play_hints(self, moves: int, skip: bool = True) -> tuple[dict[str, Any], dict[str, Any]]:
        """Make ``moves`` of the player's moves by hint; returns (view, snapshot) after."""
        view, snap = self.synced()
        for _ in range(moves):
            assert view["your_turn"], "expected the player's turn"
            self.hint_and_move(view, skip=skip)
            view, snap = self.synced()
        return view, snap


def banting_differences(snap: Mapping[str, Any], view: Mapping[str, Any]) -> list[str]:
    """What the page shows that differs from the server's view of seat 0 (empty: in sync)."""
    diffs: list[str] = []
    want_state = "round-over" if view["over"] else "playing"
    if snap["state"] != want_state:
        diffs.append(f"data-state {snap['state']!r}, server says {want_state!r}")
    if snap["hand"] != view["hand"]:
        diffs.append(f"hand {snap['hand']}, server {view['hand']}")
    # A round over is shown once its result card is (data-state says it at once, while the
    # last moves may still play out).
    if view["over"] and len(snap["result"]) != view["players"]:
        diffs.append(f"{len(snap['result'])} result lines for {view['players']} seats")
    table = view["table"]["cards"] if view["table"] else []
    if sorted(snap["table"]) != sorted(table) and not view["over"]:
        diffs.append(f"table {snap['table']}, server {table}")
    for seat, count in enumerate(view["counts"]):
        shown = snap["seats"].get(str(seat))
        if shown is None:
            diffs.append(f"no [data-seat={seat}][data-count]")
            continue
        if shown["count"] != count:
            diffs.append(f"seat {seat} data-count {shown['count']}, server {count}")
        if not view["over"]:
            marks = {
                "turn": view["turn"] == seat,
                "leader": view["leader"] == seat,
                "one_card": seat in view["one_card"],
            }
            for mark, want in marks.items():
                if shown[mark] != want:
                    diffs.append(
                        f"seat {seat} data-{mark.replace('_', '-')} {shown[mark]}, server {want}"
                    )
    return diffs


def info_numbers(info: str) -> tuple[int, int] | None:
    """(N, X) of the info line's «Sisa N · kalau selesai sekarang X» (or its English)."""
    left = re.search(r"Sisa\s+(\d+)|(\d+)\s+left", info)
    now = re.search(r"(?:kalau selesai sekarang|if it ended now)\s*([−+-]?\d+)", info)
    if not left or not now:
        return None
    return int(left.group(1) or left.group(2)), signed_number(now.group(1))


def same_cards(a: Sequence[str], b: Sequence[str]) -> bool:
    return sorted(a) == sorted(b)


# A point of row `e` (offset from its middle) that a tap reaches and that is not one of the
# row's cards: the row itself, its name or its empty places.
_ROW_POINT_JS = r"""
const e = arguments[0];
const r = e.getBoundingClientRect();
for (let fy = 0.05; fy < 1; fy += 0.15) {
  for (let fx = 0.05; fx < 1; fx += 0.1) {
    const x = r.left + r.width * fx, y = r.top + r.height * fy;
    const hit = document.elementFromPoint(x, y);
    if (hit && e.contains(hit) && !hit.closest("[data-card]")) {
      return [Math.round(x - (r.left + r.width / 2)), Math.round(y - (r.top + r.height / 2))];
    }
  }
}
return null;
"""

ROW_SIZES = {"top": 3, "middle": 5, "bottom": 5}


class Susun:
    """Capsa Susun on the page: start a table, arrange the rows by tapping cards then rows,
    submit, and read the reveal, always against the server's view."""

    def __init__(self, page: Page) -> None:
        self.page = page

    def view(self, lang: str = "id") -> dict[str, Any]:
        return self.page.view("susun", lang)

    def start(self, **settings: str) -> tuple[dict[str, Any], dict[str, Any]]:
        page = self.page
        page.switch_game("susun")
        page.wait_state("setup")
        for name, value in settings.items():
            page.choose(name, value)
        page.press("start")
        if page.wait_state("dealing", "playing", "round-over") == "dealing":
            page.skip_animation()
        page.wait_state("playing", "round-over")
        return self.dealt()

    def dealt(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """Wait until the page shows the server's deal: the 13 cards to arrange."""
        last: list[str] = []

        def shown() -> tuple[dict[str, Any], dict[str, Any]] | None:
            view = self.view()
            snap = self.page.snapshot()
            placed = [c for row in snap["rows"].values() for c in row["cards"]]
            last[:] = [
                f"state {snap['state']!r}, hand {snap['hand']}, rows {snap['rows']}; "
                f"server hand {view['hand']}"
            ]
            ok = snap["state"] == "playing" and same_cards(snap["hand"] + placed, view["hand"])
            return (view, snap) if ok and set(snap["rows"]) == set(ROW_SIZES) else None

        return self.page.wait(shown, lambda: "the page to show the deal: " + "; ".join(last))

    def row(self, name: str) -> WebElement:
        return self.page.find(f'[data-row="{name}"]')

    def tap_row(self, name: str) -> None:
        """Tap the row (its name or an empty place, not one of its cards)."""
        row = self.row(name)
        point = self.page.js(_ROW_POINT_JS, row)
        assert point is not None, f"nothing of the {name} row to tap"
        ActionChains(self.page.driver).move_to_element_with_offset(
            row, point[0], point[1]
        ).click().perform()

    def card(self, card: str) -> WebElement:
        for element in self.page.driver.find_elements("css selector", f'[data-card="{card}"]'):
            mine = self.page.js(
                'return !arguments[0].closest(\'[data-role="result"],'
                '[data-seat]:not([data-seat="0"])\')',
                element,
            )
            if mine and element.is_displayed():
                return element
        raise AssertionError(f"{card} is not among the player's cards")

    def place(self, cards: Sequence[str], row: str) -> dict[str, Any]:
        """Tap each card (it is selected), then the row; wait until the row holds them."""
        page = self.page
        for card in cards:
            element = self.card(card)
            page.click(element)
            page.wait(
                lambda e=element: e.get_attribute("aria-pressed") == "true",
                f"{card} selected (aria-pressed)",
            )
        self.tap_row(row)
        return page.wait(
            lambda: s if set(cards) <= set((s := page.snapshot())["rows"][row]["cards"]) else None,
            lambda: (
                f"the {row} row to hold {list(cards)}; it holds "
                f"{page.snapshot()['rows'][row]['cards']}"
            ),
        )

    def arrange(self, rows: Mapping[str, Sequence[str]]) -> dict[str, Any]:
        snap: dict[str, Any] = {}
        for name in ("bottom", "middle", "top"):
            snap = self.place(rows[name], name)
        return snap

    def revealed(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """Wait for the reveal on the server and on the page; (view, snapshot)."""
        page = self.page
        view = page.wait(
            lambda: v if (v := self.view())["revealed"] else None, "the table revealed"
        )
        page.wait_state("round-over")
        n = view["players"]
        snap = page.wait(
            lambda: s if len((s := page.snapshot())["result"]) >= n else None,
            lambda: f"{n} result lines; the page shows {page.snapshot()['result']}",
        )
        return view, snap
