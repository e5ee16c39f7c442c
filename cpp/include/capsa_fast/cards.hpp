// Card model shared by every game (RULES.md section 1).
//
// A card is an integer id 0..51: id = rank_index * 4 + suit_index, with rank_index 0..12
// for 2,3,...,K,A and suit_index 0..3 for c,d,h,s. So 2c = 0, 2d = 1, As = 51 (the same
// ids as phevaluator). Game orders (Big Two ranks, suit orders) sit on top of these ids
// and never change them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace capsa_fast {

using Card = std::uint8_t;

inline constexpr int kDeckSize = 52;
inline constexpr int kNumRanks = 13;
inline constexpr int kNumSuits = 4;
inline constexpr std::string_view kRankChars = "23456789TJQKA";
inline constexpr std::string_view kSuitChars = "cdhs";

constexpr int rank_of(int card) { return card >> 2; }
constexpr int suit_of(int card) { return card & 3; }
constexpr int make_card(int rank, int suit) { return rank * 4 + suit; }

// Parses one card token: a rank (2-9, T or 10, J, Q, K, A; any case) followed by a suit
// (c d h s, any case, or one of the suit symbols in UTF-8). Returns the id, or -1 when
// the token is not a card.
int parse_card(std::string_view token) noexcept;

// Canonical text of a card id ("Ts", "3d"). Contract: 0 <= card < 52.
std::string format_card(int card);

// A token as error messages show it: control characters as \xNN (so no NUL ends the
// message early) and at most 40 bytes, cut at a UTF-8 character boundary, then "...".
std::string printable_token(std::string_view token);

// "not a card: '<token>' (expected ...)", the message for a token that is no card.
std::string bad_card_message(std::string_view token);

// Splits text into card tokens and parses them. Tokens are separated by whitespace or
// commas; a token may also hold several cards written together ("AsKd"). Throws
// std::invalid_argument naming the first bad token or the first duplicate card.
std::vector<int> parse_cards(std::string_view text);

// Throws std::invalid_argument naming the first id outside 0..51 or the first duplicate.
void check_distinct(const int* cards, int n);

}  // namespace capsa_fast
