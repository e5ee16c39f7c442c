// Capsa Susun at the table (RULES.md 4.1, 4.4, 4.5): special hands, the bots' choice of
// arrangement or declaration, and whole tables dealt, arranged and scored in C++ for the
// tournament tool. Pure C++, no Python.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "capsa_fast/deal.hpp"
#include "capsa_fast/susun.hpp"

namespace capsa_fast::susun {

inline constexpr int kMaxTablePlayers = 4;

// Names as in the API: "six_pairs", "three_flushes", "three_straights", "dragon" ("none"
// for kNone); special_from_name reads them back (false for any other text).
const char* special_name(Special s) noexcept;
bool special_from_name(std::string_view name, Special* out) noexcept;

// Whether 13 distinct cards hold the special (RULES.md 4.4):
//   six_pairs: six pairs and a single card, counting a triple as a pair and a single and
//     four of a kind as two pairs;
//   three_flushes: a split into 3 + 5 + 5 cards, each row of one suit;
//   three_straights: a split into a 3-card run (A-2-3 up to Q-K-A) and two 5-card
//     straights (A-2-3-4-5 up to 10-J-Q-K-A);
//   dragon: all 13 ranks.
bool holds_special(const int* cards13, Special s) noexcept;

// Rows that show three_flushes or three_straights (indices into the hand, as Split), for
// display; false when the hand does not hold it (or for the other specials).
bool special_rows(const int* cards13, Special s, Split* out) noexcept;

// The highest-ranked special of the hand that the rules count (dragons when
// dragon_points > 0, the others when their special_points are > 0), or kNone. Rank:
// the dragon first, then by points.
Special best_special(const int* cards13, const Rules& rules) noexcept;

// What a bot does with its hand: the arrangement of its strategy, and the special it
// declares instead when declaring pays: a dragon always; another special when its points
// are more than the arrangement's expected points per opponent (ev), or always for the
// percentile and naive strategies, whose scores are not points.
struct BotChoice {
  Arrangement arrangement;
  Special declared = Special::kNone;
};
BotChoice bot_choice(const int* cards13, const Rules& rules, Strategy strategy,
                     const EvModel* model);

// A whole table: each seat's hand (13 ids), strategy and ev model (for kEv). The seats
// arrange or declare as bot_choice says; points[seat] receives the table's net points.
struct SeatBot {
  Strategy strategy = Strategy::kEv;
  const EvModel* model = nullptr;
};
void play_table(const std::array<std::array<int, kHandSize>, kMaxTablePlayers>& hands,
                int players, const std::vector<SeatBot>& seats, const Rules& rules,
                int* points);

// Many tables for the tournament tool: table g = first .. first+count-1 is dealt from
// table_seed(seed, g) (shuffled_deck, 13 cards a seat); seat j of table g plays
// seats[(j + g) % seats.size()] (every strategy in every seat equally often). Writes
// points[(g - first) * players + j] and strategy_of[(g - first) * players + j] (the index
// into seats). Thread-safe for distinct output ranges.
void simulate_tables(const Rules& rules, int players, const std::vector<SeatBot>& seats,
                     std::uint64_t seed, std::uint64_t first, int count, int* points,
                     int* strategy_of);

// The deal seed of simulated table g (45 bits, so it can be shown as a round code).
std::uint64_t table_seed(std::uint64_t seed, std::uint64_t g) noexcept;

}  // namespace capsa_fast::susun
