"""Helpers shared by the game blueprints: refusing a field, engine calls on checked input,
and reading a ``rules`` object into the package's rule set with errors on the right field."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from api.server.errors import FieldErrors, ValidationProblem

T = TypeVar("T")


def refuse(field: str, message: str) -> ValidationProblem:
    """A 422 naming one field."""
    errors = FieldErrors()
    errors.add(field, message)
    return ValidationProblem(errors)


def engine(call: Callable[[], T], field: str) -> T:
    """Run an engine call on checked input; a ValueError it still raises is a 422 on ``field``."""
    try:
        return call()
    except ValueError as exc:
        raise refuse(field, str(exc)) from exc


def pointer_token(key: str) -> str:
    """``key`` as one segment of a field path (RFC 6901 escaping of '~' and '/')."""
    return key.replace("~", "~0").replace("/", "~1")


def _matching_key(keys: Any, message: str, patterns: Sequence[str]) -> str | None:
    """The key of ``keys`` that ``message`` is about: one of ``patterns`` (formatted with
    the key and its repr) starts it or, for 'unknown ...' patterns, occurs in it."""
    if not isinstance(keys, Mapping):
        return None
    # Longest names first, so a key whose name starts another's cannot shadow it.
    for key in sorted(keys, key=lambda k: len(str(k)), reverse=True):
        for pattern in patterns:
            needle = pattern.format(key=key, repr=repr(key))
            if message.startswith(needle) or (needle.startswith("unknown") and needle in message):
                return str(key)
    return None


def _bonus_field(table: Any, message: str) -> str:
    """The field under ``rules/bonus_rows`` a Susun bonus-table message is about.

    The package writes "bonus_rows: unknown position 'x'", "bonus_rows.top must be ...",
    "bonus_rows.top: unknown kind 'x'" and "bonus_rows.top.pair must be ...".
    """
    field = "rules/bonus_rows"
    rest = message.removeprefix("bonus_rows")
    position = _matching_key(
        table, rest, (".{key} ", ".{key}:", ".{key}.", "unknown position {repr}")
    )
    if position is None:
        return field
    field += f"/{pointer_token(position)}"
    kinds = table[position]
    rest = rest.removeprefix(f".{position}")
    kind = _matching_key(kinds, rest, (".{key} ", "unknown kind {repr}"))
    return field if kind is None else f"{field}/{pointer_token(kind)}"


def rules_field(settings: Mapping[str, Any], message: str) -> str:
    """The field a ``Rules.from_dict`` error is about, from the start of its message.

    The package's messages begin with the setting's name ("suit_order must be ...",
    "bonus_rows: ...", "unknown setting 'foo' ...", "unknown preset 'x' ...").
    """
    if message.startswith(("unknown preset", "preset ")):
        return "rules/preset"
    if message.startswith("bonus_rows") and "bonus_rows" in settings:
        return _bonus_field(settings["bonus_rows"], message)
    if message.startswith("special_points") and isinstance(settings.get("special_points"), Mapping):
        # "special_points.six_pairs must be ..." and "special_points: unknown special 'x'"
        rest = message.removeprefix("special_points")
        name = _matching_key(
            settings["special_points"], rest, (".{key} ", "unknown special {repr}")
        )
        return "rules/special_points" + ("" if name is None else f"/{pointer_token(name)}")
    key = _matching_key(settings, message, ("unknown setting {repr}", "{key} ", "{key}:"))
    return "rules" if key is None else f"rules/{pointer_token(key)}"


@functools.lru_cache(maxsize=256)
def _rules_from_json(from_dict: Callable[[Mapping[str, Any]], T], settings: str) -> T:
    # Rule sets are frozen, so requests with the same settings can share one: building
    # one from its settings cost about 6% of a worker's time under the mixed load.
    return from_dict(json.loads(settings))


def read_rules(
    from_dict: Callable[[Mapping[str, Any]], T], rules: Any, errors: FieldErrors
) -> T | None:
    """The rule set of a request's ``rules`` object (a pydantic root model or None); None
    when it is invalid, with the problem added to ``errors`` on the setting's field."""
    settings = {} if rules is None else rules.root
    try:
        return _rules_from_json(from_dict, json.dumps(settings, sort_keys=True))
    except (ValueError, TypeError) as exc:
        message = str(exc)
        errors.add(rules_field(settings, message), message)
        return None


def rules_json_schema(
    title: str,
    preset: Mapping[str, Any],
    default: str,
    settings: Mapping[str, Any],
    aliases: Mapping[str, Any] | None = None,
) -> Callable[[dict[str, Any]], None]:
    """The OpenAPI schema of a game's ``rules`` object (for pydantic's json_schema_extra):
    a preset and any settings to override, each documented; checked by the package.

    ``preset``: the schema of the preset's name (a ``$ref`` to the game's named value set).
    ``aliases`` are the other keys the package's ``from_dict`` reads (e.g. a legacy name).
    The package refuses any other key, so the object is closed (``additionalProperties:
    false``) and a client's types catch a misspelt setting."""

    def apply(schema: dict[str, Any]) -> None:
        schema.clear()
        schema.update(
            {
                "type": "object",
                "title": title,
                "description": (
                    "Table rules: a preset and any settings to override on top of it. Unknown "
                    "presets, unknown settings and bad values are refused (422 naming "
                    "'rules/<setting>'). Omitted: the default preset."
                ),
                "properties": {
                    "preset": {**preset, "default": default},
                    **settings,
                    **(aliases or {}),
                },
                "additionalProperties": False,
            }
        )

    return apply


def setting_schema(schema: Mapping[str, Any]) -> Callable[[dict[str, Any]], None]:
    """json_schema_extra of a field of a presets response: the setting's schema as the
    rules object states it (a ``$ref`` to a value set stays a bare ``$ref``)."""

    def apply(field_schema: dict[str, Any]) -> None:
        field_schema.clear()
        field_schema.update(schema)

    return apply
