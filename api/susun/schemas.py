"""Request and response models of the Capsa Susun routes.

As in ``api.server.schemas``, the models check shape and types only. Cards, card counts per row and
duplicates are checked by the routes with ``capsa_fast``; ``rules`` is a free-form object
here and is validated by ``susun.Rules.from_dict``, so a new setting or preset in the package
needs no change in the API and every rule error reads the same everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from capsa_fast import susun
from capsa_fast.susun.rules import (
    _INT_RANGES,
    BONUS_KINDS,
    OPTIONAL_SPECIALS,
    TABLE_SIZES,
    TOP_KINDS,
)
from pydantic import ConfigDict, Field, RootModel, WithJsonSchema
from pydantic.json_schema import SkipJsonSchema

from api.server.common import rules_json_schema, setting_schema
from api.server.schemas import (
    Card,
    CardText,
    Category,
    Comparison,
    RequestModel,
    ResponseModel,
    _count_schema,
    drop_default,
    named,
    value_set,
)

TOP_SIZE = 3
ROW_SIZE = 5
HAND_SIZE = 13
MIN_PLAYERS = 2
MAX_PLAYERS = 4
MAX_TOP_K = 100
# Money is points x stake; the bound keeps it finite (and exact to the cent) for any points.
MAX_STAKE = 1e12
ROW_SIZES = {"top": TOP_SIZE, "middle": ROW_SIZE, "bottom": ROW_SIZE}

# The named value sets of the Susun routes (one component each in the document).
POSITION = value_set("RowPosition", susun.POSITIONS, "A row of a Susun arrangement.")
OUT_OF_ORDER = value_set(
    "OutOfOrder",
    ("top>middle", "middle>bottom"),
    "Two adjacent rows out of order (the first stronger than the second): a foul.",
    varnames=("TOP_OVER_MIDDLE", "MIDDLE_OVER_BOTTOM"),
)
STRATEGY = value_set(
    "SusunStrategy", susun.STRATEGIES, "How the server arranges 13 cards into three rows."
)
SPECIAL_HAND = value_set(
    "SpecialHand",
    susun.SPECIALS,
    "A Susun special hand (RULES.md 4.4): 'dragon' (every rank), or one a table may count.",
)
OPTIONAL_SPECIAL = value_set(
    "OptionalSpecial", OPTIONAL_SPECIALS, "A special hand a table may count besides the dragon."
)
TOP_BONUS_CATEGORY = value_set(
    "TopBonusCategory", TOP_KINDS, "A category the 3-card top row can make."
)
BONUS_CATEGORY = value_set(
    "BonusCategory", BONUS_KINDS, "A category a 5-card row can make (royal flush apart)."
)
TABLE_SIZE = value_set(
    "TableSize",
    TABLE_SIZES,
    "A number of players at a Susun table.",
    varnames=("TWO_PLAYERS", "THREE_PLAYERS", "FOUR_PLAYERS"),
)
SUSUN_PRESET = value_set("SusunPreset", susun.PRESETS, "A named Susun rule set (RULES.md 4.3).")

Position = Annotated[Literal["top", "middle", "bottom"], WithJsonSchema(POSITION)]
OutOfOrder = Annotated[Literal["top>middle", "middle>bottom"], WithJsonSchema(OUT_OF_ORDER)]
Strategy = Annotated[Literal["ev", "percentile", "naive"], WithJsonSchema(STRATEGY)]
SpecialKind = Annotated[
    Literal["dragon", "six_pairs", "three_flushes", "three_straights"],
    WithJsonSchema(SPECIAL_HAND),
]
SpecialName = SpecialKind | None
Special = Annotated[
    SpecialName,
    Field(
        description=(
            "The highest special hand the 13 cards hold that the rules count: 'dragon' (every "
            "rank), or with 'specials' six_pairs, three_flushes, three_straights; null."
        )
    ),
]

# What each setting accepts, as the document states it (RULES.md 4.3). Shared by the request
# object ``rules`` (descriptive only: Rules.from_dict decides) and the presets response.
_BONUS_TABLE = named(
    "BonusRows",
    {
        "type": "object",
        "description": (
            "Bonus rows ('barang') by position: {position: {category: points}}. An override "
            "replaces the whole table; positions left out have no bonus rows."
        ),
        "properties": {
            position: {
                "type": "object",
                "propertyNames": TOP_BONUS_CATEGORY if position == "top" else BONUS_CATEGORY,
                "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 10_000},
            }
            for position in susun.POSITIONS
        },
        "additionalProperties": False,
    },
)
_SETTING_DESCRIPTIONS = {
    "sweep_multiplier": "Multiplier of plain rows when one player wins all three rows.",
    "super_multiplier": "Multiplier for sweeping every opponent (0: no super).",
    "majority_bonus": "Points to whoever won more of the three rows, after multipliers.",
    "foul_points": "What a fouled player pays each non-fouled opponent (plus their bonuses).",
    "dragon_points": "What a dragon wins from each opponent without one (0: no dragons).",
}
_SETTING_SCHEMAS: dict[str, dict[str, Any]] = {
    "suit_tiebreak": {
        "type": "boolean",
        "description": "Split rows equal in poker order by suit (d < c < h < s).",
    },
    "bonus_rows": _BONUS_TABLE,
    "super_players": {
        "type": "array",
        "items": TABLE_SIZE,
        "uniqueItems": True,
        "description": (
            "Table sizes at which a super counts (default [2, 4]: not when only 3 play). "
            "The legacy super_min_players (fewest players) is still read and converted."
        ),
    },
    **{
        key: {"type": "integer", "minimum": lo, "maximum": hi, "description": description}
        for key, (lo, hi) in _INT_RANGES.items()
        for description in (_SETTING_DESCRIPTIONS.get(key, ""),)
    },
    "room_fee": {
        "type": "number",
        "minimum": 0,
        "exclusiveMaximum": 1,
        "description": "Fraction of each player's positive net money taken by the house.",
    },
    "specials": {
        "type": "array",
        "items": OPTIONAL_SPECIAL,
        "uniqueItems": True,
        "description": (
            "Optional special hands the table counts besides the dragon (RULES.md 4.4; "
            "all three in susun-specials)."
        ),
    },
    "special_points": named(
        "SpecialPoints",
        {
            "type": "object",
            "propertyNames": OPTIONAL_SPECIAL,
            "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 100_000},
            "description": (
                "Points a declared special wins from each opponent of lower rank (default 6 "
                "each; names left out keep theirs)."
            ),
        },
    ),
}


# Read by Rules.from_dict besides the settings (RULES.md 4.3): the legacy name of
# super_players.
_ALIASES: dict[str, dict[str, Any]] = {
    "super_min_players": {
        "type": "integer",
        "minimum": TABLE_SIZES[0],
        "maximum": TABLE_SIZES[-1],
        "deprecated": True,
        "description": (
            "Legacy: the fewest players for a super, read as super_players [n >= k]; must "
            "match super_players when both are given."
        ),
    },
}

_rules_schema = rules_json_schema(
    "SusunRules", SUSUN_PRESET, susun.DEFAULT_PRESET, _SETTING_SCHEMAS, _ALIASES
)


class SusunRules(RootModel[dict[str, Any]]):
    """``{"preset": name, ...overrides}``; checked by ``susun.Rules.from_dict``."""

    model_config = {"json_schema_extra": _rules_schema}


Rules = Annotated[SusunRules | None, Field(default=None)]


def _row(size: int, what: str) -> Any:
    return Field(
        description=f"{what}: {size} distinct cards.", json_schema_extra=_count_schema(size, size)
    )


def _optional_cards(size: int, description: str) -> Any:
    """A list of ``size`` cards that may be left out but not sent as null."""

    def schema_extra(schema: dict[str, Any]) -> None:
        schema.pop("default", None)
        schema.update(_count_schema(size, size))

    # The default is never validated, so a value is a list exactly when the field was sent.
    return Field(default=None, description=description, json_schema_extra=schema_extra)


# --- requests -----------------------------------------------------------------------------


class SusunCheckRequest(RequestModel):
    top: list[Card] = _row(TOP_SIZE, "The top (front) row")
    middle: list[Card] = _row(ROW_SIZE, "The middle row")
    bottom: list[Card] = _row(ROW_SIZE, "The bottom (back) row")
    rules: Rules


class SusunArrangeRequest(RequestModel):
    hand: list[Card] = Field(
        description="The 13 distinct cards to arrange.",
        json_schema_extra=_count_schema(HAND_SIZE, HAND_SIZE),
    )
    rules: Rules
    strategy: Strategy = Field(
        default="ev",
        description=(
            "'ev': maximise expected points against realistic opponents under the rules' "
            "scoring; 'percentile': maximise P(top) + P(middle) + P(bottom) exactly; "
            "'naive': the strongest bottom row, then the strongest middle row."
        ),
    )
    top_k: int | None = Field(
        default=None,
        ge=1,
        le=MAX_TOP_K,
        description="Also list the k best arrangements, best first, as 'alternatives'.",
    )
    players: int = Field(
        default=4,
        ge=2,
        le=4,
        description="The table size 'ev' arranges for (its model is per table size).",
    )


def exclusive_shapes(first: Sequence[str], second: Sequence[str]) -> Any:
    """json_schema_extra of a body that takes either all the fields of ``first`` or all
    those of ``second``, never some of both, never neither.

    Said with ``not`` rather than ``oneOf``: client generators read an object with ``oneOf``
    as a union of its branches (no model with typed fields), and ignore ``not``."""

    def some(fields: Sequence[str]) -> dict[str, Any]:
        return {"anyOf": [{"required": [field]} for field in fields]}

    refused: list[dict[str, Any]] = [{"allOf": [some(first), some(second)]}]
    refused += [{**some(fields), "not": {"required": list(fields)}} for fields in (first, second)]
    refused.append({"not": some([*first, *second])})

    def apply(schema: dict[str, Any]) -> None:
        schema["not"] = {"anyOf": refused}

    return apply


class SusunPlayerRequest(RequestModel):
    """One seat: the arranged rows, or a 13-card hand for the server to arrange (ev)."""

    model_config = ConfigDict(json_schema_extra=exclusive_shapes(["hand"], susun.POSITIONS))

    top: list[Card] = _optional_cards(TOP_SIZE, "The top row: 3 distinct cards.")
    middle: list[Card] = _optional_cards(ROW_SIZE, "The middle row: 5 distinct cards.")
    bottom: list[Card] = _optional_cards(ROW_SIZE, "The bottom row: 5 distinct cards.")
    hand: list[Card] = _optional_cards(
        HAND_SIZE, "Instead of rows: 13 cards, arranged with the 'ev' strategy."
    )
    special: SpecialKind | SkipJsonSchema[None] = Field(
        default=None,
        description=(
            "A special hand the player declares instead of its rows (it must hold it and "
            "the rules must count it); its cards still come as 'hand' or rows."
        ),
        json_schema_extra=drop_default,
    )


class SusunScoreRequest(RequestModel):
    players: list[SusunPlayerRequest] = Field(
        min_length=MIN_PLAYERS,
        max_length=MAX_PLAYERS,
        description="2-4 players. No card may appear twice anywhere at the table.",
    )
    rules: Rules
    stake: float = Field(
        default=1,
        ge=0,
        le=MAX_STAKE,
        allow_inf_nan=False,
        description="Money per point; money = points x stake.",
    )


# --- responses ----------------------------------------------------------------------------


class SusunRow(ResponseModel):
    position: Position
    name: str = Field(
        description="The position's name in the response's Content-Language: 'Top', "
        "'Middle', 'Bottom' or (Accept-Language: id) 'Atas', 'Tengah', 'Bawah'."
    )
    cards: list[CardText] = Field(description="The row's cards, canonical spelling, as sent.")
    category: Category
    strength: int = Field(
        description=(
            "Order key of the row under the rules (suit tiebreak included): larger is "
            "stronger, equal ties; top and middle rows share one scale."
        )
    )
    label: str = Field(
        description="Readable name, e.g. 'Full house, nines over kings'; Indonesian ('Full "
        "house 9 dan K') with Accept-Language: id."
    )
    bonus: int = Field(description="The row's bonus value in its position; 0 if not a bonus row.")


class SusunCheckResponse(ResponseModel):
    fouled: bool = Field(description="True unless bottom >= middle >= top.")
    out_of_order: list[OutOfOrder] = Field(
        description="The adjacent pairs of rows that break the order; empty when not fouled."
    )
    rows: list[SusunRow] = Field(description="Top, middle, bottom.")
    bonus: dict[str, int] = Field(
        description="Position -> bonus value, for the bonus rows only (empty if none)."
    )
    special: Special


class SusunRows(ResponseModel):
    top: list[CardText]
    middle: list[CardText]
    bottom: list[CardText]


class SusunAlternative(SusunRows):
    score: float = Field(description="The arrangement's score under the strategy.")


class SusunArrangeResponse(SusunAlternative):
    valid_arrangements: int = Field(
        description="How many of the 72,072 splits of the hand are not fouled."
    )
    special: Special
    strategy: Strategy
    # Absent (never null) unless top_k was sent, so the document shows only the list form.
    alternatives: list[SusunAlternative] | SkipJsonSchema[None] = Field(
        default=None,
        description="Only with top_k: the k best arrangements, best first (the first is the "
        "one above).",
        json_schema_extra=drop_default,
    )


class SusunPairRows(ResponseModel):
    """Each row head to head: 1 the pair's first player's row is stronger, -1 the second's,
    0 equal. Rows do not score when a foul or a dragon decides the pair."""

    top: Comparison
    middle: Comparison
    bottom: Comparison


class SusunPair(ResponseModel):
    """Two players' result against each other; lists are [first, second]."""

    players: list[int] = Field(description="Indices of the two players, first < second.")
    rows: SusunPairRows
    multiplier: list[int] = Field(description="Multiplier each applied to its plain rows.")
    points: list[int] = Field(description="Points each scored against the other; they sum to 0.")
    fouled: list[bool]
    dragon: list[bool]
    special: list[SpecialName] = Field(
        description="The special each scored with (a dragon, or one declared); null for rows."
    )
    super: list[bool] = Field(description="Whether each player swept the whole table.")


class SusunScoreResponse(ResponseModel):
    points: list[int] = Field(description="Net points per player in request order; sum 0.")
    money: list[float] = Field(description="points x stake per player (gross).")
    fee: list[float] = Field(description="room_fee of each player's positive net money.")
    fee_total: float
    pairs: list[SusunPair] = Field(description="Every pair of players, in index order.")
    arrangements: list[SusunRows | None] = Field(
        description="The rows chosen for players who sent a hand; null for players who sent rows."
    )


def _setting(key: str) -> Any:
    return Field(json_schema_extra=setting_schema(_SETTING_SCHEMAS[key]))


class SusunSettings(ResponseModel):
    """Every setting of one preset (RULES.md 4.3)."""

    suit_tiebreak: bool = _setting("suit_tiebreak")
    bonus_rows: dict[str, dict[str, int]] = _setting("bonus_rows")
    sweep_multiplier: int = _setting("sweep_multiplier")
    super_multiplier: int = _setting("super_multiplier")
    super_players: list[int] = _setting("super_players")
    majority_bonus: int = _setting("majority_bonus")
    foul_points: int = _setting("foul_points")
    dragon_points: int = _setting("dragon_points")
    room_fee: float = _setting("room_fee")
    specials: list[str] = _setting("specials")
    special_points: dict[str, int] = _setting("special_points")


class SusunPresetsResponse(ResponseModel):
    presets: dict[str, SusunSettings] = Field(description="Preset name -> its settings.")
    default: str = Field(description="The preset used when 'rules' is omitted.")
