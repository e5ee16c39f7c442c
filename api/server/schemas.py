"""What every route's models share: the base models, cards, poker categories and strengths,
the health check and the problem (error) document. The models validate traffic and generate
the OpenAPI document; each part's own are in its package (``api.poker.schemas`` ...).

The models check shape and types only (strings, list lengths, unknown fields). What makes a
string a card, duplicate cards and the allowed card counts are checked by the routes with
``capsa_fast`` itself (see ``api.server.cards``), so the rules live in one place and a
100,000-hand batch is not validated one card object at a time.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Annotated, Any, Literal

from capsa_fast import poker
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    WithJsonSchema,
    model_validator,
)
from pydantic.config import JsonDict
from pydantic.json_schema import SkipJsonSchema
from pydantic_core import PydanticCustomError


def integral_numbers(value: Any) -> Any:
    """``value`` with every integral float (``2.0``) made an int, in lists and objects too.

    JSON Schema counts 2.0 as an integer (a number with a zero fractional part), so a
    request the document accepts may spell an integer that way; the models are strict and
    the package wants ints, so such numbers are read as the integers they are. 2.5 stays a
    float (and is refused where an integer is expected)."""
    if isinstance(value, float):
        return int(value) if value.is_integer() else value
    if isinstance(value, list):
        return [integral_numbers(item) for item in value]
    if isinstance(value, dict):
        return {key: integral_numbers(item) for key, item in value.items()}
    return value


class RequestModel(BaseModel):
    # strict: no silent coercion (a number is not a card); forbid: a misspelt optional field
    # must be an error, not silently ignored.
    model_config = ConfigDict(extra="forbid", strict=True)

    @model_validator(mode="before")
    @classmethod
    def _integral_numbers(cls, data: Any) -> Any:
        return integral_numbers(data)


class ResponseModel(BaseModel):
    model_config = ConfigDict(extra="forbid")


DECK_SIZE = 52
SCHEMA_REF = "#/components/schemas/{model}"
# Schemas that are not models, by component name: the value sets (the enums) and the card.
# ``api.server.openapi`` adds them to the document's components; the models point at them
# with ``$ref`` (see ``named``), so each set is one named type in a generated client, the
# same wherever it appears, and its values are listed once.
NAMED_SCHEMAS: dict[str, JsonDict] = {}


def named(name: str, schema: JsonDict) -> JsonDict:
    """Register ``schema`` as the component ``name``; returns a ``$ref`` to it."""
    schema = {"title": name, **schema}
    if NAMED_SCHEMAS.setdefault(name, schema) != schema:
        raise ValueError(f"two different schemas named {name}")
    return {"$ref": SCHEMA_REF.format(model=name)}


def value_set(
    name: str,
    values: Iterable[str] | Iterable[int],
    description: str,
    varnames: Sequence[str] | None = None,
) -> JsonDict:
    """A named enum component (``varnames``: the member names a client generator gives the
    values, for values that are not names themselves, e.g. -1); returns a ``$ref`` to it."""
    listed: list[Any] = list(values)
    schema: JsonDict = {
        "type": "integer" if all(isinstance(v, int) for v in listed) else "string",
        "enum": listed,
        "description": description,
    }
    if varnames is not None:
        if len(varnames) != len(listed):
            raise ValueError(f"{name}: one varname per value")
        schema["x-enum-varnames"] = list(varnames)
    return named(name, schema)


# What capsa_fast reads as one card, for the document (the routes check cards with the
# package itself, so their errors name the bad token; pydantic does not apply the pattern).
CARD_PATTERN = "^(10|[2-9TJQKAtjqka])[cdhsCDHS\u2660-\u2667]$"
CARD_DESCRIPTION = (
    "A card: a string, rank 2-9, T (or 10), J, Q, K, A and suit c, d, h, s (or ♣ ♦ ♥ ♠), any "
    "case; or its integer id 0..51 (rank index x 4 + suit index, 2c = 0, As = 51). "
    "Requests may send either form; responses always send the canonical string, e.g. 'Ts'. "
    "Requests and responses share this one schema so that a typed client can send the "
    "cards a response gave it as they are."
)
CARD_TYPE_MESSAGE = "Expected a card: a string like 'As' or an integer id 0..51, got {got}"
_MAX_CARD_STRING = 16  # longer strings cannot be cards: refused before they are parsed
CARD_REF = named(
    "Card",
    {
        "anyOf": [
            {"type": "string", "maxLength": _MAX_CARD_STRING, "pattern": CARD_PATTERN},
            {"type": "integer", "minimum": 0, "maximum": DECK_SIZE - 1},
        ],
        "description": CARD_DESCRIPTION,
        "examples": ["As", "10h", "3♦", 51],
    },
)


def _json_name(value: Any) -> str:
    """How a JSON value that is not a card is named in a message (its JSON text if short)."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return repr(value)[:40]


def _card(value: Any) -> str | int:
    """A card as sent: a string (checked as a card by the routes) or an integer id (not a
    bool, which JSON and Python would otherwise let through as 0 or 1)."""
    if isinstance(value, str):
        if len(value) > _MAX_CARD_STRING:
            raise PydanticCustomError(
                "string_too_long",
                "String should have at most {max_length} characters",
                {"max_length": _MAX_CARD_STRING},
            )
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise PydanticCustomError("card_type", CARD_TYPE_MESSAGE, {"got": _json_name(value)})


# A card in a response: always its canonical spelling, documented as the one Card schema.
CardText = Annotated[str, WithJsonSchema(CARD_REF)]

# A card in a request: a string or an integer id (API.md: "Cards in any request may be
# strings or integer ids 0..51").
Card = Annotated[str | int, PlainValidator(_card), WithJsonSchema(CARD_REF)]

CATEGORY_REF = value_set(
    "Category", poker.CATEGORIES, "Poker category, weakest to strongest in the enum."
)
Category = Annotated[str, WithJsonSchema(CATEGORY_REF)]
COMPARISON_REF = value_set(
    "Comparison",
    (1, 0, -1),
    "Which of two wins: 1 the first (a, or a pair's first player), -1 the second, 0 neither.",
    varnames=("FIRST_WINS", "EQUAL", "SECOND_WINS"),
)
Comparison = Annotated[Literal[1, 0, -1], WithJsonSchema(COMPARISON_REF)]
Strength = Annotated[
    int,
    Field(
        description=(
            "Hand strength: larger is stronger, equal ties. 3- and 5-card hands share one "
            "scale; 6- and 7-card hands are valued by their best five cards."
        )
    ),
]


def _count_schema(lo: int, hi: int) -> JsonDict:
    """A card list's schema: its counts, and no card twice. Both are checked by the routes
    (so every such error reads the same, and names the repeated card), but the document
    still states them. A card spelt two ways ('As', 'as', 51) is a repeat the schema cannot
    see; the routes refuse it too.

    ``uniqueItems`` only on lists that may hold fewer than two cards: schemathesis (4.32)
    crashes now and then on a unique list with a larger minItems (its negative phase retypes
    the items, e.g. as booleans, and then asks Hypothesis for 5 distinct values of 2), so the
    other lists leave "no card twice" to the docs' list of checks the server adds."""
    schema: JsonDict = {"minItems": lo, "maxItems": hi}
    if lo <= 1:
        schema["uniqueItems"] = True
    return schema


class Health(ResponseModel):
    status: Literal["ok"]
    version: str = Field(description="capsa_fast package version.")
    checks: dict[str, Literal["ok"]] = Field(
        description="Each dependency checked and its state, e.g. {'session_store': 'ok'}."
    )


def model_ref(model: type[BaseModel]) -> JsonDict:
    """A ``$ref`` to a model's component, for a field documented as another model's schema
    (a game's rules as a response reports them: the schema a request's rules take)."""
    return {"$ref": SCHEMA_REF.format(model=model.__name__)}


def drop_default(schema: JsonDict) -> None:
    """json_schema_extra for optional fields that are absent rather than null: no default."""
    schema.pop("default", None)


class FieldError(ResponseModel):
    field: str = Field(
        description="Path of the bad value, JSON-pointer style without the leading slash, "
        "e.g. 'hands/3/1'; '' is the whole body."
    )
    message: str


class Problem(ResponseModel):
    """RFC 9457 problem details."""

    type: str = Field(description="Problem type URI; 'about:blank' means see the status.")
    title: str = Field(description="The HTTP status phrase.")
    status: int
    detail: str = Field(description="What went wrong with this request.")
    # Absent (never null) outside 422s, so the document shows only the list form.
    errors: list[FieldError] | SkipJsonSchema[None] = Field(
        default=None,
        description="Validation errors (422 only), one per bad field.",
        json_schema_extra=drop_default,
    )
    # An extension member (RFC 9457 3.2), absent where it does not apply, like `errors`.
    code: str | SkipJsonSchema[None] = Field(
        default=None,
        description=(
            "Stable machine-readable reason where one status has several (a game move's 409: "
            "e.g. DOES_NOT_BEAT, NOT_YOUR_TURN, ROUND_OVER, CONFLICT; a 503: "
            "SESSION_STORE_UNAVAILABLE)."
        ),
        json_schema_extra=drop_default,
    )
    # Another extension member: a refused Susun arrangement names the rows out of order.
    rows: list[str] | SkipJsonSchema[None] = Field(
        default=None,
        description=(
            "With code FOULED: the rows out of order, 'top>middle' and/or 'middle>bottom'."
        ),
        json_schema_extra=drop_default,
    )
