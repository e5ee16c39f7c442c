"""The card model of RULES.md section 1: ids, parsing, formatting and input errors.

Every card id is rank_index * 4 + suit_index (2c = 0, As = 51, the phevaluator ids), and
every way a person writes a card (T or 10, any case, c d h s or suit symbols, with or
without spaces) must give that id. Bad input must be rejected with a message that names
the offending token, the repeated card or the wrong count, because that message is what a
user (or an API client) sees.
"""

from __future__ import annotations

import capsa_fast
import pytest
from hypothesis import given
from hypothesis import strategies as st

RANKS = "23456789TJQKA"
SUITS = "cdhs"
CANONICAL = [rank + suit for rank in RANKS for suit in SUITS]
SUIT_SYMBOLS = {"c": "♣♧", "d": "♦♢", "h": "♥♡", "s": "♠♤"}


def test_canonical_ids_of_all_52_cards() -> None:
    assert capsa_fast.format_cards(list(range(52))) == CANONICAL
    assert capsa_fast.parse_cards(CANONICAL) == list(range(52))
    assert capsa_fast.parse_cards(" ".join(CANONICAL)) == list(range(52))
    assert capsa_fast.parse_cards("".join(CANONICAL)) == list(range(52))
    for card_id, text in enumerate(CANONICAL):
        assert capsa_fast.card_id(text) == card_id
        assert capsa_fast.format_cards([card_id]) == [text]
        assert capsa_fast.parse_cards(capsa_fast.format_cards([card_id])) == [card_id]


def test_fixed_points_of_the_encoding() -> None:
    assert capsa_fast.card_id("2c") == 0
    assert capsa_fast.card_id("2d") == 1
    assert capsa_fast.card_id("3c") == 4
    assert capsa_fast.card_id("Ts") == 35
    assert capsa_fast.card_id("As") == 51


def test_ten_is_written_t_or_10() -> None:
    assert capsa_fast.parse_cards("10h") == capsa_fast.parse_cards("Th") == [34]
    assert capsa_fast.parse_cards("10h 10s") == [34, 35]
    assert capsa_fast.parse_cards("10hJh") == [34, 38]
    assert capsa_fast.format_cards(capsa_fast.parse_cards("10c")) == ["Tc"]
    assert capsa_fast.card_id("10d") == capsa_fast.card_id("td") == 33


def test_any_case() -> None:
    expected = [51, 42, 33]
    for text in ["As Qh Td", "as qh td", "AS QH TD", "aS qH tD", "As qh 10D"]:
        assert capsa_fast.parse_cards(text) == expected, text


def test_unicode_suits() -> None:
    assert capsa_fast.parse_cards("A♠ K♦ 10♥ 3♣") == capsa_fast.parse_cards("As Kd Th 3c")
    assert capsa_fast.parse_cards("A♤ K♢ 10♡ 3♧") == capsa_fast.parse_cards("As Kd Th 3c")
    assert capsa_fast.parse_cards("A♠K♦") == [51, 45]
    for suit, symbols in SUIT_SYMBOLS.items():
        for symbol in symbols:
            assert capsa_fast.card_id("Q" + symbol) == capsa_fast.card_id("Q" + suit)


def test_lists_of_text_and_ids() -> None:
    assert capsa_fast.parse_cards(["As", "Kd", "10h", "3♦"]) == [51, 45, 34, 5]
    assert capsa_fast.parse_cards([51, 45, 34, 5]) == [51, 45, 34, 5]
    assert capsa_fast.parse_cards(["As", 45]) == [51, 45]
    assert capsa_fast.parse_cards([]) == []


def test_evaluate_takes_text_as_well_as_ids() -> None:
    from_text = capsa_fast.poker.evaluate(capsa_fast.parse_cards("As Kd 10h 3♦ 2c"))
    from_ids = capsa_fast.poker.evaluate([51, 45, 34, 5, 0])
    assert from_text.strength == from_ids.strength


@st.composite
def written_hands(draw: st.DrawFn) -> tuple[list[int], str]:
    """Distinct cards and one of the many ways a person could write them."""
    cards = draw(st.lists(st.integers(0, 51), min_size=1, max_size=13, unique=True))
    tokens = []
    for card in cards:
        rank, suit = RANKS[card // 4], SUITS[card % 4]
        rank = draw(st.sampled_from(["10", "T", "t"] if rank == "T" else [rank, rank.lower()]))
        suit = draw(st.sampled_from([suit, suit.upper(), *SUIT_SYMBOLS[suit]]))
        tokens.append(rank + suit)
    separator = draw(st.sampled_from([" ", "  ", ""]))
    return cards, separator.join(tokens)


@given(written_hands())
def test_every_way_of_writing_cards_parses_to_the_same_ids(
    hand: tuple[list[int], str],
) -> None:
    cards, text = hand
    assert capsa_fast.parse_cards(text) == cards
    assert capsa_fast.parse_cards(capsa_fast.format_cards(cards)) == cards


@given(st.lists(st.integers(0, 51), min_size=0, max_size=52, unique=True))
def test_format_then_parse_is_the_identity(cards: list[int]) -> None:
    text = capsa_fast.format_cards(cards)
    assert all(len(token) == 2 and token[1] in SUITS for token in text)
    assert capsa_fast.parse_cards(text) == cards
    assert capsa_fast.parse_cards(" ".join(text)) == cards


@pytest.mark.parametrize(
    ("text", "bad_token"),
    [
        ("As Xx", "Xx"),
        ("As 1h", "1h"),
        ("As 11h", "11h"),
        ("Ks Az", "Az"),
        ("Qd Kq", "Kq"),
        ("7s 0c", "0c"),
        ("As K", "K"),
    ],
)
def test_unknown_card_names_the_bad_token(text: str, bad_token: str) -> None:
    with pytest.raises(ValueError, match=bad_token):
        capsa_fast.parse_cards(text)


@pytest.mark.parametrize("token", ["Xx", "A", "Ass", "1s", "", "Az"])
def test_card_id_rejects_a_bad_token(token: str) -> None:
    with pytest.raises(ValueError):
        capsa_fast.card_id(token)


@pytest.mark.parametrize(
    ("cards", "repeated"),
    [
        ("As Kd As", r"\bAs\b"),
        ("As Kd as", r"(?i)\bas\b"),
        ("Th 10h", r"\bTh\b|\b10h\b"),
        ("Q♠ Qs", r"\bQs\b|Q♠"),
        (["2c", 0], r"\b2c\b|\b0\b"),
    ],
)
def test_a_repeated_card_is_named(cards: str | list[str | int], repeated: str) -> None:
    # The message may name the card as written or in canonical form.
    with pytest.raises(ValueError, match=repeated):
        capsa_fast.parse_cards(cards)


@pytest.mark.parametrize("bad_id", [52, -1, 100])
def test_an_id_out_of_range_is_named(bad_id: int) -> None:
    with pytest.raises(ValueError, match=rf"{bad_id}\b"):
        capsa_fast.parse_cards([0, bad_id])
    with pytest.raises(ValueError, match=rf"{bad_id}\b"):
        capsa_fast.format_cards([0, bad_id])


def test_evaluate_with_four_cards_says_four() -> None:
    with pytest.raises(ValueError, match=r"\b4\b"):
        capsa_fast.poker.evaluate(capsa_fast.parse_cards("As Kd Qh Jc"))
