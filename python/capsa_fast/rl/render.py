"""A Banting position as text, for the environments' ``render``."""

from __future__ import annotations

from .. import _core
from ..banting import Game


def render_text(game: Game) -> str:
    """Every seat's cards (the one to move marked ``>``), the table, who passed and the last
    moves; the scores once the round is over."""
    lines = [f"Capsa Banting {game.code}, round {game.round}, {game.rules.preset_name}"]
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
        cards = " ".join(_core.format_cards(hand)) if hand else "(out)"
        lines.append(f"{mark} player_{seat} {len(hand):>2} cards: {cards}")
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
