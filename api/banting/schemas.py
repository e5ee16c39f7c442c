"""Request and response models of the Capsa Banting (Big Two) routes.

As in ``api.server.schemas``, the models check shape and types only. Cards, card counts and
duplicates are checked by the routes with ``capsa_fast``; ``rules`` is a free-form object
here and is validated by ``banting.Rules.from_dict``, so a new setting or preset in the
package needs no change in the API and every rule error reads the same everywhere.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from capsa_fast import banting
from capsa_fast.banting.rules import BOOLEANS, CHOICES, COMBO_KINDS
from pydantic import (
    Field,
    RootModel,
    ValidatorFunctionWrapHandler,
    WithJsonSchema,
    WrapValidator,
)
from pydantic_core import PydanticCustomError

from api.server.common import rules_json_schema, setting_schema
from api.server.schemas import (
    Card,
    CardText,
    Comparison,
    RequestModel,
    ResponseModel,
    _count_schema,
    value_set,
)

DECK_SIZE = 52
MAX_COMBO_SIZE = 5
DEFAULT_LEGAL_PLAYS_LIMIT = 1000
MAX_LEGAL_PLAYS_LIMIT = 20_000
PASS = "pass"

# The named value sets of the Banting routes (one component each in the document).
STRAIGHT_ORDER = value_set(
    "StraightOrder",
    banting.STRAIGHT_ORDERS,
    "A named order of the straights (RULES.md 3.2): which runs count, low to high.",
)
STRAIGHT_RUN = value_set(
    "StraightRun",
    banting.RUNS,
    "A five-rank run, its ranks low to high (T = ten).",
    varnames=[f"RUN_{run}" for run in banting.RUNS],
)
_CHOICE_DESCRIPTIONS = {
    "straight_tiebreak": "How two straights of the same ranks compare (RULES.md 3.2).",
    "flush_compare": "How two flushes compare (RULES.md 3.2).",
    "bombs": "Which combos beat any combo of another size (RULES.md 3.2).",
    "first_lead": "Who opens a round (RULES.md 3.2).",
    "ending": "When a round ends: once the first player is out, or once one is left.",
    "exchange": "Whether the places of a round exchange cards before the next (RULES.md 3.2).",
}
CHOICE_SETS = {
    key: value_set(
        "".join(word.capitalize() for word in key.split("_")), values, _CHOICE_DESCRIPTIONS[key]
    )
    for key, values in CHOICES.items()
}
COMBO_KIND = value_set("ComboKind", COMBO_KINDS, "The kind of a Banting combo.")
REJECTION_CODE = value_set(
    "RejectionCode",
    banting.CODES,
    "Why a Banting play is refused (stable), in order of precedence.",
)
COMBO_REASON_CODE = value_set(
    "ComboReasonCode",
    ("NOT_A_COMBO", "RULE_FORBIDS"),
    "Why cards are no combo: NOT_A_COMBO, or RULE_FORBIDS for a combo the rules exclude.",
)
BANTING_PRESET = value_set(
    "BantingPreset", banting.PRESETS, "A named Banting rule set (RULES.md 3.2)."
)

# What each setting accepts, as the document states it (RULES.md 3.2). Shared by the request
# object ``rules`` (descriptive only: Rules.from_dict decides) and the presets response.
_SETTING_SCHEMAS: dict[str, dict[str, Any]] = {
    "suit_order": {
        "type": "string",
        "description": "The four suits c, d, h, s from low to high, e.g. 'dchs'.",
        "examples": ["dchs"],
    },
    "straights": {
        "description": (
            "Which five-rank runs are straights and their order, low to high: a named order "
            "or an explicit list of runs such as ['34567', ..., 'A2345']."
        ),
        "anyOf": [
            STRAIGHT_ORDER,
            {"type": "array", "items": STRAIGHT_RUN, "uniqueItems": True},
        ],
    },
    **CHOICE_SETS,
    **{key: {"type": "boolean"} for key in BOOLEANS},
    "scoring": {
        "type": "array",
        "description": (
            "Tiers [threshold, multiplier], thresholds increasing: a loser pays cards_left "
            "x the multiplier of the highest tier whose threshold <= cards_left."
        ),
        "items": {
            "type": "array",
            "prefixItems": [
                {"type": "integer", "minimum": 1, "maximum": 13},
                {"type": "integer", "minimum": 0, "maximum": 1000},
            ],
            # Every item is an integer; no boolean schema (``items: false``), which client
            # generators refuse: maxItems already closes the pair.
            "items": {"type": "integer"},
            "minItems": 2,
            "maxItems": 2,
        },
        "minItems": 1,
    },
}


# Read by Rules.from_dict besides the settings: the name a game view reports for its
# straights, so a view's rules can be sent back as they are.
_ALIASES: dict[str, dict[str, Any]] = {
    "straight_order": {
        "anyOf": [
            value_set(
                "StraightOrderName",
                [*banting.STRAIGHT_ORDERS, "custom"],
                "The name of a game's straights: a named order, or 'custom' for a list of runs.",
            ),
            {"type": "null"},
        ],
        "description": (
            "The name of 'straights' (as a game view reports it): stands in for 'straights' "
            "when that is omitted ('custom' then is refused), else must match it; null is "
            "the same as leaving it out."
        ),
    },
}

_rules_schema = rules_json_schema(
    "BantingRules", BANTING_PRESET, banting.DEFAULT_PRESET, _SETTING_SCHEMAS, _ALIASES
)


ComboReasonCode = Annotated[
    Literal["NOT_A_COMBO", "RULE_FORBIDS"], WithJsonSchema(COMBO_REASON_CODE)
]
ComboKind = Annotated[str, WithJsonSchema(COMBO_KIND)]


class BantingRules(RootModel[dict[str, Any]]):
    """``{"preset": name, ...overrides}``; checked by ``banting.Rules.from_dict``."""

    model_config = {"json_schema_extra": _rules_schema}


def _pass_or_cards(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    if isinstance(value, str):
        if value == PASS:
            return PASS
        raise PydanticCustomError("play_type", "Input should be a list of cards or 'pass'")
    return handler(value)


# A list of cards, or the string "pass" (the validated value is then the string itself).
# The list forms, with their counts and no card twice on the list itself (not on the
# anyOf around it, where only an array would be checked anyway).
_PlayedCards = Annotated[list[Card], Field(json_schema_extra=_count_schema(0, DECK_SIZE))]
_TableCards = Annotated[list[Card], Field(json_schema_extra=_count_schema(1, MAX_COMBO_SIZE))]
Play = Annotated[
    list[Card],
    WrapValidator(_pass_or_cards, json_schema_input_type=_PlayedCards | Literal["pass"]),
    Field(description="The cards played (0-52, distinct), or 'pass'."),
]
Hand = Annotated[
    list[Card],
    Field(
        description="The player's hand: 1-52 distinct cards (a full deck is allowed).",
        json_schema_extra=_count_schema(1, DECK_SIZE),
    ),
]
Table = Annotated[
    _TableCards | None,
    Field(
        default=None,
        description=(
            "The combo to beat (1-5 cards, none of them in the hand); omitted or null when leading."
        ),
    ),
]
FirstPlay = Annotated[
    bool,
    Field(
        default=False,
        description="The round's opening play, which must contain the hand's lowest card "
        "(under first_lead 'lowest-card').",
    ),
]
Rules = Annotated[BantingRules | None, Field(default=None)]
Code = Annotated[str, WithJsonSchema(REJECTION_CODE)]


TwosDemoted = Annotated[
    bool,
    Field(
        description=(
            "Round state under the two_demotion setting (seed 000): a four of a kind played "
            "this round has made the 2s the lowest singles. Needs rules with two_demotion."
        )
    ),
]


# --- requests -----------------------------------------------------------------------------


class ClassifyRequest(RequestModel):
    cards: list[Card] = Field(
        description="0-52 distinct cards; only 1-5 can form a combo.",
        json_schema_extra=_count_schema(0, DECK_SIZE),
    )
    twos_demoted: TwosDemoted = False
    rules: Rules


class CompareRequest(RequestModel):
    a: list[Card] = Field(
        description="A combo (distinct cards).", json_schema_extra=_count_schema(1, MAX_COMBO_SIZE)
    )
    b: list[Card] = Field(
        description="A combo comparable with a (same size, or a bomb when bombs are on).",
        json_schema_extra=_count_schema(1, MAX_COMBO_SIZE),
    )
    twos_demoted: TwosDemoted = False
    rules: Rules


Passed = Annotated[
    bool,
    Field(description="This player has passed since the trick began (matters with pass_locks)."),
]


class ValidateRequest(RequestModel):
    hand: Hand
    play: Play
    table: Table
    first_play: FirstPlay
    passed: Passed = False
    twos_demoted: TwosDemoted = False
    rules: Rules


class LegalPlaysRequest(RequestModel):
    hand: Hand
    table: Table
    first_play: FirstPlay
    passed: Passed = False
    twos_demoted: TwosDemoted = False
    rules: Rules
    limit: int = Field(
        default=DEFAULT_LEGAL_PLAYS_LIMIT,
        ge=1,
        le=MAX_LEGAL_PLAYS_LIMIT,
        description="Most plays to list; 'count' is always the full number.",
    )


class ScoreRequest(RequestModel):
    cards_left: list[Annotated[int, Field(ge=0, le=13)]] = Field(
        min_length=2,
        max_length=4,
        description="Cards each player holds at the end of the round; exactly one is 0.",
    )
    rules: Rules


# --- responses ----------------------------------------------------------------------------


class BantingCombo(ResponseModel):
    kind: ComboKind
    cards: list[CardText] = Field(description="The combo's cards, canonical spelling.")
    label: str = Field(
        description="Readable name, e.g. 'pair of 9s'; Indonesian ('Pasangan 9') with "
        "Accept-Language: id."
    )


class ComboReason(ResponseModel):
    code: ComboReasonCode = Field(
        description="NOT_A_COMBO, or RULE_FORBIDS for a combo the table rules exclude."
    )
    message: str = Field(description="Human message, English or (Accept-Language: id) Indonesian.")


class ClassifyResponse(ResponseModel):
    combo: BantingCombo | None = Field(description="The combo the cards form, or null.")
    reason: ComboReason | None = Field(description="Why the cards are no combo; null if they are.")


class CompareResponse(ResponseModel):
    result: Comparison = Field(description="1: a beats b; -1: b beats a; 0: equal.")


class ValidateResponse(ResponseModel):
    ok: bool = Field(description="Whether the play is allowed.")
    combo: BantingCombo | None = Field(
        description="The combo the played cards form (also on some rejections); null otherwise."
    )
    code: Code | None = Field(description="Why the play is refused; null when ok.")
    message: str = Field(description="Human message, English or (Accept-Language: id) Indonesian.")


class LegalPlaysResponse(ResponseModel):
    count: int = Field(description="Number of distinct legal plays, passing excluded.")
    plays: list[BantingCombo] = Field(description="The first 'limit' of them, in engine order.")


class ScoreLine(ResponseModel):
    cards_left: int
    multiplier: int = Field(description="The loser's tier multiplier; 0 for the winner.")
    points: int


class ScoreResponse(ResponseModel):
    scores: list[int] = Field(description="Points per player in request order; they sum to 0.")
    lines: list[ScoreLine]


def _setting(key: str) -> Any:
    return Field(json_schema_extra=setting_schema(_SETTING_SCHEMAS[key]))


class BantingSettings(ResponseModel):
    """Every setting of one preset (RULES.md 3.2)."""

    suit_order: str = _setting("suit_order")
    straights: str | list[str] = _setting("straights")
    straight_tiebreak: str = _setting("straight_tiebreak")
    flush_compare: str = _setting("flush_compare")
    triples: bool = _setting("triples")
    bombs: str = _setting("bombs")
    first_lead: str = _setting("first_lead")
    pass_locks: bool = _setting("pass_locks")
    two_demotion: bool = _setting("two_demotion")
    ending: str = _setting("ending")
    bomb_ends: bool = _setting("bomb_ends")
    dragon: bool = _setting("dragon")
    exchange: str = _setting("exchange")
    scoring: list[list[int]] = _setting("scoring")


class PresetsResponse(ResponseModel):
    presets: dict[str, BantingSettings] = Field(description="Preset name -> its settings.")
    default: str = Field(description="The preset used when 'rules' is omitted.")
