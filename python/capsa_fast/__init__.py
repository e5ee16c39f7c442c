"""capsa_fast: a fast engine for Capsa Banting, Capsa Susun and poker-order evaluation.

Cards are integer ids ``rank_index * 4 + suit_index`` (``2c`` = 0, ``2d`` = 1, ``As`` = 51)
or strings such as ``"As"``, ``"10h"``, ``"3♦"``. See ``capsa_fast.poker`` for hand
evaluation.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from . import banting, poker, susun
from ._core import card_id, format_cards, parse_cards
from ._words import LANGUAGES

try:
    __version__ = version("capsa_fast")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0"

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
