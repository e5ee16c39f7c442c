"""Capsa Susun corrections (seed 004, RULES.md 4.5) on the page: «Perbaikan susunan» in the
setup; rows sent with «Kirim susunan» stay open to change (ready: false) while the time
left and who is ready show; «Siap» makes them final, the reveal shows the rows as last
sent, and nothing changes after it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browser.helpers import SIZES, Page, Susun
from tests.web.browser.test_web_axe import assert_accessible
from tests.web.browser.test_web_susun import arrangement, split

SHOWN_ROWS_JS = r"""
const seat = document.querySelector('.reveal-seat[data-seat="0"]');
if (!seat) return null;
const rows = {};
for (const r of seat.querySelectorAll("[data-reveal-row]")) {
  rows[r.dataset.revealRow] = [...r.querySelectorAll("[data-card]")].map((c) => c.dataset.card);
}
return rows;
"""


def chip(page: Page, seat: int) -> dict[str, Any]:
    return page.js(
        "const e = document.querySelector(`.chip[data-seat='${arguments[0]}']`);"
        "return { ready: e.hasAttribute('data-ready'),"
        " arranged: e.hasAttribute('data-arranged') };",
        seat,
    )


def other_valid(page: Page, hand: list[str], rules: Any, than: dict[str, list[str]]) -> Any:
    """Valid rows of ``hand`` other than ``than`` (the hand reversed, then shuffled)."""
    found = arrangement(page, list(reversed(hand)), fouled=False, rules=rules)["rows"]
    assert found != than
    return found


@pytest.mark.parametrize("size", SIZES)
def test_rows_sent_stay_open_until_ready(page: Page, size: str) -> None:
    table = Susun(page)
    explained = page.turn_on("susun", "corrections", ["false", "true"])
    assert "sampai kamu menekan Siap" in explained, explained
    # The selects are set on the desktop (a phone's select opens the system's picker,
    # which WebDriver cannot tap); the setup remembers them.
    for name, value in {"players": "2", "level": "beginner", "time_limit": "300"}.items():
        page.choose(name, value)
    SIZES[size](page)
    page.open("/")
    view, snap = table.start()
    assert view["corrections"] is True and view["time_limit"] == 300, view
    # The bot is ready at once; the player is not.
    assert view["ready"] == [False, True], view["ready"]
    page.wait(lambda: "Siap: Komputer 1" in page.snapshot()["info"], "who is ready")
    assert chip(page, 1)["ready"] and not chip(page, 0)["ready"]
    page.wait(
        lambda: page.js(
            "return document.querySelector('[data-role=timer]').textContent"
        ).startswith("Sisa waktu"),
        "the time left",
    )

    first = arrangement(page, view["hand"], fouled=False, rules=view["rules"])["rows"]
    table.arrange(first)
    page.press("submit")  # «Kirim susunan»: sent, still open to change
    sent = page.wait(
        lambda: v if (v := table.view())["mine"] else None, "the first rows on the server"
    )
    assert sent["ready"] == [False, True] and not sent["revealed"], sent
    assert {r: sorted(sent["mine"][r]) for r in first} == {r: sorted(c) for r, c in first.items()}
    page.wait(lambda: "masih boleh memperbaikinya" in page.snapshot()["status"], "the status")
    snap = page.snapshot()
    assert snap["state"] == "playing" and snap["buttons"]["submit"]["disabled"] is False, snap
    assert_accessible(page, "the Susun rows sent, open to correction", size)

    # Correct them: every card back to the hand, then the second arrangement.
    second = other_valid(page, view["hand"], view["rules"], first)
    for card in view["hand"]:
        page.click(table.card(card))
    page.press("unplace")
    page.wait(lambda: len(page.snapshot()["hand"]) == 13, "all 13 back in the hand")
    table.arrange(second)
    page.press("ready")  # «Siap»: the corrected rows, final; the bot is ready: the reveal
    view, snap = table.revealed()
    shown = page.js(SHOWN_ROWS_JS)
    assert {r: sorted(shown[r]) for r in second} == {r: sorted(c) for r, c in second.items()}
    mine = next(s for s in view["result"]["seats"] if s["seat"] == 0)
    assert {r["position"]: sorted(r["cards"]) for r in mine["rows"]} == {
        r: sorted(c) for r, c in second.items()
    }
    # After the reveal nothing changes: the server refuses, the page offers no control.
    late = page.api.call(
        "POST",
        f"/v1/susun/games/{view['id']}/arrangement",
        {**split(view["hand"]), "ready": True},
        token=page.session("susun")[1],
    )
    assert late.status == 409 and late.body["code"] == "ALREADY_REVEALED", late
    controls = page.js(
        "return [...document.querySelectorAll('[data-action]')].filter((e) =>"
        " e.getClientRects().length).map((e) => e.dataset.action)"
    )
    assert not {"submit", "ready", "auto-arrange", "unplace"} & set(controls), controls


def test_corrections_in_english(page: Page) -> None:
    page.switch_game("susun")
    page.wait_state("setup")
    page.press("lang")
    page.wait(lambda: page.js("return document.documentElement.lang") == "en", "<html lang=en>")
    page.choose("corrections", "true")
    assert "until you press Ready" in page.described("corrections")
    table = Susun(page)
    table.start(players="2", level="beginner")
    page.wait(lambda: "Ready: Computer 1" in page.snapshot()["info"], "who is ready, in English")
    assert page.find('[data-action="ready"]').text.strip() == "Ready"
