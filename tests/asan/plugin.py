"""pytest plugin that tests/asan/run.py loads into every run under the sanitizers.

- Hypothesis' deadline is off: it checks that an example is fast, and under ASan + UBSan every
  call into the module takes a few times longer (a timing check, not a memory one).
- With CAPSA_FAST_SHARD=I/N in the environment, a run keeps the collected tests I, I+N,
  I+2N, ... and deselects the others, so N runs side by side share the selection between
  them (parametrized cases of one slow test land in different runs).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("asan", deadline=None)
settings.load_profile("asan")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    spec = os.environ.get("CAPSA_FAST_SHARD")
    if not spec:
        return
    index, count = (int(part) for part in spec.split("/"))
    kept = items[index::count]
    chosen = {id(item) for item in kept}
    config.hook.pytest_deselected(items=[item for item in items if id(item) not in chosen])
    items[:] = kept
