"""Type stubs for the private C++ extension module."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

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
    hands: npt.NDArray[np.integer],
    validate: bool = True,
    threads: int = 1,
    out: npt.NDArray[np.int32] | None = None,
) -> npt.NDArray[np.int32]: ...
def batch_paths() -> list[str]: ...
def batch_path() -> str: ...
def set_batch_path(name: str) -> None: ...
def isa_cap() -> str: ...
def susun_scan_path() -> str: ...
def strength_label(strength: int) -> str: ...
def strength_category(strength: int) -> str: ...
def strength_ranks(strength: int) -> list[int]: ...

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
        two_demotion: bool = False,
        twos_demoted: bool = False,
    ) -> None: ...
    @property
    def twos_demoted(self) -> bool: ...

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

# A Banting round, its bots and the simulation loop (wrapped by capsa_fast.banting.Game)
class BantingGameRules:
    def __init__(
        self,
        rules: BantingRules,
        tiers: list[tuple[int, int]],
        dragon: bool,
        last_standing: bool,
        previous_winner: bool,
        bomb_ends: bool = False,
        exchange: bool = False,
    ) -> None: ...

class BantingRound:
    def __init__(
        self, rules: BantingGameRules, players: int, seed: int, opener: int = -1, *, dice: int
    ) -> None: ...
    def __copy__(self) -> BantingRound: ...
    def __deepcopy__(self, memo: dict[int, object]) -> BantingRound: ...
    dice_state: int
    @property
    def players(self) -> int: ...
    @property
    def turn(self) -> int | None: ...
    @property
    def leader(self) -> int | None: ...
    @property
    def table(self) -> BantingCombo | None: ...
    @property
    def table_seat(self) -> int | None: ...
    @property
    def passed(self) -> list[int]: ...
    @property
    def first_play(self) -> bool: ...
    @property
    def twos_demoted(self) -> bool: ...
    @property
    def must_contain(self) -> int: ...
    @property
    def over(self) -> bool: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def dragon(self) -> bool: ...
    @property
    def cards_left(self) -> list[int]: ...
    @property
    def finishing_order(self) -> list[int]: ...
    @property
    def scores(self) -> list[int]: ...
    @property
    def counts(self) -> list[int]: ...
    @property
    def can_pass(self) -> bool: ...
    @property
    def places(self) -> list[int]: ...
    @property
    def exchanging(self) -> bool: ...
    @property
    def exchanges(self) -> list[tuple[int, int, int, int | None]]: ...
    def begin_exchange(self, places: list[int]) -> None: ...
    def owes(self, seat: int) -> bool: ...
    def give_back(self, seat: int, card: int) -> str: ...
    def bot_give_back(self, seat: int, level: str, make: bool) -> int: ...
    @property
    def history(self) -> list[tuple[int, BantingCombo | None]]: ...
    def hand(self, seat: int) -> list[int]: ...
    def check(self, seat: int, play: list[int] | None) -> tuple[str, BantingCombo | None, int]: ...
    def apply(self, seat: int, play: list[int] | None) -> tuple[str, BantingCombo | None, int]: ...
    def legal_plays(self) -> list[BantingCombo]: ...
    def bot_move(
        self, level: str, make: bool, iterations: int = ..., time_ms: float = 0.0, threads: int = 1
    ) -> tuple[int, BantingCombo | None]: ...
    def hint(
        self, level: str, iterations: int = ..., time_ms: float = 0.0, threads: int = 1
    ) -> tuple[int, BantingCombo | None, bool]: ...
    def observe(self, seat: int) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.bool_]]: ...
    def apply_action(self, action: int) -> bool: ...
    def legal_actions(self) -> list[int]: ...

# Reinforcement learning (bind_banting_env.cpp)
BANTING_OBS_SIZE: int
BANTING_ENV_ACTIONS: int
BANTING_OBS_LAYOUT: dict[str, tuple[int, int]]

class BantingVecEnvCore:
    def __init__(
        self, rules: BantingGameRules, players: int, n: int, seats: list[int], threads: int
    ) -> None: ...
    def reset(
        self,
        seed: int,
        obs: npt.NDArray[np.int8],
        mask: npt.NDArray[np.uint8],
        seat: npt.NDArray[np.int8],
    ) -> None: ...
    def step(
        self,
        actions: npt.NDArray[np.int64],
        obs: npt.NDArray[np.int8],
        mask: npt.NDArray[np.uint8],
        rewards: npt.NDArray[np.float32],
        done: npt.NDArray[np.uint8],
        seat: npt.NDArray[np.int8],
        forfeit: float | None = None,
        illegal: npt.NDArray[np.uint8] | None = None,
        final_obs: npt.NDArray[np.int8] | None = None,
        final_mask: npt.NDArray[np.uint8] | None = None,
        skip: npt.NDArray[np.uint8] | None = None,
    ) -> int: ...
    def sample_actions(self, out: npt.NDArray[np.int64]) -> None: ...
    def round_seed(self, i: int) -> int: ...
    def round_index(self, i: int) -> int: ...
    def round_opener(self, i: int) -> int: ...
    def finished(
        self, i: int
    ) -> tuple[int, int, int, list[tuple[int, BantingCombo | None]]] | None: ...
    def history(self, i: int) -> list[tuple[int, BantingCombo | None]]: ...
    def exchanges(
        self, i: int, finished: bool = False
    ) -> list[tuple[int, int, int, int]] | None: ...
    @property
    def rounds_done(self) -> int: ...
    @property
    def skipped_rounds(self) -> int: ...
    @property
    def forfeited_rounds(self) -> int: ...

def banting_shuffled_deck(seed: int) -> list[int]: ...
def banting_sim_round_seed(seed: int, g: int) -> int: ...
def banting_plan(hand: CardsLike, rules: BantingRules) -> tuple[list[BantingCombo], float]: ...

BANTING_MASTER_ITERATIONS: int

def banting_simulate(
    rules: BantingGameRules,
    players: int,
    seats: list[str],
    seed: int,
    first: int,
    count: int,
    iterations: int = ...,
    time_ms: float = 0.0,
    threads: int = 1,
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]: ...
def banting_simulate_duplicate(
    rules: BantingGameRules,
    players: int,
    lineup: list[str],
    seed: int,
    first: int,
    count: int,
    iterations: int = ...,
    time_ms: float = 0.0,
    threads: int = 1,
) -> npt.NDArray[np.int32]: ...

# Capsa Susun (wrapped by capsa_fast.susun)
class SusunRules:
    def __init__(
        self,
        suit_tiebreak: bool,
        bonus: list[list[int]],
        sweep_multiplier: int,
        super_multiplier: int,
        super_players: Sequence[int],
        majority_bonus: int,
        foul_points: int,
        dragon_points: int,
        special_points: Mapping[str, int] = ...,
    ) -> None: ...

class SusunEvModel:
    def __init__(
        self,
        win: list[list[float]],
        tie: list[list[float]],
        loss: list[list[float]],
        opponents: int,
        rules: SusunRules | None = None,
        card_removal: bool = False,
    ) -> None: ...
    @property
    def card_removal(self) -> bool: ...

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

_TablePlayer = (
    tuple[list[int], list[int], bool, bool] | tuple[list[int], list[int], bool, bool, str | None]
)

def susun_score_table(
    players: Sequence[_TablePlayer],
    rules: SusunRules,
) -> tuple[list[int], list[list[int]], list[list[list[int]]], list[list[int]], list[bool]]: ...
def susun_holds_special(hand: CardsLike, special: str) -> bool: ...
def susun_best_special(hand: CardsLike, rules: SusunRules) -> str | None: ...
def susun_special_rows(
    hand: CardsLike, special: str
) -> tuple[list[int], list[int], list[int]] | None: ...
def susun_bot_choice(
    hand: CardsLike, rules: SusunRules, strategy: str, model: SusunEvModel | None
) -> tuple[list[int], list[int], list[int], float, str | None]: ...

SUSUN_DEEP_HANDS: int
SUSUN_DEEP_CANDIDATES: int
SUSUN_MAX_DEEP_CANDIDATES: int
SUSUN_DEEP_BANK: int
SUSUN_DEEP_MIN_BANK: int
SUSUN_DEEP_MAX_BANK: int
SUSUN_DEEP_SERVER_BANK_STEP: int

def susun_deep_choice(
    hand: CardsLike,
    rules: SusunRules,
    players: int,
    model: SusunEvModel,
    hands: int = ...,
    candidates: int = ...,
    time_ms: float = 0.0,
    seed: int = 0,
    bank: int = ...,
    bank_step: int = 0,
) -> tuple[list[int], list[int], list[int], float, str | None]: ...
def susun_deep_bank_codes(
    rules: SusunRules, model: SusunEvModel, first: int, last: int
) -> npt.NDArray[np.uint32]: ...
def susun_deep_ship_bank(
    rules: SusunRules, model: SusunEvModel, codes: npt.ArrayLike, check: int = 64
) -> bool: ...
def susun_table_seed(seed: int, g: int) -> int: ...
def susun_simulate_tables(
    rules: SusunRules,
    players: int,
    strategies: list[str],
    models: list[SusunEvModel | None],
    seed: int,
    first: int,
    count: int,
    threads: int = 1,
    duplicate: bool = False,
    deep_hands: int = ...,
    deep_time_ms: float = 0.0,
    deep_candidates: int = ...,
    deep_bank: int = ...,
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]: ...

# Hold'em equity (capsa_fast/equity.hpp)
COMBO_NAMES: tuple[str, ...]
CLASS_NAMES: tuple[str, ...]
COMBO_CLASS: tuple[int, ...]

def parse_range(text: str) -> tuple[list[int], list[float]]: ...
def equity(
    players: list[str | list[int]],
    board: CardsLike,
    dead: CardsLike,
    method: int,
    samples: int,
    target_stderr: float,
    max_exact_work: float,
    time_limit: float,
    threads: int,
    seed: int,
    exact_work_cap: float = 0.0,
) -> dict[str, object]: ...
def equity_table(
    villain: str | list[int],
    board: CardsLike,
    dead: CardsLike,
    method: int,
    samples: int,
    target_stderr: float,
    max_exact_work: float,
    time_limit: float,
    threads: int,
    seed: int,
    exact_work_cap: float = 0.0,
) -> dict[str, object]: ...

# The batch route's body reader and answer writer (cpp/include/capsa_fast/batch_json.hpp).
def read_batch_json(
    body: bytes | bytearray | memoryview, max_hands: int, max_issues: int, sizes: int, width: int
) -> tuple[
    str | None,
    list[tuple[str, str]],
    int,
    int,
    npt.NDArray[np.uint8] | None,
    npt.NDArray[np.uint8] | None,
]: ...
def write_batch_response(strengths: npt.NDArray[np.int32]) -> bytes: ...
