"""axe-core on every screen of the page, on a phone held upright and on a desktop: no
violation of moderate, serious or critical impact.

axe-core is the copy that axe-selenium-python ships inside its package (the test extra
installs it); its file is read from the installed package and run in the page with
execute_script, so nothing is fetched from outside.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from importlib import resources
from typing import Any

import pytest
from capsa_fast import format_cards, susun

from tests.web.browser import deals
from tests.web.browser.helpers import SIZES, Banting, Page, Susun
from tests.web.browser.test_web_susun import six_pairs_code

# The impacts that fail a screen (axe's scale: minor, moderate, serious, critical).
FAILING = {"moderate", "serious", "critical"}
AXE_SECONDS = 60.0


@cache
def axe_source() -> str:
    """axe.min.js as axe-selenium-python installs it."""
    package = resources.files("axe_selenium_python")
    return (package / "node_modules" / "axe-core" / "axe.min.js").read_text(encoding="utf-8")


# Runs axe on the whole document once the page is still (no animation running, so colours
# are the final ones); the callback gets axe's violations, or an error's text.
_RUN_JS = r"""
const done = arguments[arguments.length - 1];
const still = () => document.getAnimations().length === 0
  && !document.body.classList.contains("animating");
const run = () => axe.run(document, { resultTypes: ["violations"] }, (error, results) => {
  if (error) done({ error: String(error) });
  else done({ violations: results.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(" "), html: n.html.slice(0, 160),
                                 summary: n.failureSummary })) })) });
});
const wait = (left) => (still() || left <= 0 ? run() : setTimeout(() => wait(left - 50), 50));
wait(5000);
"""


def violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's violations of moderate impact or above on the page as it is now."""
    if not page.js("return typeof window.axe === 'object'"):
        page.js(axe_source())
    page.driver.set_script_timeout(AXE_SECONDS)
    answer = page.driver.execute_async_script(_RUN_JS)
    assert "error" not in answer, answer
    return [v for v in answer["violations"] if v["impact"] in FAILING]


def assert_accessible(page: Page, screen: str, size: str) -> None:
    found = violations(page)
    lines = [
        f"{v['impact']} {v['id']} ({v['help']}): "
        + "; ".join(f"{n['target']} {n['html']} {n['summary']}" for n in v["nodes"][:4])
        for v in found
    ]
    assert not found, f"axe on {screen} ({size}):\n" + "\n".join(lines)


def open_setup(page: Page, size: str, game: str) -> None:
    """The page at ``size``, on ``game``'s setup screen."""
    SIZES[size](page)
    page.open("/")
    page.switch_game(game)
    page.wait_state("setup")


@pytest.mark.parametrize("size", SIZES)
def test_banting_screens_pass_axe(page: Page, size: str) -> None:
    open_setup(page, size, "banting")
    assert_accessible(page, "the start screen", size)
    table = Banting(page)
    # A round where the player leads at once: the table, then a few moves into the round.
    deal = deals.find_deal(lambda game: game.first_play, max_hints=0)
    page.open(f"/?code={deal.code}")
    page.switch_game("banting")
    page.wait_state("setup")
    assert_accessible(page, "the Banting setup", size)
    view, _ = table.start()
    view, snap = table.play_hints(2)
    assert snap["state"] == "playing" and len(snap["hand"]) < 13, snap
    table.select(snap["hand"][:1])
    assert_accessible(page, "the Banting table mid-round, a card selected", size)
    while not view["over"]:
        if view["your_turn"]:
            view = table.hint_and_move(view, skip=True)
        view, _ = table.synced()
    page.wait(lambda: page.snapshot()["result"], "the result card")
    assert_accessible(page, "the Banting result", size)


@cache
def four_of_a_kind_code(players: int = 4) -> str:
    """A round code that deals seat 0 four of a kind: its rows show a bonus («barang») at
    the reveal, beside three other seats' rows and marks."""
    for seed in range(20_000):
        code = susun.make_code(players, seed)
        ranks = Counter(card[0] for card in format_cards(susun.deal(code)[0]))
        if max(ranks.values()) == 4:
            return code
    raise AssertionError("no four-of-a-kind deal found")


@pytest.mark.parametrize("size", SIZES)
def test_susun_screens_pass_axe(page: Page, size: str) -> None:
    open_setup(page, size, "susun")
    assert_accessible(page, "the Susun setup", size)
    table = Susun(page)
    page.open(f"/?code={four_of_a_kind_code()}")
    _, snap = table.start()
    assert_accessible(page, "the Susun rows, nothing placed", size)
    hand = snap["hand"]
    table.place(hand[:3], "top")
    assert_accessible(page, "the Susun rows, three placed", size)
    page.press("auto-arrange")
    page.wait(lambda: page.snapshot()["hand"] == [], "«Susun Otomatis» to place all 13")
    page.press("submit")
    table.revealed()
    assert page.js("return document.querySelectorAll('.reveal-row.bonus').length"), "no bonus"
    assert_accessible(page, "the Susun reveal", size)


@pytest.mark.parametrize("size", SIZES)
def test_english_screens_pass_axe(page: Page, size: str) -> None:
    open_setup(page, size, "banting")
    page.press("lang")
    page.wait(lambda: page.js("return document.documentElement.lang") == "en", "<html lang=en>")
    assert_accessible(page, "the Banting setup in English", size)
    Banting(page).start()
    assert_accessible(page, "the Banting table in English", size)


@pytest.mark.parametrize("size", SIZES)
def test_a_susun_special_passes_axe(page: Page, size: str) -> None:
    """The offer of a special hand, and the reveal with its mark."""
    # The preset is chosen on the desktop (a phone's select opens the system's picker,
    # which WebDriver cannot tap); the setup remembers it.
    page.switch_game("susun")
    page.wait_state("setup")
    page.choose("preset", "susun-specials")
    SIZES[size](page)
    page.open(f"/?code={six_pairs_code()}")
    table = Susun(page)
    table.start()
    page.find('[data-action="declare"]')
    assert_accessible(page, "the Susun rows with a special offered", size)
    page.press("declare")
    table.revealed()
    assert_accessible(page, "the Susun reveal with a special declared", size)
