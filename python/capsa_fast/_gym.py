"""The Gymnasium id ``capsa_fast/Banting-v0``, registered whenever Gymnasium is loaded.

``import capsa_fast`` then ``gymnasium.make("capsa_fast/Banting-v0")`` works whichever of
the two packages is imported first, and a program that never uses Gymnasium does not load
it (about 150 ms): when Gymnasium is not loaded yet, a finder on ``sys.meta_path`` waits for
its import and registers the id once its package has run. Registering names the entry
point only; ``capsa_fast.rl`` loads on the first ``make``.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:  # importlib.abc alone would add 15-25 ms to `import capsa_fast`
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType

GYM_ID = "capsa_fast/Banting-v0"
ENTRY_POINT = "capsa_fast.rl.gym_env:BantingGymEnv"
# gymnasium.make_vec(GYM_ID, num_envs=n) steps the n copies in C++ (rl/gym_vec.py).
VECTOR_ENTRY_POINT = "capsa_fast.rl.gym_vec:BantingGymVectorEnv"


def register(gymnasium: Any) -> None:
    """Register the id with this Gymnasium module (once)."""
    if GYM_ID not in gymnasium.registry:
        gymnasium.register(
            id=GYM_ID, entry_point=ENTRY_POINT, vector_entry_point=VECTOR_ENTRY_POINT
        )


class _RegisteringLoader:
    """Gymnasium's own loader, which registers the id once the package has run (a loader
    and a finder are any objects with these methods: no importlib.abc base needed)."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        module: ModuleType | None = self._inner.create_module(spec)
        return module

    def exec_module(self, module: ModuleType) -> None:
        self._inner.exec_module(module)
        register(module)

    def __getattr__(self, name: str) -> Any:  # resources and the rest: the inner loader's
        return getattr(self._inner, name)


class _GymnasiumFinder:
    """Finds ``gymnasium`` as the other finders do, with a loader that registers the id."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname != "gymnasium":
            return None
        sys.meta_path.remove(self)  # one import to watch: later ones do not pass here
        for finder in sys.meta_path:
            if not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = cast(Any, _RegisteringLoader(spec.loader))
                return spec
        return None


def install() -> None:
    """Register now if Gymnasium is loaded, else when it is."""
    gymnasium = sys.modules.get("gymnasium")
    if gymnasium is not None and hasattr(gymnasium, "registry"):
        register(gymnasium)
    elif not any(isinstance(finder, _GymnasiumFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _GymnasiumFinder())
