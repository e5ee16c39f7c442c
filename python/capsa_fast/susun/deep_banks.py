"""The banks of arranged hands that ``deep`` (the ``master`` level) scores against, shipped
with the package so that no decision waits for one to be built.

A bank is :data:`capsa_fast._core.SUSUN_DEEP_BANK` random hands from fixed seeds, each with
the rows ``ev`` puts down for it under a rule set and the model of a table size. Building
one arranges every hand: 3.6 s on two quiet cores, tens of seconds under load, once per
process, rule set and table size. ``data/deep_banks.npz`` holds ev's choices for the
banks of the presets' rule sets at 2, 3 and 4 players as codes (``_core.susun_deep_bank_codes``:
two bits a card, 4 bytes a hand, zlib-compressed; a bank that differs from another in few
hands is stored as those differences), so the first ``deep`` decision builds its bank from
them in tens of milliseconds. Each bank carries a fingerprint of its rule set and of its ev
model's data file; a bank whose fingerprint does not match (a model regenerated since), or
whose sampled hands ev now arranges otherwise, is not used: the bank is built as before,
with a warning to run the generator again::

    python -m capsa_fast.susun.deep_banks        # rewrites data/deep_banks.npz (a few minutes)
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import sys
import threading
import time
import warnings
import zlib
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from .. import _core
from .ev import DATA_DIR, ev_model, model_path, model_preset
from .rules import PRESETS, TABLE_SIZES, Rules

BANKS_PATH = DATA_DIR / "deep_banks.npz"
BANK_SIZE: int = _core.SUSUN_DEEP_BANK
CHECKED_HANDS = 64
"""Hands of a shipped bank that ev arranges again before it is used (about 2-5 ms)."""
MAX_SHARE_CHANGED = 0.25
"""A bank whose codes differ from an already stored bank's in at most this share of hands
is stored as the differences."""

# (rules fingerprint, players) -> (the model last asked for, whether its bank was shipped)
_SHIPPED: dict[tuple[str, int], tuple[Any, bool]] = {}
_LOCK = threading.Lock()


def bank_name(preset: str, players: int) -> str:
    return f"{preset}_{players}p"


def fingerprint(rules: Rules, players: int) -> str:
    """What a shipped bank was made for: the rule set, the table size, the bank's size and
    the bytes of the ev model's data file."""
    digest = hashlib.sha256()
    digest.update(json.dumps([rules.fingerprint, players, BANK_SIZE]).encode())
    digest.update(model_path(model_preset(rules), players).read_bytes())
    return digest.hexdigest()


def _pack(codes: np.ndarray) -> np.ndarray:
    raw = np.ascontiguousarray(codes, dtype="<u4").tobytes()
    return np.frombuffer(zlib.compress(raw, 9), dtype=np.uint8)


def _unpack(packed: np.ndarray) -> np.ndarray:
    return np.frombuffer(zlib.decompress(packed.tobytes()), dtype="<u4").astype(np.uint32)


@lru_cache(maxsize=1)
def _stored(path: Path = BANKS_PATH) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """(meta, packed arrays) of the shipped file; empty when there is none."""
    if not path.exists():
        return {}, {}
    with np.load(path) as data:
        meta = json.loads(str(data["meta"]))
        arrays = {name: np.asarray(data[name]) for name in data.files if name != "meta"}
    return meta, arrays


@lru_cache(maxsize=4)
def _codes_of(name: str) -> np.ndarray:
    meta, arrays = _stored()
    entry = meta[name]
    unpacked = _unpack(arrays[name])
    if entry["base"] is None:
        return unpacked
    codes = _codes_of(entry["base"]).copy()
    changed = len(unpacked) // 2
    codes[unpacked[:changed]] = unpacked[changed:]
    return codes


def shipped_codes(rules: Rules, players: int) -> np.ndarray | None:
    """The shipped codes of the bank for ``rules`` at ``players``, or None when none is
    shipped for them (not a preset's rule set, or a fingerprint that does not match)."""
    name = bank_name(rules.preset_name, players)
    meta, _ = _stored()
    if rules.preset_name not in PRESETS or name not in meta:
        return None
    if rules != Rules.preset(rules.preset_name):
        return None
    if meta[name]["fingerprint"] != fingerprint(rules, players):
        warnings.warn(
            f"the shipped deep bank {name} was made for another ev model: it is built "
            "instead (run python -m capsa_fast.susun.deep_banks)",
            RuntimeWarning,
            stacklevel=3,
        )
        return None
    return _codes_of(name)


def ship(rules: Rules, players: int, model: Any) -> bool:
    """Give ``model`` its shipped bank for ``rules`` at ``players`` (once per model), so its
    first ``deep`` decision builds the bank from the codes. False when none is shipped or
    ev arranges the checked hands otherwise now (the bank is then built as before)."""
    key = (rules.fingerprint, players)
    with _LOCK:
        seen = _SHIPPED.get(key)
        if seen is not None and seen[0] is model:
            return seen[1]
        codes = shipped_codes(rules, players)
        shipped = codes is not None and _core.susun_deep_ship_bank(
            rules.core, model, codes, CHECKED_HANDS
        )
        if codes is not None and not shipped:
            warnings.warn(
                f"ev arranges the shipped deep bank {bank_name(rules.preset_name, players)} "
                "otherwise now: it is built instead (run python -m capsa_fast.susun.deep_banks)",
                RuntimeWarning,
                stacklevel=2,
            )
        _SHIPPED[key] = (model, shipped)
        return shipped


# --- the generator ------------------------------------------------------------------------


def generate(path: Path = BANKS_PATH, log: Any = sys.stderr) -> None:
    """Arrange every preset's bank at every table size with ev and write them to ``path``."""
    meta: dict[str, Any] = {}
    arrays: dict[str, np.ndarray] = {}
    full: dict[str, np.ndarray] = {}
    for preset in PRESETS:
        rules = Rules.preset(preset)
        for players in sorted(TABLE_SIZES, reverse=True):
            name = bank_name(preset, players)
            started = time.perf_counter()
            model = ev_model(rules, players)
            codes = np.asarray(_core.susun_deep_bank_codes(rules.core, model, 0, BANK_SIZE))
            base, changed = None, None
            for other, other_codes in full.items():
                at = np.flatnonzero(codes != other_codes).astype(np.uint32)
                if len(at) <= MAX_SHARE_CHANGED * BANK_SIZE and (
                    changed is None or len(at) < len(changed)
                ):
                    base, changed = other, at
            if base is None or changed is None:
                arrays[name] = _pack(codes)
                full[name] = codes
                stored = "whole"
            else:
                arrays[name] = _pack(np.concatenate([changed, codes[changed]]))
                stored = f"{len(changed)} hands differ from {base}"
            meta[name] = {"base": base, "fingerprint": fingerprint(rules, players)}
            print(
                f"{name}: {time.perf_counter() - started:.1f} s, {stored}, "
                f"{arrays[name].nbytes:,} bytes",
                file=log,
                flush=True,
            )
    write(path, meta, arrays)


def write(path: Path, meta: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
    buffer = io.BytesIO()
    savez: Any = np.savez  # (numpy's stubs take **arrays for its keyword arguments)
    savez(buffer, meta=np.array(json.dumps(meta, sort_keys=True)), **arrays)
    path.write_bytes(buffer.getvalue())
    _stored.cache_clear()
    _codes_of.cache_clear()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Write the deep banks shipped with the package.")
    parser.add_argument("--out", type=Path, default=BANKS_PATH)
    args = parser.parse_args(argv)
    generate(args.out)


if __name__ == "__main__":
    main()
