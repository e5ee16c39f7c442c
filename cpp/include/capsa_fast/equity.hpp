// Texas Hold'em equity (RULES.md section 2 order): hands and PokerStove ranges, exact
// enumeration or Monte Carlo, built on poker::Hand.
//
// A player holds a range: weighted starting hands ("combos", two distinct cards). Equity is
// the share of the pot a player wins on average when every player is dealt one combo of
// their range, with probability proportional to the product of the combos' weights among
// the deals in which no card is dealt twice (combos that collide with each other, the board
// or the dead cards are skipped, as the established calculators do), and the board is then
// completed uniformly from the cards left.
//
// Methods (chosen by estimated cost unless Options::method says otherwise):
//   matchups  every deal of combos is settled on its own: preflop by board rank patterns
//             (every board's non-flush strength depends only on its ranks, so the 6,175
//             five-rank patterns are counted once each and boards that can make a flush
//             corrected suit by suit), later streets by dealing every remaining board.
//             Deals that are the same up to a permutation of suits are settled once.
//   boards    heads-up only: every board is dealt once and all pairs of combos that fit
//             it are settled together (each range sorted by strength, then prefix sums
//             with card-removal corrections).
//   Monte Carlo: heads-up, random boards settled as above (a ratio estimator); three or
//             more players, random deals of combos and board.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace capsa_fast::equity {

inline constexpr int kNumCombos = 1326;
inline constexpr int kNumClasses = 169;
inline constexpr int kMaxPlayers = 10;

// Combo index of two distinct cards (any order): hi * (hi - 1) / 2 + lo for lo < hi, so
// 0 = 2c2d ... 1325 = AhAs.
constexpr int combo_index(int a, int b) noexcept {
  return a < b ? b * (b - 1) / 2 + a : a * (a - 1) / 2 + b;
}
// The two cards of a combo, lower id first. Contract: 0 <= index < kNumCombos.
void combo_cards(int index, int& lo, int& hi) noexcept;
// "AhKh" style text of a combo, higher card first.
std::string combo_text(int index);

// The 13 x 13 grid of starting-hand classes, row and column by rank from ace (0) down to
// two (12): pairs on the diagonal, suited hands above it (row < column), offsuit below.
// class = row * 13 + column.
int class_of_combo(int index) noexcept;
// "AA", "AKs", "AKo".
std::string class_name(int cls);

// A weighted set of combos, ascending by combo index, each once, weights in (0, 1].
struct Range {
  std::vector<std::uint16_t> combos;
  std::vector<double> weights;
  std::size_t size() const noexcept { return combos.size(); }
};

// Parses PokerStove range syntax: tokens separated by commas (or whitespace), each one of
//   AhKh          one combo (two cards)
//   AKs AKo AK    the 4 suited, 12 offsuit or 16 combos of two ranks (either order)
//   QQ            the 6 combos of a pair
//   QQ+ ATs+ AT+  the pair and every higher pair; the kicker and every higher one below
//                 the top card
//   22-99 A5s-A2s KQo-K9o   a run of pairs, or of kickers under the same top card
//   random, any   all 1,326 combos
// each optionally followed by ":weight" (0..1; 0 drops the combos). A combo named twice
// takes the later weight. A text holding exactly two cards ("Ah Kh") is that one combo.
// Throws std::invalid_argument naming the bad token; an empty range is an error too.
Range parse_range(std::string_view text);
// All 1,326 combos, weight 1.
Range full_range();
// The range without the combos holding a card of dead_mask (bit = card id).
Range remove_cards(const Range& range, std::uint64_t dead_mask);

enum class Method : std::uint8_t { kAuto = 0, kExact, kMonteCarlo };

struct Options {
  Method method = Method::kAuto;
  // kAuto enumerates when the estimated work (hand evaluations, about 1 ns each) is at
  // most this; otherwise Monte Carlo.
  double max_exact_work = 4e8;
  // kExact refuses (std::invalid_argument) work estimated above this; 0 = no cap.
  double exact_work_cap = 0;
  // Monte Carlo: draws to make (boards heads-up, deals otherwise); 0 = until the largest
  // standard error of an equity is at most target_stderr, or max_samples draws.
  std::uint64_t samples = 0;
  double target_stderr = 5e-4;
  std::uint64_t max_samples = std::uint64_t{1} << 31;
  // Wall-clock limit in seconds (0 = none): Monte Carlo stops there with what it has, and
  // kAuto does not enumerate work estimated to take longer than half of it. With a time
  // limit or a work cap, an enumeration by deals lists at most 500,000 of them (else
  // 20 million; 4 million for equity_table), which bounds its memory.
  double time_limit = 0;
  int threads = 1;
  std::uint64_t seed = 0;
};

struct Result {
  std::vector<double> equity, win, tie;
  std::vector<double> stderr_each;  // standard error of each equity; 0 when exact
  double stderr_max = 0;
  bool exact = false;
  std::uint64_t showdowns = 0;  // (deal, board) pairs settled
  std::uint64_t samples = 0;    // Monte Carlo draws; 0 when exact
  std::string method;           // "matchups", "boards", "monte_carlo_boards", "monte_carlo_deals"
};

// Equity of 2..10 players. board: 0, 3, 4 or 5 distinct ids; dead: ids out of the deck.
// Throws std::invalid_argument for a bad count, a card in both board and dead, a range
// left empty by the board and dead cards (message "player N: ..."), or ranges that can
// never be dealt together.
Result equity(const std::vector<Range>& players, const std::vector<int>& board,
              const std::vector<int>& dead, const Options& options);

// Every combo against one range (heads-up): per combo index, its win, tie and equity, and
// its weight, the total weight of the villain's combos it can face (0 when it collides
// with the board or dead cards or faces nothing); Monte Carlo also gives each equity's
// standard error. Summing equity * weight over a class and dividing by the class's
// weight gives the class's equity.
struct TableResult {
  std::vector<double> equity, win, tie, weight, stderr_each;  // kNumCombos each
  bool exact = false;
  std::uint64_t showdowns = 0;
  std::uint64_t samples = 0;
  std::string method;
};
TableResult equity_table(const Range& villain, const std::vector<int>& board,
                         const std::vector<int>& dead, const Options& options);

// The slow way, for tests: every deal and every board, each hand through
// poker::evaluate7. Same result fields (exact, method "reference").
Result equity_reference(const std::vector<Range>& players, const std::vector<int>& board,
                        const std::vector<int>& dead);

}  // namespace capsa_fast::equity
