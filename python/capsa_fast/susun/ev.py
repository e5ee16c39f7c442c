"""The ``ev`` strategy's model of realistic opponents (RULES.md 4.6).

The shipped data (``data/ev_<preset>_<n>p.npz``: one model per model preset and table
size n = 2..4) holds, for each row position, how often each row key appeared in simulated
n-player deals where every player arranged with ev itself, averaged over passes (see
:mod:`capsa_fast.susun.gen_ev_model`, which regenerates it). A rule set takes the model of
its own preset when there is one, else that of ``capsa-susun`` (suit tiebreak) or
``classic`` (without). Earlier models are kept, never regenerated, for the earlier
versions of the strategy (:data:`VERSIONS`): ``data/ev_tiebreak.npz`` and
``data/ev_plain.npz`` (4-player tables) for ``ev-v1``, ``data/v3/`` (one pass of ev
against a model of ``percentile`` play, per table size) for ``ev-v2`` and ``ev-v3``.
From those counts and a rule set this module builds, per position and row key:

- ``win``: P(our row beats a realistic opponent's row in that position);
- ``tie``: P(the rows have the same key). With the suit tiebreak two rows of one deal
  never do (the same key means the same deciding card), so this mass stands for rows
  that differ only in that card's suit; it counts as neither won nor lost;
- ``loss``: the expected points a lost row costs: the opponent's bonus value for that row
  under the rules, or 1, averaged over the opponent rows that beat ours.

The C++ search then combines the three rows with the exact scoring (sweeps, super,
majority bonus, bonus rows). Assumptions: opponents' rows are independent of ours and of
each other, and are distributed as in the simulation; opponents do not foul.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from .. import _core
from ..poker import CATEGORIES, MAX_STRENGTH
from .rules import POSITIONS, PRESETS, Rules

DATA_DIR = Path(__file__).with_name("data")
PREVIOUS_DIR = DATA_DIR / "v3"
"""The earlier models per table size (``ev-v2``, ``ev-v3``), kept for comparison."""
NUM_KEYS: int = _core.SUSUN_NUM_ROW_KEYS


MODEL_PRESETS: tuple[str, ...] = ("capsa-susun", "classic", "two-four")
"""Presets with models of their own (susun-specials arranges as capsa-susun does)."""
_SAME_MODEL = {"susun-specials": "capsa-susun"}


def data_folder() -> Path:
    """The shipped models' folder; ``CAPSA_FAST_EV_DATA`` names another folder to read
    instead (``gen_ev_model`` sets it for its later passes, which need the previous pass's
    counts)."""
    folder = os.environ.get("CAPSA_FAST_EV_DATA")
    return Path(folder) if folder else DATA_DIR


def data_name(suit_tiebreak: bool) -> str:
    return "ev_tiebreak.npz" if suit_tiebreak else "ev_plain.npz"


def data_path(suit_tiebreak: bool) -> Path:
    """The first version's model (``ev-v1``), which is never regenerated: always shipped."""
    return DATA_DIR / data_name(suit_tiebreak)


def model_name(preset: str, players: int) -> str:
    return f"ev_{preset}_{players}p.npz"


def model_path(preset: str, players: int) -> Path:
    """The model of ``preset`` at a table of ``players`` (in :func:`data_folder`)."""
    return data_folder() / model_name(preset, players)


def model_preset(rules: Rules) -> str:
    """The model preset for a rule set: its own preset's when that orders rows the same
    way, else capsa-susun's (suit tiebreak) or classic's."""
    name = _SAME_MODEL.get(rules.preset_name, rules.preset_name)
    if name in MODEL_PRESETS and Rules.preset(name).suit_tiebreak == rules.suit_tiebreak:
        return name
    return "capsa-susun" if rules.suit_tiebreak else "classic"


def clear_caches() -> None:
    """Forget loaded counts and models (after the generator rewrites the data)."""
    load_counts.cache_clear()
    load_model_counts.cache_clear()
    with _MODELS_LOCK:
        _MODELS.clear()
        _PINNED.clear()


@lru_cache(maxsize=2)
def key_strengths(suit_tiebreak: bool) -> np.ndarray:
    """The poker strength behind each row key (0 for keys no row has)."""
    return np.asarray(_core.susun_key_strengths(suit_tiebreak))


@lru_cache(maxsize=2)
def load_counts(suit_tiebreak: bool) -> np.ndarray:
    """Simulated opponent row-key counts, shape [3 positions, NUM_KEYS]."""
    with np.load(data_path(suit_tiebreak)) as data:
        counts = np.asarray(data["counts"], dtype=np.float64)
    if counts.shape != (3, NUM_KEYS):
        raise ValueError(f"{data_path(suit_tiebreak)}: expected counts of shape (3, {NUM_KEYS})")
    return counts


def row_values(rules: Rules) -> np.ndarray:
    """Points a won row is worth, per position and row key: its bonus value, or 1."""
    strengths = key_strengths(rules.suit_tiebreak)
    starts = np.asarray(_core.CATEGORY_STARTS)
    category = np.clip(np.searchsorted(starts, strengths, side="right") - 1, 0, 8)
    values = np.ones((3, NUM_KEYS))
    for p, position in enumerate(POSITIONS):
        table = rules.bonus_rows.get(position, {})
        for c, name in enumerate(CATEGORIES):
            if table.get(name, 0) > 0:
                values[p, category == c] = table[name]
        royal = table.get("royal_flush", 0)
        if royal > 0:
            values[p, strengths == MAX_STRENGTH] = royal
    return values


@lru_cache(maxsize=32)
def load_model_counts(preset: str, players: int, previous: bool = False) -> np.ndarray:
    """Row-key counts of the model for ``preset`` at ``players``, shape [3, NUM_KEYS]
    (``previous``: the model of ``ev-v2`` and ``ev-v3``)."""
    path = PREVIOUS_DIR / model_name(preset, players) if previous else model_path(preset, players)
    with np.load(path) as data:
        counts = np.asarray(data["counts"], dtype=np.float64)
    if counts.shape != (3, NUM_KEYS):
        raise ValueError(f"{path}: expected counts of shape (3, {NUM_KEYS})")
    return counts


def curves(
    rules: Rules,
    players: int = 4,
    legacy: bool = False,
    counts: np.ndarray | None = None,
    previous: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(win, tie, loss), each [3, NUM_KEYS] float32, for ``rules`` at ``players`` (from
    ``counts`` when given, else the model's shipped counts; ``legacy``: ev-v1's,
    ``previous``: ev-v2's and ev-v3's)."""
    if counts is not None:
        counts = np.asarray(counts, dtype=np.float64)
    elif legacy:
        counts = load_counts(rules.suit_tiebreak)
    else:
        counts = load_model_counts(model_preset(rules), players, previous)
    totals = counts.sum(axis=1, keepdims=True)
    below = np.cumsum(counts, axis=1) - counts
    win = below / totals
    tie = counts / totals
    values = row_values(rules)
    # Expected value of the opponent rows strictly above each key.
    weighted = counts * values
    above_count = totals - below - counts
    above_value = weighted.sum(axis=1, keepdims=True) - np.cumsum(weighted, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        loss = np.where(above_count > 0, above_value / np.maximum(above_count, 1e-12), 1.0)
    return win.astype(np.float32), tie.astype(np.float32), loss.astype(np.float32)


# The models kept, most recently used last (about 2.5 MB each): rule sets are open-ended (a
# Susun session may override any setting), so a process that meets many keeps its memory
# bounded and builds an evicted one again when needed.
_MODELS: OrderedDict[str, Any] = OrderedDict()
_KEPT_MODELS = 32
_MODELS_LOCK = threading.Lock()
# ev's own models at the presets' rules (4 presets by 3 table sizes) are never evicted:
# deep's banks live as long as their model (made once from the shipped codes,
# capsa_fast.susun.deep_banks), and a client sending rule sets of its own must not push
# them out.
_PINNED: dict[str, Any] = {}
_PRESET_FINGERPRINTS = frozenset(Rules.preset(name).fingerprint for name in PRESETS)

VERSIONS: dict[str, dict[str, bool]] = {
    "ev-v1": {"legacy": True},
    "ev-v2": {"previous": True},
    "ev-v3": {"previous": True, "card_removal": True},
    "ev-cr": {"card_removal": True},
}
"""Strategies that arrange as ``ev`` does with another model (:func:`ev_model`'s
arguments): ``ev-v1``, the first model (4-player tables); ``ev-v2``, models per table size
from one pass of ev against ``percentile`` play; ``ev-v3``, those with card removal;
``ev-cr``, the current models with card removal."""


def model_from_counts(
    rules: Rules, players: int, counts: np.ndarray, card_removal: bool = False
) -> Any:
    """The C++ model of row-key ``counts`` [3, NUM_KEYS] for ``rules`` at ``players``
    (uncached: :func:`ev_model` caches the shipped ones)."""
    win, tie, loss = curves(rules, players, counts=counts)
    return _core.SusunEvModel(
        win.tolist(), tie.tolist(), loss.tolist(), players - 1, rules.core, card_removal
    )


def strategy_model(strategy: str, rules: Rules, players: int) -> Any:
    """The model ``strategy`` arranges with at a table of ``players`` (None: no model).
    ``deep``'s comes with its shipped bank when there is one (:mod:`.deep_banks`)."""
    if strategy == "deep":
        from .deep_banks import ship  # it imports this module

        model = ev_model(rules, players)
        ship(rules, players, model)
        return model
    if strategy == "ev":
        return ev_model(rules, players)
    if strategy in VERSIONS:
        return ev_model(rules, players, **VERSIONS[strategy])
    return None


def ev_model(
    rules: Rules,
    players: int = 4,
    legacy: bool = False,
    card_removal: bool = False,
    previous: bool = False,
) -> Any:
    """The C++ model for ``rules`` at a table of ``players`` (cached per rule set).
    ``legacy``: the model as it was before models per table size (``ev-v1``, which never
    has card removal); ``previous``: the models per table size of ``ev-v2`` and ``ev-v3``.
    ``card_removal``: each hand re-weighs the opponents' row keys by the cards it holds
    (``ev-v3``, ``ev-cr``). Off by default: with the current models, against
    players arranging as the model says it lost at every preset and table size measured."""
    card_removal = card_removal and not legacy
    key = f"{players}:{legacy}:{previous}:{card_removal}:{rules.fingerprint}"
    pinned = not (legacy or previous or card_removal) and rules.fingerprint in _PRESET_FINGERPRINTS
    with _MODELS_LOCK:
        model = _PINNED.get(key) if pinned else _MODELS.get(key)
        if model is not None:
            if not pinned:
                _MODELS.move_to_end(key)
            return model
    counts = load_counts(rules.suit_tiebreak) if legacy else None
    if counts is None:
        counts = load_model_counts(model_preset(rules), players, previous)
    model = model_from_counts(rules, players, counts, card_removal)
    with _MODELS_LOCK:
        if pinned:
            return _PINNED.setdefault(key, model)  # a thread that got there first wins
        model = _MODELS.setdefault(key, model)
        _MODELS.move_to_end(key)
        while len(_MODELS) > _KEPT_MODELS:
            _MODELS.popitem(last=False)
    return model
