"""The page as a whole in a real browser: Indonesian by default and English with one switch
(the engine's reasons included), a phone held upright, and a quick first load."""

from __future__ import annotations

from typing import Any

from tests.web.browser import deals
from tests.web.browser.helpers import ROW_SIZES, Banting, Page, Susun, info_numbers

# Records the widest the page has been on any frame, and on how many frames a played card
# was in flight.
WIDEST_FRAME_JS = r"""
const widest = { width: 0, played: 0 };
window.capsaTestWidest = widest;
const sample = () => {
  widest.width = Math.max(widest.width, document.scrollingElement.scrollWidth);
  if (document.getAnimations().some((a) => a.animationName === "arrive")) widest.played += 1;
  requestAnimationFrame(sample);
};
requestAnimationFrame(sample);
"""
FIRST_PLAY_REASON = {"id": "Kartu pertama wajib memuat ♦3", "en": "The first play must contain 3♦"}


def test_language_switch_turns_every_text_english_and_back(page: Page) -> None:
    deal = deals.find_deal(lambda game: game.first_play, max_hints=0)
    table = Banting(page)
    page.open(f"/?code={deal.code}")
    page.wait_state("setup")
    assert page.js("return document.documentElement.lang") == "id"
    start_id = page.action("start").text
    assert start_id == "Mulai Main"
    explain_id = page.described("suit_order")

    page.press("lang")
    page.wait(lambda: page.js("return document.documentElement.lang") == "en", "<html lang=en>")
    page.wait(lambda: page.action("start").text != start_id, "the start button in English")
    assert page.described("suit_order") != explain_id
    page.screenshot("banting-setup-english-desktop")

    view, snap = table.start()
    numbers = info_numbers(snap["info"])
    assert numbers == (13, view["if_ended_now"]), snap["info"]
    assert "Sisa" not in snap["info"]
    single = next(c for c in snap["hand"] if c != "3d")
    table.select([single])
    # The refusal in the engine's English words (the server's, through Accept-Language).
    verdict = page.api.post(
        "/v1/banting/validate",
        {"hand": view["hand"], "play": [single], "first_play": True},
        lang="en",
    )
    assert verdict["message"] == FIRST_PLAY_REASON["en"]
    page.wait(
        lambda: FIRST_PLAY_REASON["en"] in page.snapshot()["status"],
        lambda: f"the English reason; the status says {page.snapshot()['status']!r}",
    )
    page.screenshot("banting-refused-english-desktop")

    # And back: the same selection's reason in Indonesian, without reloading.
    page.press("lang")
    page.wait(lambda: page.js("return document.documentElement.lang") == "id", "<html lang=id>")
    page.wait(
        lambda: FIRST_PLAY_REASON["id"] in page.snapshot()["status"],
        lambda: f"the Indonesian reason; the status says {page.snapshot()['status']!r}",
    )
    assert "Sisa 13" in page.snapshot()["info"]


def right_seat_answers_with_five(game: Any) -> bool:
    """Seat 0 has moved once, and since then the seat on its right has played five cards
    (the widest trick, flying in from the right edge)."""
    moves = game.history
    mine = [i for i, move in enumerate(moves) if move.seat == 0]
    return len(mine) == 1 and any(
        move.seat == 1 and move.combo is not None and len(move.combo.cards) == 5
        for move in moves[mine[0] :]
    )


def open_five_card_answer_on_a_phone(page: Page) -> None:
    """A phone showing the setup of a deal where the right seat answers the player's first
    move with five cards (rules: the previous winner leads)."""
    deal = deals.find_deal(
        right_seat_answers_with_five, deals.rules(first_lead="previous-winner"), max_hints=1
    )
    page.phone()
    page.open(f"/?code={deal.code}")


def test_phone_held_upright(page: Page) -> None:
    table = Banting(page)
    open_five_card_answer_on_a_phone(page)
    width, height = page.js("return [window.innerWidth, window.innerHeight]")
    assert (width, height) == (360, 740), "the page must lay itself out for the phone's width"

    def no_sideways_scroll() -> None:
        wide = page.js("return document.scrollingElement.scrollWidth")
        assert wide <= width, f"the page is {wide} px wide on a {width} px phone"

    page.wait_state("setup")
    no_sideways_scroll()
    # The page's width is also sampled on every frame from here on: a card flying in from
    # its seat, or a trick sweeping out, must not widen the page even for a moment.
    page.js(WIDEST_FRAME_JS)
    for name in ("suit_order", "straights", "flush_compare", "first_lead", "level"):
        box = page.usable(page.setting(name))
        assert box["left"] >= 0 and box["right"] <= width, (name, box)
    page.screenshot("banting-setup-phone")
    page.choose("first_lead", "previous-winner")

    view, snap = table.start()
    no_sideways_scroll()
    # The controls of a turn and the cards are within the screen and reachable by a tap,
    # without scrolling.
    for action in ("hint", "play", "pass"):
        box = page.usable(page.action(action))
        assert box["hit"], f"{action} is covered: {box}"
        assert box["left"] >= 0 and box["right"] <= width, (action, box)
        assert box["top"] >= 0 and box["bottom"] <= height, (action, box)
    for card in snap["hand"]:
        box = page.usable(table.card(card))
        assert box["left"] >= 0 and box["right"] <= width, (card, box)
        assert box["top"] >= 0 and box["bottom"] <= height, (card, box)
    page.screenshot("banting-playing-phone")
    # Playing by touch works at this size.
    view = table.hint_and_move(view)
    table.synced()
    assert view["history"] and any(m["seat"] == 0 for m in view["history"])
    played = page.js("return window.capsaTestWidest.played")
    assert played > 0, "the sampling saw no card in flight"
    widest = page.js("return window.capsaTestWidest.width")
    assert widest <= width, f"the page was {widest} px wide on a {width} px phone, in flight"


def test_susun_on_a_phone(page: Page) -> None:
    table = Susun(page)
    page.phone()
    page.open("/")
    width = page.js("return window.innerWidth")
    view, snap = table.start(players="4")

    def fits(element_box: dict, what: str) -> None:
        assert element_box["left"] >= 0 and element_box["right"] <= width, (what, element_box)

    assert page.js("return document.scrollingElement.scrollWidth") <= width
    for name in ROW_SIZES:
        fits(page.usable(table.row(name)), name)
    for card in snap["hand"]:
        fits(page.usable(table.card(card)), card)
    # Tap a card, then a row, at this size.
    table.place(view["hand"][:1], "top")
    page.screenshot("susun-arrange-phone")
    page.press("auto-arrange")
    page.wait(lambda: page.snapshot()["hand"] == [], "«Susun Otomatis» to place all 13")
    page.press("submit")
    view, snap = table.revealed()
    assert page.js("return document.scrollingElement.scrollWidth") <= width
    result = page.find('[data-role="result"]')
    page.js("arguments[0].scrollIntoView()", result)
    fits(page.usable(result), "result")
    page.screenshot("susun-reveal-phone")


def test_susun_reveal_with_sweeps_fits_a_phone(page: Page) -> None:
    # A deal whose reveal has a sweep and a super (seen by an outside audit): the pair notes
    # («Tembus ×4 · Super») once pushed the head-to-head table 1 px past the page.
    page.phone()
    page.driver.get(f"{page.base}/?code=S429FNYPQ3R94ND")
    page.wait_state("setup")
    page.press("start")
    if page.wait_state("dealing", "playing") == "dealing":
        page.skip_animation()
    Susun(page).dealt()
    page.press("auto-arrange")
    page.wait(lambda: page.snapshot()["hand"] == [], "«Susun Otomatis» to place all 13")
    page.press("submit")
    Susun(page).revealed()
    notes = page.js(
        "return [...document.querySelectorAll('.duels .pair-notes')].map(n => n.textContent)"
    )
    assert any("Tembus ×" in n for n in notes), notes
    # The notes have a line of their own under their pair, not a narrow fifth column.
    assert page.js(
        "return [...document.querySelectorAll('.duels .pair-notes')]"
        ".every(n => n.parentElement.classList.contains('pair-notes-row') && n.colSpan === 5)"
    )
    # Against the width left beside a scrollbar, not the window's.
    wide, room = page.js(
        "return [document.scrollingElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert wide <= room, f"the reveal is {wide} px wide in {room} px"
    # The seat's badge counts the seats it swept, in words unlike the multiplier's.
    badges = page.js(
        "return [...document.querySelectorAll('.mark.tembus')].map(b => b.textContent)"
    )
    assert badges and all(b.startswith("Tembus ") and b.endswith(" lawan") for b in badges), badges
    page.screenshot("susun-reveal-sweeps-phone")


def test_first_load_is_quick(page: Page) -> None:
    """WEB.md's figure: under 300 ms to interactive on localhost, from the browser's own
    clock: navigation start to the page's mark once its first screen is drawn and answers
    input (performance mark "capsa:ready"), and to the load event. The best of three loads
    is held to it: a page that is slow is slow every time, while one load slowed by other
    work on a shared machine says nothing about the page."""
    loads = []
    for _ in range(3):
        page.open("/")
        page.wait_state("setup")
        loads.append(
            page.wait(
                lambda: page.js(
                    """
                    const ready = performance.getEntriesByName("capsa:ready")[0];
                    const n = performance.getEntriesByType("navigation")[0];
                    return ready && n.loadEventEnd > 0
                      ? { ready: ready.startTime, loaded: n.loadEventEnd } : null;
                    """
                ),
                "the page's capsa:ready mark and load event",
            )
        )
    best = min(loads, key=lambda timing: max(timing.values()))
    assert best["ready"] < 300 and best["loaded"] < 300, loads
    nothing_outside = page.js(
        "return performance.getEntriesByType('resource')"
        ".map((r) => r.name).filter((n) => !n.startsWith(location.origin))"
    )
    assert nothing_outside == [], "the page fetched from outside its origin"


# The Banting setup as the eye reads it (innerText: after CSS, visible text only): each
# row's name and its choices in order, the level's options, and the start button.
SETUP_TEXT_JS = r"""
const rows = {};
for (const e of document.querySelectorAll("fieldset[data-setting]")) {
  rows[e.dataset.setting] = [e.querySelector("legend").innerText.trim(),
    ...[...e.querySelectorAll("label")].map((l) => l.innerText.trim())];
}
const level = document.querySelector('[data-setting="level"]');
rows.level = [document.querySelector(`label[for="${level.id}"]`).innerText.trim(),
  ...[...level.options].map((o) => o.text.trim())];
return { title: document.querySelector("#setup-title").innerText.trim(), rows,
         start: document.querySelector('[data-action="start"]').innerText.trim() };
"""

# Seed 003's words for «Aturan meja» (WEB.md), first letter capitalised as a label needs;
# the English WEB.md gives. Levels: the seed names «pemula / standar»; more may follow.
SETUP_WORDS = {
    "id": {
        "title": "Aturan meja",
        "rows": {
            "suit_order": ["Urutan jenis", "♦ terkecil", "♣ terkecil"],
            "straights": ["2 di straight", "Boleh", "Tidak"],
            "flush_compare": ["Adu flush", "Jenis dulu", "Angka dulu"],
            "first_lead": ["Siapa mulai", "Kartu terkecil", "Pemenang lalu"],
            # Seed 002: «Pertukaran kartu antar pemain diperbolehkan, adapula yang tidak.»
            "exchange": ["Tukar kartu", "Tidak", "Boleh"],
            # Seed 002: «Bom dapat mengakhiri permainan.»
            "bomb_ends": ["Bom mengakhiri ronde", "Tidak", "Ya"],
        },
        "levels": ["Pemula", "Standar"],
        "start": "Mulai Main",
    },
    "en": {
        "title": "Table rules",
        "rows": {
            "suit_order": ["Suit order", "♦ lowest", "♣ lowest"],
            "straights": ["2 in straights", "Allowed", "Not allowed"],
            "flush_compare": ["Flush comparison", "Suit first", "Rank first"],
            "first_lead": ["Who starts", "Lowest card", "Previous winner"],
            "exchange": ["Card exchange", "Not allowed", "Allowed"],
            "bomb_ends": ["A bomb ends the round", "No", "Yes"],
        },
        "levels": ["Beginner", "Standard"],
        "start": "Start",
    },
}


def test_the_setup_reads_in_the_seeds_words(page: Page) -> None:
    page.switch_game("banting")
    page.wait_state("setup")
    for lang in ("id", "en"):
        if page.js("return document.documentElement.lang") != lang:
            page.press("lang")
            page.wait(
                lambda lang=lang: page.js("return document.documentElement.lang") == lang,
                f"<html lang={lang}>",
            )
            page.wait_state("setup")
        words = SETUP_WORDS[lang]
        shown = page.wait(
            lambda words=words: (
                s if (s := page.js(SETUP_TEXT_JS))["start"] == words["start"] else None
            ),
            f"the setup in {lang}",
        )
        assert shown["title"] == words["title"], shown
        for name, texts in words["rows"].items():
            assert shown["rows"][name] == texts, (lang, name, shown["rows"][name])
            # The explanation is still there, and says more than the choice.
            assert len(page.described(name)) > 20, (lang, name)
        assert shown["rows"]["level"][1:3] == words["levels"], shown["rows"]["level"]
