"""Capsa Susun in a real browser (WEB.md): arranging by tapping a card then a row, live row
names, a foul shown and confirmed, «Susun Otomatis», the reveal's points and money checked
against the server, and the next round."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from capsa_fast import format_cards, susun

from tests.web.browser.helpers import ROW_SIZES, Page, Susun, same_cards


def split(cards: list[str]) -> dict[str, list[str]]:
    return {"top": cards[:3], "middle": cards[3:8], "bottom": cards[8:]}


def arrangement(page: Page, hand: list[str], fouled: bool, rules: Any) -> dict[str, Any]:
    """Rows of ``hand`` that the server's check calls fouled (or not), and that check."""
    rng = random.Random(2026)
    for _ in range(500):
        cards = hand[:]
        rng.shuffle(cards)
        rows = split(cards)
        check = page.api.post("/v1/susun/check", {**rows, "rules": rules})
        if check["fouled"] == fouled and check["special"] is None:
            return {"rows": rows, "check": check}
    raise AssertionError(f"no {'fouled' if fouled else 'valid'} arrangement found")


def check_result(view: dict[str, Any], snap: dict[str, Any]) -> None:
    """One result line per seat whose data-points and data-money are the server's."""
    seats = {line["seat"]: line for line in snap["result"]}
    assert len(seats) == len(snap["result"]) == view["players"], snap["result"]
    for seat in view["result"]["seats"]:
        line = seats[seat["seat"]]
        assert int(line["points"]) == seat["points"], (seat, line)
        assert float(line["money"]) == seat["money"], (seat, line)
        assert seat["money"] == seat["points"] * view["stake"]


def test_arrange_by_hand_see_and_confirm_a_foul(page: Page) -> None:
    table = Susun(page)
    page.switch_game("susun")
    page.wait_state("setup")
    page.screenshot("susun-setup-desktop")
    view, snap = table.start(players="2", level="beginner", stake="2.5", time_limit="")
    assert view["players"] == 2 and view["stake"] == 2.5 and view["time_limit"] is None
    assert view["bots"] == {"1": "beginner"} and view["rules"]["preset"] == "capsa-susun"
    assert same_cards(snap["hand"], view["hand"]) and len(view["hand"]) == 13
    assert not view["arranged"][0]

    foul = arrangement(page, view["hand"], fouled=True, rules=view["rules"])
    snap = table.arrange(foul["rows"])
    # Every row holds its cards and names its hand (the server's category).
    categories = {row["position"]: row["category"] for row in foul["check"]["rows"]}
    page.wait(
        lambda: all(
            page.snapshot()["rows"][name]["hand"] == categories[name] for name in ROW_SIZES
        ),
        lambda: f"the rows' data-hand {categories}; shown {page.snapshot()['rows']}",
    )
    snap = page.snapshot()
    for name in ROW_SIZES:
        assert same_cards(snap["rows"][name]["cards"], foul["rows"][name]), name
    assert snap["hand"] == [], "cards left to place after all 13 were placed"
    # The foul is shown before anything is sent.
    page.wait(
        lambda: "Pao" in (s := page.snapshot())["status"] + s["info"],
        lambda: (
            f"the foul (pao) shown; status {page.snapshot()['status']!r}, "
            f"info {page.snapshot()['info']!r}"
        ),
    )
    page.screenshot("susun-foul-desktop")
    page.press("submit")
    confirm = page.action("confirm-foul")
    assert confirm.is_displayed()
    assert not table.view()["arranged"][0], "fouled rows were sent before the confirmation"
    page.press("confirm-foul")

    view, snap = table.revealed()
    mine = view["result"]["seats"][0]
    assert mine["fouled"] and mine["by"] == "player"
    for name in ROW_SIZES:
        assert same_cards(mine[name], foul["rows"][name]), name
    check_result(view, snap)
    page.screenshot("susun-reveal-desktop")


def test_auto_arrange_then_reveal_and_next_round(page: Page) -> None:
    table = Susun(page)
    view, snap = table.start(players="4", level="standard", stake="1", time_limit="60")
    assert view["players"] == 4 and view["time_limit"] == 60 and view["deadline"]
    # Some cards placed by hand first: «Susun Otomatis» rearranges all 13.
    table.place(view["hand"][:3], "top")
    page.screenshot("susun-arrange-desktop")
    page.press("auto-arrange")
    best = page.api.post(
        "/v1/susun/arrange", {"hand": view["hand"], "rules": view["rules"], "strategy": "ev"}
    )
    page.wait(
        lambda: all(
            same_cards(page.snapshot()["rows"][name]["cards"], best[name]) for name in ROW_SIZES
        ),
        lambda: f"«Susun Otomatis» to fill the rows with {best}; shown {page.snapshot()['rows']}",
    )
    page.press("submit")
    view, snap = table.revealed()
    # WEB.md: data-row marks the player's rows only (each with data-hand), also after the
    # reveal, whose head-to-head table must not reuse it.
    marked = page.js(
        "return [...document.querySelectorAll('[data-row]')]"
        ".map((e) => [e.dataset.row, e.hasAttribute('data-hand')])"
    )
    assert sorted(marked) == [["bottom", True], ["middle", True], ["top", True]], marked
    mine = view["result"]["seats"][0]
    assert not mine["fouled"] and mine["by"] == "player"
    for name in ROW_SIZES:
        assert same_cards(mine[name], best[name]), name
    check_result(view, snap)
    first = view["totals"]
    assert first["points"] == [s["points"] for s in view["result"]["seats"]]

    # A double click deals one round, with no conflict on the way (one request).
    page.double_press("next-round")
    page.wait(lambda: table.view()["round"] == 2, "the next round dealt on the server")
    view, snap = table.dealt()
    assert view["round"] == 2 and not view["revealed"]
    assert view["totals"] == first, "the match totals carry over"
    status = page.find('[data-role="status"]').text
    assert "berubah" not in status and "changed" not in status, status
    assert not [e for e in page.read_console() if "409" in e.get("message", "")]


def six_pairs_code(players: int = 2) -> str:
    """A round code that deals seat 0 six pairs (a special under susun-specials)."""
    for seed in range(20_000):
        code = susun.make_code(players, seed)
        ranks = Counter(card[0] for card in format_cards(susun.deal(code)[0]))
        if sum(count // 2 for count in ranks.values()) >= 6:
            return code
    raise AssertionError("no six-pairs deal found")


def test_a_special_hand_is_offered_and_declared(page: Page) -> None:
    code = six_pairs_code()
    table = Susun(page)
    page.open(f"/?code={code}")
    view, _ = table.start(preset="susun-specials", level="beginner", stake="1")
    assert view["code"] == code and view["rules"]["preset"] == "susun-specials"
    assert "six_pairs" in view["specials"]
    declare = page.find('[data-action="declare"]')
    page.screenshot("susun-special-desktop")
    page.click(declare)
    view, snap = table.revealed()
    mine = view["result"]["seats"][0]
    assert mine["special"] == "six_pairs" and not mine["fouled"]
    check_result(view, snap)


def test_a_round_link_decides_the_players_and_the_stake_is_a_select(page: Page) -> None:
    # A two-player code: the setup shows 2 players, locked, whatever was chosen before.
    code = susun.make_code(2, 12345)
    page.driver.get(f"{page.base}/?code={code}")
    page.wait_state("setup")
    players = page.setting("players")
    page.wait(lambda: page.setting_value("players") == "2", "the code's 2 players shown")
    assert players.tag_name == "select" and page.is_disabled(players)
    # WEB.md: each setup control is a select (or radio group) of the API's values.
    stake = page.setting("stake")
    assert stake.tag_name == "select"
    assert {"1", "2.5", "100"} <= set(page.setting_values("stake"))
    page.choose("stake", "2.5")
    page.press("lang")
    page.wait(
        lambda: "You against 1 computer." in page.described("players"),
        lambda: f"the English explanation in the singular; shown {page.described('players')!r}",
    )
    page.press("start")
    if page.wait_state("dealing", "playing") == "dealing":
        page.skip_animation()
    page.wait_state("playing")
    view = Susun(page).view()
    assert view["players"] == 2 and view["stake"] == 2.5 and view["code"] == code
    page.press("lang")  # back to Indonesian for the next test
