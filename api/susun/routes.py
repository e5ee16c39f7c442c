"""Capsa Susun (13-card Chinese poker) routes: check, arrange, score, presets."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from capsa_fast import format_cards, susun

from api.server.cards import card_ids
from api.server.common import engine, read_rules
from api.server.errors import FieldErrors
from api.server.language import message_language
from api.server.routing import ModelBlueprint
from api.susun.schemas import (
    HAND_SIZE,
    ROW_SIZES,
    OutOfOrder,
    Position,
    SpecialName,
    SusunAlternative,
    SusunArrangeRequest,
    SusunArrangeResponse,
    SusunCheckRequest,
    SusunCheckResponse,
    SusunPair,
    SusunPresetsResponse,
    SusunRow,
    SusunRows,
    SusunScoreRequest,
    SusunScoreResponse,
    SusunSettings,
)

bp = ModelBlueprint("susun", __name__, url_prefix="/v1/susun", tag="susun")


# Longer lists cannot be a row or a hand of one deck; they get a count error but no card scan.
_MAX_SCANNED = 52


# --- input helpers ------------------------------------------------------------------------


def _cards(
    tokens: Sequence[str | int], field: str, size: int, errors: FieldErrors, seen: dict[int, str]
) -> list[int]:
    """Ids of exactly ``size`` cards; bad, repeated (also across ``seen``) cards and a wrong
    count are reported on ``field[/index]``."""
    if len(tokens) > _MAX_SCANNED:
        errors.add(field, f"Expected {size} cards, got {len(tokens)}.")
        return []
    return card_ids(tokens, field, errors, sizes=(size,), seen=seen)


def _rows(top: list[int], middle: list[int], bottom: list[int]) -> SusunRows:
    return SusunRows(
        top=format_cards(top), middle=format_cards(middle), bottom=format_cards(bottom)
    )


def _alternative(arrangement: susun.Arrangement) -> SusunAlternative:
    return SusunAlternative(
        top=format_cards(arrangement.top),
        middle=format_cards(arrangement.middle),
        bottom=format_cards(arrangement.bottom),
        score=arrangement.score,
    )


# --- routes -------------------------------------------------------------------------------


@bp.json_post(
    "/check",
    request_model=SusunCheckRequest,
    response_model=SusunCheckResponse,
    summary="Judge an arrangement: fouls and bonus rows",
    example={
        "top": ["2c", "7d", "Ks"],
        "middle": ["4h", "4s", "9c", "Jd", "Qh"],
        "bottom": ["3s", "5s", "8s", "Ts", "As"],
    },
)
def check(body: SusunCheckRequest) -> SusunCheckResponse:
    """Each row's category, strength and bonus value, whether the arrangement is fouled
    (valid when bottom >= middle >= top under the rules' order) and which adjacent rows are
    out of order, and 'dragon' when the 13 cards hold every rank. Rows must hold 3, 5 and 5
    cards, none repeated anywhere. Each row's name and label follow Accept-Language ('id':
    Indonesian)."""
    errors = FieldErrors()
    seen: dict[int, str] = {}
    rows = {
        position: _cards(getattr(body, position), position, size, errors, seen)
        for position, size in ROW_SIZES.items()
    }
    rules = read_rules(susun.Rules.from_dict, body.rules, errors)
    errors.raise_if_any()
    assert rules is not None
    language = message_language()

    verdict = engine(
        lambda: susun.check(rows["top"], rows["middle"], rows["bottom"], rules, lang=language),
        "",
    )
    return SusunCheckResponse(
        fouled=verdict.fouled,
        out_of_order=[cast(OutOfOrder, pair) for pair in verdict.out_of_order],
        rows=[
            SusunRow(
                position=cast(Position, row.position),
                name=row.name,
                cards=format_cards(row.cards),
                category=row.category,
                strength=row.strength,
                label=row.label,
                bonus=row.bonus,
            )
            for row in verdict.rows
        ],
        bonus=verdict.bonus,
        special=cast(SpecialName, verdict.special),
    )


@bp.json_post(
    "/arrange",
    request_model=SusunArrangeRequest,
    response_model=SusunArrangeResponse,
    summary="Arrange 13 cards into three rows",
    example={
        "hand": ["2c", "7d", "Ks", "4h", "4s", "9c", "Jd", "Qh", "3s", "5s", "8s", "Ts", "As"],
        "strategy": "ev",
        "top_k": 2,
    },
)
def arrange(body: SusunArrangeRequest) -> dict[str, Any]:
    """The best non-fouled arrangement under the strategy, found by walking all 72,072
    splits, with its score, the number of valid splits and 'dragon' when the hand holds
    every rank (it is still arranged). With top_k, 'alternatives' lists the k best."""
    errors = FieldErrors()
    hand = _cards(body.hand, "hand", HAND_SIZE, errors, {})
    rules = read_rules(susun.Rules.from_dict, body.rules, errors)
    errors.raise_if_any()
    assert rules is not None

    found = engine(
        lambda: susun.arrange(hand, rules, body.strategy, body.top_k, players=body.players),
        "hand",
    )
    ranked = found if isinstance(found, list) else [found]
    best = ranked[0]
    response = SusunArrangeResponse(
        **_alternative(best).model_dump(),
        valid_arrangements=best.valid_arrangements,
        special=cast(SpecialName, best.special),
        strategy=body.strategy,
    )
    if body.top_k is not None:
        response.alternatives = [_alternative(arrangement) for arrangement in ranked]
    # 'alternatives' is left out, not null, unless top_k was sent.
    return response.model_dump(mode="json", exclude_unset=True)


@bp.json_post(
    "/score",
    request_model=SusunScoreRequest,
    response_model=SusunScoreResponse,
    summary="Score a table of 2-4 players",
    example={
        "players": [
            {
                "top": ["2c", "7d", "Ks"],
                "middle": ["4h", "4s", "9c", "Jd", "Qh"],
                "bottom": ["3s", "5s", "8s", "Ts", "As"],
            },
            {
                "top": ["Ac", "Ad", "3d"],
                "middle": ["2d", "4d", "5d", "9d", "Td"],
                "bottom": ["6c", "7c", "8c", "Jc", "Tc"],
            },
        ]
    },
)
def score(body: SusunScoreRequest) -> SusunScoreResponse:
    """Net points per player (zero-sum) under the rules' scoring: rows won, bonus rows,
    sweeps and supers, fouls and dragons; money = points x stake and the room fee on each
    positive net. Each player sends the rows 'top', 'middle', 'bottom' or a 13-card 'hand',
    which is arranged with the 'ev' strategy (shown in 'arrangements')."""
    errors = FieldErrors()
    seen: dict[int, str] = {}
    players: list[dict[str, Any]] = []
    for index, player in enumerate(body.players):
        path = f"players/{index}"
        sent = player.model_fields_set
        given = [position for position in ROW_SIZES if position in sent]
        if "hand" in sent:
            if given:
                errors.add(
                    path, "Give either 'hand' or the rows 'top', 'middle', 'bottom', not both."
                )
                continue
            entry: dict[str, Any] = {
                "hand": _cards(player.hand, f"{path}/hand", HAND_SIZE, errors, seen)
            }
            if player.special is not None:
                entry["special"] = player.special
            players.append(entry)
            continue
        if not given:
            errors.add(path, "Give either 'hand' or the rows 'top', 'middle', 'bottom'.")
            continue
        for position in ROW_SIZES:
            if position not in given:
                errors.add(f"{path}/{position}", "Field required (or send 'hand' instead).")
        rows: dict[str, Any] = {
            position: _cards(getattr(player, position), f"{path}/{position}", size, errors, seen)
            for position, size in ROW_SIZES.items()
            if position in given
        }
        if player.special is not None:
            rows["special"] = player.special
        players.append(rows)
    rules = read_rules(susun.Rules.from_dict, body.rules, errors)
    errors.raise_if_any()
    assert rules is not None

    table = engine(lambda: susun.score(players, rules, body.stake), "players")
    return SusunScoreResponse(
        points=table.points,
        money=table.money,
        fee=table.fee,
        fee_total=table.fee_total,
        pairs=[SusunPair(**pair) for pair in table.pairs],
        arrangements=[
            None if found is None else _rows(found.top, found.middle, found.bottom)
            for found in table.arrangements
        ],
    )


@bp.json_get("/rules/presets", response_model=SusunPresetsResponse, summary="List the rule presets")
def presets() -> SusunPresetsResponse:
    """Every preset with all its settings, and the default used when 'rules' is omitted."""
    return SusunPresetsResponse(
        presets={name: SusunSettings(**settings) for name, settings in susun.PRESETS.items()},
        default=susun.DEFAULT_PRESET,
    )
