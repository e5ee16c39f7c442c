"""Replay the fuzzers' committed inputs through their targets, without atheris's runtime.

Every file of tests/fuzz/corpus/<name>/ (hand-written seeds) and tests/fuzz/regressions/<name>/
(inputs that once crashed fuzz_<name>.py) goes through that fuzzer's ``TestOneInput`` with
``strict=True``, so a fixed bug stays fixed. A regression named after one of the fuzzer's
KNOWN_ISSUES (``<slug>-...``: a bug whose fix needs the C++ extension rebuilt) is expected to
hit that issue, strictly: once the fix lands the test fails until the entry is removed.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

# The targets read their input with atheris.FuzzedDataProvider (atheris is a test
# dependency); nothing else of atheris runs here.
from tests.fuzz._common import KnownIssue

FUZZ = Path(__file__).resolve().parents[1] / "fuzz"
NAMES = sorted(path.stem.removeprefix("fuzz_") for path in FUZZ.glob("fuzz_*.py"))


def fuzzer(name: str) -> ModuleType:
    return importlib.import_module(f"tests.fuzz.fuzz_{name}")


def _cases() -> list[Any]:
    cases = []
    for name in NAMES:
        for kind in ("corpus", "regressions"):
            folder = FUZZ / kind / name
            files = sorted(p for p in folder.iterdir() if p.is_file()) if folder.is_dir() else []
            for path in files:
                cases.append(pytest.param(name, path, id=f"{name}/{kind}/{path.name}"))
    return cases


@pytest.mark.parametrize(("name", "path"), _cases())
def test_replay(name: str, path: Path) -> None:
    module = fuzzer(name)
    known = [slug for slug in module.KNOWN_ISSUES if path.name.startswith(slug + "-")]
    data = path.read_bytes()
    if not known:
        module.TestOneInput(data, strict=True)
        return
    with pytest.raises(KnownIssue) as raised:
        module.TestOneInput(data, strict=True)
    assert raised.value.slug == known[0]
    # Fuzzing looks past it (or the fuzzer would stop on it at once).
    module.TestOneInput(data)


@pytest.mark.parametrize("name", NAMES)
def test_every_fuzzer_has_seeds(name: str) -> None:
    assert any((FUZZ / "corpus" / name).iterdir()), f"tests/fuzz/corpus/{name}/ is empty"


@pytest.mark.parametrize("name", NAMES)
def test_every_known_issue_has_a_regression(name: str) -> None:
    regressions = FUZZ / "regressions" / name
    names = [p.name for p in regressions.iterdir()] if regressions.is_dir() else []
    for slug in fuzzer(name).KNOWN_ISSUES:
        assert any(n.startswith(slug + "-") for n in names), f"no input shows {slug}"


def test_every_post_route_has_examples() -> None:
    """A new POST route gets fuzzed from {} until it has valid example bodies; add some."""
    api_fuzzer = fuzzer("api")
    routes = {route.rule for route in api_fuzzer.server().routes if route.method == "POST"}
    assert routes <= set(api_fuzzer.EXAMPLES), sorted(routes - set(api_fuzzer.EXAMPLES))


def test_api_examples_are_valid() -> None:
    """The bodies the API fuzzer mutates are valid as they stand (else it mostly fuzzes
    the 422 path)."""
    api_fuzzer = fuzzer("api")
    client = api_fuzzer.server().client
    for route, bodies in api_fuzzer.EXAMPLES.items():
        if "<game_id>" in route:
            continue  # valid in some game states only
        for body in bodies:
            response = client.post(route, json=body)
            assert response.status_code < 300, (route, body, response.get_json())


def test_repeated_lists_are_copies() -> None:
    """A long list the fuzzers make holds copies of its item, so a later change inside one
    copy stays within the repeat budget."""
    import atheris

    from tests.fuzz._common import JsonMaker

    maker = JsonMaker(["x"])
    items = maker.repeated(atheris.FuzzedDataProvider(bytes([6])), [[], {"a": 1}])
    assert len(items) > 1
    items[0][0].append("changed")
    assert items[1] == [[], {"a": 1}]


def test_api_bodies_stay_within_the_repeat_budget() -> None:
    """The input behind regressions/api/repeat-shared-list-oom-1 once made a 1.2 GB body
    (a list of shared references to a list that then grew), and the fuzzer ran out of
    memory."""
    import atheris

    api_fuzzer = fuzzer("api")
    data = (FUZZ / "regressions" / "api" / "repeat-shared-list-oom-1").read_bytes()
    api_fuzzer.JSON.fresh()
    request = api_fuzzer.build_request(atheris.FuzzedDataProvider(data), api_fuzzer.server())
    assert request.body is not None
    assert len(request.body) < 1_000_000
