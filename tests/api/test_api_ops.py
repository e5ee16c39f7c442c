"""Operating the API: settings from the environment, limits, rate limiting, access logs,
the health check, and the expiry of old games."""

from __future__ import annotations

import io
import json
import logging
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api import create_app
from api.banting.games import store
from api.server import access_log, game_store, settings
from api.server.game_store import GameRecord, GameStore, RoundRecord
from tests.api.helpers import assert_problem

BOTS = {"1": "standard", "2": "standard", "3": "standard"}


def make_app(tmp_path: Path, **config: Any) -> Flask:
    return create_app({"GAMES_DB": str(tmp_path / "games.sqlite3"), **config})


# --- settings -----------------------------------------------------------------------------


def test_every_setting_is_read_from_its_environment_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CAPSA_FAST_MAX_BODY_BYTES", "2048")
    monkeypatch.setenv("CAPSA_FAST_MAX_BATCH_BODY_BYTES", "4096")
    monkeypatch.setenv("CAPSA_FAST_GAMES_DB_MAX_BYTES", "1000000")
    monkeypatch.setenv("CAPSA_FAST_STORE_BUSY_TIMEOUT", "0.5")
    monkeypatch.setenv("CAPSA_FAST_CORS_ORIGINS", "https://example.org")
    monkeypatch.setenv("CAPSA_FAST_MAX_BATCH_HANDS", "1_000")
    monkeypatch.setenv("CAPSA_FAST_GAMES_DB", str(tmp_path / "env.sqlite3"))
    monkeypatch.setenv("CAPSA_FAST_FINISHED_GAME_TTL", "60")
    monkeypatch.setenv("CAPSA_FAST_IDLE_GAME_TTL", "3600")
    monkeypatch.setenv("CAPSA_FAST_RATE_LIMIT", "5/second")
    monkeypatch.setenv("CAPSA_FAST_RATE_LIMIT_STORAGE", "memory://")
    monkeypatch.setenv("CAPSA_FAST_TRUSTED_PROXIES", "1")
    monkeypatch.setenv("CAPSA_FAST_ACCESS_LOG", "off")
    config = create_app().config
    assert config["MAX_BODY_BYTES"] == 2048 and config["MAX_BATCH_BODY_BYTES"] == 4096
    assert config["GAMES_DB_MAX_BYTES"] == 1_000_000 and config["STORE_BUSY_TIMEOUT"] == 0.5
    assert config["CORS_ORIGINS"] == "https://example.org"
    assert config["MAX_BATCH_HANDS"] == 1000
    assert config["GAMES_DB"] == str(tmp_path / "env.sqlite3")
    assert (config["FINISHED_GAME_TTL"], config["IDLE_GAME_TTL"]) == (60, 3600)
    assert config["RATELIMIT_DEFAULT"] == "5/second"
    assert config["RATELIMIT_STORAGE_URI"] == "memory://"
    assert config["TRUSTED_PROXIES"] == 1
    assert config["ACCESS_LOG"] is False
    # Every setting has a variable, and the mapping given to create_app wins over it.
    assert all(settings.AppSettings.variable(name) for name in settings.AppSettings.model_fields)
    assert create_app({"MAX_BATCH_HANDS": 7}).config["MAX_BATCH_HANDS"] == 7


@pytest.mark.parametrize(
    ("variable", "value", "needle"),
    [
        ("CAPSA_FAST_MAX_BODY_BYTES", "lots", "valid integer"),
        ("CAPSA_FAST_MAX_BATCH_HANDS", "0", "greater than 0"),
        ("CAPSA_FAST_EQUITY_THREADS", "1000", "less than or equal to 256"),
        ("CAPSA_FAST_ACCESS_LOG", "maybe", "valid boolean"),
        ("CAPSA_FAST_TRUSTED_PROXIES", "-1", "greater than or equal to 0"),
        ("CAPSA_FAST_RATE_LIMIT", "often", "does not parse"),
    ],
)
def test_a_bad_setting_stops_the_app_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variable: str, value: str, needle: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ValueError, match=needle) as caught:
        make_app(tmp_path)
    if variable != "CAPSA_FAST_RATE_LIMIT":
        assert str(caught.value).startswith(variable)


# --- limits -------------------------------------------------------------------------------


def test_body_and_batch_limits_are_problems(tmp_path: Path) -> None:
    client = make_app(tmp_path, MAX_BATCH_BODY_BYTES=1000, MAX_BATCH_HANDS=3).test_client()
    big = {"hands": [["As", "Ks", "Qs", "Js", "Ts"]] * 40}
    problem = assert_problem(client.post("/v1/evaluate/batch", json=big), 413)
    assert "1000 bytes" in problem["detail"]
    four = {"hands": [["As", "Ks", "Qs", "Js", "Ts"]] * 4}
    assert_problem(client.post("/v1/evaluate/batch", json=four), 422)
    three = {"hands": [["As", "Ks", "Qs", "Js", "Ts"]] * 3}
    assert client.post("/v1/evaluate/batch", json=three).status_code == 200


@pytest.mark.parametrize(
    ("route", "body", "field"),
    [
        ("/v1/banting/legal-plays", {"hand": ["3d"], "limit": 20_001}, "limit"),
        ("/v1/susun/arrange", {"hand": ["As"] * 13, "top_k": 101}, "top_k"),
        ("/v1/banting/games", {"players": 5, "bots": BOTS}, "players"),
        ("/v1/poker/showdown", {"board": ["2c"] * 5, "players": [["As", "Ad"]] * 24}, "players"),
        ("/v1/susun/score", {"players": [{"hand": ["As"] * 13}] * 5}, "players"),
    ],
)
def test_work_per_request_is_bounded(
    tmp_path: Path, route: str, body: dict[str, Any], field: str
) -> None:
    client = make_app(tmp_path).test_client()
    errors = assert_problem(client.post(route, json=body), 422)["errors"]
    assert field in {e["field"] for e in errors}


# --- rate limiting ------------------------------------------------------------------------


def test_rate_limit_is_off_by_default(tmp_path: Path) -> None:
    client = make_app(tmp_path).test_client()
    for _ in range(50):
        assert client.post("/v1/evaluate", json={"cards": ["As", "Ks", "Qs"]}).status_code == 200


@pytest.mark.parametrize("key", ["RATELIMIT_DEFAULT", "RATE_LIMIT"])
def test_rate_limit_answers_429_problem_per_client(tmp_path: Path, key: str) -> None:
    # The setting under Flask-Limiter's key or under its own name (CAPSA_FAST_RATE_LIMIT's).
    client = make_app(tmp_path, **{key: "3/minute"}).test_client()
    body = {"cards": ["As", "Ks", "Qs"]}
    for remaining in (2, 1, 0):
        response = client.post("/v1/evaluate", json=body)
        assert response.status_code == 200
        assert response.headers["X-RateLimit-Limit"] == "3"
        assert response.headers["X-RateLimit-Remaining"] == str(remaining)
    refused = client.post("/v1/evaluate", json=body)
    problem = assert_problem(refused, 429)
    assert problem["title"] == "Too Many Requests"
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    # Another client address has its own allowance; health and the document are never limited.
    other = client.post("/v1/evaluate", json=body, environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 200
    for _ in range(5):
        assert client.get("/v1/health").status_code == 200
        assert client.get("/openapi.json").status_code == 200


def test_trusted_proxy_names_the_client(tmp_path: Path) -> None:
    client = make_app(tmp_path, RATELIMIT_DEFAULT="1/minute", TRUSTED_PROXIES=1).test_client()
    body = {"cards": ["As", "Ks", "Qs"]}
    for address in ("203.0.113.1", "203.0.113.2"):
        headers = {"X-Forwarded-For": address}
        assert client.post("/v1/evaluate", json=body, headers=headers).status_code == 200
        assert client.post("/v1/evaluate", json=body, headers=headers).status_code == 429


# --- access log ---------------------------------------------------------------------------


@pytest.fixture
def log_lines() -> Iterator[io.StringIO]:
    """The access log's JSON lines, captured."""
    logger = access_log.access_logger()
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(access_log.JsonFormatter())
    logger.addHandler(handler)
    try:
        yield stream
    finally:
        logger.removeHandler(handler)


def test_access_log_is_one_json_object_per_request(tmp_path: Path, log_lines: io.StringIO) -> None:
    client = make_app(tmp_path).test_client()
    client.post("/v1/evaluate", json={"cards": ["As", "Ks", "Qs"]}, headers={"X-Request-Id": "r-1"})
    response = client.post("/v1/evaluate?x=1", json={"cards": ["As"]})
    assert response.headers["X-Request-Id"]
    first, second = (json.loads(line) for line in log_lines.getvalue().splitlines())
    assert first["request_id"] == "r-1" and first["status"] == 200
    assert first["method"] == "POST" and first["path"] == "/v1/evaluate"
    assert first["duration_ms"] >= 0 and first["bytes"] > 0 and first["client"] == "127.0.0.1"
    assert first["event"] == "request" and first["level"] == "info" and first["time"]
    assert second["status"] == 422 and second["path"] == "/v1/evaluate"  # no query string
    assert second["request_id"] == response.headers["X-Request-Id"] != "r-1"


def test_access_log_can_be_turned_off(tmp_path: Path, log_lines: io.StringIO) -> None:
    make_app(tmp_path, ACCESS_LOG=False).test_client().get("/v1/health")
    assert log_lines.getvalue() == ""


def test_a_client_request_id_is_used_only_when_plain(
    tmp_path: Path, log_lines: io.StringIO
) -> None:
    client = make_app(tmp_path).test_client()
    response = client.get("/v1/health", headers={"X-Request-Id": 'x" injected\\n'})
    assert response.headers["X-Request-Id"] != 'x" injected\\n'
    assert json.loads(log_lines.getvalue())["request_id"] == response.headers["X-Request-Id"]


def test_no_log_line_shows_a_hand_or_a_token(tmp_path: Path, log_lines: io.StringIO) -> None:
    """A full game: no card of any seat, nor the token, appears in the logs."""
    client = make_app(tmp_path).test_client()
    created = client.post("/v1/banting/games", json={"bots": BOTS}).get_json()
    token = created["tokens"]["0"]
    headers = {"Authorization": f"Bearer {token}"}
    url = f"/v1/banting/games/{created['id']}"
    # A careless client that sends its token as its request id too.
    answered = client.get(url, headers={**headers, "X-Request-Id": token})
    assert answered.headers["X-Request-Id"] != token
    view = answered.get_json()
    hand = set(view["hand"])
    while not view["result"]:
        play = view["hint"]["play"] if view["your_turn"] else "pass"
        view = client.post(f"{url}/moves", json={"play": play}, headers=headers).get_json()
    logged = log_lines.getvalue()
    assert len(logged.splitlines()) >= 3
    assert token not in logged
    for card in hand:
        assert f'"{card}"' not in logged and f" {card} " not in logged


# --- health -------------------------------------------------------------------------------


def test_health_checks_the_session_store(tmp_path: Path) -> None:
    assert make_app(tmp_path).test_client().get("/v1/health").status_code == 200
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    broken = create_app({"GAMES_DB": str(blocked / "games.sqlite3"), "ACCESS_LOG": False})
    response = broken.test_client().get("/v1/health")
    problem = assert_problem(response, 503)
    assert problem["code"] == "SESSION_STORE_UNAVAILABLE"
    assert response.headers["Retry-After"]
    assert str(blocked) not in problem["detail"]  # the path is for the log, not the client


# --- expiry -------------------------------------------------------------------------------


def _record(game_id: str) -> GameRecord:
    return GameRecord(
        id=game_id,
        players=4,
        rules={"preset": "capsa-banting"},
        bots={1: "random", 2: "random", 3: "random"},
        token_hashes={0: "0" * 64},
        rounds=[RoundRecord("B4K7M2Q9XZ1")],
    )


def test_finished_games_expire_sooner_than_running_ones(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3", finished_ttl=0.0, idle_ttl=3600.0)
    running, finished = _record("running"), _record("finished")
    finished.round_over = True
    store.create(running)
    store.create(finished)
    assert store.load("running") is not None
    assert store.load("finished") is None  # expired at once: ttl 0
    assert store.purge_expired() == 1
    with sqlite3.connect(tmp_path / "games.sqlite3") as conn:
        assert [r[0] for r in conn.execute("SELECT id FROM banting_games")] == ["running"]
    # A move that ends the round starts the shorter clock.
    loaded = store.load("running")
    assert loaded is not None
    loaded.round_over = True
    assert store.save(loaded)
    assert store.load("running") is None


def test_an_expired_game_is_404_over_http(tmp_path: Path) -> None:
    app = make_app(tmp_path, FINISHED_GAME_TTL=3600, IDLE_GAME_TTL=3600)
    client = app.test_client()
    created = client.post("/v1/banting/games", json={"bots": BOTS}).get_json()
    headers = {"Authorization": f"Bearer {created['tokens']['0']}"}
    url = f"/v1/banting/games/{created['id']}"
    assert client.get(url, headers=headers).status_code == 200
    with sqlite3.connect(tmp_path / "games.sqlite3") as conn:
        conn.execute("UPDATE banting_games SET expires_at = '2000-01-01T00:00:00.000+00:00'")
    assert_problem(client.get(url, headers=headers), 404)


def test_a_version_1_database_is_migrated(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute(
            "CREATE TABLE banting_games (id TEXT PRIMARY KEY, version INTEGER NOT NULL, "
            "players INTEGER NOT NULL, rules TEXT NOT NULL, bots TEXT NOT NULL, "
            "token_hashes TEXT NOT NULL, rounds TEXT NOT NULL, created_at TEXT NOT NULL, "
            "updated_at TEXT NOT NULL) STRICT"
        )
        conn.execute(
            "INSERT INTO banting_games VALUES ('old', 1, 4, '{\"preset\": \"capsa-banting\"}', "
            '\'{"1": "random"}\', \'{"0": "ab"}\', \'[{"code": "B4K7M2Q9XZ1", '
            "\"moves\": []}]', '2026-01-01T00:00:00.000+00:00', '2026-01-01T00:00:00.000+00:00')"
        )
        conn.execute("PRAGMA user_version = 1")
    store = GameStore(path)
    loaded = store.load("old")
    assert loaded is not None and loaded.rounds[0].code == "B4K7M2Q9XZ1"
    assert loaded.settings == {}
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 3
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    assert {"banting_games", "susun_games"} <= tables


def test_a_version_2_database_is_migrated(tmp_path: Path) -> None:
    """Version 2 (expiry, no settings column, no Susun tables) reads on and gains both."""
    path = tmp_path / "v2.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute(
            "CREATE TABLE banting_games (id TEXT PRIMARY KEY, version INTEGER NOT NULL, "
            "players INTEGER NOT NULL, rules TEXT NOT NULL, bots TEXT NOT NULL, "
            "token_hashes TEXT NOT NULL, rounds TEXT NOT NULL, created_at TEXT NOT NULL, "
            "updated_at TEXT NOT NULL, expires_at TEXT NOT NULL) STRICT"
        )
        conn.execute(
            "INSERT INTO banting_games VALUES ('v2', 3, 4, '{\"preset\": \"capsa-banting\"}', "
            '\'{"1": "random"}\', \'{"0": "ab"}\', \'[{"code": "B4K7M2Q9XZ1", '
            "\"moves\": []}]', '2026-01-01T00:00:00.000+00:00', '2026-01-01T00:00:00.000+00:00', "
            "'9999-01-01T00:00:00.000+00:00')"
        )
        conn.execute("PRAGMA user_version = 2")
    loaded = GameStore(path).load("v2")
    assert loaded is not None and loaded.version == 3 and loaded.settings == {}
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 3


def test_health_and_store_share_the_apps_ttls(tmp_path: Path) -> None:
    app = make_app(tmp_path, FINISHED_GAME_TTL=5, IDLE_GAME_TTL=50)
    client: FlaskClient = app.test_client()
    assert client.get("/v1/health").status_code == 200
    assert (store(app).finished_ttl, store(app).idle_ttl) == (5.0, 50.0)


def test_a_locked_store_is_503_and_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = make_app(tmp_path, STORE_BUSY_TIMEOUT=0.05).test_client()
    created = client.post("/v1/banting/games", json={"bots": BOTS}).get_json()
    headers = {"Authorization": f"Bearer {created['tokens']['0']}"}
    url = f"/v1/banting/games/{created['id']}"
    before = client.get(url, headers=headers).get_json()
    locker = sqlite3.connect(tmp_path / "games.sqlite3", isolation_level=None)
    try:
        locker.execute("BEGIN EXCLUSIVE")
        response = client.post(
            f"{url}/moves", json={"play": before["hint"]["play"]}, headers=headers
        )
        problem = assert_problem(response, 503)
        assert problem["code"] == "SESSION_STORE_UNAVAILABLE" and response.headers["Retry-After"]
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    assert client.get(url, headers=headers).get_json()["version"] == before["version"]


# --- findings of the fuzzers --------------------------------------------------------------


@pytest.mark.parametrize(
    "path", ["/v1//evaluate", "//v1/evaluate", "///v1/evaluate", "/v1/banting/games/x%2F/moves"]
)
def test_a_double_slash_is_a_404_problem_not_a_redirect(tmp_path: Path, path: str) -> None:
    client = make_app(tmp_path).test_client()
    # PATH_INFO as a server passes it (the test client would read '//v1' as a host name);
    # werkzeug matches a leading '//' as '/', so that case needs the app's own check.
    raw = path.replace("%2F", "/")
    body = {"cards": ["As", "Ks", "Qs"]}
    response = client.post("/", json=body, environ_overrides={"PATH_INFO": raw})
    assert assert_problem(response, 404)["detail"] == f"No route matches {raw}."
    assert client.post("/v1/evaluate", json=body).status_code == 200


def test_shape_errors_are_listed_before_card_and_preset_errors(tmp_path: Path) -> None:
    # The README's choice: the body's shape first; cards, duplicates and presets once the
    # shape is right (each stage names every bad field it finds).
    client = make_app(tmp_path).test_client()
    hand = ["Zz", "3d", "3d"]
    body = {"hand": hand, "play": "nope", "rules": {"preset": "nonsense"}, "extra": 1}
    fields = {
        e["field"]
        for e in assert_problem(client.post("/v1/banting/validate", json=body), 422)["errors"]
    }
    assert fields == {"play", "extra"}
    body = {"hand": hand, "play": "pass", "rules": {"preset": "nonsense"}}
    fields = {
        e["field"]
        for e in assert_problem(client.post("/v1/banting/validate", json=body), 422)["errors"]
    }
    assert fields == {"hand/0", "hand/2", "rules/preset"}


def test_a_huge_bad_value_gives_a_small_problem(tmp_path: Path) -> None:
    client = make_app(tmp_path).test_client()
    huge = "x" * 60_000  # under the 64 KiB body limit
    response = client.post("/v1/banting/classify", json={"cards": ["3d"], "rules": {huge: 1}})
    assert len(response.get_data()) < 2_000
    (error,) = assert_problem(response, 422)["errors"]
    assert error["message"].endswith("...") and len(error["message"]) <= 300
    bots = {huge: "standard"}
    response = client.post("/v1/banting/games", json={"bots": bots})
    assert len(response.get_data()) < 2_000
    assert_problem(response, 422)


def test_card_errors_show_control_characters_escaped(tmp_path: Path) -> None:
    client = make_app(tmp_path).test_client()
    errors = assert_problem(client.post("/v1/evaluate", json={"cards": ["A\u0000s"] * 3}), 422)
    assert "'A\\x00s'" in errors["errors"][0]["message"]


def test_a_deleted_store_gets_its_schema_again(tmp_path: Path) -> None:
    """The store keeps a connection per thread; when its file is deleted (or replaced)
    between requests, the next request opens the new file and makes the schema again
    instead of writing to the deleted one."""
    client = make_app(tmp_path).test_client()
    first = client.post("/v1/banting/games", json={"bots": BOTS}).get_json()
    path = tmp_path / "games.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        (tmp_path / f"games.sqlite3{suffix}").unlink(missing_ok=True)
    headers = {"Authorization": f"Bearer {first['tokens']['0']}"}
    assert client.get(f"/v1/banting/games/{first['id']}", headers=headers).status_code == 404
    second = client.post("/v1/banting/games", json={"bots": BOTS})
    assert second.status_code == 201
    assert path.exists()
    with sqlite3.connect(path) as conn:
        ids = [row[0] for row in conn.execute("SELECT id FROM banting_games")]
    assert ids == [second.get_json()["id"]]
    assert client.get("/v1/health").status_code == 200


def test_a_full_store_is_503_on_writes_and_on_health(tmp_path: Path) -> None:
    """GAMES_DB_MAX_BYTES caps the file (SQLite's max_page_count): past it SQLite answers
    "database or disk is full", as on a full disk. Writes are 503 and change nothing, and
    the health check, which writes a probe page, says 503 too."""
    client = make_app(tmp_path, GAMES_DB_MAX_BYTES=64 * 1024).test_client()
    assert client.get("/v1/health").status_code == 200
    for _ in range(500):
        response = client.post("/v1/banting/games", json={"bots": BOTS})
        if response.status_code != 201:
            break
    problem = assert_problem(response, 503)
    assert problem["code"] == "SESSION_STORE_UNAVAILABLE"
    assert_problem(client.get("/v1/health"), 503)
    # Stateless routes never touch the store.
    assert client.post("/v1/evaluate", json={"cards": ["As", "Ks", "Qs"]}).status_code == 200
    # Room again (a bigger limit): healthy, and games can be made.
    roomy = make_app(tmp_path).test_client()
    assert roomy.get("/v1/health").status_code == 200
    assert roomy.post("/v1/banting/games", json={"bots": BOTS}).status_code == 201


def test_the_store_is_capped_at_one_gib_by_default(tmp_path: Path) -> None:
    """Without GAMES_DB_MAX_BYTES the store still has a cap (1 GiB, some 800,000 games), so
    a flood of new games ends in 503s, not in a full disk; 0 lifts it."""
    assert create_app({"ACCESS_LOG": False}).config["GAMES_DB_MAX_BYTES"] == settings.GIB
    for limit, expected_pages in ((None, settings.GIB // 4096), (0, None)):
        extra = {} if limit is None else {"GAMES_DB_MAX_BYTES": limit}
        app = make_app(tmp_path / str(limit), **extra)
        created = app.test_client().post("/v1/banting/games", json={"bots": BOTS})
        assert created.status_code == 201
        with store(app)._connect() as conn:
            pages = conn.execute("PRAGMA max_page_count").fetchone()[0]
            assert conn.execute("PRAGMA page_size").fetchone()[0] == 4096
        if expected_pages is None:
            assert pages > settings.GIB // 4096  # SQLite's own limit
        else:
            assert pages == expected_pages


def test_health_is_503_before_a_game_would_not_fit(tmp_path: Path) -> None:
    """Health must not say 200 while the next game cannot be stored: its probe is room for a
    game (PROBE_BYTES), not one page. Each 200 is followed by a game that fits."""
    for limit in (40_000, 60_000):
        client = make_app(tmp_path / str(limit), GAMES_DB_MAX_BYTES=limit).test_client()
        for _ in range(200):
            healthy = client.get("/v1/health").status_code == 200
            created = client.post("/v1/banting/games", json={"bots": BOTS}).status_code
            assert created in (201, 503)
            assert not healthy or created == 201, f"health said 200, then a game got {created}"
            if created != 201:
                break
        assert created == 503


def test_a_store_path_that_cannot_be_made_is_503_not_500(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    client = make_app(tmp_path, GAMES_DB=str(blocker / "sub" / "games.sqlite3")).test_client()
    problem = assert_problem(client.post("/v1/banting/games", json={"bots": BOTS}), 503)
    assert problem["code"] == "SESSION_STORE_UNAVAILABLE"
    assert assert_problem(client.get("/v1/health"), 503)["code"] == "SESSION_STORE_UNAVAILABLE"


def test_health_says_503_when_the_disk_has_no_room(tmp_path: Path) -> None:
    """A write rolled back never reaches the disk, so the health check also reads the free
    space beside the store: less than GAMES_DB_MIN_FREE_BYTES is a full disk."""
    assert make_app(tmp_path).test_client().get("/v1/health").status_code == 200
    full = make_app(tmp_path, GAMES_DB_MIN_FREE_BYTES=1 << 62).test_client()
    assert assert_problem(full.get("/v1/health"), 503)["code"] == "SESSION_STORE_UNAVAILABLE"


def test_a_store_locked_by_another_process_fails_health_fast(tmp_path: Path) -> None:
    client = make_app(tmp_path).test_client()
    assert client.get("/v1/health").status_code == 200
    locker = sqlite3.connect(tmp_path / "games.sqlite3", isolation_level=None)
    try:
        locker.execute("BEGIN EXCLUSIVE")
        started = time.perf_counter()
        assert_problem(client.get("/v1/health"), 503)
        assert time.perf_counter() - started < 0.9  # the probe waits 0.1 s, not the 1 s
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    assert client.get("/v1/health").status_code == 200


def test_a_backlog_of_expired_games_is_purged_a_batch_per_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Games that expired together are deleted a batch at a time, so the request that
    purges does bounded work (a million at once held the store for seconds)."""
    monkeypatch.setattr(game_store, "PURGE_BATCH", 2)
    store = GameStore(tmp_path / "games.sqlite3", finished_ttl=0.0)
    store._next_purge = float("inf")  # no purge while the games are made
    for number in range(5):
        finished = _record(f"finished-{number}")
        finished.round_over = True
        store.create(finished)

    def left() -> int:
        with sqlite3.connect(tmp_path / "games.sqlite3") as conn:
            return int(conn.execute("SELECT COUNT(*) FROM banting_games").fetchone()[0])

    assert store.purge_expired(limit=1) == 1
    assert left() == 4
    store._next_purge = 0.0  # a minute has passed
    counts = []
    for _ in range(4):
        store._purge_now_and_then()
        counts.append(left())
    assert counts == [2, 0, 0, 0]
