// Capsa Susun (13-card Chinese poker): row order, fouls, bonus rows, the arrangement
// search over all 72,072 splits, and table scoring (RULES.md section 4).
//
// Rows compare in poker order (poker.hpp), or with the suit tiebreak in the order of
// RULES.md 4.1 (the ranks of the groups, then a suit, kickers never). A row key puts 3- and
// 5-card rows on one scale, larger = stronger.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "capsa_fast/cards.hpp"
#include "capsa_fast/poker.hpp"

namespace capsa_fast::susun {

enum Position : int { kTop = 0, kMiddle = 1, kBottom = 2 };
// Bonus table columns: the nine poker categories, then the royal flush.
inline constexpr int kRoyalFlush = poker::kNumCategories;
inline constexpr int kBonusColumns = poker::kNumCategories + 1;

// Special hands (RULES.md 4.1 and 4.4), declared instead of arranged. The dragon counts
// when dragon_points > 0, the others when their special_points are > 0.
enum class Special : std::uint8_t { kNone = 0, kSixPairs, kThreeFlushes, kThreeStraights, kDragon };
inline constexpr int kNumSpecials = 5;

struct Rules {
  bool suit_tiebreak = true;
  // bonus[position][category or kRoyalFlush]: the value of a won row of that kind in that
  // position; 0 = not a bonus row. A royal flush without its own entry counts as a
  // straight flush.
  std::array<std::array<int, kBonusColumns>, 3> bonus{};
  int sweep_multiplier = 2;
  int super_multiplier = 4;  // 0 = no super
  // Bit n set: a super counts at a table of n players (n = 2..4). Default: 2 and 4.
  unsigned super_players = 1u << 2 | 1u << 4;
  int majority_bonus = 0;
  int foul_points = 12;
  int dragon_points = 208;  // 0 = dragons are arranged as usual
  // Points of the optional specials, indexed by Special (the kNone and kDragon entries
  // are unused); 0 = not counted (RULES.md 4.4: all 0 but in susun-specials).
  std::array<int, kNumSpecials> special_points{};
};

using RowKey = std::uint16_t;
inline constexpr int kNumRowKeys = (poker::kMaxStrength + 1) * 4;

// True when a super counts at a table of `players` players under these rules.
inline bool super_applies(const Rules& rules, int players) noexcept {
  return rules.super_multiplier > 0 && players >= 2 && players <= 4 &&
         (rules.super_players >> players & 1u) != 0;
}

// Order key of a 3- or 5-card row. Without the suit tiebreak: strength * 4 (poker order).
// With it (RULES.md 4.1): group_strength(strength) * 4 plus the position (d < c < h < s)
// of the suit of the highest card of the deciding group (the rank poker compares first:
// the four, the triple, the higher pair, a straight's top card, the highest card), so
// kickers never decide; flushes order by suit first, then ranks. Contract: distinct ids,
// n = 3 or 5.
RowKey row_key(const int* cards, int n, bool suit_tiebreak) noexcept;

// The strongest strength with the same category and the same group ranks as `s`: the
// four; the triple and the pair of a full house; the triple; both pairs; the pair; a
// straight's top card; every rank of a high-card hand or a flush. Kickers collapse, so
// 3- and 5-card rows with the same groups map to one strength. Contract: 1 <= s <=
// kMaxStrength.
poker::Strength group_strength(poker::Strength s) noexcept;

// Bonus value of a row in a position (0 when it is not a bonus row there).
int bonus_value(poker::Strength s, Position pos, const Rules& rules) noexcept;

// True when the 13 cards hold all 13 ranks.
bool is_dragon(const int* cards13) noexcept;

// P(row) of RULES.md 4.6 as an exact integer in units of 1/kPercentileDenominator:
// (2 * hands beaten + hands tied) scaled so 3- and 5-card rows share one denominator.
inline constexpr std::uint32_t kPercentileDenominator = 25'989'600;  // lcm(2*22100, 2*2598960)
std::uint32_t percentile_units(RowKey key, int n, bool suit_tiebreak) noexcept;

// A split of a 13-card hand: indices into the hand, top 3, middle 5, bottom 5.
struct Split {
  std::array<std::uint8_t, 3> top{};
  std::array<std::uint8_t, 5> middle{};
  std::array<std::uint8_t, 5> bottom{};
};

enum class Strategy : std::uint8_t { kPercentile, kNaive, kEv };

// The strength behind a row key (enough for its category and the royal flush; with the
// tiebreak, the group strength), or 0 for a key outside 1..kMaxStrength's range.
poker::Strength key_strength(int key, bool suit_tiebreak) noexcept;

struct RemovalTables;  // card removal, below
struct DeepBanks;      // deep's banks of arranged hands (susun_table.hpp)
std::shared_ptr<DeepBanks> new_deep_banks();

// Row win-probability curves for the ev strategy: for each position, P(win a row against
// a random realistic opponent's row) as a function of the row key.

struct EvModel {
  std::vector<float> win[3];   // P(our row beats theirs), each kNumRowKeys long
  std::vector<float> tie[3];   // P(rows tie)
  std::vector<float> loss[3];  // expected points a lost row costs (their bonus or 1)
  int opponents = 3;           // table size - 1, for the super term
  bool loaded() const noexcept { return !packed.empty(); }

  // The same figures interleaved per row key, [key][position][win, tie, loss], so that a
  // search touches one cache line per row instead of nine scattered ones. Call after
  // filling the curves.
  std::vector<float> packed;
  void pack();
  const float* at(int key, int position) const noexcept {
    return packed.data() + (static_cast<std::size_t>(key) * 3 + static_cast<std::size_t>(position)) * 3;
  }

  // Each row's expected points on its own under one rule set's bonus rows, [key][position]
  // (win x its value - P(loss) x what a loss costs): the search's first pass reads one
  // float per row, a third of the packed figures. Call after pack(); arrange() uses them
  // when the model was prepared for the rules it is given.
  std::vector<float> linear;
  void prepare(const Rules& rules);
  bool prepared_for(const Rules& rules) const noexcept {
    return !linear.empty() && prepared_tiebreak == rules.suit_tiebreak &&
           prepared_bonus == rules.bonus;
  }
  bool prepared_tiebreak = false;
  std::array<std::array<int, kBonusColumns>, 3> prepared_bonus{};

  // Card removal: when set, arrange() first re-weighs the opponents' row keys by the cards
  // the hand holds (see RemovalTables) and searches with those curves, about 1.27x the
  // time. prepare() builds the tables when this is set (set it first); a model without
  // them, or not prepared for the rules it is given, searches without card removal. Off
  // unless set (the Python package's models set it).
  bool card_removal = false;
  std::shared_ptr<const RemovalTables> removal;
  // The curves given our 13 cards, computed key by key without the runs: the reference
  // the fast path (HandRemoval) is tested against. Fills out's curves (not packed or
  // prepared).
  void condition_on(const int* cards13, const Rules& rules, EvModel& out) const;

  // This model's identity for deep's banks of hands arranged with it (deep_choice, which
  // keeps a few, built on first use), shared by copies: do not change a model's curves
  // after it has played deep.
  std::shared_ptr<DeepBanks> deep_banks = new_deep_banks();
};

// Card removal (issue 15). An opponent's row of a given key is made of cards, and only
// the realizations of that key that avoid our 13 cards can occur: each key's mass is
// multiplied by the share of its realizations free of our cards, and each position's
// masses renormalized. A realization is counted by the groups that define the key only:
// a pair, triple or four of a rank (C(free, k) / C(4, k) for the k cards of it), a full
// house's and two pairs' groups, a straight's five ranks, a straight flush's five cards,
// and for a flush the ways to take five cards of its suit. High-card rows and kickers
// count as free: they are what is left of a hand, which our cards barely steer (counting
// them measured worse), and so does the suit of the tiebreak's deciding card (counting it
// measured the same). The keys fall into runs with one share per hand (a category and the
// same groups), so a hand costs one share per run and a few loads per key.
struct RemovalTables;
std::shared_ptr<const RemovalTables> build_removal_tables(const EvModel& model, const Rules& rules);

// Per row key: its run, and per position the model's mass of its run below it, at it and
// above it.
struct RemovalKey {
  std::uint32_t run;
  std::array<float, 3> below, at, above;
};
// What the search's first pass reads of a key: for a top row (position 0), and for a five
// (the middle and bottom positions); `won` is what our row of that key wins there.
struct RemovalKey3 {
  std::uint32_t run;
  float below, above, won;
};
struct RemovalKey5 {
  std::uint32_t run;
  float below[2], above[2], won[2];
};
// Per run, for one hand: the share, and per position the conditioned mass of the runs
// below it and above it, and the value of those above.
struct RemovalRun {
  float share;
  std::array<float, 3> below, above, above_value;
};

// One hand's conditioned curves, from a model's removal tables.
class HandRemoval {
 public:
  void condition(const RemovalTables& tables, const int* cards13);
  // P(win), P(tie) and the expected cost of a lost row for a row key at a position.
  void at(RowKey key, int position, float out[3]) const noexcept;
  // A row's expected points on its own (P(win) x what it wins - P(loss) x the expected
  // cost of a loss): the search's first pass. As a top row:
  float linear3(RowKey key) const noexcept {
    const RemovalKey3& k = keys3_[key];
    const RemovalRun& r = runs_[k.run];
    return ((r.below[0] + r.share * k.below) * k.won -
            (r.above_value[0] + r.share * k.above * run_value_[k.run * 3])) *
           inv_total_[0];
  }
  // As a middle row and as a bottom row.
  void linear5(RowKey key, float& middle, float& bottom) const noexcept {
    const RemovalKey5& k = keys5_[key];
    const RemovalRun& r = runs_[k.run];
    const float* value = run_value_ + k.run * 3;
    middle = ((r.below[1] + r.share * k.below[0]) * k.won[0] -
              (r.above_value[1] + r.share * k.above[0] * value[1])) *
             inv_total_[1];
    bottom = ((r.below[2] + r.share * k.below[1]) * k.won[1] -
              (r.above_value[2] + r.share * k.above[1] * value[2])) *
             inv_total_[2];
  }

 private:
  const RemovalKey* keys_ = nullptr;
  const RemovalKey3* keys3_ = nullptr;
  const RemovalKey5* keys5_ = nullptr;
  const float* run_value_ = nullptr;  // per run and position
  std::vector<RemovalRun> runs_;
  std::array<float, 3> total_{}, inv_total_{};
};

// Expected points against one opponent of an arrangement whose rows have these win, tie
// and loss-value figures and these bonus values (0 = plain), combining the rows with the
// exact scoring: sweep and super multipliers on plain rows, bonus rows unmultiplied, the
// majority bonus. Rows are treated as independent.
double expected_points(const float* p, const float* t, const float* lossv, const int* bonus,
                       const Rules& rules, int opponents) noexcept;

struct Arrangement {
  Split split;
  double score = 0;  // percentile and naive: P sum; ev: expected points per opponent
  bool fouled = false;
};

// The number of non-fouled splits among the 72,072. Contract: 13 distinct ids.
int count_valid(const int* cards13, const Rules& rules) noexcept;

// The split scans of count_valid and arrange run on the best instruction set the CPU has
// and CAPSA_FAST_ISA allows (capsa_fast/isa.hpp; chosen at the first call): AVX-512 (F,
// BW), AVX2, or portable code, the reference. Every path gives the same results; tests
// force each one in turn.
enum class ScanPath { kAuto, kPortable, kAvx2, kAvx512 };
// Whether `p` may run here: the CPU has it and CAPSA_FAST_ISA allows it (kAuto and
// kPortable always).
bool scan_path_supported(ScanPath p) noexcept;
// Makes `p` the path in use (kAuto: the best supported) and returns true; for a path that
// is not supported, returns false and leaves the path in use as it was. Not for use while
// other threads arrange.
bool force_scan_path(ScanPath p) noexcept;
ScanPath scan_path() noexcept;
// "portable", "avx2", "avx512" ("auto" for kAuto).
const char* scan_path_name(ScanPath p) noexcept;

// For tests of the scan paths: the tables every search reads for this hand, built on the
// path in use (AVX-512 builds them sixteen subsets a step, AVX2 eight, the portable path
// one at a time): each 3-card then 5-card subset's row key, strength and percentile
// units, in the searches' own subset order. Contract: 13 distinct ids.
std::vector<std::uint32_t> subset_tables(const int* cards13, const Rules& rules);

// The most arrangements kEv ranks exactly (and the most deep's candidates can be).
inline constexpr int kMaxEvCandidates = 128;

// The best `k` non-fouled arrangements under `strategy`, best first (fewer if fewer
// exist; a hand with none returns its best fouled split with fouled = true). With kEv,
// the first pass keeps max(32, k) candidates for the exact ranking, at most
// kMaxEvCandidates, so a larger k returns at most that many.
std::vector<Arrangement> arrange(const int* cards13, const Rules& rules, Strategy strategy,
                                 int k, const EvModel* model);

// Table scoring for 2-4 players (RULES.md 4.2). Each player: three row keys and bonus
// values, fouled, dragon. Fills points_between[i][j] = points i wins from j (antisymmetric)
// and row_winner[i][j][r] = 1 / 0 / -1 for i against j in row r.
struct PlayerRows {
  std::array<RowKey, 3> key{};
  std::array<int, 3> bonus{};
  bool fouled = false;
  bool dragon = false;                // the 13 cards hold every rank
  Special special = Special::kNone;   // a special declared instead of the rows
};
struct TableResult {
  std::vector<int> points;
  std::vector<std::vector<int>> between;
  std::vector<std::vector<std::array<int, 3>>> row_winner;
  std::vector<std::vector<int>> multiplier;  // the multiplier applied to plain rows, 1 if none
  std::vector<bool> super_player;
};
TableResult score_table(const std::vector<PlayerRows>& players, const Rules& rules);

// Points and rank of a special under the rules: 0 and 0 when the rules do not count it.
// The dragon outranks the others; the others rank by their points, and two specials of
// equal rank score nothing against each other.
int special_points(Special s, const Rules& rules) noexcept;
int special_rank(Special s, const Rules& rules) noexcept;

// Rows of an arranged player: keys, bonus values, fouled (and never dragon).
PlayerRows player_rows(const int* top3, const int* middle5, const int* bottom5,
                       const Rules& rules) noexcept;

}  // namespace capsa_fast::susun
