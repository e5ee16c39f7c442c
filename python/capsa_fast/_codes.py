"""Round codes, shared by both games (RULES.md 3.3 and 4.5).

A round code determines a deal. The codes a game issues are its letter (``B`` for Capsa
Banting, ``S`` for Capsa Susun) + the number of players + 13 characters of Crockford base32
holding a 64-bit seed, e.g. ``B47ZK2M9Q4XZ1HR8``. Codes of 9 such characters (a 45-bit seed,
e.g. ``B4K7M2Q9XZ1``: what earlier versions of the games issued, and what simulations still
show) deal as they always did. 45 bits were too few to keep a code secret: from its own 13
cards a seat could search every seed in a few dozen core-hours; 64 bits put that out of
reach. Any other code word of 1-32 letters, digits,
``-`` or ``_`` works too: its seed is the first 8 bytes, big-endian, of the SHA-256 of the
game's prefix (``capsa_fast banting round `` or ``capsa_fast susun round ``) + the
upper-cased word. Codes are case-insensitive. The deal itself (SplitMix64 and Fisher-Yates,
``cpp/include/capsa_fast/deal.hpp``) is the same for both games.
"""

from __future__ import annotations

import hashlib
import secrets
import string
from dataclasses import dataclass
from typing import Any

CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford base32: no I, L, O or U, so a code read aloud or copied by hand survives."""
SEED_CHARS = 13
"""Characters of an issued code's seed: 13 of base32 hold 64 bits (the first is 0-F)."""
SEED_BITS = 64
SHORT_SEED_CHARS = 9
"""The short form: 9 characters, a seed below 2**45 (codes issued by earlier versions)."""
SHORT_SEED_BITS = 5 * SHORT_SEED_CHARS
MAX_CODE_LENGTH = 32
_CODE_WORD_CHARS = frozenset(string.ascii_uppercase + string.digits + "-_")


def check_players(players: Any) -> None:
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise ValueError(f"players must be 2, 3 or 4, got {players!r}")


def canonical_code(code: str) -> str:
    """The code as stored and shown: upper case, no surrounding spaces."""
    if not isinstance(code, str):
        raise ValueError(f"a round code is a string like 'B4K7M2Q9XZ1', got {code!r}")
    stripped = code.strip()
    if not 1 <= len(stripped) <= MAX_CODE_LENGTH:
        raise ValueError(f"a round code has 1 to {MAX_CODE_LENGTH} characters, got {len(stripped)}")
    # Checked before upper-casing, which turns some letters into ASCII ('ß' -> 'SS').
    bad = next((ch for ch in stripped.upper() if ch not in _CODE_WORD_CHARS), None)
    if bad is None:
        bad = next((ch for ch in stripped if not ch.isascii()), None)
    text = stripped.upper()
    if bad is not None:
        raise ValueError(
            f"bad round code {code!r}: {bad!r} is not allowed (letters, digits, '-' and '_')"
        )
    return text


@dataclass(frozen=True)
class CodeFormat:
    """One game's round codes: its letter and the prefix of a free code word's hash."""

    letter: str
    hash_prefix: bytes

    def make(self, players: int, seed: int) -> str:
        """The round code for ``players`` (2-4) and a seed in ``0 .. 2**64 - 1``: the short
        form (9 characters) for a seed below 2**45, else 13 characters."""
        check_players(players)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << SEED_BITS:
            raise ValueError(f"seed must be an integer 0..2**{SEED_BITS} - 1, got {seed!r}")
        width = SHORT_SEED_CHARS if seed < 1 << SHORT_SEED_BITS else SEED_CHARS
        chars = [CODE_ALPHABET[(seed >> (5 * i)) & 31] for i in reversed(range(width))]
        return f"{self.letter}{players}{''.join(chars)}"

    def parse(self, code: str) -> tuple[int | None, int]:
        """``(players, seed)`` of a round code; ``players`` is None for a free code word.

        Case and surrounding spaces do not matter. ValueError names what is wrong."""
        text = canonical_code(code)
        issued = (
            len(text) in (2 + SHORT_SEED_CHARS, 2 + SEED_CHARS)
            and text[0] == self.letter
            and text[1] in "234"
            and all(ch in CODE_ALPHABET for ch in text[2:])
            # 13 characters hold 65 bits: a first character above F is no issued code.
            and (len(text) == 2 + SHORT_SEED_CHARS or CODE_ALPHABET.index(text[2]) < 16)
        )
        if issued:
            seed = 0
            for ch in text[2:]:
                seed = seed << 5 | CODE_ALPHABET.index(ch)
            return int(text[1]), seed
        digest = hashlib.sha256(self.hash_prefix + text.encode("ascii")).digest()
        return None, int.from_bytes(digest[:8], "big")

    def new(self, players: int = 4) -> str:
        """A fresh round code with an unpredictable seed."""
        return self.make(players, secrets.randbits(SEED_BITS))

    def players_for(self, code: str, code_players: int | None, players: int | None) -> int:
        """The number of players a round dealt from ``code`` has: ``players`` when given
        (it must agree with an issued code), else the issued code's, else 4."""
        if players is not None:
            check_players(players)
            if code_players is not None and players != code_players:
                raise ValueError(
                    f"players={players} but round code {code!r} is for {code_players} players"
                )
            return players
        return 4 if code_players is None else code_players


BANTING_CODES = CodeFormat("B", b"capsa_fast banting round ")
SUSUN_CODES = CodeFormat("S", b"capsa_fast susun round ")
