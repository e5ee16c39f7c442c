"""A Banting position as text or an image, for the environments' ``render``."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from .. import _core
from ..banting import Game


def render_text(game: Game, viewer: int | None = None) -> str:
    """Every seat's cards (the one to move marked ``>``), the table, who passed and the last
    moves; the scores once the round is over. With ``viewer`` (a seat) it is that seat's
    view: the other seats' cards are counts only, and the round code (which deals every
    hand) is left out until the round is over."""
    code = game.code if viewer is None or game.over else "(code hidden until the round ends)"
    lines = [f"Capsa Banting {code}, round {game.round}, {game.rules.preset_name}"]
    table = game.table
    state = []
    if table is None:
        state.append(
            "table: empty (a free lead)"
            if not game.first_play
            else "table: empty (the opening play must hold the lowest card)"
        )
    else:
        state.append(
            f"table: {table.label} [{' '.join(_core.format_cards(table.cards))}] "
            f"by player_{game.table_seat}"
        )
    if game.passed:
        state.append("passed: " + ", ".join(f"player_{s}" for s in game.passed))
    if game.twos_demoted:
        state.append("2s demoted")
    lines.append("; ".join(state))
    for seat in range(game.players):
        mark = ">" if game.turn == seat else " "
        hand = game.hand(seat)
        if not hand:
            cards = "(out)"
        elif viewer is None or seat == viewer:
            cards = " ".join(_core.format_cards(hand))
        else:
            cards = "(hidden)"
        you = " (you)" if seat == viewer else ""
        lines.append(f"{mark} player_{seat}{you} {len(hand):>2} cards: {cards}")
    moves = game.history[-4:]
    if moves:
        said = [
            f"player_{m.seat} "
            + ("passed" if m.is_pass else "played " + " ".join(_core.format_cards(m.cards)))
            for m in moves
        ]
        lines.append("last moves: " + "; ".join(said))
    result = game.result
    if result is not None:
        lines.append(
            "over: " + ", ".join(f"player_{s} {p:+d}" for s, p in enumerate(result.scores))
        )
    return "\n".join(lines)


# A 3 x 5 pixel font for what a card shows: its rank and its suit's letter.
_GLYPHS = {
    "2": "111001111100111", "3": "111001111001111", "4": "101101111001001",
    "5": "111100111001111", "6": "111100111101111", "7": "111001001001001",
    "8": "111101111101111", "9": "111101111001111", "T": "111010010010010",
    "J": "001001001101111", "Q": "111101101110011", "K": "101110100110101",
    "A": "010101111101101", "c": "000111100100111", "d": "001001111101111",
    "h": "100100111101101", "s": "011100010001110", ">": "100010001010100",
}  # fmt: skip
_SCALE = 2  # pixels per font pixel
_CARD_W, _CARD_H, _GAP = 12 * _SCALE, 15 * _SCALE, 2 * _SCALE
_FELT, _WHITE, _RED, _BLACK, _GOLD, _BACK = (
    (21, 94, 56),
    (250, 250, 245),
    (200, 30, 40),
    (20, 20, 20),
    (240, 200, 60),
    (150, 25, 50),
)


def _glyph(img: np.ndarray, char: str, top: int, left: int, colour: tuple[int, int, int]) -> None:
    bits = np.array([b == "1" for b in _GLYPHS[char]]).reshape(5, 3)
    block = np.kron(bits, np.ones((_SCALE, _SCALE), dtype=bool))
    img[top : top + block.shape[0], left : left + block.shape[1]][block] = colour


def _card(img: np.ndarray, card: str, top: int, left: int) -> None:
    img[top : top + _CARD_H, left : left + _CARD_W] = _WHITE
    colour = _RED if card[1] in "dh" else _BLACK
    _glyph(img, card[0], top + _SCALE, left + 2 * _SCALE, colour)
    _glyph(img, card[1], top + 8 * _SCALE, left + 6 * _SCALE, colour)


RENDER_MODES = ("human", "ansi", "rgb_array")


def _back(img: np.ndarray, top: int, left: int) -> None:
    """A card face down: a white edge round the back's colour."""
    img[top : top + _CARD_H, left : left + _CARD_W] = _WHITE
    img[top + _SCALE : top + _CARD_H - _SCALE, left + _SCALE : left + _CARD_W - _SCALE] = _BACK


def render_as(mode: str, game: Game | None, players: int, viewer: int | None = None) -> Any:
    """An environment's ``render()`` in ``mode``: ``"ansi"`` the text, ``"human"`` prints it
    (None), ``"rgb_array"`` the image (before the first deal, a bare table of the same
    size: video recorders want one frame size). ``viewer``: the seat whose view it is (the
    others' cards face down, no round code before the end); None shows everything."""
    if mode == "rgb_array":
        return _blank(players) if game is None else render_rgb(game, viewer)
    text = "(no round: call reset())" if game is None else render_text(game, viewer)
    if mode == "ansi":
        return text
    sys.stdout.write(text + "\n")
    return None


def _blank(players: int) -> np.ndarray:
    width = _GAP + 6 * _SCALE + 13 * (_CARD_W + _GAP)
    img = np.empty(((players + 1) * (_CARD_H + _GAP) + _GAP, width, 3), dtype=np.uint8)
    img[:] = _FELT
    return img


def render_rgb(game: Game, viewer: int | None = None) -> np.ndarray:
    """The position as an image (uint8 ``[height, width, 3]``), the text render's view:
    one row of cards per seat (the seat to move marked; with ``viewer``, the other seats'
    cards face down), the cards to beat at the bottom."""
    row_h = _CARD_H + _GAP
    img = _blank(game.players)
    left0 = _GAP + 6 * _SCALE
    for seat in range(game.players):
        top = _GAP + seat * row_h
        if game.turn == seat:
            _glyph(img, ">", top + 5 * _SCALE, _GAP, _GOLD)
        shown = viewer is None or seat == viewer
        for k, card in enumerate(_core.format_cards(game.hand(seat))):
            if shown:
                _card(img, card, top, left0 + k * (_CARD_W + _GAP))
            else:
                _back(img, top, left0 + k * (_CARD_W + _GAP))
    table = game.table
    if table is not None:
        top = _GAP + game.players * row_h
        for k, card in enumerate(_core.format_cards(table.cards)):
            _card(img, card, top, left0 + k * (_CARD_W + _GAP))
    return img
