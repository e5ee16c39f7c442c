// Susun row keys and bonus rows: the parts of susun.hpp that the build-time percentile
// generator (cpp/tools/gen_susun.cpp) also needs.
#include <algorithm>
#include <array>

#include "capsa_fast/susun.hpp"

namespace capsa_fast::susun {

namespace {
// Susun suit order d < c < h < s, indexed by suit id (c d h s).
constexpr int kSuitPosition[4] = {1, 0, 2, 3};

// How many of a description's ranks are group ranks (the rest are kickers).
int group_ranks(const poker::Description& d) {
  switch (d.category) {
    case poker::Category::kPair:
    case poker::Category::kThreeOfAKind:
    case poker::Category::kFourOfAKind:
      return 1;
    case poker::Category::kTwoPair:
      return 2;
    default:  // high card and flush: every rank; straights: their top card; full house: both
      return d.n_ranks;
  }
}

// group_strength() for every strength. Strengths run in poker order (category, then the
// deciding ranks high to low), so the strengths sharing a category and group ranks are
// consecutive and the last of each run is the strongest.
struct GroupTable {
  std::array<poker::Strength, poker::kMaxStrength + 1> top{};
  GroupTable() {
    auto same_groups = [](const poker::Description& a, const poker::Description& b) {
      const int n = group_ranks(a);
      if (a.category != b.category || group_ranks(b) != n) return false;  // AKQ vs AKQ32
      return std::equal(a.ranks.begin(), a.ranks.begin() + n, b.ranks.begin());
    };
    int run_end = poker::kMaxStrength;
    for (int s = poker::kMaxStrength; s >= 1; --s) {
      const auto st = static_cast<poker::Strength>(s);
      if (s < poker::kMaxStrength &&
          !same_groups(poker::describe(st), poker::describe(static_cast<poker::Strength>(s + 1))))
        run_end = s;
      top[static_cast<std::size_t>(s)] = static_cast<poker::Strength>(run_end);
    }
  }
};
}  // namespace

poker::Strength group_strength(poker::Strength s) noexcept {
  static const GroupTable table;
  return table.top[s];
}

RowKey row_key(const int* cards, int n, bool suit_tiebreak) noexcept {
  const poker::Strength s = n == 3 ? poker::evaluate3(cards[0], cards[1], cards[2])
                                   : poker::evaluate5(cards[0], cards[1], cards[2], cards[3], cards[4]);
  if (!suit_tiebreak) return static_cast<RowKey>(s * 4);
  const poker::Description d = poker::describe(s);
  if (d.category == poker::Category::kFlush) {
    // Suit first, then ranks: the 1,277 flush classes repeated once per suit, in suit order.
    const int first = poker::category_start(static_cast<int>(poker::Category::kFlush));
    const int span = poker::category_start(static_cast<int>(poker::Category::kFlush) + 1) - first;
    return static_cast<RowKey>(first * 4 + kSuitPosition[suit_of(cards[0])] * span + (s - first));
  }
  // The deciding group's rank is the first deciding rank; its highest suit breaks ties.
  const int rank = d.ranks[0];
  int best = 0;
  for (int i = 0; i < n; ++i)
    if (rank_of(cards[i]) == rank) best = std::max(best, kSuitPosition[suit_of(cards[i])]);
  return static_cast<RowKey>(group_strength(s) * 4 + best);
}

int bonus_value(poker::Strength s, Position pos, const Rules& rules) noexcept {
  const auto& row = rules.bonus[static_cast<std::size_t>(pos)];
  if (s == poker::kMaxStrength && row[kRoyalFlush] != 0) return row[kRoyalFlush];
  return row[static_cast<std::size_t>(poker::category_of(s))];
}

bool is_dragon(const int* cards13) noexcept {
  unsigned ranks = 0;
  for (int i = 0; i < 13; ++i) ranks |= 1u << rank_of(cards13[i]);
  return ranks == (1u << 13) - 1;
}

}  // namespace capsa_fast::susun
