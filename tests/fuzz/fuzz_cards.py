"""Fuzz the card parsers against a pure-Python reading of RULES.md section 1.

Targets: ``capsa_fast.parse_cards`` / ``format_cards`` (a card string, or any iterable of
card strings and ids), ``capsa_fast.card_id`` (one card), and what the API's card fields go
through, ``api.server.cards.card_ids`` and the batch route's C++ body reader.

Checked for every input: the parser accepts exactly what the reference reading accepts and
gives the same ids; a refusal is a ValueError (a UnicodeEncodeError only for text that is
not UTF-8 encodable: lone surrogates) whose message names the bad token, id or repeated
card; an accepted input round-trips (format, then parse again in several spellings, gives
the same ids). The API helpers never raise: they report each bad field.

Run: ``python tests/fuzz/fuzz_cards.py [libFuzzer flags] [corpus dirs]`` or tests/fuzz/run.py.
"""

from __future__ import annotations

import json
import operator
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import atheris
import numpy as np

from tests.fuzz import _common
from tests.fuzz._common import ODD_CARDS, fuzz_main, instrumented, run_target, short

with instrumented(__name__ == "__main__"):
    import capsa_fast
    from capsa_fast import _core

    from api.server import cards as api_cards
    from api.server.errors import FieldErrors

# --- the reference reading of RULES.md section 1 -------------------------------------------

RANKS = "23456789TJQKA"
SUITS = "cdhs"
_RANK = {**{ch: i for i, ch in enumerate(RANKS)}, **{ch: RANKS.index(ch.upper()) for ch in "tjqka"}}
# Suit letters in any case and the card-suit symbols U+2660..U+2667, black and white.
_SYMBOLS = "\u2660\u2661\u2662\u2663\u2664\u2665\u2666\u2667"
_SUIT = {
    **{ch: i for i, ch in enumerate(SUITS)},
    **{ch.upper(): i for i, ch in enumerate(SUITS)},
    **dict(zip(_SYMBOLS, (3, 2, 1, 0, 3, 2, 1, 0), strict=True)),
}
SEPARATORS = " ,\t\n\v\f\r"  # commas and all ASCII whitespace
_SPLIT = re.compile(f"[{re.escape(SEPARATORS)}]+")

RANK_SPELLINGS = list(_common.RANK_SPELLINGS)
SUIT_SPELLINGS = list(_common.SUIT_SPELLINGS)


class Refused(Exception):
    """What the reference reading refuses; ``needle`` must appear in the parser's message."""

    def __init__(self, needle: str | None, *, encode: bool = False) -> None:
        super().__init__(needle)
        self.needle = needle
        self.encode = encode  # the text is not UTF-8 encodable (lone surrogates)


def name(card: int) -> str:
    return RANKS[card // 4] + SUITS[card % 4]


def has_surrogate(text: str) -> bool:
    return any("\ud800" <= ch <= "\udfff" for ch in text)


def read_run(token: str) -> list[int] | None:
    """The cards of one token written together ("AsKd10h"), or None if it is not such."""
    cards: list[int] = []
    pos = 0
    while pos < len(token):
        if token.startswith("10", pos):
            rank, pos = 8, pos + 2
        elif token[pos] in _RANK:
            rank, pos = _RANK[token[pos]], pos + 1
        else:
            return None
        if pos >= len(token) or token[pos] not in _SUIT:
            return None
        cards.append(rank * 4 + _SUIT[token[pos]])
        pos += 1
    return cards


def read_item(item: Any) -> int:
    """One element of a card sequence: a one-card string or an integer id."""
    if isinstance(item, str):
        if has_surrogate(item):
            raise Refused(None, encode=True)
        cards = read_run(item)
        if cards is None or len(cards) != 1:
            raise Refused(item)
        return cards[0]
    if not isinstance(item, bool) and hasattr(type(item), "__index__"):
        try:
            value = operator.index(item)
        except TypeError:
            raise Refused(None) from None
        if not 0 <= value < 52:
            raise Refused(str(value))
        return value
    raise Refused(None)


def distinct(cards: list[int]) -> list[int]:
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise Refused(name(card))
        seen.add(card)
    return cards


def read_cards(obj: Any) -> list[int]:
    """What ``capsa_fast.parse_cards(obj)`` should give, or Refused."""
    if isinstance(obj, str):
        if has_surrogate(obj):
            raise Refused(None, encode=True)
        cards: list[int] = []
        for token in _SPLIT.split(obj):
            if not token:
                continue
            run = read_run(token)
            if run is None:
                raise Refused(token)
            cards.extend(run)
        return distinct(cards)
    if isinstance(obj, bytes):
        raise Refused(None)
    try:
        items = list(obj)
    except TypeError:
        raise Refused(None) from None
    return distinct([read_item(item) for item in items])


# --- checks -----------------------------------------------------------------------------------

# Bugs of the bindings this fuzzer found are fixed (their inputs are kept as regressions
# under tests/fuzz/regressions/cards/): a bad item's repr was cut inside a UTF-8 character
# (UnicodeDecodeError), a NUL ended the message early, and 2**70 was named as 2**63 - 1.
KNOWN_ISSUES: dict[str, str] = {}

# Messages show at most this many bytes of a token or repr (cut between UTF-8 characters,
# then "..."), with control characters as \xNN (cards.hpp: printable_token).
SHOWN_BYTES = 40


def shown(text: str) -> str:
    """``text`` as the package's messages show it."""
    raw = text.encode("utf-8", "surrogatepass")
    if len(raw) > SHOWN_BYTES:
        cut = SHOWN_BYTES
        while cut > 0 and raw[cut] & 0xC0 == 0x80:
            cut -= 1
        text = raw[:cut].decode("utf-8", "surrogatepass") + "..."
    return "".join(f"\\x{ord(ch):02x}" if ord(ch) < 0x20 or ord(ch) == 0x7F else ch for ch in text)


def check_refusal(exc: BaseException, refused: Refused, what: str) -> None:
    """The parser refused as the reference did: the type and the message are right."""
    if isinstance(exc, UnicodeDecodeError):
        # A message cut inside a UTF-8 character does not decode (once: describe_item).
        raise AssertionError(f"{what}: the message does not decode: {exc!r}")
    if refused.encode:
        if not isinstance(exc, UnicodeEncodeError):
            raise AssertionError(f"{what}: surrogates should give UnicodeEncodeError: {exc!r}")
        return
    if type(exc) is not ValueError:
        raise AssertionError(f"{what}: expected ValueError, got {exc!r}")
    message = str(exc)
    if not message:
        raise AssertionError(f"{what}: ValueError without a message")
    needle = refused.needle
    if needle is None or needle in message or shown(needle) in message:
        return
    raise AssertionError(f"{what}: message {message!r} does not name {needle!r}")


def agree(what: str, call: Any, reference: Any) -> Any:
    """``call()`` must do what ``reference()`` does: return the same value, or be refused
    (``Refused`` from the reference) with the right exception and message. Returns the
    value, or None when refused."""
    try:
        expected, refused = reference(), None
    except Refused as exc:
        expected, refused = None, exc
    try:
        got = call()
    except (ValueError, TypeError) as exc:
        if refused is None:
            raise AssertionError(f"{what} refused {expected}: {exc!r}") from exc
        check_refusal(exc, refused, what)
        return None
    if refused is not None:
        raise AssertionError(f"{what} = {got}, but it should be refused ({refused.needle!r})")
    if got != expected:
        raise AssertionError(f"{what} = {got}, expected {expected}")
    return got


def check_parse(obj: Any, fresh: Any = None) -> list[int] | None:
    """Parse ``obj`` (``fresh``: a new copy of it, for iterators that run out) with the
    package and the reference; both must agree. Returns the ids if accepted."""
    target = obj if fresh is None else fresh()
    what = f"parse_cards({short(obj)})"
    ids: list[int] | None = agree(
        what, lambda: capsa_fast.parse_cards(target), lambda: read_cards(obj)
    )
    return ids


def check_round_trip(ids: list[int]) -> None:
    """Formatting accepted ids and reading them back, in every spelling, gives them back."""
    names = capsa_fast.format_cards(ids)
    if names != [name(card) for card in ids]:
        raise AssertionError(f"format_cards({ids}) = {names}")
    for again in (
        names,
        tuple(ids),
        " ".join(names),
        "".join(names),
        ",".join(n.lower() for n in names),
        "\r\n".join(n.replace("T", "10") for n in names),
        np.asarray(ids, dtype=np.int64),
    ):
        if capsa_fast.parse_cards(again) != ids:
            raise AssertionError(f"parse_cards({short(again)}) != {ids}")
    if capsa_fast.format_cards(names) != names:
        raise AssertionError(f"format_cards is not idempotent on {names}")
    for card, text in zip(ids, names, strict=True):
        if capsa_fast.card_id(text) != card or capsa_fast.card_id(card) != card:
            raise AssertionError(f"card_id disagrees on {text} / {card}")
    errors = FieldErrors()
    if api_cards.card_ids(names, "cards", errors) != ids or errors:
        raise AssertionError(f"api card_ids({names}) disagrees: {errors.items}")


def check_card_id(item: Any) -> None:
    agree(f"card_id({short(item)})", lambda: capsa_fast.card_id(item), lambda: read_item(item))


def expected_field_errors(
    tokens: list[str], field: str, seen: dict[int, str]
) -> list[tuple[str, str]]:
    """(field, what its message must name) for each error ``api.server.cards.card_ids`` must
    report, in order: the token for a bad card, the card for a repeat. Updates ``seen``."""
    fields = []
    for index, token in enumerate(tokens):
        path = f"{field}/{index}"
        try:
            card = read_item(token)
        except Refused:
            fields.append((path, token))
            continue
        if card in seen:
            fields.append((path, name(card)))
        else:
            seen[card] = path
    return fields


def check_api_card_ids(tokens: list[str], sizes: tuple[int, ...] | None, shared: bool) -> None:
    """``api.server.cards.card_ids``: the ids of the good tokens, one error per bad field."""
    seen: dict[int, str] = {}
    if shared:  # a card taken by an earlier field (the board) counts as a repeat too
        seen[51] = "board/0"
    expected_seen = dict(seen)
    expected = []
    if sizes is not None and len(tokens) not in sizes:
        expected.append(("cards", str(len(tokens))))
    expected += expected_field_errors(tokens, "cards", expected_seen)
    ids = [card for card, path in expected_seen.items() if path.startswith("cards/")]
    errors = FieldErrors()
    got = api_cards.card_ids(tokens, "cards", errors, sizes=sizes, seen=seen)
    if got != ids:
        raise AssertionError(f"card_ids({tokens!r}) = {got}, expected {ids}")
    fields = [field for field, _ in expected]
    if errors.total != len(fields) or [e.field for e in errors.items] != fields[: errors.limit]:
        raise AssertionError(f"card_ids({tokens!r}) errors {errors.items}, expected {fields}")
    for error, (_, needle) in zip(errors.items, expected, strict=False):
        forms = (needle, shown(needle), repr(needle[:16]))  # api.server.cards: repr of 16 at most
        if not any(form in error.message for form in forms):
            raise AssertionError(f"card_ids: {error.message!r} does not name {needle!r}")


def check_api_batch(hands: list[list[str]]) -> None:
    """The batch route's C++ body reader (``_core.read_batch_json``): every good batch
    converts exactly; a batch with a bad hand gets errors, on bad hands only."""
    sizes = (3, 5, 6, 7)
    bad = set()
    expected: list[list[int]] = []
    for row, hand in enumerate(hands):
        if len(hand) not in sizes or expected_field_errors(hand, "h", {}):
            bad.add(row)
            expected.append([])
        else:
            expected.append([read_item(token) for token in hand])
    body = json.dumps({"hands": hands}).encode()
    syntax, issues, _, count, cards, counts = _core.read_batch_json(
        body, 1000, 50, sum(1 << size for size in sizes), 7
    )
    if syntax is not None or count != len(hands):
        raise AssertionError(f"batch {hands!r}: {syntax!r}, {count} hands")
    if bool(issues) != bool(bad):
        raise AssertionError(f"batch {hands!r}: errors {issues}, bad rows {sorted(bad)}")
    for field, message in issues:
        row = int(field.split("/")[1])
        if row not in bad:
            raise AssertionError(f"batch {hands!r}: error {field} {message} on a good row")
    if bad:
        return
    assert cards is not None and counts is not None
    got = {row: cards[row, : counts[row]].tolist() for row in range(len(hands))}
    if got != dict(enumerate(expected)):
        raise AssertionError(f"batch {hands!r}: got {got}, expected {expected}")


# --- inputs -----------------------------------------------------------------------------------


def card_text(fdp: atheris.FuzzedDataProvider, nested: bool = False) -> str:
    """One token: a card in any spelling, several written together, or something near."""
    choice = fdp.ConsumeIntInRange(0, 9)
    if choice <= 3 or (choice == 4 and nested):
        rank = fdp.PickValueInList(RANK_SPELLINGS)
        return str(rank) + str(fdp.PickValueInList(SUIT_SPELLINGS))
    if choice == 4:
        return "".join(card_text(fdp, nested=True) for _ in range(fdp.ConsumeIntInRange(2, 3)))
    if choice == 5:
        return str(fdp.PickValueInList(list(ODD_CARDS)))
    if choice == 6:
        # A rank or suit swapped for an arbitrary character.
        rank = str(fdp.PickValueInList(RANK_SPELLINGS))
        suit = str(fdp.PickValueInList(SUIT_SPELLINGS))
        odd = fdp.ConsumeUnicode(1)
        return rank + odd if fdp.ConsumeBool() else odd + suit
    if choice == 7:
        return fdp.ConsumeUnicode(fdp.ConsumeIntInRange(0, 8))
    if choice == 8:
        return fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 20))
    return name(fdp.ConsumeIntInRange(0, 51)).lower()


def card_item(fdp: atheris.FuzzedDataProvider, nested: bool = False) -> Any:
    """One element of a card sequence, as a Python caller might pass it."""
    choice = fdp.ConsumeIntInRange(0, 15)
    if choice == 13 and nested:
        choice = 0
    if choice <= 7:
        return card_text(fdp)
    if choice <= 9:
        return fdp.ConsumeIntInRange(-2, 54)
    if choice == 10:
        value = fdp.PickValueInList([0, 51, 52, -1, 2**31, 2**63 - 1, 2**63, 2**64 + 3, -(2**70)])
        return int(value)
    if choice == 11:
        dtype = fdp.PickValueInList(["int8", "uint8", "int64", "uint64", "int16"])
        info = np.iinfo(dtype)
        return np.dtype(dtype).type(fdp.ConsumeIntInRange(int(info.min), int(info.max)))
    if choice == 12:
        return fdp.PickValueInList([True, False, None, 1.0, 51.5, b"As", bytearray(b"\x01")])
    if choice == 13:
        return [card_item(fdp, nested=True) for _ in range(fdp.ConsumeIntInRange(0, 2))]
    if choice == 14:
        return {fdp.ConsumeUnicode(fdp.ConsumeIntInRange(0, 30)): 1}
    return fdp.ConsumeUnicode(fdp.ConsumeIntInRange(0, 30))


def card_string(fdp: atheris.FuzzedDataProvider) -> str:
    separators = [" ", ",", ", ", "\t", "\n", "\r\n", "", "  ", "\u00a0", ";", "\v", " , "]
    parts = [fdp.PickValueInList(separators) if fdp.ConsumeBool() else ""]
    for _ in range(fdp.ConsumeIntInRange(0, 14)):
        parts.append(card_text(fdp))
        parts.append(fdp.PickValueInList(separators))
    return "".join(parts)


def container(fdp: atheris.FuzzedDataProvider, items: list[Any]) -> tuple[Any, Any]:
    """``items`` in some iterable shape, and a way to make a fresh one (for iterators)."""
    shape = fdp.ConsumeIntInRange(0, 7)
    if shape <= 2:
        return items, None
    if shape == 3:
        return tuple(items), None
    if shape == 4:
        return iter(items), lambda: iter(items)
    if shape == 5:
        hashable = [i for i in items if i.__hash__ is not None]
        keys = dict.fromkeys(hashable)
        return keys, None
    if shape == 6:
        ints = [i for i in items if isinstance(i, int) and not isinstance(i, bool)]
        ints = [i for i in ints if -(2**63) <= i < 2**63]
        return np.asarray(ints, dtype=np.int64), None
    return bytearray(i for i in items if isinstance(i, int) and 0 <= i < 256), None


def parse_one(fdp: atheris.FuzzedDataProvider) -> None:
    mode = fdp.ConsumeIntInRange(0, 7)
    if mode <= 2:
        ids = check_parse(card_string(fdp))
    elif mode <= 4:
        items = [card_item(fdp) for _ in range(fdp.ConsumeIntInRange(0, 14))]
        obj, fresh = container(fdp, items)
        ids = check_parse(obj, fresh)
    elif mode == 5:
        # Anything at all at the top: numbers, None, bytes, nested lists.
        obj = card_item(fdp)
        check_card_id(obj)
        ids = check_parse(obj)
    elif mode == 6:
        tokens = [card_text(fdp) for _ in range(fdp.ConsumeIntInRange(0, 60))]
        sizes = fdp.PickValueInList([None, (3, 5, 6, 7), (13,), (5,)])
        check_api_card_ids(tokens, sizes, fdp.ConsumeBool())
        return
    else:
        hands = []
        for _ in range(fdp.ConsumeIntInRange(1, 8)):
            if hands and fdp.ConsumeIntInRange(0, 3) == 0:
                hands.append(list(hands[-1]))  # same size: exercises the grouping
                continue
            hands.append([card_text(fdp) for _ in range(fdp.ConsumeIntInRange(2, 8))])
        check_api_batch(hands)
        return
    if ids is not None:
        check_round_trip(ids)


def TestOneInput(data: bytes, *, strict: bool = False) -> None:
    """The fuzz target. Known issues (see :class:`KnownIssue`) pass unless ``strict``."""
    run_target(parse_one, data, KNOWN_ISSUES, strict=strict)


def _check_lookup_table() -> None:
    """The API's fast-path table agrees with the package on every spelling it holds."""
    for token, card in api_cards.card_lookup().items():
        if capsa_fast.card_id(token) != card or read_item(token) != card:
            raise AssertionError(f"card_lookup()[{token!r}] = {card}")


_check_lookup_table()


if __name__ == "__main__":
    fuzz_main(TestOneInput, globals())
