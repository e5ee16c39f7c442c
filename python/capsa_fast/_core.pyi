"""Type stubs for the private C++ extension module."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

CardsLike = str | Iterable[str | int]

CATEGORIES: tuple[str, ...]
CATEGORY_STARTS: tuple[int, ...]
MAX_STRENGTH: int

class HandValue:
    @property
    def strength(self) -> int: ...
    @property
    def category(self) -> str: ...
    @property
    def category_index(self) -> int: ...
    @property
    def label(self) -> str: ...
    @property
    def best(self) -> list[int]: ...
    @property
    def cards(self) -> list[int]: ...
    def __lt__(self, other: HandValue) -> bool: ...
    def __le__(self, other: HandValue) -> bool: ...
    def __gt__(self, other: HandValue) -> bool: ...
    def __ge__(self, other: HandValue) -> bool: ...
    def __hash__(self) -> int: ...

def parse_cards(cards: CardsLike) -> list[int]: ...
def card_id(card: str | int) -> int: ...
def format_cards(cards: CardsLike) -> list[str]: ...
def evaluate(cards: CardsLike) -> HandValue: ...
def evaluate_batch(
    hands: npt.NDArray[np.integer], validate: bool = True, threads: int = 1
) -> npt.NDArray[np.int32]: ...
def strength_label(strength: int) -> str: ...
def strength_category(strength: int) -> str: ...

# Capsa Banting (wrapped by capsa_fast.banting)
class BantingRules:
    def __init__(
        self,
        suit_order: str,
        straights: list[int],
        straight_tiebreak: str,
        flush_compare: str,
        triples: bool,
        bombs: bool,
        pass_locks: bool,
    ) -> None: ...

class BantingCombo:
    @property
    def kind(self) -> str: ...
    @property
    def cards(self) -> list[int]: ...
    @property
    def size(self) -> int: ...
    @property
    def strength(self) -> int: ...
    @property
    def is_bomb(self) -> bool: ...

BANTING_NUM_ACTIONS: int

def banting_classify(
    cards: CardsLike, rules: BantingRules
) -> tuple[BantingCombo | None, str | None]: ...
def banting_compare(a: CardsLike, b: CardsLike, rules: BantingRules) -> int: ...
def banting_validate(
    hand: CardsLike,
    play: CardsLike | None,
    table: CardsLike | None,
    rules: BantingRules,
    first_play: bool,
    passed: bool,
) -> tuple[str, BantingCombo | None, BantingCombo | None, int, int]: ...
def banting_legal_plays(
    hand: CardsLike,
    table: CardsLike | None,
    rules: BantingRules,
    first_play: bool,
    passed: bool = False,
) -> list[BantingCombo]: ...
def banting_legal_play_counts(
    hands: npt.NDArray[np.integer],
    table: CardsLike | None,
    rules: BantingRules,
    first_play: bool,
    passed: bool = False,
) -> npt.NDArray[np.int32]: ...
def banting_legal_play_mask(
    hands: npt.NDArray[np.integer],
    table: CardsLike | None,
    rules: BantingRules,
    first_play: bool,
    passed: bool = False,
) -> npt.NDArray[np.uint8]: ...
def banting_actions() -> list[list[int]]: ...
def banting_score(cards_left: list[int], tiers: list[tuple[int, int]]) -> list[int]: ...
def banting_tier_multiplier(cards_left: int, tiers: list[tuple[int, int]]) -> int: ...
def banting_run_mask(start: int) -> int: ...

# Capsa Susun (wrapped by capsa_fast.susun)
class SusunRules:
    def __init__(
        self,
        suit_tiebreak: bool,
        bonus: list[list[int]],
        sweep_multiplier: int,
        super_multiplier: int,
        super_min_players: int,
        majority_bonus: int,
        foul_points: int,
        dragon_points: int,
    ) -> None: ...

class SusunEvModel:
    def __init__(
        self,
        win: list[list[float]],
        tie: list[list[float]],
        loss: list[list[float]],
        opponents: int,
    ) -> None: ...

SUSUN_NUM_ROW_KEYS: int

def susun_key_strengths(suit_tiebreak: bool) -> npt.NDArray[np.int32]: ...
def susun_row_key(cards: CardsLike, suit_tiebreak: bool) -> int: ...
def susun_percentile(cards: CardsLike, suit_tiebreak: bool) -> float: ...
def susun_player_rows(
    top: CardsLike, middle: CardsLike, bottom: CardsLike, rules: SusunRules
) -> tuple[list[int], list[int], bool, bool]: ...
def susun_count_valid(hand: CardsLike, rules: SusunRules) -> int: ...
def susun_arrange(
    hand: CardsLike, rules: SusunRules, strategy: str, k: int, model: SusunEvModel | None
) -> tuple[list[tuple[list[int], list[int], list[int], float, bool]], int, bool]: ...
def susun_arrange_batch(
    hands: npt.NDArray[np.integer],
    rules: SusunRules,
    strategy: str,
    threads: int,
    model: SusunEvModel | None,
) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.float64]]: ...
def susun_row_keys_batch(
    arranged: npt.NDArray[np.integer], rules: SusunRules
) -> tuple[
    npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.bool_], npt.NDArray[np.bool_]
]: ...
def susun_score_tables(
    keys: npt.NDArray[np.int32],
    bonus: npt.NDArray[np.int32],
    fouled: npt.NDArray[np.bool_],
    dragon: npt.NDArray[np.bool_],
    rules: SusunRules,
) -> npt.NDArray[np.int32]: ...
def susun_score_table(
    players: list[tuple[list[int], list[int], bool, bool]], rules: SusunRules
) -> tuple[list[int], list[list[int]], list[list[list[int]]], list[list[int]], list[bool]]: ...
