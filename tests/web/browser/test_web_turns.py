"""The turn marker as a program reading the DOM contract (or a screen reader told whose turn
it is) meets it: whenever the player's seat carries data-turn while the round plays, the
player has an enabled action; once a seat has gone out the round is over at once
(data-state round-over, no data-turn anywhere, the info line names the winner), though the
last moves may still play out.

Seeded rounds (found with the engine: the player takes every hint, the computers play as
on the page) are driven through the page, tapped through and with animations at both
speeds, the player winning some and a computer others. The page is watched by a
MutationObserver: every change of a marker, a button, a count or the state is checked as
it happens, not only at the moments a poll would catch.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from tests.web.browser import deals
from tests.web.browser.helpers import Banting, Page

# Seconds between the server's answer to the winning move and the page saying the round is
# over (the answer's way to the browser only: the animations do not hold it back).
OVER_AT_ONCE = 2.0

# Installs the watch: each batch of DOM changes is checked after it is made, as anyone
# reading the page would see it. Faults are kept (the first 20) with what the page showed.
OBSERVER_JS = r"""
const watch = { faults: [], checks: 0, mine: 0 };
window.capsaTurnWatch = watch;
const fault = (what) => {
  if (watch.faults.length < 20) {
    watch.faults.push({ what, state: document.body.dataset.state,
      status: document.querySelector('[data-role="status"]')?.textContent ?? null });
  }
};
const check = () => {
  watch.checks += 1;
  const state = document.body.dataset.state;
  const seats = [...document.querySelectorAll("[data-seat][data-count]")]
    .filter((e) => !e.closest('[data-role="result"]'));
  const turn = seats.filter((e) => e.hasAttribute("data-turn")).map((e) => e.dataset.seat);
  const enabled = ["play", "pass", "hint"].filter((a) => {
    const b = document.querySelector(`[data-action="${a}"]`);
    return b && !b.hasAttribute("disabled");
  });
  if (turn.length > 1) fault(`several seats have the turn: ${turn}`);
  if (state === "playing" && turn.includes("0")) {
    if (enabled.length) watch.mine += 1;
    else fault("the player's turn with no enabled action");
  }
  if (state === "playing" && seats.some((e) => e.dataset.count === "0")) {
    fault("a seat is out and the round still plays");
  }
  if (state === "round-over" && turn.length) fault(`the turn on seat ${turn} after the round`);
  if (state !== "playing" && enabled.length) fault(`${enabled} enabled in ${state}`);
};
new MutationObserver(check).observe(document.body, {
  subtree: true, attributes: true,
  attributeFilter: ["data-turn", "disabled", "data-state", "data-count"],
});
check();
"""


@cache
def rounds(player_wins: bool, count: int, max_hints: int = 13) -> list[deals.Round]:
    return deals.find_rounds(player_wins, count, max_hints)


def play_round(page: Page, played: deals.Round, skip: bool) -> dict[str, Any]:
    """Open the round's link, start it, and play it by hints to its end; returns the watch."""
    table = Banting(page)
    page.open(f"/?code={played.code}")
    page.wait_state("setup")
    page.js(OBSERVER_JS)
    page.press("start")
    if skip and page.wait_state("dealing", "playing", "round-over") == "dealing":
        page.skip_animation()
    view, _ = table.synced()
    moves = 0
    while not view["over"]:
        assert view["your_turn"], view
        after = table.hint_and_move(view, skip=skip)
        moves += 1
        if after["over"]:
            page.wait_state("round-over", timeout=OVER_AT_ONCE)
        view, _ = table.synced()
    assert moves == played.hints and view["result"]["winner"] == played.winner, (moves, view)
    snap = page.wait(
        lambda: s if (s := page.snapshot())["result"] else None, "the result card after the round"
    )
    watch: dict[str, Any] = page.js("return window.capsaTurnWatch")
    assert not watch["faults"], (played, watch["faults"])
    assert watch["mine"] > 0, f"the player's turn was never seen: {watch}"
    assert not any(seat["turn"] for seat in snap["seats"].values()), snap["seats"]
    winner = "Kamu" if played.winner == 0 else f"Komputer {played.winner}"
    assert f"{winner} menang" in snap["info"], snap["info"]
    return watch


def test_the_turn_holds_when_the_moves_are_tapped_through(page: Page) -> None:
    for played in rounds(True, 2, 9) + rounds(False, 2):
        play_round(page, played, skip=True)


@pytest.mark.parametrize("fast", [True, False], ids=["fast", "normal"])
def test_the_turn_holds_while_the_moves_play_out(page: Page, fast: bool) -> None:
    page.set_speed(fast)
    # At normal speed one short round the player wins; fast, one won and one lost.
    chosen = rounds(True, 1, 5) + rounds(False, 1) if fast else rounds(True, 1, 4)
    for played in chosen:
        play_round(page, played, skip=False)
