"""Messages and labels over HTTP under Accept-Language (issue 11, item 3: seed 003's words).

Every response that carries a label or a message follows Accept-Language (``id``:
Indonesian), says which it chose in Content-Language and varies on Accept-Language; the
machine fields (kinds, categories, codes, positions) never change with the language.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from capsa_fast import banting
from flask.testing import FlaskClient

from api import create_app
from tests.api.helpers import assert_problem

INDONESIAN = {"Accept-Language": "id-ID,id;q=0.9,en;q=0.8"}


def post_in(client: FlaskClient, route: str, body: Any, language: str) -> dict[str, Any]:
    """The 200 body of ``route`` asked for in ``language`` ("en" sends no header)."""
    headers = INDONESIAN if language == "id" else {}
    response = client.post(route, json=body, headers=headers)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.headers["Content-Language"] == language
    assert "Accept-Language" in response.headers["Vary"]
    result: dict[str, Any] = response.get_json()
    return result


def without(node: Any, *keys: str) -> Any:
    """``node`` with the fields ``keys`` dropped at every depth (what must not change)."""
    if isinstance(node, dict):
        return {k: without(v, *keys) for k, v in node.items() if k not in keys}
    if isinstance(node, list):
        return [without(item, *keys) for item in node]
    return node


# --- seed 003, quoted, from /v1/banting/validate ------------------------------------------


@pytest.mark.parametrize(
    ("body", "code", "seed_line"),
    [
        (
            {"hand": ["3d", "9c", "9h", "Kd"], "play": ["9c", "9h"], "first_play": True},
            "MUST_INCLUDE_LOWEST",
            "Kartu pertama wajib memuat ♦3",
        ),
        (
            {
                "hand": ["9c", "9h", "Kd", "Ks", "2s"],
                "play": ["9c", "9h", "Kd", "Ks"],
                "table": ["4c", "5d", "6h", "7s", "8c"],
            },
            "WRONG_CARD_COUNT",
            "Harus 5 kartu, kamu pilih 4",
        ),
        (
            {"hand": ["3d", "9c", "Kd"], "play": ["9c", "Kd"]},
            "NOT_A_COMBO",
            "Kartu ini tidak membentuk kombinasi",
        ),
        (
            {"hand": ["9c", "9d", "3s"], "play": ["9c", "9d"], "table": ["Kc", "Kd"]},
            "DOES_NOT_BEAT",
            "Pasangan 9 tidak bisa menimpa Pasangan K",
        ),
        (
            {
                "hand": ["2c", "3d", "4h", "5s", "6c"],
                "play": ["2c", "3d", "4h", "5s", "6c"],
                "rules": {"straights": "no-two"},
            },
            "RULE_FORBIDS",
            "Aturan meja: straight tidak boleh memuat 2",
        ),
        (
            {"hand": ["3d", "9c"], "play": "pass"},
            "CANNOT_PASS_WHEN_LEADING",
            "Kamu memimpin, tidak boleh lewat",
        ),
    ],
    ids=lambda value: value if isinstance(value, str) and value.isupper() else None,
)
def test_seed_003_refusals_over_http(
    api_client: FlaskClient, body: dict[str, Any], code: str, seed_line: str
) -> None:
    indonesian = post_in(api_client, "/v1/banting/validate", body, "id")
    assert (indonesian["ok"], indonesian["code"]) == (False, code)
    assert indonesian["message"] == seed_line
    english = post_in(api_client, "/v1/banting/validate", body, "en")
    assert english["message"] != seed_line
    assert without(english, "message", "label") == without(indonesian, "message", "label")


def test_api_md_english_example_still_reads_the_same(api_client: FlaskClient) -> None:
    body = {"hand": ["9c", "9d", "3s"], "play": ["9c", "9d"], "table": ["Kc", "Kd"]}
    english = post_in(api_client, "/v1/banting/validate", body, "en")
    assert english["message"] == "Pair of 9s cannot beat pair of Ks"
    assert english["combo"]["label"] == "pair of 9s"
    assert post_in(api_client, "/v1/banting/validate", body, "id")["combo"] == {
        "kind": "pair",
        "cards": ["9d", "9c"],
        "label": "Pasangan 9",
    }


# --- Banting labels -------------------------------------------------------------------------


def test_classify_in_indonesian(api_client: FlaskClient) -> None:
    route = "/v1/banting/classify"
    combo = post_in(api_client, route, {"cards": ["Kc", "Kd", "Kh"]}, "id")["combo"]
    assert combo == {"kind": "triple", "cards": ["Kd", "Kc", "Kh"], "label": "Tris K"}
    single = post_in(api_client, route, {"cards": ["3d"]}, "id")["combo"]
    assert single["label"] == "Tunggal ♦3"
    assert post_in(api_client, route, {"cards": ["3d"]}, "en")["combo"]["label"] == "3♦"
    reason = post_in(api_client, route, {"cards": ["9c", "Kd"]}, "id")["reason"]
    assert reason == {"code": "NOT_A_COMBO", "message": "Kartu ini tidak membentuk kombinasi"}
    body = {"cards": ["Ac", "2d", "3h", "4s", "5c"], "rules": {"straights": "no-two"}}
    assert post_in(api_client, route, body, "id")["reason"] == {
        "code": "RULE_FORBIDS",
        "message": "Aturan meja: straight tidak boleh memuat 2",
    }


def test_legal_plays_labels_in_indonesian(api_client: FlaskClient) -> None:
    body = {"hand": ["3d", "3c", "9h", "9s", "Kd"], "table": ["8c", "8d"]}
    english = post_in(api_client, "/v1/banting/legal-plays", body, "en")
    indonesian = post_in(api_client, "/v1/banting/legal-plays", body, "id")
    assert [p["label"] for p in english["plays"]] == ["pair of 9s"]
    assert [p["label"] for p in indonesian["plays"]] == ["Pasangan 9"]
    assert without(english, "label") == without(indonesian, "label")


# --- poker labels ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "english", "indonesian"),
    [
        (["Qs", "Qd", "7c", "4h", "2s"], "Pair of queens", "Pasangan Q"),
        (["As", "Ks", "Qs", "Js", "Ts", "2d", "3c"], "Royal flush", "Royal flush"),
        (["Kc", "Kd", "5h", "5s", "9c", "2d"], "Two pair, kings and fives", "Dua pasangan K dan 5"),
        (["5c", "4d", "3h", "2s", "Ac"], "Straight, five high", "Straight A–5"),
    ],
)
def test_evaluate_label_follows_accept_language(
    api_client: FlaskClient, cards: list[str], english: str, indonesian: str
) -> None:
    en = post_in(api_client, "/v1/evaluate", {"cards": cards}, "en")
    id_ = post_in(api_client, "/v1/evaluate", {"cards": cards}, "id")
    assert (en["label"], id_["label"]) == (english, indonesian)
    assert without(en, "label") == without(id_, "label")


def test_showdown_labels_follow_accept_language(api_client: FlaskClient) -> None:
    body = {"board": ["2c", "7d", "9h", "Jc", "Ks"], "players": [["As", "Ad"], ["Qh", "3h"]]}
    english = post_in(api_client, "/v1/poker/showdown", body, "en")
    indonesian = post_in(api_client, "/v1/poker/showdown", body, "id")
    assert [p["label"] for p in english["players"]] == ["Pair of aces", "High card, king high"]
    assert [p["label"] for p in indonesian["players"]] == ["Pasangan A", "Kartu tertinggi K"]
    assert without(english, "label") == without(indonesian, "label")


# --- Susun rows -----------------------------------------------------------------------------


def test_susun_check_rows_follow_accept_language(api_client: FlaskClient) -> None:
    body = {
        "top": ["2c", "7d", "Ks"],
        "middle": ["4h", "4s", "9c", "Jd", "Qh"],
        "bottom": ["3s", "5s", "8s", "Ts", "As"],
    }
    english = post_in(api_client, "/v1/susun/check", body, "en")
    indonesian = post_in(api_client, "/v1/susun/check", body, "id")
    assert [(r["position"], r["name"], r["label"]) for r in english["rows"]] == [
        ("top", "Top", "High card, king high"),
        ("middle", "Middle", "Pair of fours"),
        ("bottom", "Bottom", "Flush, ace high"),
    ]
    assert [(r["position"], r["name"], r["label"]) for r in indonesian["rows"]] == [
        ("top", "Atas", "Kartu tertinggi K"),
        ("middle", "Tengah", "Pasangan 4"),
        ("bottom", "Bawah", "Flush, kartu tertinggi A"),
    ]
    assert without(english, "name", "label") == without(indonesian, "name", "label")


# --- game sessions ----------------------------------------------------------------------------


def test_game_views_and_refusals_in_indonesian(tmp_path: Path) -> None:
    client = create_app({"TESTING": True, "GAMES_DB": str(tmp_path / "g.sqlite3")}).test_client()
    # A deal in which seat 0 (the human) opens, so it holds the 3♦ and must play it.
    for seed in range(1, 500):
        code = banting.make_code(4, seed)
        game = banting.Game(code=code)
        if not game.over and game.turn == 0:
            break
    bots = {"1": "standard", "2": "standard", "3": "standard"}
    created = client.post("/v1/banting/games", json={"code": code, "bots": bots}).get_json()
    url, token = f"/v1/banting/games/{created['id']}", created["tokens"]["0"]
    auth = {"Authorization": f"Bearer {token}"}

    response = client.get(url, headers={**auth, **INDONESIAN})
    assert response.status_code == 200
    assert response.headers["Content-Language"] == "id"
    assert "Accept-Language" in response.headers["Vary"]
    view = response.get_json()
    assert view["hint"]["label"] == banting.combo_label(
        banting.classify(view["hint"]["play"]), "id"
    )
    english = client.get(url, headers=auth)
    assert english.headers["Content-Language"] == "en"
    assert without(english.get_json(), "label") == without(view, "label")

    # «Kartu pertama wajib memuat ♦3» as the 409's detail.
    refused = client.post(
        f"{url}/moves", json={"play": [view["hand"][-1]]}, headers={**auth, **INDONESIAN}
    )
    problem = assert_problem(refused, 409)
    assert (problem["code"], problem["detail"]) == (
        "MUST_INCLUDE_LOWEST",
        "Kartu pertama wajib memuat ♦3",
    )

    # After a move the history and the table carry Indonesian labels too.
    response = client.post(
        f"{url}/moves", json={"play": view["hint"]["play"]}, headers={**auth, **INDONESIAN}
    )
    assert response.status_code == 200 and response.headers["Content-Language"] == "id"
    moved = response.get_json()
    played = [entry for entry in moved["history"] if entry["kind"] is not None]
    assert played
    for entry in played:
        assert entry["label"] == banting.combo_label(banting.classify(entry["play"]), "id")
    first = played[0]
    assert first["label"].split()[0] in {"Tunggal", "Pasangan", "Tris", "Straight"}
    if moved["table"] is not None:
        table = moved["table"]
        assert table["label"] == banting.combo_label(banting.classify(table["cards"]), "id")
