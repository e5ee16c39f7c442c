"""Capsa Banting (Big Two) routes: classify, compare, validate, legal plays, score, presets."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from capsa_fast import banting, format_cards

from api.banting.schemas import (
    DECK_SIZE,
    MAX_COMBO_SIZE,
    PASS,
    BantingCombo,
    BantingSettings,
    ClassifyRequest,
    ClassifyResponse,
    ComboReason,
    ComboReasonCode,
    CompareRequest,
    CompareResponse,
    Comparison,
    LegalPlaysRequest,
    LegalPlaysResponse,
    PresetsResponse,
    ScoreLine,
    ScoreRequest,
    ScoreResponse,
    ValidateRequest,
    ValidateResponse,
)
from api.server.cards import canonical, card_ids
from api.server.common import engine, read_rules, refuse
from api.server.errors import FieldErrors
from api.server.language import message_language
from api.server.routing import ModelBlueprint

bp = ModelBlueprint("banting", __name__, url_prefix="/v1/banting", tag="banting")


# --- input helpers ------------------------------------------------------------------------


def _cards(
    tokens: Sequence[str | int],
    field: str,
    errors: FieldErrors,
    *,
    lo: int,
    hi: int,
    seen: dict[int, str] | None = None,
) -> list[int]:
    """Ids of ``tokens`` (``lo``..``hi`` of them), problems reported as ``field[/index]``."""
    if not lo <= len(tokens) <= hi:
        errors.add(field, f"Expected {lo} to {hi} cards, got {len(tokens)}.")
        if len(tokens) > hi:
            return []  # do not scan an oversized list card by card
    return card_ids(tokens, field, errors, seen=seen)


def _hand_and_table(
    body: ValidateRequest | LegalPlaysRequest, errors: FieldErrors
) -> tuple[list[int], list[int] | None]:
    """The hand and the table (None when leading); no card may be in both."""
    hand_paths: dict[int, str] = {}
    hand = _cards(body.hand, "hand", errors, lo=1, hi=DECK_SIZE, seen=hand_paths)
    if body.table is None:
        return hand, None
    table_paths: dict[int, str] = {}
    table = _cards(body.table, "table", errors, lo=1, hi=MAX_COMBO_SIZE, seen=table_paths)
    for card, path in table_paths.items():
        if card in hand_paths:
            errors.add(
                path,
                f"{canonical(card)} is both on the table and in the hand (at {hand_paths[card]}).",
            )
    return hand, table


def _check_twos_demoted(
    twos_demoted: bool, rules: banting.Rules | None, errors: FieldErrors
) -> None:
    """The 2s can only be demoted under rules that demote them (two_demotion)."""
    if twos_demoted and rules is not None and not rules.two_demotion:
        errors.add(
            "twos_demoted",
            "The 2s are only demoted under the two_demotion setting (a four of a kind "
            "demotes them); these rules have two_demotion false.",
        )


def _table_combo(table: list[int] | None, rules: banting.Rules) -> None:
    """422 on ``table`` unless it is a combo under ``rules``."""
    if table is None or banting.classify(table, rules) is not None:
        return
    reason = banting.why_not(table, rules)
    detail = reason[1] if reason else "not a combo"
    raise refuse("table", f"The table must be a combo under these rules: {detail}.")


def _combo(combo: Any, language: str) -> BantingCombo:
    return BantingCombo(
        kind=combo.kind,
        cards=format_cards(list(combo.cards)),
        label=banting.combo_label(combo, language),
    )


# --- routes -------------------------------------------------------------------------------


@bp.json_post(
    "/classify",
    request_model=ClassifyRequest,
    response_model=ClassifyResponse,
    summary="Name the combo some cards form",
    example={"cards": ["3d", "4c", "5h", "6s", "7d"]},
)
def classify(body: ClassifyRequest) -> ClassifyResponse:
    """The combo the cards form under the rules, or null with the reason (NOT_A_COMBO or
    RULE_FORBIDS, e.g. a straight the straight order leaves out). The label and the reason's
    message are in Indonesian when Accept-Language prefers 'id'."""
    errors = FieldErrors()
    cards = _cards(body.cards, "cards", errors, lo=0, hi=DECK_SIZE)
    rules = read_rules(banting.Rules.from_dict, body.rules, errors)
    _check_twos_demoted(body.twos_demoted, rules, errors)
    errors.raise_if_any()
    assert rules is not None

    language = message_language()
    combo = engine(lambda: banting.classify(cards, rules, twos_demoted=body.twos_demoted), "cards")
    if combo is not None:
        return ClassifyResponse(combo=_combo(combo, language), reason=None)
    reason = engine(lambda: banting.why_not(cards, rules, lang=language), "cards")
    code, message = reason or ("NOT_A_COMBO", "not a combo")
    return ClassifyResponse(
        combo=None, reason=ComboReason(code=cast(ComboReasonCode, code), message=message)
    )


@bp.json_post(
    "/compare",
    request_model=CompareRequest,
    response_model=CompareResponse,
    summary="Compare two combos",
    example={"a": ["9c", "9h"], "b": ["9d", "9s"]},
)
def compare(body: CompareRequest) -> CompareResponse:
    """1 if a beats b, -1 if b beats a, 0 if equal. Cards that are no combo, or combos that
    cannot be compared (different sizes, unless a bomb meets a single, pair or triple under
    'bombs'), are a 422 on the field at fault ('b' when the two are not comparable).
    twos_demoted (under two_demotion) makes the 2s the lowest singles."""
    errors = FieldErrors()
    a = _cards(body.a, "a", errors, lo=0, hi=DECK_SIZE)
    b = _cards(body.b, "b", errors, lo=0, hi=DECK_SIZE)
    rules = read_rules(banting.Rules.from_dict, body.rules, errors)
    _check_twos_demoted(body.twos_demoted, rules, errors)
    errors.raise_if_any()
    assert rules is not None

    for field, cards in (("a", a), ("b", b)):
        reason = banting.why_not(cards, rules)
        if reason is not None:
            errors.add(field, f"{reason[1]}.")
    errors.raise_if_any()
    result = engine(lambda: banting.compare(a, b, rules, twos_demoted=body.twos_demoted), "b")
    return CompareResponse(result=cast(Comparison, result))


@bp.json_post(
    "/validate",
    request_model=ValidateRequest,
    response_model=ValidateResponse,
    summary="Judge one play",
    example={"hand": ["3d", "5c", "5h", "Kd", "2s"], "play": ["5c", "5h"], "table": ["4c", "4s"]},
)
def validate(body: ValidateRequest) -> ValidateResponse:
    """Whether the play (cards, or 'pass') is allowed from the hand against the table.

    Answers 200 either way: a refused play has ok=false, a stable code and a message naming
    the cards and combos (and the combo's label), in Indonesian when Accept-Language prefers
    'id'. Input that cannot
    describe a position (bad or repeated cards, a card both in the hand and on the table, a
    table that is no combo) is a 422.
    """
    errors = FieldErrors()
    hand, table = _hand_and_table(body, errors)
    # The play is drawn from the hand (a card it lacks is the verdict NOT_IN_HAND, not an
    # input error), so it is only checked for bad and repeated cards.
    play: list[int] | str = (
        PASS if body.play == PASS else _cards(body.play, "play", errors, lo=0, hi=DECK_SIZE)
    )
    rules = read_rules(banting.Rules.from_dict, body.rules, errors)
    _check_twos_demoted(body.twos_demoted, rules, errors)
    errors.raise_if_any()
    assert rules is not None
    _table_combo(table, rules)

    language = message_language()
    verdict = engine(
        lambda: banting.validate(
            hand,
            play,
            table,
            rules=rules,
            first_play=body.first_play,
            passed=body.passed,
            lang=language,
            twos_demoted=body.twos_demoted,
        ),
        "play",
    )
    return ValidateResponse(
        ok=verdict.ok,
        combo=None if verdict.combo is None else _combo(verdict.combo, language),
        code=verdict.code,
        message=verdict.message,
    )


@bp.json_post(
    "/legal-plays",
    request_model=LegalPlaysRequest,
    response_model=LegalPlaysResponse,
    summary="List every legal play",
    example={"hand": ["3d", "5c", "5h", "Kd", "2s"], "table": ["4c"], "limit": 10},
)
def legal_plays(body: LegalPlaysRequest) -> LegalPlaysResponse:
    """Every distinct legal play from the hand (passing excluded): leading when there is no
    table, else the plays that beat it. 'count' is the total; 'plays' lists at most 'limit'.
    Labels follow Accept-Language ('id': Indonesian)."""
    errors = FieldErrors()
    hand, table = _hand_and_table(body, errors)
    rules = read_rules(banting.Rules.from_dict, body.rules, errors)
    _check_twos_demoted(body.twos_demoted, rules, errors)
    errors.raise_if_any()
    assert rules is not None
    _table_combo(table, rules)
    language = message_language()

    plays = engine(
        lambda: banting.legal_plays(
            hand,
            table,
            rules=rules,
            first_play=body.first_play,
            passed=body.passed,
            twos_demoted=body.twos_demoted,
        ),
        "hand",
    )
    return LegalPlaysResponse(
        count=len(plays), plays=[_combo(combo, language) for combo in plays[: body.limit]]
    )


@bp.json_post(
    "/score",
    request_model=ScoreRequest,
    response_model=ScoreResponse,
    summary="Score a finished round",
    example={"cards_left": [0, 3, 9, 13]},
)
def score(body: ScoreRequest) -> ScoreResponse:
    """Points per player from the cards each holds when the round ends (zero-sum): each loser
    pays cards_left x the tier multiplier of the rules' scoring; the winner (the one player
    with 0 cards) receives the sum."""
    errors = FieldErrors()
    rules = read_rules(banting.Rules.from_dict, body.rules, errors)
    errors.raise_if_any()
    assert rules is not None

    lines = engine(lambda: banting.score_lines(body.cards_left, rules), "cards_left")
    return ScoreResponse(
        scores=[line["points"] for line in lines],
        lines=[ScoreLine(**line) for line in lines],
    )


@bp.json_get("/rules/presets", response_model=PresetsResponse, summary="List the rule presets")
def presets() -> PresetsResponse:
    """Every preset with all its settings, and the default used when 'rules' is omitted."""
    return PresetsResponse(
        presets={name: BantingSettings(**settings) for name, settings in banting.PRESETS.items()},
        default=banting.DEFAULT_PRESET,
    )
