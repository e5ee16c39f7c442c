"""Tables for several people, both games (api.server.seats): invitations, an open table,
claiming a seat (once, by one of many racing clients), the host's start, names, and that no
response carries another seat's token."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api import create_app
from api.server.game_store import GameRecord, GameStore
from tests.api.helpers import assert_problem

GAMES = {
    "banting": {"players": 4, "bots": {"3": "standard"}},
    "susun": {"players": 4, "bots": {"3": "expert"}},
}
FILL = {"banting": "standard", "susun": "expert"}


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    return create_app({"TESTING": True, "GAMES_DB": str(tmp_path / "games.sqlite3")})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture(params=sorted(GAMES))
def kind(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: FlaskClient, kind: str, **extra: Any) -> dict[str, Any]:
    response = client.post(f"/v1/{kind}/games", json={**GAMES[kind], **extra})
    assert response.status_code == 201, response.get_data(as_text=True)
    created: dict[str, Any] = response.get_json()
    return created


def join(client: FlaskClient, kind: str, game: str, code: str, name: str = "Budi") -> Any:
    return client.post(f"/v1/{kind}/games/{game}/seats", json={"invitation": code, "name": name})


def view(client: FlaskClient, kind: str, game: str, token: str) -> dict[str, Any]:
    response = client.get(f"/v1/{kind}/games/{game}", headers=bearer(token))
    assert response.status_code == 200, response.get_data(as_text=True)
    found: dict[str, Any] = response.get_json()
    return found


def test_invitations_seat_each_player_and_the_host_starts(client: FlaskClient, kind: str) -> None:
    created = create(client, kind, invite=True, name="Ana")
    game = created["id"]
    assert list(created["tokens"]) == ["0"]  # the creator's token only
    assert sorted(created["invitations"]) == ["1", "2"]
    assert created["invite_url"] is None
    for invitation in created["invitations"].values():
        assert invitation["url"] == f"/?join={invitation['code']}&game={kind}/{game}"
    host = created["tokens"]["0"]

    lobby = view(client, kind, game, host)
    assert lobby["started"] is False
    assert [s["name"] for s in lobby["seats"]] == ["Ana", None, None, None]
    assert [s["kind"] for s in lobby["seats"]] == ["human", "human", "human", "bot"]
    assert [s["connected"] for s in lobby["seats"]] == [True, False, False, True]
    assert_problem(client.post(f"/v1/{kind}/games/{game}/start", headers=bearer(host)), 409)

    tokens = {"0": host}
    for seat, name in (("1", "<b>Budi</b>"), ("2", "Citra")):
        response = join(client, kind, game, created["invitations"][seat]["code"], name)
        assert response.status_code == 201, response.get_data(as_text=True)
        joined = response.get_json()
        assert set(joined) == {"seat", "token"} and joined["seat"] == int(seat)
        tokens[seat] = joined["token"]
        assert view(client, kind, game, joined["token"])["seat"] == int(seat)

    seats = view(client, kind, game, tokens["1"])["seats"]
    assert [s["name"] for s in seats] == ["Ana", "<b>Budi</b>", "Citra", None]  # as given
    assert all(s["connected"] for s in seats)
    # A guest is no host.
    refused = client.post(f"/v1/{kind}/games/{game}/start", headers=bearer(tokens["2"]))
    assert assert_problem(refused, 403)["code"] == "NOT_HOST"
    started = client.post(f"/v1/{kind}/games/{game}/start", headers=bearer(host))
    assert started.status_code == 200, started.get_data(as_text=True)
    assert view(client, kind, game, tokens["2"])["started"] is True
    again = client.post(f"/v1/{kind}/games/{game}/start", headers=bearer(host))
    assert assert_problem(again, 409)["code"] == "ALREADY_STARTED"

    # No response of a join or a view carries another seat's token.
    for seat, token in tokens.items():
        text = json.dumps(view(client, kind, game, token))
        assert all(other not in text for key, other in tokens.items() if key != seat)


def test_a_change_before_the_start_is_refused(client: FlaskClient) -> None:
    created = create(client, "banting", invite=True)
    host, game = created["tokens"]["0"], created["id"]
    refused = client.post(
        f"/v1/banting/games/{game}/moves", json={"play": "pass"}, headers=bearer(host)
    )
    assert assert_problem(refused, 409)["code"] == "NOT_STARTED"


def test_start_before_the_seats_are_filled_needs_fill(client: FlaskClient, kind: str) -> None:
    created = create(client, kind, invite=True)
    game, host = created["id"], created["tokens"]["0"]
    join(client, kind, game, created["invitations"]["1"]["code"])
    refused = client.post(f"/v1/{kind}/games/{game}/start", headers=bearer(host))
    problem = assert_problem(refused, 409)
    assert problem["code"] == "SEATS_OPEN" and "2" in problem["detail"]
    bad = client.post(
        f"/v1/{kind}/games/{game}/start", json={"fill": "nobody"}, headers=bearer(host)
    )
    assert assert_problem(bad, 422)["errors"][0]["field"] == "fill"
    filled = client.post(
        f"/v1/{kind}/games/{game}/start", json={"fill": FILL[kind]}, headers=bearer(host)
    )
    assert filled.status_code == 200, filled.get_data(as_text=True)
    assert [s["kind"] for s in filled.get_json()["seats"]] == ["human", "human", "bot", "bot"]
    seen = view(client, kind, game, host)
    assert seen["bots"] == {"2": FILL[kind], "3": GAMES[kind]["bots"]["3"]}
    assert seen["humans"] == [0, 1]
    assert seen["code"] is None  # still dealt in secret
    # The invitation of the seat a bot took is taken now.
    late = join(client, kind, game, created["invitations"]["2"]["code"])
    assert assert_problem(late, 409)["code"] == "SEAT_TAKEN"


def test_a_code_works_once_and_an_unknown_one_is_404(client: FlaskClient, kind: str) -> None:
    created = create(client, kind, invite=True)
    game, code = created["id"], created["invitations"]["1"]["code"]
    assert join(client, kind, game, code).status_code == 201
    assert assert_problem(join(client, kind, game, code), 409)["code"] == "SEAT_TAKEN"
    assert_problem(join(client, kind, game, "not-a-code"), 404)
    other = create(client, kind, invite=True)
    # A code is for its own game only.
    assert_problem(join(client, kind, other["id"], created["invitations"]["2"]["code"]), 404)
    assert_problem(join(client, kind, "no-such-game", code), 404)


def test_a_token_for_another_table_is_403(client: FlaskClient, kind: str) -> None:
    first = create(client, kind, invite=True)
    second = create(client, kind, invite=True)
    response = client.get(f"/v1/{kind}/games/{second['id']}", headers=bearer(first["tokens"]["0"]))
    assert_problem(response, 403)


def test_open_table_first_come_first_served(client: FlaskClient, kind: str) -> None:
    created = create(client, kind, open=True)
    assert created["invitations"] is None and list(created["tokens"]) == ["0"]
    url = created["invite_url"]
    code = url.removeprefix("/?join=").split("&")[0]
    seats = [join(client, kind, created["id"], code).get_json()["seat"] for _ in range(2)]
    assert seats == [1, 2]
    assert assert_problem(join(client, kind, created["id"], code), 409)["code"] == "SEAT_TAKEN"


@pytest.mark.parametrize("name", ["", "x" * 25, "Ana\n", "\x00", "A\x7fna", "\u0085"], ids=repr)
def test_names_are_validated(client: FlaskClient, name: str) -> None:
    created = create(client, "banting", invite=True)
    response = join(client, "banting", created["id"], created["invitations"]["1"]["code"], name)
    assert assert_problem(response, 422)["errors"][0]["field"] == "name"
    bad_create = client.post("/v1/banting/games", json={**GAMES["banting"], "name": name})
    assert_problem(bad_create, 422)


def test_a_name_of_24_characters_is_kept_verbatim(client: FlaskClient) -> None:
    name = "Ñandú <i>&amp;</i> 🂡 tal"[:24]
    created = create(client, "susun", invite=True, name=name)
    assert view(client, "susun", created["id"], created["tokens"]["0"])["seats"][0]["name"] == name


def test_tokens_all_returns_every_seat_and_choices_exclude_each_other(
    client: FlaskClient, kind: str
) -> None:
    created = create(client, kind, tokens="all")
    assert sorted(created["tokens"]) == ["0", "1", "2"] and created["invitations"] is None
    assert view(client, kind, created["id"], created["tokens"]["2"])["started"] is True
    # With several human seats and no choice, the other seats are invited.
    plain = create(client, kind)
    assert list(plain["tokens"]) == ["0"] and sorted(plain["invitations"]) == ["1", "2"]
    for both in ({"invite": True, "open": True}, {"open": True, "tokens": "all"}):
        assert_problem(client.post(f"/v1/{kind}/games", json={**GAMES[kind], **both}), 422)
    assert_problem(client.post(f"/v1/{kind}/games", json={**GAMES[kind], "tokens": "some"}), 422)


def test_twenty_concurrent_joins_on_one_open_seat(app: Flask, tmp_path: Path) -> None:
    client = app.test_client()
    response = client.post(
        "/v1/banting/games",
        json={"players": 3, "bots": {"2": "standard"}, "open": True},
    )
    created = response.get_json()
    code = created["invite_url"].removeprefix("/?join=").split("&")[0]
    barrier = threading.Barrier(20)
    statuses: list[int] = []
    bodies: list[Any] = []
    lock = threading.Lock()

    def claim(number: int) -> None:
        mine = app.test_client()
        barrier.wait()
        answer = join(mine, "banting", created["id"], code, f"p{number}")
        with lock:
            statuses.append(answer.status_code)
            bodies.append(answer.get_json())

    threads = [threading.Thread(target=claim, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201] + [409] * 19
    assert all(b["code"] == "SEAT_TAKEN" for b in bodies if "code" in b)
    record = GameStore(str(tmp_path / "games.sqlite3")).load(created["id"], GameRecord)
    assert record is not None
    assert record.settings["table"]["claimed"] == [0, 1]
