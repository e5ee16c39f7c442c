"""Seed 002's «Bom dapat mengakhiri permainan» on the page (RULES.md 3.2 bomb_ends, with
bombs and the last-standing ending it needs): the «Aturan meja» row, and a round a computer
ends by going out with a four of a kind, which the info line and the result card say."""

from __future__ import annotations

from tests.web.browser.helpers import Banting, Page

# Found with the engine (capsa-banting with bombs, last-standing and bomb_ends; the player
# taking every hint, standard computers): Komputer 2 goes out first, with a four of a kind,
# after the player's 5th move, and the round ends with three seats holding cards.
BOMB_CODE = "B40000002WS"


def test_a_bomb_ends_the_round(page: Page) -> None:
    page.open(f"/?code={BOMB_CODE}")
    explained = page.turn_on("banting", "bomb_ends", ["false", "true"])
    assert "habis dengan bom mengakhiri ronde" in explained, explained
    table = Banting(page)
    view, _ = table.start()
    rules = view["rules"]
    assert (rules["bomb_ends"], rules["bombs"], rules["ending"]) == (
        True,
        "quads-and-straight-flush",
        "last-standing",
    ), rules
    while not view["over"]:
        view = table.hint_and_move(view, skip=True)
        view, _ = table.synced()
    last = view["history"][-1]
    assert last["seat"] == 2 and last["kind"] == "four_of_a_kind", last
    holding = [seat for seat, count in enumerate(view["counts"]) if count]
    assert len(holding) == 3 and view["result"]["winner"] == 2, view["counts"]
    said = f"Bom! Komputer 2 habis dengan {last['label']}: ronde berakhir untuk semua."
    page.wait(lambda: said in page.snapshot()["info"], "the info line says a bomb ended it")
    card = page.find('[data-role="result"] [data-role="bomb-ended"]')
    assert card.text.strip() == said, card.text


def test_the_default_table_has_no_bombs(page: Page) -> None:
    """«Tidak» (the default) leaves the preset's table: no bombs, the first out ends."""
    view, _ = Banting(page).start()
    rules = view["rules"]
    assert (rules["bomb_ends"], rules["bombs"], rules["ending"]) == (False, "none", "first-out")


# Same table: Komputer 1 goes out first (not with a bomb), the round plays on, and the
# player makes 4 of their 13 moves after that.
PLAYS_ON_CODE = "B4000000001"


def test_the_round_plays_on_after_the_first_out(page: Page) -> None:
    page.open(f"/?code={PLAYS_ON_CODE}")
    page.turn_on("banting", "bomb_ends", ["false", "true"])
    table = Banting(page)
    view, _ = table.start()
    moves_after_out = 0
    while not view["over"]:
        if 0 in view["counts"]:
            moves_after_out += 1  # synced: the page plays on (data-state playing, markers)
        view = table.hint_and_move(view, skip=True)
        view, _ = table.synced()
    assert moves_after_out == 4, moves_after_out
    result = view["result"]
    assert result["winner"] == 1 and result["finishing_order"][0] == 1, result
    page.wait(lambda: "Komputer 1 menang" in page.snapshot()["info"], "the winner named")
    assert not page.driver.find_elements("css selector", '[data-role="bomb-ended"]')
