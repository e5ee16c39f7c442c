"""capsa_fast: a fast engine for Capsa Banting, Capsa Susun and poker-order evaluation.

Cards are integer ids ``rank_index * 4 + suit_index`` (``2c`` = 0, ``2d`` = 1, ``As`` = 51)
or strings such as ``"As"``, ``"10h"``, ``"3♦"``. See ``capsa_fast.poker`` for hand
evaluation.

The names below are loaded on first use (PEP 562), so a program that imports one part (the
command line's ``--help``, say) does not pay for numpy and every game.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from . import _gym

if TYPE_CHECKING:
    from . import banting, poker, susun
    from ._core import card_id, format_cards, parse_cards
    from ._words import LANGUAGES

__all__ = [
    "LANGUAGES",
    "__version__",
    "banting",
    "card_id",
    "format_cards",
    "parse_cards",
    "poker",
    "susun",
]

# name -> (module, attribute or None for the module itself)
_LAZY: dict[str, tuple[str, str | None]] = {
    "banting": (".banting", None),
    "poker": (".poker", None),
    "susun": (".susun", None),
    "card_id": ("._core", "card_id"),
    "format_cards": ("._core", "format_cards"),
    "parse_cards": ("._core", "parse_cards"),
    "LANGUAGES": ("._words", "LANGUAGES"),
}


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("capsa_fast")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0.0.0"


def __getattr__(name: str) -> Any:
    if name == "__version__":
        value: Any = _version()
    elif name in _LAZY:
        module_name, attribute = _LAZY[name]
        module = importlib.import_module(module_name, __name__)
        value = module if attribute is None else getattr(module, attribute)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # later lookups are plain attribute reads
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


_gym.install()  # gymnasium.make("capsa_fast/Banting-v0") after `import capsa_fast`
