"""The card exchange between the rounds of a match (seed 002, RULES.md 3.2 ``exchange:
ranked``) on the page: «Tukar kartu» in «Aturan meja», then, after a round the player won,
the exchange step of the next round: what the player received and from whom, which
computers exchange between themselves, the card given back chosen in the hand (a tap, or
the keyboard) and sent with «Kembalikan kartu», and the hand that follows, checked against
the server's view; axe-core on the step at phone and desktop size."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from selenium.webdriver.common.keys import Keys

from tests.web.browser import deals
from tests.web.browser.helpers import SIZES, Banting, Page
from tests.web.browser.test_web_axe import assert_accessible

SUIT = {"d": "♦", "c": "♣", "h": "♥", "s": "♠"}


def big_two(card: str) -> tuple[int, int]:
    """A card's place in Big Two order on the page's table (♦ < ♣ < ♥ < ♠)."""
    return "3456789TJQKA2".index(card[0]), "dchs".index(card[1])


def card_id(card: str) -> str:
    """A card as an Indonesian sentence writes it: «♦3», «♠10»."""
    return SUIT[card[1]] + ("10" if card[0] == "T" else card[0])


@cache
def won_round() -> deals.Round:
    """A short round the player wins by taking every hint (the first round of a match
    exchanges nothing, so the exchange setting leaves it as it is)."""
    return deals.find_rounds(True, 1, 4)[0]


def places(result: dict[str, Any], players: int) -> list[int]:
    """RULES.md 3.2: by cards left, fewer first, ties in turn order from the winner."""
    winner = result["winner"]
    return sorted(range(players), key=lambda s: (result["cards_left"][s], (s - winner) % players))


def exchange_text(page: Page) -> str:
    return str(
        page.js(
            "const e = document.querySelector('[data-role=\"exchange\"]');"
            "return e && e.getClientRects().length ? e.innerText : '';"
        )
    )


def reach_exchange(page: Page, table: Banting) -> tuple[dict[str, Any], list[int]]:
    """Play the won round to its end on a table with the exchange, press «Ronde
    berikutnya»; returns the second round's view (the exchange open) and round 1's places."""
    played = won_round()
    page.open(f"/?code={played.code}")
    view, _ = table.start(exchange="ranked")
    assert view["rules"]["exchange"] == "ranked" and view["phase"] == "play", view
    assert view["exchange"] is None, "the first round of a match exchanges nothing"
    while not view["over"]:
        view = table.hint_and_move(view, skip=True)
        view, _ = table.synced()
    assert view["result"]["winner"] == 0, view["result"]
    order = places(view["result"], view["players"])
    page.wait(lambda: page.snapshot()["result"], "the result card")
    page.press("next-round")
    page.wait(lambda: page.state() in ("dealing", "playing"), "the next round's deal")
    page.skip_animation()
    page.wait(lambda: exchange_text(page), "the exchange step")
    return table.view(), order


@pytest.mark.parametrize("size", SIZES)
def test_the_player_gives_a_card_back_in_the_exchange(page: Page, size: str) -> None:
    SIZES[size](page)
    table = Banting(page)
    view, order = reach_exchange(page, table)
    # The winner received the last place's highest card and owes one back; no one's turn.
    assert view["round"] == 2 and view["phase"] == "exchange", view
    part = view["exchange"]
    assert part["give"] == 1 and len(part["received"]) == 1 and part["gave"] == [], part
    assert len(view["hand"]) == 14 and view["turn"] is None, view
    last = order[-1]
    received = part["received"][0]
    snap = page.snapshot()
    assert snap["hand"] == view["hand"], (snap["hand"], view["hand"])
    assert not any(seat["turn"] for seat in snap["seats"].values()), snap["seats"]
    assert all(snap["buttons"][a]["disabled"] for a in ("play", "pass", "hint")), snap["buttons"]
    text = exchange_text(page)
    assert f"Kamu menerima {card_id(received)} dari Komputer {last}." in text, text
    assert "Pilih satu kartu untuk dikembalikan kepada" in text, text
    second, third = order[1], order[2]
    assert f"Komputer {second} dan Komputer {third} bertukar satu kartu." in text, text
    give = page.find('[data-action="give-back"]')
    assert page.is_disabled(give), "«Kembalikan kartu» before a card is chosen"
    assert_accessible(page, "the Banting card exchange", size)

    # Choose the lowest card (not the one received): by keyboard on the desktop, a tap on
    # the phone; a second card replaces the first, as one card goes back.
    chosen = view["hand"][0]
    assert chosen != received
    table.select([view["hand"][1]])
    if size == "desktop":
        table.card(chosen).send_keys(Keys.SPACE)
    else:
        page.click(table.card(chosen))
    page.wait(lambda: page.snapshot()["selected"] == [chosen], f"{chosen} alone selected")
    page.wait(lambda: not page.is_disabled(give), "«Kembalikan kartu» enabled")
    assert f"{card_id(chosen)} dikembalikan kepada Komputer {last}" in page.snapshot()["info"]
    page.press("give-back")
    after = table.moved_on(view["version"])
    page.skip_animation()
    after, snap = table.synced()
    # The hands changed as the view says: the chosen card left the player's hand for the
    # last place's, and play began.
    assert after["phase"] == "play" and after["exchange"]["gave"] == [chosen], after["exchange"]
    played_by_me = [
        c for m in after["history"] if m["seat"] == 0 and m["play"] != "pass" for c in m["play"]
    ]
    assert sorted(after["hand"] + played_by_me) == sorted(c for c in view["hand"] if c != chosen)
    assert snap["hand"] == after["hand"] and chosen not in snap["hand"], snap["hand"]
    assert not exchange_text(page), "the exchange step stays after the give-back"
    status = page.snapshot()["status"]
    assert f"Kamu memberi {card_id(chosen)} kepada Komputer {last}." in status, status


def test_the_exchange_step_in_english_and_the_setup_row(page: Page) -> None:
    """«Tukar kartu» explains itself; the step reads in English after the switch."""
    explained = page.turn_on("banting", "exchange", ["none", "ranked"])
    assert "pemenang mengembalikan satu kartu" in explained, explained
    table = Banting(page)
    view, order = reach_exchange(page, table)
    page.press("lang")
    page.wait(lambda: "You received" in exchange_text(page), "the exchange step in English")
    text = exchange_text(page)
    received = view["exchange"]["received"][0]
    rank = "10" if received[0] == "T" else received[0]
    assert f"You received {rank}{SUIT[received[1]]} from Computer {order[-1]}." in text, text
    assert page.find('[data-action="give-back"]').text.strip() == "Give back"


@cache
def lost_last() -> str:
    """A short round (at most 4 of the player's moves by hint) the player ends in last
    place: the next round they give their highest card to the winner and get one back."""
    from capsa_fast import banting

    for seed in range(deals.SEEDS):
        code = banting.make_code(deals.PLAYERS, seed)
        game = banting.Game(rules=deals.rules(), players=deals.PLAYERS, code=code)
        hints = 0
        while not game.over and hints <= 4:
            if game.turn != 0:
                game.bot_play(game.turn, "standard")
                continue
            combo = game.hint(0).combo
            game.move(0, list(combo.cards) if combo is not None else "pass")
            hints += 1
        if not game.over or game.result.dragon:
            continue
        result = {"winner": game.result.winner, "cards_left": list(game.result.cards_left)}
        if places(result, deals.PLAYERS)[-1] == 0:
            return code
    raise AssertionError("no short round the player ends last")


def test_the_last_place_gives_its_highest_card(page: Page) -> None:
    """The computers give back at once: the round starts with play, and the status line
    says what the player gave (their highest card) and received."""
    table = Banting(page)
    page.open(f"/?code={lost_last()}")
    view, _ = table.start(exchange="ranked")
    while not view["over"]:
        if view["your_turn"]:
            view = table.hint_and_move(view, skip=True)
        view, _ = table.synced()
    winner = view["result"]["winner"]
    assert places(view["result"], view["players"])[-1] == 0, view["result"]
    page.wait(lambda: page.snapshot()["result"], "the result card")
    page.press("next-round")
    after = table.moved_on(view["version"])
    page.skip_animation()
    after, snap = table.synced()
    part = after["exchange"]
    assert after["phase"] == "play" and part["give"] == 0, after
    assert len(part["gave"]) == 1 and len(part["received"]) == 1, part
    assert not exchange_text(page), "no exchange step when nothing is owed"
    gave, got = card_id(part["gave"][0]), card_id(part["received"][0])
    said = (
        f"Kamu menerima {got} dari Komputer {winner}. Kamu memberi {gave} kepada Komputer {winner}."
    )
    page.wait(lambda: said in page.snapshot()["status"], lambda: f"{said!r} on the status line")
    # RULES.md 3.2: the last place gives its highest card (Big Two order, ♦ < ♣ < ♥ < ♠).
    played = [
        c for m in after["history"] if m["seat"] == 0 and m["play"] != "pass" for c in m["play"]
    ]
    held = snap["hand"] + played
    assert part["received"][0] in held, (part, held)
    kept = [c for c in held if c != part["received"][0]]
    assert all(big_two(c) < big_two(part["gave"][0]) for c in kept), (part, held)
