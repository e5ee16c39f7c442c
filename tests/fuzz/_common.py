"""What the fuzzers share: running under atheris, known issues, and JSON-like values built
from the fuzz input.

A fuzzer module ``fuzz_<name>.py`` defines ``TestOneInput(data, *, strict=False)`` and only
starts atheris under ``if __name__ == "__main__"``, so ``tests/package/test_fuzz_regressions.py``
can import it and replay inputs without atheris's runtime or instrumentation.
"""

from __future__ import annotations

import contextlib
import copy
import inspect
import json
import math
import reprlib
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import atheris

ROOT = Path(__file__).resolve().parents[2]
FUZZ_DIR = Path(__file__).resolve().parent
# Python packages whose code the fuzzers instrument for coverage (the C++ core cannot be).
INSTRUMENTED = ["capsa_fast", "api"]


class KnownIssue(AssertionError):
    """A finding that is understood and reported but whose fix is out of reach of this
    change (it needs the C++ extension rebuilt, or a file someone else is editing).
    Fuzzing looks past it, so the run can find other bugs; the regression test replays its
    input with ``strict=True`` and expects it, so that test fails the day the fix lands
    (then drop the entry from the fuzzer's KNOWN_ISSUES)."""

    def __init__(self, slug: str, detail: str) -> None:
        super().__init__(f"[known issue {slug}] {detail}")
        self.slug = slug

    def listed_in(self, known: Mapping[str, str]) -> KnownIssue:
        """This issue, after checking that the fuzzer lists it (so names cannot drift)."""
        if self.slug not in known:
            raise AssertionError(f"{self} is not in the fuzzer's KNOWN_ISSUES")
        return self


@contextlib.contextmanager
def instrumented(active: bool) -> Iterator[None]:
    """Instrument the imports inside the block for coverage, when ``active`` (fuzzing)."""
    if not active:
        yield
        return
    with atheris.instrument_imports(include=INSTRUMENTED):
        yield


def run_target(
    target: Callable[[atheris.FuzzedDataProvider], None],
    data: bytes,
    known: Mapping[str, str],
    *,
    strict: bool,
) -> None:
    """Run ``target`` on ``data``. A :class:`KnownIssue` (which must be in ``known``) passes
    unless ``strict``: fuzzing looks past it, the regression replay does not."""
    try:
        target(atheris.FuzzedDataProvider(data))
    except KnownIssue as issue:
        issue.listed_in(known)
        if strict:
            raise


def fuzz_main(test_one_input: Callable[[bytes], None], namespace: dict[str, Any]) -> None:
    """Hand ``test_one_input`` to atheris with libFuzzer's flags from the command line.

    The harness's own functions (those of ``namespace``, the fuzzer's globals, and of this
    module) are instrumented too: their branches follow the input's choices (which mode,
    which mutation, which refusal the reference reading expects), so coverage feedback
    keeps inputs that exercise different ones, even where the target itself is C++."""
    for scope in (namespace, globals()):
        for function in _functions(scope):
            atheris.instrument_func(function)
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


def _functions(namespace: dict[str, Any]) -> Iterator[Any]:
    """Functions and methods defined in the module whose globals are ``namespace``."""
    module = namespace["__name__"]
    for value in list(namespace.values()):
        if getattr(value, "__module__", None) != module:
            continue
        if isinstance(value, type):
            for member in vars(value).values():
                if inspect.isfunction(member):
                    yield member
        elif inspect.isfunction(value):
            yield value


# --- JSON-like values from the fuzz input ---------------------------------------------------

# Numbers that sit on the edges of what the package or a JSON reader handles.
INTERESTING_INTS = (
    0,
    1,
    -1,
    2,
    3,
    4,
    5,
    12,
    13,
    14,
    51,
    52,
    100,
    101,
    1000,
    1001,
    10_000,
    10_001,
    100_000,
    100_001,
    2**31 - 1,
    2**31,
    2**53 + 1,
    2**63 - 1,
    2**63,
    2**64,
    -(2**63) - 1,
    10**30,
    -(10**30),
    10**300,
)
INTERESTING_FLOATS = (
    math.nan,
    math.inf,
    -math.inf,
    -0.0,
    0.0,
    0.5,
    1.0,
    0.999999999,
    1e-320,
    2.0,
    13.0,
    1e12,
    1.7976931348623157e308,
    -1.0,
)
# Spellings that are nearly cards, or cards with something odd about them.
ODD_CARDS = (
    "",
    " ",
    "As ",
    " As",
    "AS",
    "as",
    "aS",
    "10h",
    "10H",
    "1h",
    "0h",
    "100h",
    "1 0h",
    "Th10",
    "AsKd",
    "As,Kd",
    "A",
    "s",
    "♠",
    "A♠",
    "a♤",
    "A♠\ufe0f",
    "A\u2660\u200b",
    "Ａs",
    "Aｓ",
    "A\x00s",
    "As\x00",
    "\u00a0As",
    "\U0001f0a1",
    "pass",
    "PASS",
    " pass ",
    "null",
    "2c" * 9,
    "é" * 20,
    "\\u2660",
)


RANK_SPELLINGS = (*"23456789TJQKA", "10", *"tjqka")
# Suit letters in either case and both the black and the white card-suit symbols.
SUIT_SPELLINGS = (*"cdhs", *"CDHS", *"\u2663\u2666\u2665\u2660", *"\u2667\u2662\u2661\u2664")


def any_card(fdp: Any) -> str:
    """A card in any accepted spelling ("As", "10h", "q\u2661", ...)."""
    return str(fdp.PickValueInList(list(RANK_SPELLINGS))) + str(
        fdp.PickValueInList(list(SUIT_SPELLINGS))
    )


class _ShortRepr(reprlib.Repr):
    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 4000:  # repr() refuses ints this long (sys.get_int_max_str_digits)
            return f"<int of {x.bit_length()} bits>"
        return super().repr_int(x, level)


_SHORT = _ShortRepr()
_SHORT.maxlevel = 4
_SHORT.maxstring = _SHORT.maxother = 80
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = 8


def short(value: Any) -> str:
    """A repr for messages: cut short, and safe for huge ints and deep nesting."""
    return _SHORT.repr(value)


class Raw:
    """JSON text spliced verbatim into a body (what json.dumps cannot or would not write:
    nesting deeper than the encoder allows, numbers too long for Python's int to str)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def dumps(value: Any, *, ensure_ascii: bool = True) -> str:
    """``value`` as JSON text, with :class:`Raw` parts spliced in and NaN/Infinity allowed
    (a request may well carry them; the server must answer them with a 4xx)."""
    raws: dict[int, tuple[str, str]] = {}  # id of a Raw -> (its marker, its text)

    def swap(node: Any) -> Any:
        if isinstance(node, Raw):
            marker = f"\x00raw{len(raws)}\x00"
            return raws.setdefault(id(node), (marker, node.text))[0]
        if isinstance(node, dict):
            return {key: swap(item) for key, item in node.items()}
        if isinstance(node, list | tuple):
            return [swap(item) for item in node]
        return node

    text = json.dumps(swap(value), ensure_ascii=ensure_ascii, allow_nan=True)
    for marker, raw in raws.values():
        text = text.replace(json.dumps(marker), raw)
    return text


class JsonMaker:
    """Builds JSON-like values from a FuzzedDataProvider, biased towards ``words`` (field
    names, setting names, preset names, cards: whatever the target reads)."""

    # About how many characters of JSON all the repeated lists of one input may add up to,
    # so a body stays a few hundred kilobytes at most.
    REPEAT_BUDGET = 400_000

    def __init__(
        self, words: Sequence[str], keys: Sequence[str] | None = None, *, python: bool = False
    ) -> None:
        """``python``: values for a Python API (no :class:`Raw` JSON text; huge numbers and
        deep nesting as Python objects, nested no deeper than a JSON reader would go)."""
        self.words = list(dict.fromkeys([*words, *ODD_CARDS]))
        self.keys = list(dict.fromkeys(keys or words)) or ["x"]
        self.python = python
        self.budget = self.REPEAT_BUDGET

    def fresh(self) -> JsonMaker:
        """Start a new input: the repeat budget is full again."""
        self.budget = self.REPEAT_BUDGET
        return self

    def text(self, fdp: Any) -> str:
        """A string: mostly a known word, else arbitrary text (surrogates included)."""
        choice = fdp.ConsumeIntInRange(0, 7)
        if choice <= 4:
            return str(fdp.PickValueInList(self.words))
        if choice == 5:
            return fdp.ConsumeUnicode(fdp.ConsumeIntInRange(0, 12))
        if choice == 6:
            # A word with a change: case, a character added, cut or repeated.
            word = str(fdp.PickValueInList(self.words))
            how = fdp.ConsumeIntInRange(0, 4)
            if how == 0:
                return word.upper()
            if how == 1:
                return word.title()
            if how == 2:
                return word[: fdp.ConsumeIntInRange(0, len(word))]
            if how == 3:
                return word + fdp.ConsumeUnicodeNoSurrogates(2)
            return word * fdp.ConsumeIntInRange(2, 40)
        return fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 40))

    def key(self, fdp: Any) -> str:
        if fdp.ConsumeIntInRange(0, 7) == 0:
            return self.text(fdp)
        return str(fdp.PickValueInList(self.keys))

    def number(self, fdp: Any) -> Any:
        choice = fdp.ConsumeIntInRange(0, 6)
        if choice <= 1:
            return fdp.ConsumeIntInRange(-3, 60)
        if choice == 2:
            return fdp.PickValueInList(list(INTERESTING_INTS))
        if choice == 3:
            return fdp.PickValueInList(list(INTERESTING_FLOATS))
        if choice == 4:
            return fdp.ConsumeFloat()
        if choice == 5:
            # Too long for a 64-bit integer, or for Python's int <-> str limit.
            digits = fdp.PickValueInList([19, 20, 40, 400, 4300, 4301, 5000])
            negative = fdp.ConsumeBool()
            if self.python:
                return (-1 if negative else 1) * (10**digits - 1)
            return Raw(("-" if negative else "") + "9" * digits)
        return fdp.ConsumeInt(fdp.ConsumeIntInRange(1, 12))

    def value(self, fdp: Any, depth: int = 0, max_depth: int = 4) -> Any:
        """Any JSON value; containers only above ``max_depth``."""
        choice = fdp.ConsumeIntInRange(0, 13 if depth < max_depth else 7)
        if choice == 0:
            return None
        if choice == 1:
            return fdp.ConsumeBool()
        if choice <= 3:
            return self.number(fdp)
        if choice <= 7:
            return self.text(fdp)
        if choice <= 9:
            size = fdp.ConsumeIntInRange(0, 6)
            return [self.value(fdp, depth + 1, max_depth) for _ in range(size)]
        if choice <= 11:
            size = fdp.ConsumeIntInRange(0, 5)
            return {self.key(fdp): self.value(fdp, depth + 1, max_depth) for _ in range(size)}
        if choice == 12:
            if self.python:
                nested: Any = 1
                for _ in range(fdp.PickValueInList([30, 200, 254])):
                    nested = [nested] if fdp.ConsumeBool() else {"a": nested}
                return nested
            return deep_nesting(fdp)
        return self.repeated(fdp, self.value(fdp, max_depth, max_depth))

    def repeated(self, fdp: Any, item: Any) -> list[Any]:
        """``item`` many times over (within the input's budget): long lists."""
        try:
            size = len(dumps(item)) + 2
        except ValueError:  # python=True: an int too long for str(); it has <= 5000 digits
            size = 5000
        count = min(fdp.PickValueInList([2, 13, 52, 53, 100, 1000, 20_001]), self.budget // size)
        self.budget -= count * size
        if isinstance(item, list | dict):
            # Copies, not one shared object: a later change made inside one copy in place
            # would otherwise show in all of them, outside the budget (a list of 20,001
            # references to a list that then became 20,001 long came to 1.2 GB of JSON).
            return [copy.deepcopy(item) for _ in range(count)]
        return [item] * count


def deep_nesting(fdp: Any) -> Raw:
    """Arrays or objects nested deeper than any reader should follow."""
    depth = fdp.PickValueInList([30, 200, 254, 255, 256, 1000, 5000])
    if fdp.ConsumeBool():
        return Raw("[" * depth + "]" * depth)
    return Raw('{"a":' * depth + "1" + "}" * depth)
