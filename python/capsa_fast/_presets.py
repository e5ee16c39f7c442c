"""What the games' rule sets share: presets as data, overrides, and reading ``rules``.

A game's ``Rules`` class lists its presets in ``_PRESETS`` and its default in
``_DEFAULT_PRESET``, and builds itself from a full settings dict in ``_build``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, ClassVar, TypeVar

R = TypeVar("R", bound="PresetRules")


class PresetRules:
    """Mixin for a game's rule set: ``preset(name, **overrides)`` and ``from_dict``."""

    _PRESETS: ClassVar[Mapping[str, Mapping[str, Any]]]
    _DEFAULT_PRESET: ClassVar[str]

    @classmethod
    def preset(cls: type[R], name: str | None = None, /, **overrides: Any) -> R:
        """The preset ``name`` (default: the game's) with ``overrides`` (setting=value)."""
        name = cls._DEFAULT_PRESET if name is None else name
        # A name that is no string (a list, a dict) would make the lookup a TypeError.
        if not isinstance(name, str) or name not in cls._PRESETS:
            raise ValueError(f"unknown preset {name!r} (known: {', '.join(cls._PRESETS)})")
        settings = copy.deepcopy(dict(cls._PRESETS[name]))
        for key, value in overrides.items():
            if key not in settings:
                raise ValueError(f"unknown setting {key!r} (known: {', '.join(settings)})")
            settings[key] = value
        return cls._build(name, settings)

    @classmethod
    def from_dict(cls: type[R], data: Mapping[str, Any] | None) -> R:
        """From ``{"preset": name, **overrides}``, as the HTTP API sends it."""
        data = dict(data or {})
        name = data.pop("preset", cls._DEFAULT_PRESET)
        if not isinstance(name, str):
            raise ValueError(f"preset must be a string, got {name!r}")
        for key in data:
            if not isinstance(key, str):  # ** below would raise TypeError
                known = ", ".join(cls._PRESETS[cls._DEFAULT_PRESET])
                raise ValueError(f"unknown setting {key!r} (known: {known})")
        return cls.preset(name, **data)

    @classmethod
    def _build(cls: type[R], name: str, settings: dict[str, Any]) -> R:
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    # A rule set is an immutable value: copies are itself, and it pickles as its settings
    # (its C++ rule objects are rebuilt on load), so it can cross to another process.
    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
        return type(self).from_dict, (self.to_dict(),)

    def __copy__(self: R) -> R:
        return self

    def __deepcopy__(self: R, memo: dict[int, Any]) -> R:
        return self


def resolve_rules(cls: type[R], default: R, rules: Any) -> R:
    """Rules from a rule set, a dict ``{"preset": ..., ...}``, a preset name, or None."""
    if rules is None:
        return default
    if isinstance(rules, cls):
        return rules
    if isinstance(rules, str):
        return cls.preset(rules)
    if isinstance(rules, Mapping):
        return cls.from_dict(rules)
    raise ValueError(f"rules must be a Rules, a preset name or a dict, got {rules!r}")
