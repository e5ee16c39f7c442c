"""The page for assistive technology and the keyboard: one level-one heading on every
screen at every width, focus that follows the round, a focus ring unlike the selection
outline, and disabled buttons that look disabled."""

from __future__ import annotations

import re

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webelement import WebElement

from tests.web.browser import deals
from tests.web.browser.helpers import SIZES, Banting, Page, Susun
from tests.web.browser.test_web_page import open_five_card_answer_on_a_phone

# The page's level-one headings as assistive technology finds them: not display:none nor
# visibility:hidden (on the element or an ancestor), not aria-hidden, and with a name.
HEADINGS_JS = r"""
return [...document.querySelectorAll("h1")].map((e) => {
  let hidden = false;
  for (let a = e; a; a = a.parentElement) {
    const gone = getComputedStyle(a).display === "none" || a.hidden;
    if (gone || a.getAttribute("aria-hidden") === "true") hidden = true;
  }
  if (getComputedStyle(e).visibility === "hidden") hidden = true;
  return { text: e.textContent.trim(), hidden };
});
"""


def assert_one_heading(page: Page, where: str) -> None:
    headings = page.js(HEADINGS_JS)
    shown = [h for h in headings if not h["hidden"] and h["text"]]
    assert len(shown) == 1, f"{where}: level-one headings {headings}"


@pytest.mark.parametrize("size", SIZES)
def test_a_level_one_heading_on_every_screen(page: Page, size: str) -> None:
    SIZES[size](page)
    page.open("/")
    page.wait_state("setup")
    assert_one_heading(page, f"Banting setup, {size}")
    Banting(page).start()
    assert_one_heading(page, f"Banting table, {size}")
    table = Susun(page)
    table.start(players="2")
    assert_one_heading(page, f"Susun arranging, {size}")
    page.press("auto-arrange")
    page.wait(lambda: page.snapshot()["hand"] == [], "«Susun Otomatis» to place all 13")
    page.press("submit")
    table.revealed()
    assert_one_heading(page, f"Susun result, {size}")


# Where the focus is: inside the table section, or inside the result card.
FOCUS_JS = r"""
const e = document.activeElement;
return { table: !!(e && e.closest("section.table")),
         result: !!(e && e.closest('[data-role="result"]')),
         tag: e ? e.outerHTML.slice(0, 80) : null };
"""


def focus(page: Page) -> dict[str, object]:
    return page.js(FOCUS_JS)


def start_untouched(page: Page, game: str) -> None:
    """Press «Mulai Main» and let the deal run to its end: a tap to skip it would put the
    focus where it lands, as a person's tap does."""
    page.switch_game(game)
    page.wait_state("setup")
    page.press("start")
    page.wait_state("playing")


def test_focus_follows_the_susun_round(page: Page) -> None:
    table = Susun(page)
    start_untouched(page, "susun")
    table.dealt()
    assert focus(page)["table"], f"after «Mulai Main» focus is on {focus(page)}"
    page.press("auto-arrange")
    page.wait(lambda: page.snapshot()["hand"] == [], "«Susun Otomatis» to place all 13")
    page.press("submit")
    table.revealed()
    page.wait(lambda: focus(page)["result"], lambda: f"focus on the result; {focus(page)}")
    page.press("next-round")
    table.dealt()
    page.wait(lambda: focus(page)["table"], lambda: f"focus on the table; {focus(page)}")
    assert not focus(page)["result"]


def test_focus_moves_to_the_banting_table_when_a_round_starts(page: Page) -> None:
    start_untouched(page, "banting")
    Banting(page).synced()
    assert focus(page)["table"], f"after «Mulai Main» focus is on {focus(page)}"


STYLE_JS = r"""
const s = getComputedStyle(arguments[0]);
return { background: s.backgroundColor, color: s.color, opacity: s.opacity,
         outline: `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor} ${s.outlineOffset}`,
         shadow: s.boxShadow, focusVisible: arguments[0].matches(":focus-visible") };
"""


def style(page: Page, element: WebElement) -> dict[str, str]:
    return page.js(STYLE_JS, element)


def grey(colour: str) -> bool:
    """rgb(…) / rgba(…) whose channels are (nearly) equal: no hue."""
    channels = [int(float(c)) for c in re.findall(r"[\d.]+", colour)[:3]]
    return max(channels) - min(channels) <= 24


def test_a_focused_selected_card_shows_the_focus(page: Page) -> None:
    table = Banting(page)
    start_untouched(page, "banting")
    _, snap = table.synced()
    first, second, third = snap["hand"][:3]  # in the page's order
    table.select([first, third])
    # Keyboard focus on the first (selected) card: Shift+Tab from the second.
    page.js("arguments[0].focus()", table.card(second))
    ActionChains(page.driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
    focused = page.wait(
        lambda: s if (s := style(page, table.card(first)))["focusVisible"] else None,
        lambda: (
            f"keyboard focus on {first}; focus is on "
            + page.js("return document.activeElement.outerHTML.slice(0, 80)")
        ),
    )
    page.wait(lambda: page.js("return document.getAnimations().length === 0"), "still cards")
    focused = style(page, table.card(first))
    selected = style(page, table.card(third))
    page.screenshot("banting-focused-selected-desktop")
    assert not selected["focusVisible"]
    looks = ("outline", "shadow")
    assert any(focused[k] != selected[k] for k in looks), (focused, selected)


def test_disabled_buttons_look_disabled(page: Page) -> None:
    table = Banting(page)
    deal = deals.find_deal(lambda game: game.first_play, max_hints=0)  # the player leads
    page.open(f"/?code={deal.code}")
    start_untouched(page, "banting")
    view, _ = table.synced()
    play = page.action("play")
    assert page.is_disabled(play), "«Keluarkan» with nothing selected"
    off = style(page, play)
    page.screenshot("banting-play-disabled-desktop")
    hint = view["hint"]
    assert hint and hint["play"] != "pass"
    table.select(hint["play"])
    page.wait(lambda: not page.is_disabled(play), "«Keluarkan» enabled by the hint's cards")
    on = style(page, play)
    assert grey(off["background"]) and not grey(on["background"]), (off, on)
    assert off["color"] != on["color"], (off, on)
    # Susun: «Kirim susunan» before the rows are full.
    start_untouched(page, "susun")
    Susun(page).dealt()
    submit = page.action("submit")
    assert page.is_disabled(submit)
    assert grey(style(page, submit)["background"]), style(page, submit)


# Where the start button is on the screen as it first shows (no scrolling), and whether a
# tap at its middle reaches it.
START_JS = r"""
const e = [...document.querySelectorAll('[data-action="start"]')]
  .find((b) => b.getClientRects().length > 0);
const r = e.getBoundingClientRect();
const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
return { top: r.top, bottom: r.bottom, height: window.innerHeight,
         scrolled: document.scrollingElement.scrollTop,
         hit: hit !== null && (hit === e || e.contains(hit)) };
"""


@pytest.mark.parametrize("game", ["banting", "susun"])
def test_the_start_button_shows_on_a_phone_without_scrolling(page: Page, game: str) -> None:
    page.phone()
    page.open("/")
    page.switch_game(game)
    page.wait_state("setup")
    page.find('[data-action="start"]')
    page.js("document.scrollingElement.scrollTop = 0")
    box = page.js(START_JS)
    assert box["scrolled"] == 0 and box["hit"], box
    assert box["top"] >= 0 and box["bottom"] <= box["height"], box
    page.screenshot(f"{game}-setup-start-phone")


STRAIGHT_FLUSH = ["9h", "Th", "Jh", "Qh", "Kh"]

# The seats' last-play tags that show, each with how much of its text is cut.
TAGS_JS = r"""
return [...document.querySelectorAll("[data-seat] .bubble")]
  .filter((e) => e.getClientRects().length > 0 && e.textContent.trim())
  .map((e) => ({ text: e.textContent.trim(), cut: e.scrollWidth - e.clientWidth }));
"""


def test_last_play_tags_are_never_cut_on_a_phone(page: Page) -> None:
    table = Banting(page)
    open_five_card_answer_on_a_phone(page)
    view, _ = table.start(first_lead="previous-winner")
    table.hint_and_move(view, skip=True)
    table.synced()
    tags = page.js(TAGS_JS)
    assert any(len(t["text"]) >= 10 for t in tags), tags  # a five-card hand's name at least
    assert all(t["cut"] <= 0 for t in tags), tags
    # The labels this deal gives fit anyway; the longest kind of label must too (the
    # page's own tags, given a straight flush's label as the engine words it).
    flush = {"hand": STRAIGHT_FLUSH, "play": STRAIGHT_FLUSH}
    longest = page.api.post("/v1/banting/validate", flush)["combo"]["label"]
    page.js(
        "document.querySelectorAll('[data-seat] .bubble')"
        ".forEach((e) => { e.textContent = arguments[0]; })",
        longest,
    )
    tags = page.js(TAGS_JS)
    assert tags and all(t["cut"] <= 0 for t in tags), tags
    assert all(t["text"] == longest for t in tags), tags
    page.screenshot("banting-tags-phone")


def test_focus_returns_to_the_banting_table_on_a_reload(page: Page) -> None:
    table = Banting(page)
    deal = deals.find_deal(lambda game: game.first_play, max_hints=0)  # the player leads
    page.open(f"/?code={deal.code}")
    view, _ = table.start()
    table.hint_and_move(view, skip=True)
    table.synced()
    page.open("/")  # a reload: the stored round resumes
    page.wait_state("playing")
    table.synced()
    page.wait(lambda: focus(page)["table"], lambda: f"focus on the table; {focus(page)}")


# The focused element's ring as the eye sees it: for a radio drawn as its label's span, the
# span's; the ring's colour against the paper and against what lies just inside it (the
# inner band of a box-shadow, else the element's background).
RING_JS = r"""
const e = document.activeElement;
const drawn = e.type === "radio" ? e.nextElementSibling : e;
const s = getComputedStyle(drawn);
const rgb = (text) => (text.match(/[\d.]+/g) || []).slice(0, 3).map(Number);
const inner = s.boxShadow !== "none" ? s.boxShadow.match(/rgba?\([^)]*\)/)[0] : s.backgroundColor;
const innerAlpha = (inner.match(/[\d.]+/g) || [])[3];
return { setting: e.closest("[data-setting]")?.dataset.setting ?? e.dataset.setting ?? null,
         action: e.dataset.action ?? null, focusVisible: e.matches(":focus-visible"),
         style: s.outlineStyle, width: parseFloat(s.outlineWidth), ring: rgb(s.outlineColor),
         inside: innerAlpha === "0" ? [255, 255, 255] : rgb(inner),
         html: e.outerHTML.slice(0, 100) };
"""


def contrast(a: list[float], b: list[float]) -> float:
    """WCAG 2 contrast ratio of two sRGB colours."""

    def luminance(colour: list[float]) -> float:
        linear = [c / 255 for c in colour]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in linear]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


SETUP_SETTINGS = {
    "banting": {
        "suit_order",
        "straights",
        "flush_compare",
        "first_lead",
        "exchange",
        "bomb_ends",
        "level",
    },
    "susun": {"players", "level", "stake", "time_limit", "preset", "corrections"},
}
PAPER = [255.0, 255.0, 255.0]


@pytest.mark.parametrize("game", SETUP_SETTINGS)
def test_setup_controls_show_a_focus_ring_by_keyboard(page: Page, game: str) -> None:
    """Tab through the setup from the game switch to «Mulai Main»: every setting's control
    shows a ring of 3:1 against the paper and against what lies inside it; on a radio row
    also after an arrow key changes the choice."""
    page.switch_game(game)
    page.wait_state("setup")
    page.js("arguments[0].focus()", page.find(f'[data-action="game"][data-game="{game}"]'))
    keys = ActionChains(page.driver)
    seen: dict[str, dict[str, object]] = {}
    for _ in range(30):
        keys.send_keys(Keys.TAB).perform()
        ring = page.js(RING_JS)
        if ring["action"] == "start":
            break
        name = ring["setting"]
        if name is None:
            continue
        rings = [ring]
        if page.js("return document.activeElement.type") == "radio":
            keys.send_keys(Keys.ARROW_RIGHT).perform()
            rings.append(page.js(RING_JS))
        for shown in rings:
            assert shown["focusVisible"] and shown["style"] == "solid", shown
            assert shown["width"] >= 2, shown
            assert contrast(shown["ring"], PAPER) >= 3, shown
            assert contrast(shown["ring"], shown["inside"]) >= 3, shown
        seen[name] = ring
    assert set(seen) == SETUP_SETTINGS[game], seen
    page.screenshot(f"{game}-setup-focus-desktop")
