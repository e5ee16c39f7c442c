"""Fuzz the rule sets: ``banting.Rules`` and ``susun.Rules`` from dicts, presets and overrides.

Inputs are JSON-like settings built with atheris's FuzzedDataProvider, biased towards the
package's own setting names, preset names and allowed values (read from the package, so a
new setting or preset is fuzzed without a change here), then mistyped, cut, nested, made
huge, NaN, and so on.

Checked: ``Rules.from_dict``, ``Rules.preset`` and ``resolve`` either build a rule set or
raise ValueError with a message (API.md: errors are ValueError; the API's rules reader
also catches TypeError, but nothing here should need it). A rule set they build holds exactly the
settings asked for (the preset's for the rest), is JSON-ready, reads back through
``to_dict()``/``from_dict()`` (also via JSON text and via ``preset(**settings)``) to equal
rules, and the engine accepts it (a few cheap calls that must not raise).

Run: ``python tests/fuzz/fuzz_rules.py [libFuzzer flags] [corpus dirs]`` or tests/fuzz/run.py.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import atheris

from tests.fuzz._common import (
    INTERESTING_FLOATS,
    JsonMaker,
    fuzz_main,
    instrumented,
    run_target,
    short,
)

with instrumented(__name__ == "__main__"):
    from capsa_fast import banting, susun
    from capsa_fast.banting import rules as banting_rules
    from capsa_fast.susun import rules as susun_rules

PRESET = "preset"
STRAIGHT_ORDER = "straight_order"  # banting: the name of `straights`, read back by from_dict


class Game:
    """What the fuzzer knows of one game's rule set, all of it read from the package."""

    def __init__(
        self,
        rules: Any,
        presets: Mapping[str, Mapping[str, Any]],
        default: str,
        extra_keys: tuple[str, ...],
        good_values: Callable[[atheris.FuzzedDataProvider, str], Any],
        expected: Callable[[str, Any], Any],
        engine: Callable[[Any], None],
        resolve: Callable[[Any], Any],
        read_aliases: Callable[[Mapping[Any, Any]], Mapping[Any, Any]] = lambda asked: asked,
    ) -> None:
        self.rules = rules
        self.presets = presets
        self.default = default
        self.settings = list(presets[default])
        self.keys = [*self.settings, *extra_keys]
        self.good_values = good_values
        self.expected = expected
        self.engine = engine
        self.resolve = resolve
        # The settings asked for, with a legacy name read as the setting it stands for.
        self.read_aliases = read_aliases


# --- Capsa Banting ------------------------------------------------------------------------------


def banting_value(fdp: atheris.FuzzedDataProvider, key: str) -> Any:
    """A value the setting ``key`` accepts, or one just beside it."""
    if key in banting_rules.CHOICES:
        return fdp.PickValueInList(list(banting_rules.CHOICES[key]))
    if key in banting_rules.BOOLEANS:
        return fdp.ConsumeBool()
    if key == "suit_order":
        letters = list("cdhs")
        order = "".join(letters.pop(fdp.ConsumeIntInRange(0, len(letters) - 1)) for _ in range(4))
        how = fdp.ConsumeIntInRange(0, 5)
        if how == 0:
            return order.upper()
        if how == 1:
            return order[: fdp.ConsumeIntInRange(0, 3)]
        if how == 2:
            return order + fdp.PickValueInList(["c", " ", "x", "\u2660"])
        return order
    if key in ("straights", STRAIGHT_ORDER):
        how = fdp.ConsumeIntInRange(0, 5)
        names = list(banting.STRAIGHT_ORDERS)
        if how <= 1:
            return fdp.PickValueInList([*names, "custom"] if key == STRAIGHT_ORDER else names)
        if how == 2:
            return list(banting.STRAIGHT_ORDERS[fdp.PickValueInList(names)])
        runs = []
        for _ in range(fdp.ConsumeIntInRange(0, 14)):
            run = str(fdp.PickValueInList(list(banting.RUNS)))
            spelling = fdp.ConsumeIntInRange(0, 3)
            if spelling == 1:
                run = run.lower()
            elif spelling == 2:
                run = run.replace("T", "10")
            runs.append(run)
        return tuple(runs) if how == 5 else runs
    if key == "scoring":
        tiers = []
        for _ in range(fdp.ConsumeIntInRange(0, 5)):
            tiers.append([fdp.ConsumeIntInRange(0, 14), fdp.ConsumeIntInRange(-1, 1001)])
        if fdp.ConsumeBool():
            tiers.sort()
        return tiers
    return None


def banting_expected(key: str, value: Any) -> Any:
    """What ``to_dict()[key]`` must be after setting ``key`` to the accepted ``value``."""
    if key == "suit_order":
        return value.lower()
    if key == "straights":
        if isinstance(value, str):
            return list(banting.STRAIGHT_ORDERS[value])
        return [run.upper().replace("10", "T") for run in value]
    if key == "scoring":
        return [list(tier) for tier in value]
    return value


def banting_engine(rules: Any) -> None:
    """A few cheap engine calls that any rule set must take without raising."""
    hand = ["3d", "4c", "5h", "6s", "7d", "7c", "9h", "9s", "Td", "Jd", "Qd", "Kd", "2s"]
    banting.legal_plays(hand, rules=rules)
    banting.legal_plays(hand, ["8c"], rules=rules, first_play=False)
    banting.classify(["3d", "4c", "5h", "6s", "7d"], rules)
    banting.why_not(["Jd", "Qd", "Kd", "Ad", "2d"], rules)
    banting.validate(hand, ["3d"], None, rules=rules, first_play=True)
    if sum(banting.score([0, 5, 13, 1], rules)) != 0:
        raise AssertionError(f"scores under {rules} do not sum to 0")


# --- Capsa Susun --------------------------------------------------------------------------------


SUPER_MIN_PLAYERS = "super_min_players"  # susun: the legacy name of super_players


def susun_value(fdp: atheris.FuzzedDataProvider, key: str) -> Any:
    if key == "super_players":
        sizes = [
            fdp.PickValueInList([2, 3, 4, 4, 1, 5, True])
            for _ in range(fdp.ConsumeIntInRange(0, 4))
        ]
        return tuple(sizes) if fdp.ConsumeIntInRange(0, 5) == 0 else sizes
    if key == SUPER_MIN_PLAYERS:
        return fdp.PickValueInList([1, 2, 3, 4, 5])
    if key in susun_rules._INT_RANGES:
        lo, hi = susun_rules._INT_RANGES[key]
        return fdp.PickValueInList([lo - 1, lo, lo + 1, (lo + hi) // 2, hi - 1, hi, hi + 1])
    if key == "suit_tiebreak":
        return fdp.ConsumeBool()
    if key == "room_fee":
        how = fdp.ConsumeIntInRange(0, 3)
        if how == 0:
            return fdp.ConsumeProbability()
        if how == 1:
            return fdp.PickValueInList([0, 1, 0.03, 0.5, 0.999999, *INTERESTING_FLOATS])
        return fdp.ConsumeFloatInRange(-0.5, 1.5)
    if key == "specials":
        names = [*susun_rules.OPTIONAL_SPECIALS, "dragon", "six-pairs"]
        return [fdp.PickValueInList(names) for _ in range(fdp.ConsumeIntInRange(0, 3))]
    if key == "special_points":
        return {
            fdp.PickValueInList([*susun_rules.OPTIONAL_SPECIALS, "dragon"]): fdp.PickValueInList(
                [0, 3, 6, 100_000, 100_001, -1, True]
            )
            for _ in range(fdp.ConsumeIntInRange(0, 3))
        }
    if key == "bonus_rows":
        table: dict[str, Any] = {}
        for _ in range(fdp.ConsumeIntInRange(0, 4)):
            position = fdp.PickValueInList([*susun.POSITIONS, "Top", "front"])
            kinds = table.setdefault(position, {})
            for _ in range(fdp.ConsumeIntInRange(0, 4)):
                kinds[fdp.PickValueInList([*susun_rules.BONUS_KINDS, "straight-flush"])] = (
                    fdp.PickValueInList([0, 1, 5, 22, 10_000, 10_001, -1])
                )
        return table
    return None


def susun_expected(key: str, value: Any) -> Any:
    if key == "super_players":
        return sorted(value)
    if key == "bonus_rows":
        return {position: dict(value.get(position, {})) for position in susun.POSITIONS}
    if key == "room_fee":
        return float(value)
    if key == "specials":
        return [name for name in susun_rules.OPTIONAL_SPECIALS if name in value]
    if key == "special_points":
        # Names left out keep their default points (README, "Choices").
        return {**{name: 6 for name in susun_rules.OPTIONAL_SPECIALS}, **value}
    return value


def susun_aliases(asked: Mapping[Any, Any]) -> Mapping[Any, Any]:
    """super_min_players=k, accepted, stands for super_players=[n in 2..4 with n >= k]."""
    if SUPER_MIN_PLAYERS not in asked or "super_players" in asked:
        return asked
    sizes = [n for n in (2, 3, 4) if n >= asked[SUPER_MIN_PLAYERS]]
    return {**asked, "super_players": sizes}


def susun_engine(rules: Any) -> None:
    mine = {"top": ["2c", "3d", "4h"], "middle": ["9c", "9d", "Kh", "Ks", "2d"]}
    mine["bottom"] = ["3c", "4c", "5c", "6c", "7c"]
    susun.check(mine["top"], mine["middle"], mine["bottom"], rules)
    other = {"top": ["Ac", "Ad", "Ah"], "middle": ["8c", "8d", "8h", "8s", "Qd"]}
    other["bottom"] = ["Ts", "Js", "Qs", "Qh", "As"]
    table = susun.score([mine, other], rules)
    if sum(table.points) != 0:
        raise AssertionError(f"susun points under {rules} do not sum to 0: {table.points}")


GAMES = (
    Game(
        banting.Rules,
        banting.PRESETS,
        banting.DEFAULT_PRESET,
        (STRAIGHT_ORDER,),
        banting_value,
        banting_expected,
        banting_engine,
        banting_rules.resolve,
    ),
    Game(
        susun.Rules,
        susun.PRESETS,
        susun.DEFAULT_PRESET,
        (SUPER_MIN_PLAYERS,),
        susun_value,
        susun_expected,
        susun_engine,
        susun_rules.resolve,
        susun_aliases,
    ),
)
_WORDS = sorted(
    {
        *(key for game in GAMES for key in game.keys),
        *(name for game in GAMES for name in game.presets),
        PRESET,
        *banting.STRAIGHT_ORDERS,
        *banting.RUNS,
        *(value for values in banting_rules.CHOICES.values() for value in values),
        *susun.POSITIONS,
        *susun_rules.BONUS_KINDS,
        "custom",
        "dchs",
    }
)
JSON = JsonMaker(_WORDS, python=True)


# --- inputs -------------------------------------------------------------------------------------


def setting_value(fdp: atheris.FuzzedDataProvider, game: Game, key: str) -> Any:
    """A good value for ``key`` most of the time, else a mistyped or arbitrary one."""
    choice = fdp.ConsumeIntInRange(0, 9)
    if choice <= 5:
        value = game.good_values(fdp, key)
        if value is not None or choice > 0:
            return value
    if choice == 6:
        # A good value in the wrong type: as text, wrapped, a bool for a number, ...
        good = game.good_values(fdp, key)
        how = fdp.ConsumeIntInRange(0, 5)
        if how == 0:
            return str(good)
        if how == 1:
            return [good]
        if how == 2:
            return {key: good}
        if how == 3:
            return float(good) if isinstance(good, int) else good
        if how == 4:
            return json.loads(json.dumps(good)) if good is not None else None
        return bool(good)
    return JSON.value(fdp)


def setting_key(fdp: atheris.FuzzedDataProvider, game: Game) -> Any:
    choice = fdp.ConsumeIntInRange(0, 39)
    if choice <= 29:
        return fdp.PickValueInList(game.keys)
    if choice <= 33:
        key = str(fdp.PickValueInList(game.keys))
        return fdp.PickValueInList([key.upper(), key.replace("_", "-"), key + "s", key[:-1]])
    if choice == 34:
        return fdp.PickValueInList([0, None, True, ("suit_order",)])  # not even a string
    return JSON.text(fdp)


def preset_name(fdp: atheris.FuzzedDataProvider, game: Game) -> Any:
    choice = fdp.ConsumeIntInRange(0, 7)
    if choice <= 4:
        return fdp.PickValueInList(list(game.presets))
    if choice == 5:
        name = str(fdp.PickValueInList(list(game.presets)))
        return fdp.PickValueInList([name.upper(), name.replace("-", "_"), name + " ", ""])
    return JSON.value(fdp, max_depth=2)


def settings_dict(fdp: atheris.FuzzedDataProvider, game: Game) -> dict[Any, Any]:
    data: dict[Any, Any] = {}
    if fdp.ConsumeIntInRange(0, 2) > 0:
        data[PRESET] = preset_name(fdp, game)
    for _ in range(fdp.ConsumeIntInRange(0, 6)):
        key = setting_key(fdp, game)
        data[key] = setting_value(fdp, game, str(key))
    return data


# --- checks -------------------------------------------------------------------------------------


def check_refusal(exc: BaseException, what: str) -> None:
    # API.md: "Errors are ValueError (or a subclass) with a message a person can act on."
    if not isinstance(exc, ValueError):
        raise AssertionError(f"{what}: expected ValueError, got {exc!r}") from exc
    if not str(exc).strip():
        raise AssertionError(f"{what}: {type(exc).__name__} without a message") from exc


def check_rules(game: Game, rules: Any, asked: Mapping[Any, Any], what: str) -> None:
    """``rules`` was built from ``asked`` ({"preset"?: name, **overrides}): it holds exactly
    those settings, reads back in every way, and the engine takes it."""
    if type(rules) is not game.rules:
        raise AssertionError(f"{what} gave {short(rules)}")
    settings = rules.to_dict()
    asked = game.read_aliases(asked)
    name = asked.get(PRESET, game.default)
    if settings[PRESET] != name:
        raise AssertionError(f"{what}: preset {short(settings[PRESET])}, asked for {short(name)}")
    for key in game.settings:
        expected = game.expected(key, asked[key] if key in asked else game.presets[name][key])
        got = settings[key]
        if got != expected or type(got) is not type(expected):
            raise AssertionError(f"{what}: {key} = {short(got)}, expected {short(expected)}")
    if STRAIGHT_ORDER in settings:
        named = [n for n, runs in banting.STRAIGHT_ORDERS.items() if runs == settings["straights"]]
        if settings[STRAIGHT_ORDER] != (named[0] if named else "custom"):
            raise AssertionError(f"{what}: straight_order {short(settings[STRAIGHT_ORDER])}")

    text = json.dumps(settings, allow_nan=False)  # JSON-ready, and finite
    for again in (settings, json.loads(text)):
        back = game.rules.from_dict(again)
        if back != rules or back.to_dict() != settings:
            raise AssertionError(f"{what}: from_dict(to_dict()) = {short(back)}")
    overrides = {k: v for k, v in settings.items() if k not in (PRESET, STRAIGHT_ORDER)}
    if game.rules.preset(settings[PRESET], **overrides) != rules:
        raise AssertionError(f"{what}: preset(**to_dict()) differs")
    if game.resolve(rules) is not rules or game.resolve(settings) != rules:
        raise AssertionError(f"{what}: resolve() does not give the rules back")
    game.engine(rules)


def build(fdp: atheris.FuzzedDataProvider) -> None:
    game = GAMES[fdp.ConsumeIntInRange(0, len(GAMES) - 1)]
    module = game.rules.__module__
    entry = fdp.ConsumeIntInRange(0, 9)
    asked: Any
    if entry <= 5:
        asked = settings_dict(fdp, game)
        what = f"{module}.Rules.from_dict({short(asked)})"
        outcome = attempt(game.rules.from_dict, asked)
    elif entry <= 7:
        overrides = settings_dict(fdp, game)
        name = overrides.pop(PRESET, None)
        overrides = {str(key): value for key, value in overrides.items()}
        what = f"{module}.Rules.preset({short(name)}, **{short(overrides)})"
        outcome = attempt(lambda: game.rules.preset(name, **overrides))
        asked = overrides if name is None else {PRESET: name, **overrides}
    else:
        # Whatever a caller may hand to the functions that take `rules`.
        which = fdp.ConsumeIntInRange(0, 3)
        if which == 0:
            asked = None
        elif which == 1:
            asked = settings_dict(fdp, game)
        elif which == 2:
            asked = preset_name(fdp, game)
        else:
            asked = JSON.value(fdp)
        what = f"{module}.resolve({short(asked)})"
        outcome = attempt(game.resolve, asked)
        if asked is None:
            asked = {}
        elif isinstance(asked, str):
            asked = {PRESET: asked}
    if isinstance(outcome, BaseException):
        check_refusal(outcome, what)
        return
    if not isinstance(asked, Mapping):
        raise AssertionError(f"{what} accepted a {type(asked).__name__}")
    asked = dict(asked)
    if asked.get(STRAIGHT_ORDER) is not None and "straights" not in asked:
        asked["straights"] = asked[STRAIGHT_ORDER]  # the name stands in for the runs
    check_rules(game, outcome, asked, what)


def attempt(call: Callable[..., Any], *args: Any) -> Any:
    """``call(*args)``, or the exception it raised."""
    try:
        return call(*args)
    except Exception as exc:
        return exc


# Findings whose fix is out of reach of this change (see KnownIssue): none.
KNOWN_ISSUES: dict[str, str] = {}


def TestOneInput(data: bytes, *, strict: bool = False) -> None:
    """The fuzz target. Known issues (see :class:`KnownIssue`) pass unless ``strict``."""
    JSON.fresh()
    run_target(build, data, KNOWN_ISSUES, strict=strict)


if __name__ == "__main__":
    fuzz_main(TestOneInput, globals())
