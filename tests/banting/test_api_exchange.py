"""HTTP API tests of the Banting card exchange (``exchange: ranked``, RULES.md 3.2, API.md
section 2) and of ``bomb_ends`` in game sessions.

A one-human match against bots: the human plays the view's hint, the next round begins
with the exchange, and the tests check the phase, what each seat is shown of the exchange,
the exchange route's refusals (422 NOT_IN_HAND, 409 EXCHANGE_CLOSED) and that a stored
match replays its exchange.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from capsa_fast import banting, format_cards, parse_cards
from flask.testing import FlaskClient

from api.server.game_store import GameStore, replay
from tests.api.helpers import assert_problem, field_errors
from tests.banting.test_api_games import bearer, create, get_view, post_move

GAMES = "/v1/banting/games"
EXCHANGE = {"exchange": "ranked", "dragon": False}


@pytest.fixture
def client(api_client: FlaskClient) -> FlaskClient:
    return api_client


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """The store of conftest's ``api_app``."""
    return tmp_path / "games.sqlite3"


def play_out(client: FlaskClient, game_id: str, token: str, view: dict[str, Any]) -> dict[str, Any]:
    """The human seat plays the view's hint until the round is over."""
    for _ in range(60):
        if view["over"]:
            return view
        response = post_move(client, game_id, token, view["hint"]["play"])
        assert response.status_code == 200, response.get_data(as_text=True)
        view = response.get_json()
    raise AssertionError("the round did not end")


def post_exchange(client: FlaskClient, game_id: str, token: str, cards: Any, **headers: str) -> Any:
    return client.post(
        f"{GAMES}/{game_id}/exchange", json={"cards": cards}, headers={**bearer(token), **headers}
    )


def second_round(
    client: FlaskClient, players: int, human_wins: bool, rules: dict[str, Any] | None = None
) -> tuple[str, str, dict[str, Any], dict[str, Any]]:
    """A match whose first round the human seat 0 won (or lost), at its second round:
    (game id, token, first round's last view, second round's first view)."""
    bots = {str(s): "standard" for s in range(1, players)}
    for seed in range(1, 200):
        code = banting.make_code(players, seed)
        created = create(client, code=code, bots=bots, rules=rules or EXCHANGE)
        game_id, token = created["id"], created["tokens"]["0"]
        first = play_out(client, game_id, token, get_view(client, game_id, token))
        if (first["result"]["winner"] == 0) != human_wins:
            continue
        response = client.post(f"{GAMES}/{game_id}/rounds", json={}, headers=bearer(token))
        assert response.status_code == 200, response.get_data(as_text=True)
        return game_id, token, first, response.get_json()
    raise AssertionError("no such first round")


def test_the_first_round_has_no_exchange(client: FlaskClient) -> None:
    created = create(
        client, bots={"1": "standard", "2": "standard", "3": "standard"}, rules=EXCHANGE
    )
    game_id, token = created["id"], created["tokens"]["0"]
    view = get_view(client, game_id, token)
    assert view["phase"] == "play" and view["exchange"] is None
    assert view["rules"]["exchange"] == "ranked" and view["rules"]["bomb_ends"] is False
    problem = assert_problem(post_exchange(client, game_id, token, ["3d"]), 409)
    assert problem["code"] == "EXCHANGE_CLOSED"
    assert get_view(client, game_id, token)["version"] == view["version"]


def test_the_winner_gives_a_card_back(client: FlaskClient, db_path: Path) -> None:
    game_id, token, first, view = second_round(client, 4, human_wins=True)
    assert view["phase"] == "exchange" and view["round"] == 2
    assert view["turn"] is None and not view["your_turn"] and view["history"] == []
    assert view["hint"] is None and view["legal_count"] == 0
    part = view["exchange"]
    assert part["give"] == 1 and part["gave"] == [] and len(part["received"]) == 1
    received = part["received"][0]
    assert received in view["hand"] and len(view["hand"]) == 14
    # The card is the last place's highest, in Big Two order (the server's own match).
    record = GameStore(db_path).load(game_id)
    assert record is not None
    places = sorted(range(4), key=lambda s: (first["result"]["cards_left"][s], s))
    assert record.rounds[0].places == places
    game = replay(record)
    assert game.exchanges[0][:2] == (places[3], 0)
    assert format_cards([game.exchanges[0][2]]) == [received]
    held = [*game.hand(places[3]), game.exchanges[0][2]]
    top = max(held, key=lambda c: banting.classify([c], game.rules).strength)
    assert top == game.exchanges[0][2]
    # No play during the exchange.
    problem = assert_problem(post_move(client, game_id, token, [view["hand"][0]]), 409)
    assert problem["code"] == "NOT_YOUR_TURN"
    # A card not in hand: 422 NOT_IN_HAND, nothing changes.
    missing = next(c for c in ("2s", "2h", "2c", "2d", "As", "Ah") if c not in view["hand"])
    response = post_exchange(client, game_id, token, [missing])
    assert assert_problem(response, 422)["code"] == "NOT_IN_HAND"
    assert "cards/0" in field_errors(response)
    # Not one card: a 422 on the field; a bad card too.
    assert "cards" in field_errors(post_exchange(client, game_id, token, view["hand"][:2]))
    assert "cards/0" in field_errors(post_exchange(client, game_id, token, ["Zz"]))
    assert get_view(client, game_id, token) == view
    # Giving back the card just received is allowed; then play starts.
    response = post_exchange(client, game_id, token, [received])
    assert response.status_code == 200, response.get_data(as_text=True)
    after = response.get_json()
    assert after["version"] == view["version"] + 1
    assert after["phase"] == "play" and received not in after["hand"] and len(after["hand"]) == 13
    assert after["exchange"] == {"received": [received], "gave": [received], "give": 0}
    problem = assert_problem(post_exchange(client, game_id, token, [after["hand"][0]]), 409)
    assert problem["code"] == "EXCHANGE_CLOSED"
    # The stored match replays its exchange: the same view after a restart.
    record = GameStore(db_path).load(game_id)
    assert record is not None
    # The bot in second place gave back when the round was dealt, seat 0 after it.
    assert len(record.rounds[1].given_back) == 2
    assert record.rounds[1].given_back[1] == [0, parse_cards(received)[0]]
    assert get_view(client, game_id, token)["hand"] == after["hand"]


def test_a_loser_sees_its_highest_card_go_and_the_bot_give_back(client: FlaskClient) -> None:
    game_id, token, _first, view = second_round(client, 2, human_wins=False)
    # The bot winner gave back at once: the round is in play, seat 0 saw both cards.
    assert view["phase"] == "play"
    part = view["exchange"]
    assert part["give"] == 0 and len(part["gave"]) == 1 and len(part["received"]) == 1
    assert part["received"][0] in view["hand"] and part["gave"][0] not in view["hand"]
    problem = assert_problem(post_exchange(client, game_id, token, [view["hand"][0]]), 409)
    assert problem["code"] == "EXCHANGE_CLOSED"


def test_exchange_refusals_speak_indonesian(client: FlaskClient) -> None:
    created = create(client, bots={"1": "standard"}, players=2, rules=EXCHANGE)
    response = client.post(
        f"{GAMES}/{created['id']}/exchange",
        json={"cards": ["3d"]},
        headers={**bearer(created["tokens"]["0"]), "Accept-Language": "id"},
    )
    problem = assert_problem(response, 409)
    assert problem["code"] == "EXCHANGE_CLOSED"
    assert problem["detail"] == "Tidak ada kartu yang harus kamu kembalikan sekarang"


def test_three_players_the_middle_place_takes_no_part(client: FlaskClient) -> None:
    for wins in (True, False):
        _game_id, _token, first, view = second_round(client, 3, human_wins=wins)
        places = sorted(
            range(3),
            key=lambda s: (first["result"]["cards_left"][s], (s - first["result"]["winner"]) % 3),
        )
        if places[1] == 0:
            assert view["exchange"] is None
        elif wins:
            assert view["phase"] == "exchange" and view["exchange"]["give"] == 1
        else:
            assert view["exchange"]["give"] == 0 and len(view["exchange"]["gave"]) == 1


def test_bomb_ends_needs_last_standing(client: FlaskClient) -> None:
    response = client.post(GAMES, json={"rules": {"bomb_ends": True}, "bots": {"1": "standard"}})
    errors = field_errors(response)
    assert "rules/bomb_ends" in errors
    assert "last-standing" in errors["rules/bomb_ends"]
    # Every seat is ranked at the end, a bomb's end included; fixed deals without the dragon
    # (a dealt dragon ends the round with its holder alone in the order).
    for seed in range(6):
        created = create(
            client,
            code=banting.make_code(4, seed),
            bots={"1": "standard", "2": "standard", "3": "standard"},
            rules={"bomb_ends": True, "ending": "last-standing", "dragon": False},
        )
        assert created["rules"]["bomb_ends"] is True
        game_id, token = created["id"], created["tokens"]["0"]
        view = play_out(client, game_id, token, get_view(client, game_id, token))
        assert view["phase"] == "over" and len(view["result"]["finishing_order"]) == 4, seed


def test_the_exchange_route_needs_the_seat_token(client: FlaskClient) -> None:
    created = create(client, bots={"1": "standard"}, players=2, rules=EXCHANGE)
    url = f"{GAMES}/{created['id']}/exchange"
    assert_problem(client.post(url, json={"cards": ["3d"]}), 401)
    assert_problem(post_exchange(client, created["id"], "not-a-token", ["3d"]), 403)
    assert_problem(post_exchange(client, "no-such-game", created["tokens"]["0"], ["3d"]), 404)
