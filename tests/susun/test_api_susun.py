"""HTTP API tests of the Capsa Susun routes (spec: API.md section 2, RULES.md section 4)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from capsa_fast import format_cards, susun
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api import create_app
from tests.api.helpers import all_refs, assert_problem, field_errors, json_bodies, post, resolve_ref

DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]
POST_ROUTES = ["/v1/susun/check", "/v1/susun/arrange", "/v1/susun/score"]

# Valid, with a straight flush bottom (a bonus row worth 9 by default).
STRAIGHT_FLUSH_BOTTOM = {
    "top": ["2c", "3d", "4h"],
    "middle": ["9c", "9d", "Kh", "Ks", "2d"],
    "bottom": ["5s", "6s", "7s", "8s", "9s"],
}
# Beats the arrangement above on top (AA) and middle (a full house: bonus 3); loses the
# bottom (four queens, a bonus row of 7, lose to the straight flush, which scores its 9).
QUADS_BOTTOM = {
    "top": ["Ac", "Ad", "4c"],
    "middle": ["Tc", "Td", "Th", "Jc", "Jd"],
    "bottom": ["Qs", "Qh", "Qd", "Qc", "5c"],
}
# Fouled: a full house in the middle over a flush at the bottom.
FOULED = {
    "top": ["Ah", "As", "4h"],
    "middle": ["9c", "9d", "9h", "Ks", "Kd"],
    "bottom": ["5s", "6s", "7s", "8s", "Ts"],
}
DRAGON = ["2c", "3d", "4h", "5s", "6c", "7d", "8h", "9s", "Tc", "Jd", "Qh", "Ks", "Ac"]
# Shares no card with DRAGON.
DRAGON_OPPONENT = {
    "top": ["Ah", "Ad", "4c"],
    "middle": ["Td", "Th", "Jc", "Jh", "5c"],
    "bottom": ["Qs", "Qd", "Qc", "Kc", "Kd"],
}
HAND = ["2c", "5d", "7h", "9s", "Tc", "Jd", "Qh", "Ks", "Ac", "Ad", "3h", "3s", "8c"]

# RULES.md 4.2 worked example: bottoms A full house, B flush, C straight, D pair of aces.
# Every row is ordered the same way (A > B > C > D), so A sweeps the whole table.
WORKED_EXAMPLE = [
    {
        "top": ["Qd", "Qh", "As"],
        "middle": ["8d", "9d", "Ts", "Js", "Qc"],
        "bottom": ["Kc", "Kd", "Kh", "2c", "2d"],
    },
    {
        "top": ["Jc", "Jd", "2s"],
        "middle": ["8c", "8h", "8s", "3h", "4h"],
        "bottom": ["2h", "5h", "7h", "9h", "Jh"],
    },
    {
        "top": ["Tc", "Td", "3s"],
        "middle": ["6c", "6s", "7d", "7s", "4s"],
        "bottom": ["3c", "4d", "5c", "6d", "7c"],
    },
    {
        "top": ["3d", "5s", "Ah"],
        "middle": ["9c", "9s", "6h", "5d", "4c"],
        "bottom": ["Ac", "Ad", "Ks", "Qs", "Th"],
    },
]

VALID_BODIES: dict[str, dict[str, Any]] = {
    "/v1/susun/check": dict(STRAIGHT_FLUSH_BOTTOM),
    "/v1/susun/arrange": {"hand": HAND, "strategy": "naive"},
    "/v1/susun/score": {"players": [STRAIGHT_FLUSH_BOTTOM, QUADS_BOTTOM]},
}


# --- /v1/susun/check ----------------------------------------------------------------------


def test_check_straight_flush_bottom_is_a_bonus_row(api_client: FlaskClient) -> None:
    result = post(api_client, "/v1/susun/check", STRAIGHT_FLUSH_BOTTOM)
    assert result == {
        "fouled": False,
        "out_of_order": [],
        "rows": [
            {
                "position": "top",
                "name": "Top",
                "cards": ["2c", "3d", "4h"],
                "category": "high_card",
                "strength": result["rows"][0]["strength"],
                "label": "High card, four high",
                "bonus": 0,
            },
            {
                "position": "middle",
                "name": "Middle",
                "cards": ["9c", "9d", "Kh", "Ks", "2d"],
                "category": "two_pair",
                "strength": result["rows"][1]["strength"],
                "label": "Two pair, kings and nines",
                "bonus": 0,
            },
            {
                "position": "bottom",
                "name": "Bottom",
                "cards": ["5s", "6s", "7s", "8s", "9s"],
                "category": "straight_flush",
                "strength": result["rows"][2]["strength"],
                "label": "Straight flush, nine high",
                "bonus": 9,
            },
        ],
        "bonus": {"bottom": 9},
        "special": None,
    }
    strengths = [row["strength"] for row in result["rows"]]
    assert strengths == [
        susun.row_key(STRAIGHT_FLUSH_BOTTOM[p]) for p in ("top", "middle", "bottom")
    ]
    assert strengths == sorted(strengths)


def test_check_fouled_arrangement(api_client: FlaskClient) -> None:
    result = post(api_client, "/v1/susun/check", FOULED)
    assert result["fouled"] is True
    assert result["out_of_order"] == ["middle>bottom"]
    assert [row["category"] for row in result["rows"]] == ["pair", "full_house", "flush"]
    assert result["bonus"] == {"middle": 3}  # the full house is still a bonus row in the middle
    assert result["special"] is None


def test_check_top_over_middle(api_client: FlaskClient) -> None:
    body = {
        "top": ["Ac", "Ad", "Ah"],
        "middle": ["2c", "3d", "5h", "7s", "9c"],
        "bottom": ["Kc", "Kd", "Kh", "Ks", "4c"],
    }
    result = post(api_client, "/v1/susun/check", body)
    assert result["fouled"] is True
    assert result["out_of_order"] == ["top>middle"]
    # Trips on top (5) and four of a kind at the bottom (7) are bonus rows even when fouled.
    assert result["bonus"] == {"top": 5, "bottom": 7}


def test_check_suit_tiebreak_decides_equal_rows(api_client: FlaskClient) -> None:
    # Middle and bottom are the same straight; only the suit of the top card differs.
    body = {
        "top": ["2c", "3d", "4h"],
        "middle": ["5c", "6d", "7h", "8s", "9s"],
        "bottom": ["5d", "6c", "7c", "8c", "9d"],
    }
    with_suits = post(api_client, "/v1/susun/check", body)
    assert with_suits["fouled"] is True  # 9s over 9d
    assert with_suits["out_of_order"] == ["middle>bottom"]
    plain = post(api_client, "/v1/susun/check", {**body, "rules": {"preset": "classic"}})
    assert plain["fouled"] is False
    assert plain["rows"][1]["strength"] == plain["rows"][2]["strength"]


def test_check_kicker_never_decides(api_client: FlaskClient) -> None:
    # RULES.md 4.1, seed 001 ("kartu kicker hanya sebagai kartu pelengkap"): two pairs of
    # aces; the bottom's ace of spades beats the middle's kings and queens
    body = {
        "top": ["2c", "3d", "5h"],
        "middle": ["Ah", "Ac", "Kd", "Qd", "Js"],
        "bottom": ["As", "Ad", "2s", "3s", "4h"],
    }
    assert post(api_client, "/v1/susun/check", body)["fouled"] is False
    plain = post(api_client, "/v1/susun/check", {**body, "rules": {"preset": "classic"}})
    assert plain["out_of_order"] == ["middle>bottom"]


def test_check_answers_canonical_cards(api_client: FlaskClient) -> None:
    body = {
        "top": ["2♣", "3D", "4h"],
        "middle": ["9c", "9d", "kh", "K♠", "2d"],
        "bottom": ["5s", "6s", "7s", "8s", "9s"],
    }
    result = post(api_client, "/v1/susun/check", body)
    assert result == post(api_client, "/v1/susun/check", STRAIGHT_FLUSH_BOTTOM)


def test_check_dragon(api_client: FlaskClient) -> None:
    body = {"top": DRAGON[:3], "middle": DRAGON[3:8], "bottom": DRAGON[8:]}
    assert post(api_client, "/v1/susun/check", body)["special"] == "dragon"
    # With dragon_points 0 a dragon is arranged as usual: not special.
    two_four = post(api_client, "/v1/susun/check", {**body, "rules": {"preset": "two-four"}})
    assert two_four["special"] is None


def test_check_bonus_rows_follow_the_rules(api_client: FlaskClient) -> None:
    classic = post(
        api_client, "/v1/susun/check", {**STRAIGHT_FLUSH_BOTTOM, "rules": {"preset": "classic"}}
    )
    assert classic["bonus"] == {}
    assert classic["rows"][2]["bonus"] == 0
    custom = post(
        api_client,
        "/v1/susun/check",
        {
            **STRAIGHT_FLUSH_BOTTOM,
            "rules": {"bonus_rows": {"middle": {"two_pair": 2}, "bottom": {"straight_flush": 4}}},
        },
    )
    assert custom["bonus"] == {"middle": 2, "bottom": 4}


# --- /v1/susun/arrange --------------------------------------------------------------------


def test_arrange_percentile(api_client: FlaskClient) -> None:
    result = post(api_client, "/v1/susun/arrange", {"hand": HAND, "strategy": "percentile"})
    rows = result["top"] + result["middle"] + result["bottom"]
    assert (len(result["top"]), len(result["middle"]), len(result["bottom"])) == (3, 5, 5)
    assert len(set(rows)) == 13
    assert set(rows) == set(HAND)
    assert result["valid_arrangements"] == susun.count_valid(HAND) == 18_902
    assert result["strategy"] == "percentile"
    assert result["special"] is None
    assert "alternatives" not in result
    expected = susun.arrange(HAND, strategy="percentile")
    assert result["score"] == pytest.approx(expected.score, abs=0)
    # The chosen rows are not fouled.
    arranged = {key: result[key] for key in ("top", "middle", "bottom")}
    assert post(api_client, "/v1/susun/check", arranged)["fouled"] is False


@pytest.mark.parametrize("strategy", ["ev", "percentile", "naive"])
@pytest.mark.parametrize("preset", list(susun.PRESETS))
def test_arrange_agrees_with_the_package(
    api_client: FlaskClient, strategy: str, preset: str
) -> None:
    body = {"hand": HAND, "strategy": strategy, "rules": {"preset": preset}}
    result = post(api_client, "/v1/susun/arrange", body)
    expected = susun.arrange(HAND, preset, strategy)
    assert isinstance(expected, susun.Arrangement)
    assert result["score"] == expected.score
    assert result["valid_arrangements"] == expected.valid_arrangements
    for position in ("top", "middle", "bottom"):
        assert result[position] == format_cards(getattr(expected, position))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_arrange_for_a_table_size(api_client: FlaskClient, players: int) -> None:
    """ev's model is per table size: 'players' picks it (4 by default, as before)."""
    body = {"hand": HAND, "rules": {"preset": "two-four"}, "players": players, "top_k": 5}
    result = post(api_client, "/v1/susun/arrange", body)
    expected = susun.arrange(HAND, "two-four", "ev", 5, players=players)
    assert isinstance(expected, list)
    assert [a["score"] for a in result["alternatives"]] == [a.score for a in expected]
    bad = api_client.post("/v1/susun/arrange", json={"hand": HAND, "players": 5})
    assert bad.status_code == 422 and bad.get_json()["errors"][0]["field"] == "players"


def test_arrange_default_strategy_is_ev(api_client: FlaskClient) -> None:
    result = post(api_client, "/v1/susun/arrange", {"hand": HAND})
    assert result["strategy"] == "ev"
    assert set(result) == {
        "top",
        "middle",
        "bottom",
        "score",
        "valid_arrangements",
        "special",
        "strategy",
    }


def test_arrange_top_k(api_client: FlaskClient) -> None:
    body = {"hand": HAND, "strategy": "percentile", "top_k": 3}
    result = post(api_client, "/v1/susun/arrange", body)
    alternatives = result["alternatives"]
    assert len(alternatives) == 3
    assert alternatives[0] == {key: result[key] for key in ("top", "middle", "bottom", "score")}
    scores = [alt["score"] for alt in alternatives]
    assert scores == sorted(scores, reverse=True)
    splits = {tuple(sorted(alt["top"])) + tuple(sorted(alt["middle"])) for alt in alternatives}
    assert len(splits) == 3  # three different arrangements
    for alt in alternatives:
        assert sorted(alt["top"] + alt["middle"] + alt["bottom"]) == sorted(HAND)
    one = post(api_client, "/v1/susun/arrange", {**body, "top_k": 1})
    assert one["alternatives"] == alternatives[:1]


def test_arrange_dragon(api_client: FlaskClient) -> None:
    result = post(api_client, "/v1/susun/arrange", {"hand": DRAGON})
    assert result["special"] == "dragon"
    assert sorted(result["top"] + result["middle"] + result["bottom"]) == sorted(DRAGON)
    plain = post(api_client, "/v1/susun/arrange", {"hand": DRAGON, "rules": {"preset": "classic"}})
    assert plain["special"] is None


# --- /v1/susun/score ----------------------------------------------------------------------


def test_score_two_players_exact(api_client: FlaskClient) -> None:
    body = {"players": [STRAIGHT_FLUSH_BOTTOM, QUADS_BOTTOM], "stake": 100}
    # Player 0 wins the bottom with a straight flush (bonus 9); player 1 wins the top (1) and
    # the middle with a full house (bonus 3): 9 - 4 = 5.
    assert post(api_client, "/v1/susun/score", body) == {
        "points": [5, -5],
        "money": [500, -500],
        "fee": [15, 0],
        "fee_total": 15,
        "pairs": [
            {
                "players": [0, 1],
                "rows": {"top": -1, "middle": -1, "bottom": 1},
                "multiplier": [1, 1],
                "points": [5, -5],
                "fouled": [False, False],
                "dragon": [False, False],
                "special": [None, None],
                "super": [False, False],
            }
        ],
        "arrangements": [None, None],
    }


def test_score_default_stake_is_1(api_client: FlaskClient) -> None:
    result = post(api_client, "/v1/susun/score", {"players": [QUADS_BOTTOM, STRAIGHT_FLUSH_BOTTOM]})
    assert result["points"] == [-5, 5]
    assert result["money"] == [-5, 5]
    assert result["fee"] == [0, pytest.approx(0.15)]


def test_score_fouled_player(api_client: FlaskClient) -> None:
    result = post(api_client, "/v1/susun/score", {"players": [FOULED, QUADS_BOTTOM]})
    # 12 foul points plus the bonus rows of the opponent (full house in the middle 3, four of
    # a kind at the bottom 7).
    assert result["points"] == [-22, 22]
    assert result["pairs"][0]["fouled"] == [True, False]


def test_score_worked_example(api_client: FlaskClient) -> None:
    body = {"players": WORKED_EXAMPLE, "stake": 100}
    result = post(api_client, "/v1/susun/score", body)
    assert sum(result["points"]) == 0
    assert sum(result["money"]) == 0
    # A sweeps every opponent at 4 players: super x4 (12 each); B sweeps C and D (x2: 6 each).
    assert result["points"] == [36, 0, -12, -24]
    assert result["money"] == [3600, 0, -1200, -2400]
    assert result["fee"] == [108, 0, 0, 0]
    assert result["fee_total"] == 108
    assert [pair["players"] for pair in result["pairs"]] == [
        [0, 1],
        [0, 2],
        [0, 3],
        [1, 2],
        [1, 3],
        [2, 3],
    ]
    # The bottom row alone: each head-to-head win is 1 point x 100.
    bottom = [0, 0, 0, 0]
    for pair in result["pairs"]:
        i, j = pair["players"]
        bottom[i] += 100 * pair["rows"]["bottom"]
        bottom[j] -= 100 * pair["rows"]["bottom"]
    assert bottom == [300, 100, -100, -300]
    assert [pair["super"] for pair in result["pairs"][:3]] == [[True, False]] * 3
    assert [pair["multiplier"][0] for pair in result["pairs"]] == [4, 4, 4, 2, 2, 2]

    # Three players: no super, A sweeps at x2.
    three = post(api_client, "/v1/susun/score", {"players": WORKED_EXAMPLE[:3], "stake": 100})
    assert three["points"] == [12, 0, -12]
    # 2-4 scoring: 1 per row, no sweep multiplier, 1 for the majority.
    two_four = post(api_client, "/v1/susun/score", {**body, "rules": {"preset": "two-four"}})
    assert two_four["points"] == [12, 4, -4, -12]
    assert two_four["money"] == [1200, 400, -400, -1200]
    assert two_four["fee_total"] == 0


HEADS_UP_SWEEPER = {
    "top": ["As", "Kd", "9c"],
    "middle": ["Ks", "Kc", "5d", "6d", "8c"],
    "bottom": ["Qs", "Qc", "Qd", "7h", "7d"],
}
HEADS_UP_SWEPT = {
    "top": ["2d", "3c", "4s"],
    "middle": ["5c", "5s", "6c", "8d", "Th"],
    "bottom": ["9d", "9s", "Jc", "Jd", "2h"],
}


@pytest.mark.parametrize(
    ("rules", "points", "multiplier"),
    [
        (None, 12, 4),  # super_players [2, 4]: sweeping the one opponent is a super
        ({"super_players": [4]}, 6, 2),
        ({"super_min_players": 4}, 6, 2),  # the legacy setting, read as super_players [4]
        ({"super_min_players": 2}, 12, 4),
    ],
)
def test_score_heads_up_sweep_is_a_super(
    api_client: FlaskClient, rules: dict[str, Any] | None, points: int, multiplier: int
) -> None:
    body: dict[str, Any] = {"players": [HEADS_UP_SWEEPER, HEADS_UP_SWEPT]}
    if rules is not None:
        body["rules"] = rules
    result = post(api_client, "/v1/susun/score", body)
    assert result["points"] == [points, -points]
    assert result["pairs"][0]["multiplier"] == [multiplier, 1]
    assert result["pairs"][0]["super"] == [multiplier == 4, False]


def test_score_auto_arranges_hands(api_client: FlaskClient) -> None:
    body = {"players": [{"hand": HAND}, STRAIGHT_FLUSH_BOTTOM]}
    body["players"][1] = {
        "top": ["2d", "3d", "4h"],
        "middle": ["9h", "9d", "Kh", "Kc", "2h"],
        "bottom": ["5s", "6s", "7s", "8s", "9c"],
    }
    result = post(api_client, "/v1/susun/score", body)
    arranged = post(api_client, "/v1/susun/arrange", {"hand": HAND})
    assert result["arrangements"] == [
        {key: arranged[key] for key in ("top", "middle", "bottom")},
        None,
    ]
    assert sum(result["points"]) == 0
    # The same table sent as rows scores the same.
    as_rows = post(
        api_client, "/v1/susun/score", {"players": [result["arrangements"][0], body["players"][1]]}
    )
    assert as_rows["points"] == result["points"]
    assert as_rows["arrangements"] == [None, None]


def test_score_dragon(api_client: FlaskClient) -> None:
    body = {"players": [{"hand": DRAGON}, DRAGON_OPPONENT], "stake": 2}
    result = post(api_client, "/v1/susun/score", body)
    assert result["points"] == [208, -208]
    assert result["money"] == [416, -416]
    assert result["pairs"][0]["dragon"] == [True, False]
    # Under 2-4 (no dragons) the dragon hand is arranged and plays its rows.
    plain = post(api_client, "/v1/susun/score", {**body, "rules": {"preset": "two-four"}})
    assert plain["pairs"][0]["dragon"] == [False, False]
    assert abs(plain["points"][0]) < 208


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    deck=st.permutations(DECK),
    players=st.integers(2, 4),
    preset=st.sampled_from(list(susun.PRESETS)),
)
def test_score_random_tables_are_zero_sum(deck: list[str], players: int, preset: str) -> None:
    client = create_app({"TESTING": True}).test_client()
    seats = [{"hand": deck[13 * i : 13 * i + 13]} for i in range(players)]
    body = {"players": seats, "rules": {"preset": preset}, "stake": 10}
    result = post(client, "/v1/susun/score", body)
    assert sum(result["points"]) == 0
    assert sum(result["money"]) == pytest.approx(0)
    assert result["money"] == [10 * p for p in result["points"]]
    assert len(result["pairs"]) == players * (players - 1) // 2


# --- presets ------------------------------------------------------------------------------


def test_presets(api_client: FlaskClient) -> None:
    response = api_client.get("/v1/susun/rules/presets")
    assert response.status_code == 200
    result = response.get_json()
    assert result["default"] == "capsa-susun"
    assert result["presets"] == susun.PRESETS
    assert result["presets"]["two-four"]["majority_bonus"] == 1


def test_all_presets_lists_both_games(api_client: FlaskClient) -> None:
    body = api_client.get("/v1/rules/presets").get_json()
    assert set(body) == {"banting", "susun"}
    assert body["susun"] == api_client.get("/v1/susun/rules/presets").get_json()
    assert body["banting"] == api_client.get("/v1/banting/rules/presets").get_json()


# --- errors: cards, rows, players ---------------------------------------------------------

SF = STRAIGHT_FLUSH_BOTTOM
QB = QUADS_BOTTOM


@pytest.mark.parametrize(
    ("route", "body", "field", "needle"),
    [
        # Bad cards.
        ("/v1/susun/check", {**SF, "middle": ["9c", "9d", "Zz", "Ks", "2d"]}, "middle/2", "Zz"),
        ("/v1/susun/check", {**SF, "top": ["2c", "3d", ""]}, "top/2", "not a card"),
        ("/v1/susun/arrange", {"hand": [*HAND[:12], "1c"]}, "hand/12", "1c"),
        (
            "/v1/susun/score",
            {"players": [SF, {**QB, "middle": ["Tc", "Td", "Tx", "Jc", "Jd"]}]},
            "players/1/middle/2",
            "Tx",
        ),
        (
            "/v1/susun/score",
            {"players": [DRAGON_OPPONENT, {"hand": [*DRAGON[:12], "Kz"]}]},
            "players/1/hand/12",
            "Kz",
        ),
        # Duplicates: within a row, across rows, across players (named at the second one).
        ("/v1/susun/check", {**SF, "top": ["2c", "3d", "2♣"]}, "top/2", "top/0"),
        ("/v1/susun/check", {**SF, "bottom": ["5s", "6s", "7s", "8s", "Ks"]}, "bottom/4", "Ks"),
        ("/v1/susun/arrange", {"hand": [*HAND[:12], "ac"]}, "hand/12", "hand/8"),
        (
            "/v1/susun/score",
            {"players": [SF, {**QB, "top": ["Ac", "Ad", "9s"]}]},
            "players/1/top/2",
            "9s",
        ),
        (
            "/v1/susun/score",
            {"players": [{"hand": DRAGON}, {**DRAGON_OPPONENT, "top": ["Ac", "Ah", "4d"]}]},
            "players/1/top/0",
            "players/0/hand/12",
        ),
        (
            "/v1/susun/score",
            {
                "players": [
                    *WORKED_EXAMPLE[:2],
                    {**WORKED_EXAMPLE[2], "middle": ["8c", *WORKED_EXAMPLE[2]["middle"][1:]]},
                ]
            },
            "players/2/middle/0",
            "players/1/middle/0",
        ),
        # Wrong number of cards.
        ("/v1/susun/check", {**SF, "top": ["2c", "3d"]}, "top", "Expected 3 cards, got 2"),
        ("/v1/susun/check", {**SF, "middle": [*SF["middle"], "Ac"]}, "middle", "got 6"),
        ("/v1/susun/check", {**SF, "bottom": []}, "bottom", "Expected 5 cards, got 0"),
        ("/v1/susun/check", {**SF, "bottom": DECK * 2}, "bottom", "got 104"),
        ("/v1/susun/arrange", {"hand": HAND[:12]}, "hand", "Expected 13 cards, got 12"),
        ("/v1/susun/arrange", {"hand": DECK}, "hand", "got 52"),
        (
            "/v1/susun/score",
            {"players": [SF, {**QB, "top": ["Ac", "Ad", "4c", "4d"]}]},
            "players/1/top",
            "Expected 3 cards, got 4",
        ),
        (
            "/v1/susun/score",
            {"players": [{"hand": DRAGON[:5]}, QB]},
            "players/0/hand",
            "Expected 13 cards, got 5",
        ),
        # Players' shapes.
        (
            "/v1/susun/score",
            {"players": [{**SF, "hand": DRAGON}, QB]},
            "players/0",
            "not both",
        ),
        (
            "/v1/susun/score",
            {"players": [{"hand": DRAGON, "top": SF["top"]}, QB]},
            "players/0",
            "not both",
        ),
        ("/v1/susun/score", {"players": [SF, {}]}, "players/1", "Give either 'hand'"),
        (
            "/v1/susun/score",
            {"players": [SF, {"top": QB["top"], "middle": QB["middle"]}]},
            "players/1/bottom",
            "required",
        ),
        # Table size.
        ("/v1/susun/score", {"players": [SF]}, "players", "at least 2"),
        ("/v1/susun/score", {"players": []}, "players", "at least 2"),
        ("/v1/susun/score", {"players": [{"hand": HAND}] * 5}, "players", "at most 4"),
        # Other fields.
        ("/v1/susun/arrange", {"hand": HAND, "strategy": "best"}, "strategy", "'ev'"),
        ("/v1/susun/arrange", {"hand": HAND, "strategy": "EV"}, "strategy", "'percentile'"),
        ("/v1/susun/arrange", {"hand": HAND, "strategy": None}, "strategy", "'naive'"),
        ("/v1/susun/arrange", {"hand": HAND, "top_k": 0}, "top_k", "greater than or equal to 1"),
        ("/v1/susun/arrange", {"hand": HAND, "top_k": 101}, "top_k", "less than or equal to 100"),
        ("/v1/susun/arrange", {"hand": HAND, "top_k": "3"}, "top_k", "integer"),
        ("/v1/susun/arrange", {"hand": HAND, "top_k": 2.5}, "top_k", "integer"),
        ("/v1/susun/arrange", {"hand": HAND, "top_k": True}, "top_k", "integer"),
        ("/v1/susun/score", {**VALID_BODIES["/v1/susun/score"], "stake": -1}, "stake", "0"),
        ("/v1/susun/score", {**VALID_BODIES["/v1/susun/score"], "stake": "1"}, "stake", "number"),
        ("/v1/susun/score", {**VALID_BODIES["/v1/susun/score"], "stake": True}, "stake", "number"),
        ("/v1/susun/score", {**VALID_BODIES["/v1/susun/score"], "stake": 1e13}, "stake", "less"),
    ],
)
def test_errors_are_422_naming_the_field(
    api_client: FlaskClient, route: str, body: dict[str, Any], field: str, needle: str
) -> None:
    errors = field_errors(api_client.post(route, json=body))
    assert list(errors) == [field]
    assert needle in errors[field]


def test_duplicate_across_players_message(api_client: FlaskClient) -> None:
    body = {"players": [SF, {**QB, "top": ["Ac", "Ad", "9♠"]}]}
    errors = field_errors(api_client.post("/v1/susun/score", json=body))
    assert errors == {"players/1/top/2": "Duplicate card 9s (also at players/0/bottom/4)."}


def test_every_bad_field_is_listed(api_client: FlaskClient) -> None:
    body = {
        "players": [
            {"top": ["2c", "2c", "Xx"], "middle": SF["middle"], "bottom": SF["bottom"][:4]},
            {"hand": DRAGON, "bottom": QB["bottom"]},
            {},
        ],
        "rules": {"preset": "nope"},
    }
    errors = field_errors(api_client.post("/v1/susun/score", json=body))
    assert sorted(errors) == [
        "players/0/bottom",
        "players/0/top/1",
        "players/0/top/2",
        "players/1",
        "players/2",
        "rules/preset",
    ]


@pytest.mark.parametrize(
    ("route", "body", "fields"),
    [
        ("/v1/susun/check", {"top": SF["top"], "middle": SF["middle"]}, ["bottom"]),
        ("/v1/susun/check", {**SF, "top": "2c 3d 4h"}, ["top"]),
        ("/v1/susun/check", {**SF, "top": ["2c", True, "4h"]}, ["top/1"]),
        ("/v1/susun/check", {**SF, "hand": HAND}, ["hand"]),
        ("/v1/susun/arrange", {}, ["hand"]),
        ("/v1/susun/arrange", {"hand": HAND, "top-k": 3}, ["top-k"]),
        ("/v1/susun/score", {"players": [SF, {**QB, "name": "x"}]}, ["players/1/name"]),
        ("/v1/susun/score", {"players": [SF, {**QB, "top": None}]}, ["players/1/top"]),
        ("/v1/susun/score", {"players": [SF, {"hand": None}]}, ["players/1/hand"]),
        ("/v1/susun/score", {"players": [SF, ["2c"]]}, ["players/1"]),
        ("/v1/susun/score", {"players": {"0": SF}}, ["players"]),
        ("/v1/susun/score", [SF, QB], [""]),
    ],
)
def test_wrong_types_and_fields_are_422(
    api_client: FlaskClient, route: str, body: Any, fields: list[str]
) -> None:
    errors = field_errors(api_client.post(route, json=body))
    assert sorted(errors) == sorted(fields)


# --- errors: rules ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "field", "needle"),
    [
        ({"preset": "capsa"}, "rules/preset", "unknown preset 'capsa'"),
        ({"preset": 3}, "rules/preset", "preset must be a string"),
        ({"preset": None}, "rules/preset", "preset must be a string"),
        ({"x": 1}, "rules/x", "unknown setting 'x'"),
        ({"preset": "classic", "Suit_tiebreak": True}, "rules/Suit_tiebreak", "unknown setting"),
        ({"a/b": 1}, "rules/a~1b", "unknown setting"),
        ({"suit_tiebreak": "yes"}, "rules/suit_tiebreak", "true or false"),
        ({"sweep_multiplier": 0}, "rules/sweep_multiplier", "sweep_multiplier must be"),
        ({"sweep_multiplier": 2.5}, "rules/sweep_multiplier", "integer"),
        ({"super_multiplier": -1}, "rules/super_multiplier", "0..100"),
        ({"super_min_players": 5}, "rules/super_min_players", "2..4"),
        ({"super_players": [5]}, "rules/super_players", "2..4"),
        ({"super_players": 4}, "rules/super_players", "list"),
        ({"super_players": [2, 2]}, "rules/super_players", "twice"),
        (
            {"super_players": [4], "super_min_players": 3},
            "rules/super_min_players",
            "does not match super_players",
        ),
        ({"majority_bonus": True}, "rules/majority_bonus", "integer"),
        ({"foul_points": "12"}, "rules/foul_points", "integer"),
        ({"dragon_points": -208}, "rules/dragon_points", "integer"),
        ({"room_fee": 1}, "rules/room_fee", "room_fee must be"),
        ({"room_fee": -0.01}, "rules/room_fee", "fraction"),
        ({"bonus_rows": []}, "rules/bonus_rows", "bonus_rows must be an object"),
        ({"bonus_rows": {"front": {}}}, "rules/bonus_rows/front", "unknown position 'front'"),
        ({"bonus_rows": {"top": 5}}, "rules/bonus_rows/top", "must be an object"),
        (
            {"bonus_rows": {"top": {"full_house": 5}}},
            "rules/bonus_rows/top/full_house",
            "unknown kind 'full_house'",
        ),
        (
            {"bonus_rows": {"middle": {"full_house": -3}}},
            "rules/bonus_rows/middle/full_house",
            "0..10000",
        ),
        (
            {"bonus_rows": {"bottom": {"straight_flush": 9, "straight": "x"}}},
            "rules/bonus_rows/bottom/straight",
            "integer",
        ),
        ({"special_points": 5}, "rules/special_points", "must be an object"),
        ({"special_points": {"six_pairs": -1}}, "rules/special_points/six_pairs", "0..100000"),
        ({"special_points": {"naga": 3}}, "rules/special_points/naga", "unknown special 'naga'"),
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


@pytest.mark.parametrize("setting", ["name", "cls"])
def test_setting_named_like_a_parameter(api_client: FlaskClient, setting: str) -> None:
    body = {**VALID_BODIES["/v1/susun/check"], "rules": {setting: "x"}}
    errors = field_errors(api_client.post("/v1/susun/check", json=body))
    assert list(errors) == [f"rules/{setting}"]
    assert f"unknown setting '{setting}'" in errors[f"rules/{setting}"]


@pytest.mark.parametrize("rules", ["classic", ["classic"], 1, True])
def test_rules_must_be_an_object(api_client: FlaskClient, rules: Any) -> None:
    body = {**VALID_BODIES["/v1/susun/check"], "rules": rules}
    assert list(field_errors(api_client.post("/v1/susun/check", json=body))) == ["rules"]


@pytest.mark.parametrize("route", POST_ROUTES)
def test_rules_may_be_null_or_empty(api_client: FlaskClient, route: str) -> None:
    for rules in (None, {}, {"preset": "capsa-susun"}):
        post(api_client, route, {**VALID_BODIES[route], "rules": rules})


# --- errors: 400 / 415 / never 500 --------------------------------------------------------


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
        "top",
        "middle",
        "bottom",
        "hand",
        "players",
        "rules",
        "strategy",
        "top_k",
        "stake",
        "preset",
        "bonus_rows",
        "room_fee",
    ],
    ["ev", "naive", "2c", "Ac", "Zz", "capsa-susun", "two-four", "top"],
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
        st.sampled_from([*susun.PRESETS["capsa-susun"], "preset", "x"]), json_values, max_size=3
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


def test_openapi_documents_the_susun_routes(api_client: FlaskClient) -> None:
    document = api_client.get("/openapi.json").get_json()
    susun_paths = {
        (path, method)
        for path, operations in document["paths"].items()
        if path.startswith("/v1/susun") and not path.startswith("/v1/susun/games")
        for method in operations
    }
    assert susun_paths == {
        *((route, "post") for route in POST_ROUTES),
        ("/v1/susun/rules/presets", "get"),
    }
    assert {"name": "susun"} in document["tags"]
    for path, method in susun_paths:
        operation = document["paths"][path][method]
        assert operation["tags"] == ["susun"]
        assert operation["summary"] and operation["description"]
        ok = operation["responses"]["200"]["content"]["application/json"]["schema"]
        resolve_ref(document, ok["$ref"])
        if method == "post":
            schema = operation["requestBody"]["content"]["application/json"]["schema"]
            assert resolve_ref(document, schema["$ref"])["additionalProperties"] is False
            assert "422" in operation["responses"]
    for ref in all_refs(document):
        resolve_ref(document, ref)  # raises KeyError if dangling

    schemas = document["components"]["schemas"]
    rules = schemas["SusunRules"]
    assert rules["type"] == "object"
    assert resolve_ref(document, rules["properties"]["preset"]["$ref"])["enum"] == list(
        susun.PRESETS
    )
    assert set(susun.PRESETS["capsa-susun"]) < set(rules["properties"])
    arrange = schemas["SusunArrangeRequest"]["properties"]
    strategy = resolve_ref(document, arrange["strategy"]["$ref"])
    assert strategy["enum"] == ["ev", "percentile", "naive"]
    assert arrange["top_k"]["anyOf"][0]["maximum"] == 100
    score = schemas["SusunScoreRequest"]["properties"]
    assert (score["players"]["minItems"], score["players"]["maxItems"]) == (2, 4)
    player = schemas["SusunPlayerRequest"]
    assert len(player["not"]["anyOf"]) == 4  # hand and rows, part of the rows, or neither
    assert player["properties"]["hand"]["minItems"] == 13
    assert "alternatives" in schemas["SusunArrangeResponse"]["properties"]
    all_presets = resolve_ref(
        document,
        document["paths"]["/v1/rules/presets"]["get"]["responses"]["200"]["content"][
            "application/json"
        ]["schema"]["$ref"],
    )
    assert set(all_presets["properties"]) == {"banting", "susun"}
