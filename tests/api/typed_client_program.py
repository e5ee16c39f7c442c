"""A game loop written against the client openapi-python-client generates from /openapi.json.

Not a test module: tests/api/test_typed_client.py generates the client, checks this program
and the client with ``mypy --strict``, then runs it against a live server:

    python typed_client_program.py http://127.0.0.1:8000

It plays one Capsa Banting round against three bots (each turn: the view, the legal plays
from the stateless route with the view's own cards and rules, a move with the cards the
answer gave) and puts down one Capsa Susun arrangement (the view's cards arranged by the
stateless route, its rows sent as the seat's arrangement). Cards and rules go from responses
into requests as they are: no cast, no conversion. It prints one line per game and "done".
"""

from __future__ import annotations

import sys
from typing import Literal, NoReturn

from capsa_fast_api_client import AuthenticatedClient, Client
from capsa_fast_api_client.api.banting import banting_legal_plays
from capsa_fast_api_client.api.banting_games import (
    banting_games_create_game,
    banting_games_game,
    banting_games_hint,
    banting_games_move,
)
from capsa_fast_api_client.api.susun import susun_arrange
from capsa_fast_api_client.api.susun_games import (
    susun_games_arrangement,
    susun_games_create_game,
    susun_games_game,
)
from capsa_fast_api_client.models import (
    ArrangementRequest,
    BantingBotLevel,
    BantingBots,
    CreateGameRequest,
    CreateSusunGameRequest,
    GameView,
    HintRequest,
    LegalPlaysRequest,
    MoveRequest,
    Problem,
    SusunArrangeRequest,
    SusunBotLevel,
    SusunBots,
    SusunStrategy,
)

MAX_TURNS = 200  # a four-seat round has at most 52 plays and some passes


def fail(answer: object) -> NoReturn:
    """Stop with the server's problem (or whatever else came back)."""
    if isinstance(answer, Problem):
        raise SystemExit(f"{answer.status} {answer.title}: {answer.detail}")
    raise SystemExit(f"unexpected answer: {answer!r}")


def clients(base_url: str, token: str = "") -> tuple[Client, AuthenticatedClient]:
    """A client for the public routes and one for a seat's (its token from the create)."""
    return (
        Client(base_url=base_url, raise_on_unexpected_status=True),
        AuthenticatedClient(base_url=base_url, token=token, raise_on_unexpected_status=True),
    )


def banting_round(base_url: str) -> GameView:
    public, _ = clients(base_url)
    bots = BantingBots()
    for bot in ("1", "2", "3"):
        bots[bot] = BantingBotLevel.BEGINNER
    created = banting_games_create_game.sync(client=public, body=CreateGameRequest(bots=bots))
    if isinstance(created, Problem) or created is None:
        fail(created)
    _, seat = clients(base_url, created.tokens["0"])
    view = banting_games_game.sync(created.id, client=seat)
    for turn in range(MAX_TURNS):
        if not isinstance(view, GameView):
            fail(view)
        if view.over:
            return view
        assert view.your_turn, "the bots move before the server answers"
        table = view.table.cards if view.table is not None else None
        legal = banting_legal_plays.sync(
            client=public,
            body=LegalPlaysRequest(
                hand=view.hand,
                table=table,
                first_play=view.first_play,
                passed=view.seat in view.passed,
                twos_demoted=view.twos_demoted,
                rules=view.rules,
                limit=1,
            ),
        )
        if isinstance(legal, Problem) or legal is None:
            fail(legal)
        if turn % 2 and legal.plays:
            play: list[int | str] | Literal["pass"] = legal.plays[0].cards
        else:
            hint = banting_games_hint.sync(
                created.id, client=seat, body=HintRequest(level=BantingBotLevel.STANDARD)
            )
            if isinstance(hint, Problem) or hint is None:
                fail(hint)
            play = hint.play
        if legal.count == 0:
            play = "pass"
        view = banting_games_move.sync(
            created.id, client=seat, body=MoveRequest(play=play, version=view.version)
        )
    raise SystemExit(f"the round did not end in {MAX_TURNS} turns")


def susun_round(base_url: str) -> str:
    public, _ = clients(base_url)
    bots = SusunBots()
    for bot in ("1", "2", "3"):
        bots[bot] = SusunBotLevel.BEGINNER
    created = susun_games_create_game.sync(client=public, body=CreateSusunGameRequest(bots=bots))
    if isinstance(created, Problem) or created is None:
        fail(created)
    _, seat = clients(base_url, created.tokens["0"])
    view = susun_games_game.sync(created.id, client=seat)
    if isinstance(view, Problem) or view is None:
        fail(view)
    rows = susun_arrange.sync(
        client=public,
        body=SusunArrangeRequest(
            hand=view.hand, rules=view.rules, strategy=SusunStrategy.NAIVE, players=view.players
        ),
    )
    if isinstance(rows, Problem) or rows is None:
        fail(rows)
    done = susun_games_arrangement.sync(
        created.id,
        client=seat,
        body=ArrangementRequest(
            top=rows.top, middle=rows.middle, bottom=rows.bottom, version=view.version
        ),
    )
    if isinstance(done, Problem) or done is None:
        fail(done)
    assert done.mine is not None and done.mine.top == rows.top
    if done.result is None:
        return "susun: rows put down, the table not yet revealed"
    return f"susun: rows put down, points {[revealed.points for revealed in done.result.seats]}"


def main(base_url: str) -> None:
    view = banting_round(base_url)
    assert view.result is not None
    print(f"banting: round over, winner seat {view.result.winner}, scores {view.result.scores}")
    print(susun_round(base_url))
    print("done")


if __name__ == "__main__":
    main(sys.argv[1])
