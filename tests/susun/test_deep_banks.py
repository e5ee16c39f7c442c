"""deep's banks shipped with the package (``capsa_fast.susun.deep_banks``, issue 55): the
first ``master`` decision of a process makes its bank from the shipped codes instead of
arranging 262,144 hands (3.6 s quiet, 21-45 s under load), and decides exactly as with a
bank built by arranging.

What a user would notice if these failed: the first master table of a server (or of every
new worker) waiting seconds; a master bot deciding differently after the package was
installed than before; a stale shipped bank (a model regenerated since) used anyway.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from capsa_fast import _core, susun
from capsa_fast.susun import deep_banks

MASK64 = (1 << 64) - 1


def reference_deck(seed: int) -> list[int]:
    """deal.hpp's recipe written out: SplitMix64, Fisher-Yates from the top."""
    state, deck = seed, list(range(52))
    for i in range(51, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        z ^= z >> 31
        j = z % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_the_unrolled_shuffle_deals_as_the_recipe_says() -> None:
    # Round codes deal by this recipe on every machine and in every version (RULES.md 3.3).
    spread = (s * 0x9E3779B97F4A7C15 for s in range(200))
    seeds = [0, 1, MASK64, 0xBA4CDEE9F00D, *range(2, 300), *spread]
    for seed in seeds:
        assert list(_core.banting_shuffled_deck(seed & MASK64)) == reference_deck(seed & MASK64)


def fresh_model(rules: susun.Rules, players: int) -> Any:
    """A model of the shipped counts that has no bank yet (its own banks)."""
    counts = susun.ev.load_model_counts(susun.ev.model_preset(rules), players)
    return susun.ev.model_from_counts(rules, players, counts)


def test_a_bank_made_from_codes_decides_as_a_bank_arranged_hand_by_hand() -> None:
    rules, players, size = susun.Rules.preset("capsa-susun"), 3, _core.SUSUN_DEEP_MIN_BANK
    shipped, built = fresh_model(rules, players), fresh_model(rules, players)
    codes = _core.susun_deep_bank_codes(rules.core, shipped, 0, size)
    assert codes.shape == (size,) and codes.dtype == np.uint32
    assert _core.susun_deep_ship_bank(rules.core, shipped, codes, 32)
    hands = [susun.deal(f"SHIPPED-{i}", players)[0] for i in range(40)]
    for hand in hands:
        assert _core.susun_deep_choice(
            hand, rules.core, players, shipped, bank=size
        ) == _core.susun_deep_choice(hand, rules.core, players, built, bank=size)
    # The codes of a few hands at once are those of the whole bank.
    assert np.array_equal(_core.susun_deep_bank_codes(rules.core, built, 100, 164), codes[100:164])


def test_codes_that_ev_does_not_give_are_refused() -> None:
    rules, players, size = susun.Rules.preset("two-four"), 2, _core.SUSUN_DEEP_MIN_BANK
    model = fresh_model(rules, players)
    codes = _core.susun_deep_bank_codes(rules.core, model, 0, size)
    wrong = codes.copy()
    wrong[0] = codes[1]  # hand 0 is one of the checked hands
    assert not _core.susun_deep_ship_bank(rules.core, model, wrong, 8)
    assert not _core.susun_deep_ship_bank(rules.core, model, codes[:100], 8)  # too small a bank
    other = susun.Rules.preset("classic")
    assert not _core.susun_deep_ship_bank(other.core, model, codes, 64)  # made for other rules


@pytest.mark.parametrize("preset", list(susun.PRESETS))
def test_every_presets_bank_is_shipped_and_current(preset: str) -> None:
    """Each preset's bank at each table size is shipped, made for the model data there is
    now, and ev still arranges a spread of its hands as the codes say (else: run
    python -m capsa_fast.susun.deep_banks)."""
    rules = susun.Rules.preset(preset)
    for players in (2, 3, 4):
        codes = deep_banks.shipped_codes(rules, players)
        assert codes is not None and codes.shape == (_core.SUSUN_DEEP_BANK,)
        model = susun.ev.ev_model(rules, players)
        for first in range(0, _core.SUSUN_DEEP_BANK, _core.SUSUN_DEEP_BANK // 8):
            ev_codes = _core.susun_deep_bank_codes(rules.core, model, first, first + 100)
            assert np.array_equal(ev_codes, codes[first : first + 100]), (preset, players, first)
        assert susun.ev.strategy_model("deep", rules, players) is model
        assert deep_banks.ship(rules, players, model)


def test_rules_of_a_tables_own_have_no_shipped_bank() -> None:
    own = susun.resolve({"preset": "capsa-susun", "foul_points": 13})
    assert deep_banks.shipped_codes(own, 4) is None


def test_the_first_master_decision_of_a_process_does_not_build_the_bank() -> None:
    """The first decision makes the bank from the codes: far under the 3.6 s (quiet) to
    21-45 s (under load) of arranging it. A generous bound for a loaded machine."""
    program = """
import time
from capsa_fast import susun
table = susun.Table("capsa-susun", players=4, code="S4000000004")
started = time.perf_counter()
table.bot_arrange(0, "master")
print(time.perf_counter() - started)
"""
    seconds = float(
        subprocess.run(
            [sys.executable, "-c", program], check=True, capture_output=True, text=True
        ).stdout
    )
    assert seconds < 2.0


def test_a_stale_bank_is_not_used_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """A model regenerated without the banks: the bank is arranged as before, with a
    warning naming the generator, once per model."""
    meta, arrays = deep_banks._stored()
    stale = {name: {**entry, "fingerprint": "0" * 64} for name, entry in meta.items()}
    monkeypatch.setattr(deep_banks, "_stored", lambda: (stale, arrays))
    monkeypatch.setattr(deep_banks, "_SHIPPED", {})
    rules = susun.Rules.preset("two-four")
    model = fresh_model(rules, 2)
    with pytest.warns(RuntimeWarning, match="python -m capsa_fast.susun.deep_banks"):
        assert not deep_banks.ship(rules, 2, model)
    assert not deep_banks.ship(rules, 2, model)  # decided once for this model
