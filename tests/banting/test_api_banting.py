"""HTTP API tests of the Capsa Banting routes (spec: API.md section 2, RULES.md section 3)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from capsa_fast import banting
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api import create_app
from tests.api.helpers import all_refs, assert_problem, field_errors, json_bodies, post, resolve_ref

DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]
POST_ROUTES = [
    "/v1/banting/classify",
    "/v1/banting/compare",
    "/v1/banting/validate",
    "/v1/banting/legal-plays",
    "/v1/banting/score",
]
VALID_BODIES: dict[str, dict[str, Any]] = {
    "/v1/banting/classify": {"cards": ["9c", "9d"]},
    "/v1/banting/compare": {"a": ["9c", "9d"], "b": ["Kc", "Kd"]},
    "/v1/banting/validate": {"hand": ["3d", "9c", "9d"], "play": ["3d"]},
    "/v1/banting/legal-plays": {"hand": ["3d", "9c", "9d"]},
    "/v1/banting/score": {"cards_left": [0, 5]},
}


def validate(client: FlaskClient, **body: Any) -> dict[str, Any]:
    return post(client, "/v1/banting/validate", body)


# --- /v1/banting/classify -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "rules", "combo"),
    [
        (["9c"], None, {"kind": "single", "cards": ["9c"], "label": "9♣"}),
        # Cards come back canonical and in the engine's order (suits low to high: d c h s).
        (["3♠", "3♦"], None, {"kind": "pair", "cards": ["3d", "3s"], "label": "pair of 3s"}),
        (
            ["10h", "9h", "jh", "Qh", "K♥"],
            None,
            {
                "kind": "straight_flush",
                "cards": ["9h", "Th", "Jh", "Qh", "Kh"],
                "label": "straight flush 9–K in ♥",
            },
        ),
        (
            ["3d", "4d", "5d", "6d", "7c"],
            None,
            {"kind": "straight", "cards": ["3d", "4d", "5d", "6d", "7c"], "label": "straight 3–7"},
        ),
        # JQKA2 is a straight only where the straight order lists it.
        (
            ["Jc", "Qd", "Kd", "Ad", "2d"],
            {"straights": "ace-top-jqka2"},
            {"kind": "straight", "cards": ["Jc", "Qd", "Kd", "Ad", "2d"], "label": "straight J–2"},
        ),
    ],
)
def test_classify_combos(
    api_client: FlaskClient, cards: list[str], rules: Any, combo: dict[str, Any]
) -> None:
    body: dict[str, Any] = {"cards": cards}
    if rules is not None:
        body["rules"] = rules
    assert post(api_client, "/v1/banting/classify", body) == {"combo": combo, "reason": None}


@pytest.mark.parametrize(
    ("cards", "rules", "code", "message"),
    [
        (["Kc", "Kd", "Kh", "Ks"], None, "NOT_A_COMBO", "K♣ K♦ K♥ K♠ is not a combo"),
        (["9c", "9d", "3c", "3d"], None, "NOT_A_COMBO", "is not a combo"),
        ([], None, "NOT_A_COMBO", "not a combo"),
        (DECK, None, "NOT_A_COMBO", "not a combo"),
        (["Jc", "Qd", "Kd", "Ad", "2d"], None, "RULE_FORBIDS", "not a straight here"),
        (["9c", "9d", "9h"], {"triples": False}, "RULE_FORBIDS", "lone triples are off"),
    ],
)
def test_classify_no_combo_gives_the_reason(
    api_client: FlaskClient, cards: list[str], rules: Any, code: str, message: str
) -> None:
    result = post(api_client, "/v1/banting/classify", {"cards": cards, "rules": rules})
    assert result["combo"] is None
    assert result["reason"]["code"] == code
    assert message in result["reason"]["message"]


def test_rules_preset_changes_the_answer(api_client: FlaskClient) -> None:
    flush = ["3h", "7h", "9h", "Jh", "Kh"]
    default = post(api_client, "/v1/banting/classify", {"cards": flush})
    assert default["combo"]["kind"] == "flush"
    taiwan = post(
        api_client, "/v1/banting/classify", {"cards": flush, "rules": {"preset": "taiwan"}}
    )
    assert taiwan["combo"] is None  # flush_compare 'none': flushes are no combo in Taiwan


# --- /v1/banting/compare ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "rules", "result"),
    [
        (["9c", "9d"], ["Kc", "Kd"], None, -1),
        (["Kc", "Kd"], ["9c", "9d"], None, 1),
        (["2d"], ["2c"], None, -1),  # dchs: clubs over diamonds
        (["2d"], ["2c"], {"suit_order": "cdhs"}, 1),
        (["2d"], ["2d"], None, 0),
        (["Kh", "Ks"], ["Kc", "Kd"], None, 1),  # pair: the highest suit decides
        # Equal straights: the highest card's suit decides (7c over 7d), not the 3s or the 6s.
        (["3c", "4d", "5h", "6s", "7c"], ["3d", "4c", "5c", "6c", "7d"], None, 1),
        (["Kc", "Kd", "Kh", "Ks", "3c"], ["2s"], {"preset": "taiwan"}, 1),  # a bomb
        (["2s"], ["Kc", "Kd", "Kh", "Ks", "3c"], {"preset": "taiwan"}, -1),
    ],
)
def test_compare(
    api_client: FlaskClient, a: list[str], b: list[str], rules: Any, result: int
) -> None:
    body = {"a": a, "b": b, "rules": rules}
    assert post(api_client, "/v1/banting/compare", body) == {"result": result}


@pytest.mark.parametrize(
    ("a", "b", "rules", "fields", "needle"),
    [
        (["9c", "9d"], ["Kc"], None, ["b"], "cannot be compared"),
        (["Kc", "Kd", "Kh", "Ks", "3c"], ["2s"], None, ["b"], "cannot be compared"),  # no bombs
        (["9c", "4d"], ["Kc"], None, ["a"], "not a combo"),
        (["Kc"], ["Kc", "Kd", "Kh", "Ks"], None, ["b"], "not a combo"),
        ([], ["Kc"], None, ["a"], "not a combo"),
        (["9c", "4d"], ["Kc", "2d"], None, ["a", "b"], "not a combo"),
        (["3h", "7h", "9h", "Jh", "Kh"], ["3d"], {"preset": "taiwan"}, ["a"], "flushes are off"),
    ],
)
def test_compare_refuses_what_cannot_be_compared(
    api_client: FlaskClient,
    a: list[str],
    b: list[str],
    rules: Any,
    fields: list[str],
    needle: str,
) -> None:
    errors = field_errors(
        api_client.post("/v1/banting/compare", json={"a": a, "b": b, "rules": rules})
    )
    assert sorted(errors) == fields
    assert all(needle in message.lower() for message in errors.values())


def test_compare_and_classify_take_the_demoted_twos(api_client: FlaskClient) -> None:
    """RULES.md 3.2: stateless calls take the round's two_demotion state as twos_demoted."""
    klasik = {"preset": "capsa-klasik"}
    body = {"a": ["As"], "b": ["2d"], "rules": klasik}
    assert post(api_client, "/v1/banting/compare", body) == {"result": -1}
    assert post(api_client, "/v1/banting/compare", body | {"twos_demoted": True}) == {"result": 1}
    pairs = {"a": ["Ac", "As"], "b": ["2c", "2d"], "rules": klasik, "twos_demoted": True}
    assert post(api_client, "/v1/banting/compare", pairs) == {"result": -1}  # singles only
    single = {"cards": ["2d"], "rules": klasik, "twos_demoted": True}
    assert post(api_client, "/v1/banting/classify", single)["combo"]["kind"] == "single"
    for route, plain in (("/v1/banting/compare", body), ("/v1/banting/classify", single)):
        refused = plain | {"rules": None, "twos_demoted": True}
        assert "two_demotion" in field_errors(api_client.post(route, json=refused))["twos_demoted"]


# --- /v1/banting/validate -----------------------------------------------------------------


def test_validate_pair_that_does_not_beat(api_client: FlaskClient) -> None:
    body = {"hand": ["9c", "9d", "3s"], "play": ["9c", "9d"], "table": ["Kc", "Kd"]}
    response = api_client.post("/v1/banting/validate", json=body)
    assert response.status_code == 200
    assert response.headers["Content-Language"] == "en"
    assert "Accept-Language" in response.headers["Vary"]
    assert response.get_json() == {
        "ok": False,
        "combo": {"kind": "pair", "cards": ["9d", "9c"], "label": "pair of 9s"},
        "code": "DOES_NOT_BEAT",
        "message": "Pair of 9s cannot beat pair of Ks",
    }
    assert "cannot beat" in response.get_json()["message"]


def test_validate_message_in_indonesian(api_client: FlaskClient) -> None:
    body = {"hand": ["9c", "9d", "3s"], "play": ["9c", "9d"], "table": ["Kc", "Kd"]}
    english = post(api_client, "/v1/banting/validate", body)
    response = api_client.post(
        "/v1/banting/validate", json=body, headers={"Accept-Language": "id-ID,id;q=0.9,en;q=0.8"}
    )
    assert response.status_code == 200
    assert response.headers["Content-Language"] == "id"
    indonesian = response.get_json()
    assert indonesian["message"] == "Pasangan 9 tidak bisa menimpa Pasangan K"  # seed 003
    assert indonesian["message"] != english["message"]
    # Only the words change: the message and the combo's label.
    assert indonesian["combo"]["label"] == "Pasangan 9"
    same = {**indonesian, "message": None, "combo": {**indonesian["combo"], "label": None}}
    assert same == {**english, "message": None, "combo": {**english["combo"], "label": None}}


@pytest.mark.parametrize(
    ("header", "language"),
    [
        ("id-ID,id;q=0.9,en;q=0.8", "id"),
        ("id", "id"),
        ("ID-id", "id"),
        ("id_ID", "id"),
        ("fr-FR, id;q=0.5", "id"),  # nothing French: the next acceptable language
        ("en;q=0.1, id-ID;q=0.5", "id"),  # quality decides, not exactness
        ("in", "id"),  # the withdrawn ISO 639 code some platforms still send
        ("en-US,en;q=0.9,id;q=0.5", "en"),
        ("id;q=0, en", "en"),  # q=0: not acceptable
        ("id;q=0", "en"),
        ("fr", "en"),
        ("*", "en"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_accept_language_negotiation(
    api_client: FlaskClient, header: str | None, language: str
) -> None:
    headers = {} if header is None else {"Accept-Language": header}
    body = {"hand": ["3d", "9c"], "play": "pass"}
    response = api_client.post("/v1/banting/validate", json=body, headers=headers)
    assert response.status_code == 200
    assert response.headers["Content-Language"] == language
    expected = banting.validate(["3d", "9c"], "pass", lang=language).message
    assert response.get_json()["message"] == expected


@pytest.mark.parametrize(
    ("body", "code", "needle"),
    [
        (
            {"hand": ["3d", "9c", "9d"], "play": ["9c", "9d"], "first_play": True},
            "MUST_INCLUDE_LOWEST",
            "3♦",
        ),
        ({"hand": ["3d", "9c", "9d"], "play": "pass"}, "CANNOT_PASS_WHEN_LEADING", "cannot pass"),
        (
            {
                "hand": ["3d", "9c", "9d"],
                "play": ["9c"],
                "table": ["8c"],
                "passed": True,
                "rules": {"pass_locks": True},
            },
            "PASSED_THIS_TRICK",
            "passed",
        ),
        ({"hand": ["3d", "9c"], "play": ["Ac"], "table": ["8c"]}, "NOT_IN_HAND", "A♣"),
        ({"hand": ["3d", "9c"], "play": ["9c"], "table": ["8c", "8d"]}, "WRONG_CARD_COUNT", "2"),
        ({"hand": ["3d", "9c"], "play": ["3d", "9c"]}, "NOT_A_COMBO", "not a combo"),
        ({"hand": ["3d", "9c"], "play": []}, "NOT_A_COMBO", "not a combo"),
        (
            {"hand": ["9c", "9d", "9h"], "play": ["9c", "9d", "9h"], "rules": {"triples": False}},
            "RULE_FORBIDS",
            "triples",
        ),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_validate_rejections(
    api_client: FlaskClient, body: dict[str, Any], code: str, needle: str
) -> None:
    result = post(api_client, "/v1/banting/validate", body)
    assert result["ok"] is False
    assert result["code"] == code
    assert needle in result["message"]


def test_validate_first_play_message(api_client: FlaskClient) -> None:
    result = validate(api_client, hand=["3d", "9c", "9d"], play=["9c", "9d"], first_play=True)
    assert result == {
        "ok": False,
        "combo": {"kind": "pair", "cards": ["9d", "9c"], "label": "pair of 9s"},
        "code": "MUST_INCLUDE_LOWEST",
        "message": "The first play must contain 3♦",
    }


def test_validate_accepted_plays(api_client: FlaskClient) -> None:
    beat = validate(api_client, hand=["3d", "9c", "9d"], play=["9c"], table=["8c"])
    assert beat == {
        "ok": True,
        "combo": {"kind": "single", "cards": ["9c"], "label": "9♣"},
        "code": None,
        "message": "9♣ is a legal play",
    }
    opening = validate(api_client, hand=["3d", "9c", "9d"], play=["3♦"], first_play=True)
    assert opening["ok"] is True and opening["combo"]["cards"] == ["3d"]
    passing = validate(api_client, hand=["3d", "9c", "9d"], play="pass", table=["2s"])
    assert passing == {"ok": True, "combo": None, "code": None, "message": "You pass"}


# --- /v1/banting/legal-plays --------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "count"),
    [
        (None, 19_898),  # ten straight rank-sets and flushes
        ({"preset": "pagat"}, 19_898),
        ({"preset": "hong-kong"}, 19_898),
        ({"straights": "ace-top-jqka2"}, 18_878),
        ({"straights": "no-two"}, 17_858),
        ({"preset": "taiwan"}, 14_790),  # no flushes
    ],
)
def test_legal_plays_of_the_full_deck(api_client: FlaskClient, rules: Any, count: int) -> None:
    result = post(api_client, "/v1/banting/legal-plays", {"hand": DECK, "rules": rules})
    assert result["count"] == count
    assert len(result["plays"]) == 1000  # the default limit


def test_legal_plays_limit(api_client: FlaskClient) -> None:
    everything = post(api_client, "/v1/banting/legal-plays", {"hand": DECK, "limit": 20_000})
    assert everything["count"] == len(everything["plays"]) == 19_898
    plays = {(p["kind"], tuple(sorted(p["cards"]))) for p in everything["plays"]}
    assert len(plays) == 19_898  # distinct
    first = post(api_client, "/v1/banting/legal-plays", {"hand": DECK, "limit": 3})
    assert first["count"] == 19_898
    assert first["plays"] == everything["plays"][:3]


def test_legal_plays_hand_picked(api_client: FlaskClient) -> None:
    opening = post(
        api_client,
        "/v1/banting/legal-plays",
        {"hand": ["3d", "3c", "4h", "9s"], "first_play": True},
    )
    assert opening == {
        "count": 2,
        "plays": [
            {"kind": "single", "cards": ["3d"], "label": "3♦"},
            {"kind": "pair", "cards": ["3d", "3c"], "label": "pair of 3s"},
        ],
    }
    answer = post(
        api_client,
        "/v1/banting/legal-plays",
        {"hand": ["3d", "Kh", "As", "Ks", "2c"], "table": ["Kc", "Kd"]},
    )
    assert answer == {
        "count": 1,
        "plays": [{"kind": "pair", "cards": ["Kh", "Ks"], "label": "pair of Ks"}],
    }
    nothing = post(api_client, "/v1/banting/legal-plays", {"hand": ["3d"], "table": ["2s"]})
    assert nothing == {"count": 0, "plays": []}


def test_legal_plays_agree_with_validate(api_client: FlaskClient) -> None:
    hand = ["3d", "4d", "5d", "6d", "7d", "7c", "7h", "9s", "Ts", "Js", "Qs", "Ks", "2h"]
    table = ["3c", "4c", "5c", "6c", "7s"]
    plays = post(api_client, "/v1/banting/legal-plays", {"hand": hand, "table": table})["plays"]
    assert plays
    for play in plays:
        verdict = validate(api_client, hand=hand, play=play["cards"], table=table)
        assert verdict["ok"] is True, play


# --- /v1/banting/score --------------------------------------------------------------------


def test_score(api_client: FlaskClient) -> None:
    result = post(api_client, "/v1/banting/score", {"cards_left": [0, 5, 10, 13]})
    assert result == {
        "scores": [64, -5, -20, -39],
        "lines": [
            {"cards_left": 0, "multiplier": 0, "points": 64},
            {"cards_left": 5, "multiplier": 1, "points": -5},
            {"cards_left": 10, "multiplier": 2, "points": -20},
            {"cards_left": 13, "multiplier": 3, "points": -39},
        ],
    }


def test_score_with_rules(api_client: FlaskClient) -> None:
    body = {"cards_left": [0, 5, 10, 13], "rules": {"scoring": [[1, 2]]}}
    assert post(api_client, "/v1/banting/score", body)["scores"] == [56, -10, -20, -26]
    two = post(
        api_client, "/v1/banting/score", {"cards_left": [3, 0], "rules": {"preset": "taiwan"}}
    )
    assert two["scores"] == [-3, 3]


# --- /v1/banting/rules/presets ------------------------------------------------------------


def test_presets(api_client: FlaskClient) -> None:
    response = api_client.get("/v1/banting/rules/presets")
    assert response.status_code == 200
    result = response.get_json()
    assert result["default"] == "capsa-banting"
    assert sorted(result["presets"]) == [
        "capsa-banting",
        "capsa-klasik",
        "hong-kong",
        "pagat",
        "taiwan",
    ]
    assert result["presets"] == banting.PRESETS
    assert result["presets"]["capsa-banting"] == {
        "suit_order": "dchs",
        "straights": "two-high",
        "straight_tiebreak": "highest-card",
        "flush_compare": "suit-first",
        "triples": True,
        "bombs": "none",
        "first_lead": "lowest-card",
        "pass_locks": False,
        "two_demotion": False,
        "ending": "first-out",
        "bomb_ends": False,
        "dragon": True,
        "exchange": "none",
        "scoring": [[1, 1], [10, 2], [13, 3]],
    }
    taiwan = result["presets"]["taiwan"]
    assert (taiwan["suit_order"], taiwan["flush_compare"], taiwan["bombs"]) == (
        "cdhs",
        "none",
        "quads-and-straight-flush",
    )


def test_presets_is_get_only(api_client: FlaskClient) -> None:
    assert_problem(api_client.post("/v1/banting/rules/presets", json={}), 405)


# --- errors: cards ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("route", "body", "field", "needle"),
    [
        # Bad cards.
        ("/v1/banting/classify", {"cards": ["9c", "Zz"]}, "cards/1", "Zz"),
        ("/v1/banting/compare", {"a": ["9x"], "b": ["Kc"]}, "a/0", "9x"),
        ("/v1/banting/compare", {"a": ["9c"], "b": ["K"]}, "b/0", "K"),
        ("/v1/banting/validate", {"hand": ["3d", "1c"], "play": ["3d"]}, "hand/1", "1c"),
        ("/v1/banting/validate", {"hand": ["3d"], "play": ["3z"]}, "play/0", "3z"),
        ("/v1/banting/validate", {"hand": ["3d"], "play": "pass", "table": ["Q"]}, "table/0", "Q"),
        ("/v1/banting/legal-plays", {"hand": ["3d", ""]}, "hand/1", "not a card"),
        # Duplicates within one field (the same card spelt two ways is still the same card).
        ("/v1/banting/classify", {"cards": ["9c", "9♣"]}, "cards/1", "cards/0"),
        ("/v1/banting/compare", {"a": ["9c", "9d"], "b": ["Kc", "kc"]}, "b/1", "b/0"),
        ("/v1/banting/validate", {"hand": ["3d", "9c", "3♦"], "play": ["9c"]}, "hand/2", "hand/0"),
        (
            "/v1/banting/validate",
            {"hand": ["3d", "9c"], "play": ["9c", "9c"], "table": ["8c", "8d"]},
            "play/1",
            "play/0",
        ),
        (
            "/v1/banting/validate",
            {"hand": ["3d", "9c"], "play": ["9c"], "table": ["8c", "8c"]},
            "table/1",
            "table/0",
        ),
        ("/v1/banting/legal-plays", {"hand": ["3d", "3d"]}, "hand/1", "hand/0"),
        (
            "/v1/banting/legal-plays",
            {"hand": ["3d"], "table": ["Kc", "Kc"]},
            "table/1",
            "table/0",
        ),
        # A card both in the hand and on the table.
        (
            "/v1/banting/validate",
            {"hand": ["9c", "9d", "3s"], "play": ["9c", "9d"], "table": ["Kc", "9d"]},
            "table/1",
            "hand/1",
        ),
        (
            "/v1/banting/legal-plays",
            {"hand": ["3d", "Kc"], "table": ["Kc"]},
            "table/0",
            "hand/1",
        ),
        # Card counts.
        ("/v1/banting/validate", {"hand": [], "play": "pass"}, "hand", "got 0"),
        ("/v1/banting/legal-plays", {"hand": [*DECK, "2c"]}, "hand", "got 53"),
        ("/v1/banting/classify", {"cards": [*DECK, *DECK]}, "cards", "got 104"),
        ("/v1/banting/validate", {"hand": ["3d"], "play": "pass", "table": []}, "table", "got 0"),
        (
            "/v1/banting/legal-plays",
            {"hand": ["3d"], "table": ["4c", "5c", "6c", "7c", "8c", "9c"]},
            "table",
            "got 6",
        ),
        # A table that is no combo.
        (
            "/v1/banting/validate",
            {"hand": ["3d"], "play": "pass", "table": ["Kc", "Kd", "Kh", "Ks"]},
            "table",
            "combo",
        ),
        ("/v1/banting/legal-plays", {"hand": ["3d"], "table": ["Kc", "4d"]}, "table", "combo"),
        (
            "/v1/banting/legal-plays",
            {
                "hand": ["3d"],
                "table": ["3h", "7h", "9h", "Jh", "Kh"],
                "rules": {"preset": "taiwan"},
            },
            "table",
            "combo",
        ),
        # Scores.
        ("/v1/banting/score", {"cards_left": [1, 5]}, "cards_left", "0 cards"),
        ("/v1/banting/score", {"cards_left": [0, 0, 5]}, "cards_left", "0 cards"),
    ],
)
def test_card_errors_are_422_naming_the_field(
    api_client: FlaskClient, route: str, body: dict[str, Any], field: str, needle: str
) -> None:
    errors = field_errors(api_client.post(route, json=body))
    assert list(errors) == [field]
    assert needle in errors[field]


def test_hand_and_table_overlap_message(api_client: FlaskClient) -> None:
    body = {"hand": ["9c", "9d", "3s"], "play": ["9c", "9d"], "table": ["Kc", "9♦"]}
    errors = field_errors(api_client.post("/v1/banting/validate", json=body))
    assert errors == {"table/1": "9d is both on the table and in the hand (at hand/1)."}


def test_every_bad_field_is_listed(api_client: FlaskClient) -> None:
    body = {
        "hand": ["3d", "3d", "Xx"],
        "play": ["Yy"],
        "table": ["Kc", "Kc"],
        "rules": {"preset": "nope"},
    }
    errors = field_errors(api_client.post("/v1/banting/validate", json=body))
    assert sorted(errors) == ["hand/1", "hand/2", "play/0", "rules/preset", "table/1"]


# --- errors: rules ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "field", "needle"),
    [
        ({"preset": "hongkong"}, "rules/preset", "unknown preset 'hongkong'"),
        ({"preset": 3}, "rules/preset", "preset must be a string"),
        ({"preset": None}, "rules/preset", "preset must be a string"),
        ({"foo": 1}, "rules/foo", "unknown setting 'foo'"),
        ({"preset": "taiwan", "Triples": True}, "rules/Triples", "unknown setting"),
        ({"a/b": 1}, "rules/a~1b", "unknown setting"),
        ({"suit_order": "dchx"}, "rules/suit_order", "suit_order must be"),
        ({"suit_order": 4}, "rules/suit_order", "suit_order must be"),
        ({"straights": "two-higher"}, "rules/straights", "unknown order"),
        ({"straights": ["34567", "3456"]}, "rules/straights", "'3456'"),
        ({"straights": {"x": 1}}, "rules/straights", "straights"),
        ({"straight_tiebreak": "lowest"}, "rules/straight_tiebreak", "must be one of"),
        ({"flush_compare": ["none"]}, "rules/flush_compare", "must be one of"),
        ({"bombs": True}, "rules/bombs", "must be one of"),
        ({"first_lead": "anyone"}, "rules/first_lead", "must be one of"),
        ({"ending": None}, "rules/ending", "must be one of"),
        ({"triples": "yes"}, "rules/triples", "true or false"),
        ({"pass_locks": 1}, "rules/pass_locks", "true or false"),
        ({"dragon": {}}, "rules/dragon", "true or false"),
        ({"scoring": []}, "rules/scoring", "non-empty"),
        ({"scoring": [[1]]}, "rules/scoring", "[threshold, multiplier]"),
        ({"scoring": [[0, 1]]}, "rules/scoring", "out of range"),
        ({"scoring": [[5, 1], [2, 2]]}, "rules/scoring", "increasing"),
        ({"scoring": [[1, 1.5]]}, "rules/scoring", "integers"),
    ],
)
@pytest.mark.parametrize("route", POST_ROUTES)
def test_rule_errors_are_422_naming_the_setting(
    api_client: FlaskClient, route: str, rules: dict[str, Any], field: str, needle: str
) -> None:
    body = {**VALID_BODIES[route], "rules": rules}
    errors = field_errors(api_client.post(route, json=body))
    assert list(errors) == [field]
    assert needle in errors[field]


@pytest.mark.parametrize("rules", ["taiwan", ["taiwan"], 1, True])
def test_rules_must_be_an_object(api_client: FlaskClient, rules: Any) -> None:
    body = {**VALID_BODIES["/v1/banting/classify"], "rules": rules}
    assert list(field_errors(api_client.post("/v1/banting/classify", json=body))) == ["rules"]


@pytest.mark.parametrize("route", POST_ROUTES)
def test_rules_may_be_null_or_empty(api_client: FlaskClient, route: str) -> None:
    for rules in (None, {}, {"preset": "capsa-banting"}):
        post(api_client, route, {**VALID_BODIES[route], "rules": rules})


# --- errors: types and unknown fields -----------------------------------------------------


@pytest.mark.parametrize(
    ("route", "body", "fields"),
    [
        ("/v1/banting/classify", {}, ["cards"]),
        ("/v1/banting/classify", {"cards": "9c 9d"}, ["cards"]),
        ("/v1/banting/classify", {"cards": [9.5, "9d"]}, ["cards/0"]),
        ("/v1/banting/classify", {"cards": ["9c"], "rule": {}}, ["rule"]),
        ("/v1/banting/compare", {"a": ["9c"]}, ["b"]),
        ("/v1/banting/compare", {"a": None, "b": ["9c"]}, ["a"]),
        ("/v1/banting/validate", {"hand": ["3d"]}, ["play"]),
        ("/v1/banting/validate", {"hand": "3d", "play": "pass"}, ["hand"]),
        ("/v1/banting/validate", {"hand": ["3d"], "play": "Pass"}, ["play"]),
        ("/v1/banting/validate", {"hand": ["3d"], "play": "3d"}, ["play"]),
        ("/v1/banting/validate", {"hand": ["3d"], "play": 3}, ["play"]),
        ("/v1/banting/validate", {"hand": ["3d"], "play": ["3d", None]}, ["play/1"]),
        ("/v1/banting/validate", {"hand": ["3d"], "play": "pass", "table": "Kc"}, ["table"]),
        (
            "/v1/banting/validate",
            {"hand": ["3d"], "play": ["3d"], "first_play": "yes"},
            ["first_play"],
        ),
        ("/v1/banting/validate", {"hand": ["3d"], "play": ["3d"], "first_play": 1}, ["first_play"]),
        ("/v1/banting/validate", {"hand": ["3d"], "play": ["3d"], "passed": None}, ["passed"]),
        ("/v1/banting/validate", {"hand": ["3d"], "play": ["3d"], "lang": "id"}, ["lang"]),
        ("/v1/banting/legal-plays", {"hand": ["3d"], "limit": 0}, ["limit"]),
        ("/v1/banting/legal-plays", {"hand": ["3d"], "limit": 20_001}, ["limit"]),
        ("/v1/banting/legal-plays", {"hand": ["3d"], "limit": "5"}, ["limit"]),
        ("/v1/banting/legal-plays", {"hand": ["3d"], "limit": 5.5}, ["limit"]),
        ("/v1/banting/legal-plays", {"hand": ["3d"], "passed": "yes"}, ["passed"]),
        ("/v1/banting/score", {"cards_left": [0]}, ["cards_left"]),
        ("/v1/banting/score", {"cards_left": [0, 1, 2, 3, 4]}, ["cards_left"]),
        ("/v1/banting/score", {"cards_left": [0, 14]}, ["cards_left/1"]),
        ("/v1/banting/score", {"cards_left": [0, -1]}, ["cards_left/1"]),
        ("/v1/banting/score", {"cards_left": [0, True]}, ["cards_left/1"]),
        ("/v1/banting/score", {"cards_left": [0, "5"]}, ["cards_left/1"]),
        ("/v1/banting/score", {"cards_left": [0, 5.5]}, ["cards_left/1"]),
        ("/v1/banting/score", [0, 5], [""]),
    ],
)
def test_wrong_types_and_fields_are_422(
    api_client: FlaskClient, route: str, body: Any, fields: list[str]
) -> None:
    errors = field_errors(api_client.post(route, json=body))
    assert sorted(errors) == sorted(fields)


def test_play_type_error_says_what_is_expected(api_client: FlaskClient) -> None:
    body = {"hand": ["3d"], "play": "PASS"}
    errors = field_errors(api_client.post("/v1/banting/validate", json=body))
    assert "'pass'" in errors["play"]


# --- errors: 400 / 415 --------------------------------------------------------------------


@pytest.mark.parametrize("route", POST_ROUTES)
@pytest.mark.parametrize("body", ['{"hand": [', "", "not json"])
def test_unreadable_json_is_400(api_client: FlaskClient, route: str, body: str) -> None:
    response = api_client.post(route, data=body, content_type="application/json")
    assert "JSON" in assert_problem(response, 400)["detail"]


@pytest.mark.parametrize("route", POST_ROUTES)
def test_body_that_is_not_json_is_415(api_client: FlaskClient, route: str) -> None:
    response = api_client.post(
        route, data=json.dumps(VALID_BODIES[route]), content_type="text/plain"
    )
    assert_problem(response, 415)


json_values = json_bodies(
    [
        "cards",
        "a",
        "b",
        "hand",
        "play",
        "table",
        "first_play",
        "passed",
        "rules",
        "limit",
        "cards_left",
        "preset",
        "suit_order",
        "straights",
        "scoring",
        "triples",
    ],
    ["pass", "3d", "9c", "9d", "Kc", "Zz", "taiwan", "dchs", "none"],
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(route=st.sampled_from(POST_ROUTES), body=json_values)
def test_arbitrary_json_never_gives_a_500(route: str, body: Any) -> None:
    client = create_app({"TESTING": True}).test_client()
    response = client.post(route, data=json.dumps(body), content_type="application/json")
    if response.status_code != 200:
        assert_problem(response, 422)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    route=st.sampled_from(POST_ROUTES),
    rules=st.dictionaries(
        st.sampled_from([*banting.PRESETS["capsa-banting"], "preset", "x"]), json_values, max_size=3
    ),
)
def test_arbitrary_rules_never_give_a_500(route: str, rules: dict[str, Any]) -> None:
    client = create_app({"TESTING": True}).test_client()
    body = {**VALID_BODIES[route], "rules": rules}
    response = client.post(route, json=body)
    if response.status_code != 200:
        errors = field_errors(response)
        assert all(field.startswith("rules") for field in errors), errors


# --- /openapi.json ------------------------------------------------------------------------


def test_openapi_documents_the_banting_routes(api_client: FlaskClient) -> None:
    document = api_client.get("/openapi.json").get_json()
    banting_paths = {
        (path, method)
        for path, operations in document["paths"].items()
        # The game sessions have their own tag and tests (test_api_games.py).
        if path.startswith("/v1/banting") and not path.startswith("/v1/banting/games")
        for method in operations
    }
    assert banting_paths == {
        *((route, "post") for route in POST_ROUTES),
        ("/v1/banting/rules/presets", "get"),
    }
    assert {"name": "banting"} in document["tags"]
    for path, method in banting_paths:
        operation = document["paths"][path][method]
        assert operation["tags"] == ["banting"]
        assert operation["summary"] and operation["description"]
    for ref in all_refs(document):
        resolve_ref(document, ref)  # raises KeyError if dangling

    schemas = document["components"]["schemas"]
    rules = schemas["BantingRules"]
    assert rules["type"] == "object"
    assert resolve_ref(document, rules["properties"]["preset"]["$ref"])["enum"] == list(
        banting.PRESETS
    )
    assert set(banting.PRESETS["capsa-banting"]) < set(rules["properties"])
    validate_request = schemas["ValidateRequest"]["properties"]
    assert {"const": "pass", "type": "string"} in validate_request["play"]["anyOf"]
    assert schemas["LegalPlaysRequest"]["properties"]["limit"]["maximum"] == 20_000
    codes = schemas["ValidateResponse"]["properties"]["code"]["anyOf"][0]["$ref"]
    assert resolve_ref(document, codes)["enum"] == list(banting.CODES)


def test_all_presets_route_lists_banting_presets(api_client) -> None:
    response = api_client.get("/v1/rules/presets")
    assert response.status_code == 200
    body = response.get_json()
    assert body["banting"]["default"] == "capsa-banting"
    assert set(body["banting"]["presets"]) == {
        "capsa-banting",
        "capsa-klasik",
        "hong-kong",
        "taiwan",
        "pagat",
    }
    assert body["banting"]["presets"]["taiwan"]["suit_order"] == "cdhs"


def test_classify_reason_follows_accept_language(api_client) -> None:
    body = {"cards": ["3d", "3c", "4h", "4s", "9d"]}
    en = api_client.post("/v1/banting/classify", json=body).get_json()
    id_ = api_client.post(
        "/v1/banting/classify", json=body, headers={"Accept-Language": "id-ID,id;q=0.9"}
    ).get_json()
    assert en["reason"]["code"] == id_["reason"]["code"] == "NOT_A_COMBO"
    assert "is not a combo" in en["reason"]["message"]
    assert id_["reason"]["message"] == "Kartu ini tidak membentuk kombinasi"  # seed 003


def test_legal_plays_after_passing_under_pass_locks(api_client: FlaskClient) -> None:
    body = {
        "hand": ["3d", "9s", "9h", "Ks", "Kd"],
        "table": ["Qs", "Qh"],
        "passed": True,
        "rules": {"preset": "capsa-banting", "pass_locks": True},
    }
    assert post(api_client, "/v1/banting/legal-plays", body) == {"count": 0, "plays": []}
    body["rules"] = {"preset": "capsa-banting"}
    assert post(api_client, "/v1/banting/legal-plays", body)["count"] == 1
