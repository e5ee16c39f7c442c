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

// The rows a seat puts down for a bot's choice: its arrangement's rows, or the declared
// special (a dragon flagged as such).
PlayerRows rows_of(const int* cards13, const BotChoice& choice, const Rules& rules) noexcept;

// The deep strategy (susun_deep.cpp): ev's best `candidates` arrangements (and the
// special the hand holds, if the rules count one) are scored exactly, with the table's
// scoring, against opponents' hands from the cards the seat does not hold, arranged by
// ev; the best value wins, a candidate's value being its mean points per opponent, shrunk
// towards ev's estimate. The opponents: with `bank` > 0 (the default), the hands of a bank
// of `bank` random hands arranged by ev (made once per model and rules, on first use: from
// the shipped codes, ship_deep_bank, in tens of milliseconds, else by arranging every hand,
// about 3.5 s for the default on two cores) that share no card with the seat's, about
// bank / 78 of them, each scored as one opponent (the super at larger tables estimated);
// with bank = 0, sampled tables: `hands` opponent hands dealt and arranged per decision
// (samples = hands / opponents, every opponent of the table dealt, so sweeps and supers
// count as they would), or with time_ms > 0 sampling until that time has passed (not
// reproducible). The bank and the samples are drawn from fixed seeds (`seed` and the hand
// for samples), so a hand gets the same answer every time.
struct DeepBudget {
  // 100 since ev's search by bottom row (2026-12-01) made each sampled hand 1.76x faster:
  // the same time as the 60 before, and deep - ev at four players +0.30 -> +0.33.
  static constexpr int kDefaultHands = 100;
  int hands = kDefaultHands;
  // ev's best arrangements tried (1..128). More cost almost nothing (each sample is
  // arranged once, whatever the count) and find more: in duplicate deals deep - ev went
  // from +0.226 (16) to +0.279 (48) heads-up under two-four, +0.282 to +0.299 at four;
  // 96 since 2026-12-02 (2% more time than 48): +0.214 -> +0.228 heads-up, +0.313 ->
  // +0.330 at four over 8,000 deals.
  int candidates = 96;
  double time_ms = 0;
  std::uint64_t seed = 0;
  // The bank's size (0: sample). Duplicate deals against ev: deep -
  // ev a deal +0.017 heads-up (two-four, 40,000 deals) and +0.043 at four (capsa-susun,
  // 12,000) with 262,144 hands, against +0.011 and +0.021 sampling 100 hands a decision,
  // in less time (1.1-2.3 ms a decision against 2.8); a bank of 131,072 gained less.
  static constexpr int kDefaultBank = 262'144;
  static constexpr int kMinBank = 20'000;
  static constexpr int kMaxBank = 1'000'000;
  int bank = kDefaultBank;
  // 0: a bank not built yet is built whole by the decision that needs it (3.6 s on two
  // cores at the default size). n > 0: each decision arranges n more of its hands and
  // samples until the bank is whole, so no decision waits for a whole bank (a server's).
  static constexpr int kServerBankStep = 16'384;
  int bank_step = 0;
};
BotChoice deep_choice(const int* cards13, const Rules& rules, int players, const EvModel* model,
                      const DeepBudget& budget);

// Deep's banks shipped with the package (python/capsa_fast/susun/data/deep_banks): the
// first decision with a bank whose arrangements were shipped builds it from them in tens of
// milliseconds instead of arranging every hand (3.6 s on two cores at the default size).
// A bank's arrangements are codes, one a hand: two bits per card in id order, the row ev
// puts it in (0 top, 1 middle, 2 bottom), and above them (bit 26) the special it declares.
// deep_bank_codes: ev's codes for the bank's hands [first, last) under this model and
// rules (the generator writes them; on up to four threads). ship_deep_bank: the codes of a
// whole bank (its size: codes.size(), kMinBank..kMaxBank) for this model and rules, kept
// with the model; `check` hands spread over the bank are arranged again and must give the
// same codes, else false (nothing kept). A code that does not decode is arranged again.
std::vector<std::uint32_t> deep_bank_codes(const Rules& rules, const EvModel& model, int first, int last);
bool ship_deep_bank(const Rules& rules, const EvModel& model, std::vector<std::uint32_t> codes, int check);

// Points of player 0 at a table, exactly as score_table() counts them (a test checks the
// two agree); `opp_sweeps_rest[j]` says whether player j (j >= 1) sweeps every other
// opponent, which does not depend on player 0 (used for supers).
int first_player_points(const PlayerRows* rows, int players, const bool* opp_sweeps_rest,
                        const Rules& rules) noexcept;
// Points of a against b alone, a's three plain wins multiplied by mult_a, b's by mult_b
// (the sweep or super multiplier), as score_table() counts them between the two.
int pair_points(const PlayerRows& a, const PlayerRows& b, int mult_a, int mult_b,
                const Rules& rules) noexcept;
// Whether player i sweeps player j (wins all three rows, or j fouled; never a special).
bool sweeps(const PlayerRows& i, const PlayerRows& j, const Rules& rules) noexcept;

// A whole table: each seat's hand (13 ids), strategy and ev model (for kEv and deep). The
// seats arrange or declare as bot_choice (or deep_choice, for `deep`) says; points[seat]
// receives the table's net points.
struct SeatBot {
  Strategy strategy = Strategy::kEv;
  const EvModel* model = nullptr;
  bool deep = false;
  DeepBudget budget;
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

// Duplicate tables: table g is dealt as in simulate_tables() and played once per
// rotation k = 0 .. players-1, seat s taking lineup[(s + players - k) % players] (lineup
// holds one bot per seat), so every lineup entry plays every hand of the deal. Writes
// points[(g - first) * players + i]: entry i's points summed over the rotations. A hand's
// choice under a bot is made once and reused across rotations. Thread-safe for distinct
// output ranges.
void simulate_tables_duplicate(const Rules& rules, int players, const std::vector<SeatBot>& lineup,
                               std::uint64_t seed, std::uint64_t first, int count, int* points);

// The deal seed of simulated table g (45 bits, so it can be shown as a round code).
std::uint64_t table_seed(std::uint64_t seed, std::uint64_t g) noexcept;

}  // namespace capsa_fast::susun
