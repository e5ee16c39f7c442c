"""Reloading mid-round (seed 003: «tutup halaman lalu buka lagi, ronde langsung lanjut dari
posisi terakhir: siapa yang mulai, kartu apa di meja, dan giliran siapa semuanya masih
sama»): the page comes back at the position the player last saw, then plays the moves
made since, in order; a tap skips them, as it skips the deal."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.browser import deals
from tests.web.browser.helpers import Banting, Page

STORED = "capsa:banting"

# The seats' counts (by seat) and the table's cards (sorted) as the page shows them.
POSITION_JS = r"""
const capsaPosition = () => {
  const seats = [...document.querySelectorAll("[data-seat][data-count]")]
    .filter((e) => !e.closest('[data-role="result"]'))
    .sort((a, b) => Number(a.dataset.seat) - Number(b.dataset.seat));
  return { counts: seats.map((e) => Number(e.dataset.count)),
    table: [...document.querySelectorAll('[data-role="table"] [data-card]')]
      .map((e) => e.dataset.card).sort() };
};
"""

# Runs in every new document before the page's own scripts: records each position shown
# while the round is on screen (playing or round-over), each once.
RECORDER_JS = (
    POSITION_JS
    + r"""
window.capsaPositions = [];
const record = () => {
  const state = document.body && document.body.dataset.state;
  if (state !== "playing" && state !== "round-over") return;
  const position = capsaPosition();
  if (!position.counts.length) return;
  const last = window.capsaPositions[window.capsaPositions.length - 1];
  if (!last || JSON.stringify(last) !== JSON.stringify(position)) {
    window.capsaPositions.push(position);
  }
};
new MutationObserver(record).observe(document, { subtree: true, childList: true,
  attributes: true, attributeFilter: ["data-count", "data-state", "data-card"] });
"""
)


@pytest.fixture
def recorder(page: Page) -> Iterator[None]:
    """The recorder in every document the tab loads during the test."""
    added = page.driver.execute_cdp_cmd(
        "Page.addScriptToEvaluateOnNewDocument", {"source": RECORDER_JS}
    )
    yield
    page.driver.execute_cdp_cmd(
        "Page.removeScriptToEvaluateOnNewDocument", {"identifier": added["identifier"]}
    )


def position(view: dict[str, Any], moves: int) -> dict[str, Any]:
    """The seats' counts and the table's cards after the first ``moves`` of the history."""
    counts = [13] * view["players"]
    table: list[str] = []
    owner = -1  # the seat whose play is on the table
    passes = 0
    for move in view["history"][:moves]:
        if move["play"] == "pass":
            passes += 1
            others = sum(1 for seat, c in enumerate(counts) if seat != owner and c > 0)
            if table and passes >= others:
                table, passes = [], 0  # swept to the last player who played
            continue
        counts[move["seat"]] -= len(move["play"])
        table, owner, passes = sorted(move["play"]), move["seat"], 0
    return {"counts": counts, "table": table}


# The stored «seen» and the position on screen, read at one moment.
ON_SCREEN_JS = (
    POSITION_JS
    + r"""
const stored = localStorage.getItem(arguments[0]);
return { seen: stored ? (JSON.parse(stored).seen ?? null) : null, position: capsaPosition() };
"""
)


def on_screen(page: Page) -> dict[str, Any]:
    return page.js(ON_SCREEN_JS, STORED)


def seen(page: Page) -> dict[str, int] | None:
    stored = page.js("return localStorage.getItem(arguments[0])", STORED)
    return json.loads(stored).get("seen") if stored else None


def reload_mid_replay(page: Page, table: Banting) -> tuple[int, dict[str, Any]]:
    """Play the hint at normal speed and reload while the computers' answers still play
    out; returns (the moves the page had shown, the server's view)."""
    view, _ = table.synced()
    before = len(view["history"])
    after = table.hint_and_move(view)
    n = len(after["history"])
    mid = page.wait(
        lambda: s if (s := on_screen(page))["seen"] and before < s["seen"]["moves"] < n else None,
        lambda: f"the page mid-replay: {on_screen(page)}, history {n}",
    )
    # What it stored as seen is what it showed.
    assert mid["position"] == position(after, mid["seen"]["moves"]), mid
    page.open("/")
    return mid["seen"]["moves"], after


def expected_positions(view: dict[str, Any], first: int) -> list[dict[str, Any]]:
    """The positions from move ``first`` to the end, each once."""
    out: list[dict[str, Any]] = []
    for moves in range(first, len(view["history"]) + 1):
        now = position(view, moves)
        if not out or out[-1] != now:
            out.append(now)
    return out


def test_a_reload_resumes_where_the_player_was_and_replays_the_rest(
    page: Page, recorder: None
) -> None:
    table = Banting(page)
    page.set_speed(fast=False)
    deal = deals.find_deal(lambda game: game.first_play, max_hints=0)  # the player leads
    page.open(f"/?code={deal.code}")
    table.start()
    moves, view = reload_mid_replay(page, table)
    page.wait_state("playing", "round-over")
    table.synced()
    recorded = page.js("return window.capsaPositions")
    want = expected_positions(view, moves)
    assert len(want) >= 2, "nothing left to replay"
    assert recorded == want, (moves, recorded, want)
    # The replay ends with the player's turn, as the round stands on the server.
    assert page.snapshot()["seats"]["0"]["turn"]
    assert seen(page) == {"round": view["round"], "moves": len(view["history"])}

    # Again, and a tap skips the rest: the page goes straight to the server's position.
    moves, view = reload_mid_replay(page, table)
    page.wait_state("playing", "round-over")
    page.skip_animation()
    table.synced()
    recorded = page.js("return window.capsaPositions")
    want = expected_positions(view, moves)
    assert recorded[0] == want[0] and recorded[-1] == want[-1], (moves, recorded, want)
    assert all(p in want for p in recorded), (recorded, want)
