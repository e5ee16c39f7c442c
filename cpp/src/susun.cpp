#include "capsa_fast/susun.hpp"

#include <algorithm>
#include <cmath>

// Percentile units per row key (cpp/tools/gen_susun.cpp).
#include "susun_tables.inc"

namespace capsa_fast::susun {
namespace {

constexpr unsigned kAll13 = (1u << 13) - 1;

// Everything the split search reads, per subset of the 13 positions (a 13-bit mask).
// Only the entries of 3- and 5-subsets are written and read, so nothing is zeroed.
struct SubsetTables {
  std::array<RowKey, 8192> key;            // 3- and 5-subsets
  std::array<std::uint32_t, 8192> units;   // percentile units (3- and 5-subsets)
  std::array<poker::Strength, 8192> strength;
};

// Per strength: the rank whose highest suit breaks ties, and whether it is a flush.
struct TiebreakInfo {
  std::array<std::int8_t, poker::kMaxStrength + 1> rank{};
  std::array<bool, poker::kMaxStrength + 1> flush{};
  int flush_first = 0, flush_span = 0;
  TiebreakInfo() {
    for (int st = 1; st <= poker::kMaxStrength; ++st) {
      const poker::Description d = poker::describe(static_cast<poker::Strength>(st));
      rank[static_cast<std::size_t>(st)] = static_cast<std::int8_t>(d.ranks[0]);
      flush[static_cast<std::size_t>(st)] = d.category == poker::Category::kFlush;
    }
    flush_first = poker::category_start(static_cast<int>(poker::Category::kFlush));
    flush_span = poker::category_start(static_cast<int>(poker::Category::kFlush) + 1) - flush_first;
  }
};
const TiebreakInfo kTiebreak;
constexpr int kSuitPosition[4] = {1, 0, 2, 3};  // d < c < h < s, by suit id

// The same key as row_key(), from a strength and the subset's positions in the hand.
inline RowKey tiebreak_key(poker::Strength st, unsigned subset, const int* cards13,
                           const unsigned* rank_positions) {
  if (kTiebreak.flush[st]) {
    const int suit = kSuitPosition[suit_of(cards13[__builtin_ctz(subset)])];
    return static_cast<RowKey>(kTiebreak.flush_first * 4 + suit * kTiebreak.flush_span +
                               (st - kTiebreak.flush_first));
  }
  int best = 0;
  for (unsigned m = subset & rank_positions[kTiebreak.rank[st]]; m; m &= m - 1)
    best = std::max(best, kSuitPosition[suit_of(cards13[__builtin_ctz(m)])]);
  return static_cast<RowKey>(st * 4 + best);
}

void build_tables(const int* cards13, const Rules& rules, bool with_units, SubsetTables& t) {
  const bool tb = rules.suit_tiebreak;
  const std::uint32_t* u3 = tb ? tables::kUnits3Tiebreak : tables::kUnits3Plain;
  const std::uint32_t* u5 = tb ? tables::kUnits5Tiebreak : tables::kUnits5Plain;
  unsigned rank_positions[13] = {};
  for (int i = 0; i < 13; ++i) rank_positions[rank_of(cards13[i])] |= 1u << i;
  auto key_of = [&](poker::Strength st, unsigned subset) {
    return tb ? tiebreak_key(st, subset, cards13, rank_positions) : static_cast<RowKey>(st * 4);
  };
  for (int a = 0; a < 13; ++a)
    for (int b = a + 1; b < 13; ++b)
      for (int d = b + 1; d < 13; ++d) {
        const unsigned m3 = 1u << a | 1u << b | 1u << d;
        const poker::Strength s3 = poker::evaluate3(cards13[a], cards13[b], cards13[d]);
        const RowKey k3 = key_of(s3, m3);
        t.key[m3] = k3;
        t.strength[m3] = s3;
        if (with_units) t.units[m3] = u3[k3];
        for (int e = d + 1; e < 13; ++e)
          for (int f = e + 1; f < 13; ++f) {
            const unsigned m5 = m3 | 1u << e | 1u << f;
            const poker::Strength s5 =
                poker::evaluate5(cards13[a], cards13[b], cards13[d], cards13[e], cards13[f]);
            const RowKey k5 = key_of(s5, m5);
            t.key[m5] = k5;
            t.strength[m5] = s5;
            if (with_units) t.units[m5] = u5[k5];
          }
      }
}

// Every arrangement of 13 positions, fixed once for all hands: for each of the 286 top
// rows, the 126 ways to split the other 10 positions into two unordered 5-sets. With a top
// row fixed, each split is one arrangement: the stronger five is the bottom row and the
// weaker one the middle row. Streaming this 144 KB table keeps the search loop to a few
// loads and compares per arrangement.
struct Splits {
  std::array<std::uint16_t, 286> top{};
  std::array<std::uint16_t, 1287> five{};
  std::array<std::array<std::array<std::uint16_t, 2>, 126>, 286> fives{};
  Splits() {
    int n = 0;
    for (int a = 0; a < 13; ++a)
      for (int b = a + 1; b < 13; ++b)
        for (int d = b + 1; d < 13; ++d) {
          const unsigned t = 1u << a | 1u << b | 1u << d;
          top[static_cast<std::size_t>(n)] = static_cast<std::uint16_t>(t);
          const unsigned rest = kAll13 ^ t;
          const unsigned first = rest & (~rest + 1);
          int m = 0;
          for (unsigned x = rest; x; x = (x - 1) & rest) {  // every subset of rest
            if (!(x & first) || __builtin_popcount(x) != 5) continue;
            fives[static_cast<std::size_t>(n)][static_cast<std::size_t>(m++)] = {
                static_cast<std::uint16_t>(x), static_cast<std::uint16_t>(rest ^ x)};
          }
          ++n;
        }
    int f = 0;
    for (unsigned x = 0; x < (1u << 13); ++x)
      if (__builtin_popcount(x) == 5) five[static_cast<std::size_t>(f++)] = static_cast<std::uint16_t>(x);
  }
};
const Splits& splits() {
  static const Splits s;
  return s;
}

template <class F>
inline void for_each_split(F&& f) {
  const Splits& s = splits();
  for (std::size_t i = 0; i < 286; ++i) f(s.top[i], s.fives[i]);
}

Split split_of(unsigned top, unsigned middle, unsigned bottom) {
  Split s;
  int i = 0;
  for (unsigned m = top; m; m &= m - 1) s.top[static_cast<std::size_t>(i++)] = static_cast<std::uint8_t>(__builtin_ctz(m));
  i = 0;
  for (unsigned m = middle; m; m &= m - 1) s.middle[static_cast<std::size_t>(i++)] = static_cast<std::uint8_t>(__builtin_ctz(m));
  i = 0;
  for (unsigned m = bottom; m; m &= m - 1) s.bottom[static_cast<std::size_t>(i++)] = static_cast<std::uint8_t>(__builtin_ctz(m));
  return s;
}

struct Candidate {
  double score;
  unsigned top, middle, bottom;
};

// Keeps the k best candidates, best first (k is small: a linear insertion suffices).
class TopK {
 public:
  explicit TopK(int k) : k_(static_cast<std::size_t>(std::max(k, 1))) {}
  double threshold() const {
    return items_.size() < k_ ? -HUGE_VAL : items_.back().score;
  }
  void offer(const Candidate& c) {
    if (items_.size() == k_ && !(c.score > items_.back().score)) return;
    auto at = std::upper_bound(items_.begin(), items_.end(), c,
                               [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
    items_.insert(at, c);
    if (items_.size() > k_) items_.pop_back();
  }
  const std::vector<Candidate>& items() const { return items_; }

 private:
  std::size_t k_;
  std::vector<Candidate> items_;
};

}  // namespace

std::uint32_t percentile_units(RowKey key, int n, bool suit_tiebreak) noexcept {
  if (n == 3) return (suit_tiebreak ? tables::kUnits3Tiebreak : tables::kUnits3Plain)[key];
  return (suit_tiebreak ? tables::kUnits5Tiebreak : tables::kUnits5Plain)[key];
}

int count_valid(const int* cards13, const Rules& rules) noexcept {
  SubsetTables t;
  build_tables(cards13, rules, false, t);
  int count = 0;
  for_each_split([&](unsigned top, const auto& fives) {
    const RowKey kt = t.key[top];
    for (const auto& xy : fives) {
      const RowKey kx = t.key[xy[0]], ky = t.key[xy[1]];
      // Valid with the weaker five in the middle; both ways round when the fives tie.
      count += static_cast<int>(std::min(kx, ky) >= kt) * (1 + static_cast<int>(kx == ky));
    }
  });
  return count;
}

PlayerRows player_rows(const int* top3, const int* middle5, const int* bottom5,
                       const Rules& rules) noexcept {
  PlayerRows p;
  const bool tb = rules.suit_tiebreak;
  p.key = {row_key(top3, 3, tb), row_key(middle5, 5, tb), row_key(bottom5, 5, tb)};
  p.fouled = p.key[0] > p.key[1] || p.key[1] > p.key[2];
  const poker::Strength st[3] = {poker::evaluate3(top3[0], top3[1], top3[2]),
                                 poker::evaluate5(middle5[0], middle5[1], middle5[2], middle5[3], middle5[4]),
                                 poker::evaluate5(bottom5[0], bottom5[1], bottom5[2], bottom5[3], bottom5[4])};
  for (int r = 0; r < 3; ++r) p.bonus[static_cast<std::size_t>(r)] = bonus_value(st[r], static_cast<Position>(r), rules);
  return p;
}

std::vector<Arrangement> arrange(const int* cards13, const Rules& rules, Strategy strategy,
                                 int k, const EvModel* model) {
  SubsetTables t;
  build_tables(cards13, rules, true, t);
  TopK best(k);
  if (strategy == Strategy::kNaive) {
    // The strongest bottom row, then the strongest middle row from the other eight cards.
    unsigned bottom = 0;
    for (const std::uint16_t m : splits().five)
      if (bottom == 0 || t.key[m] > t.key[bottom]) bottom = m;
    unsigned middle = 0, top = 0;
    for (const std::uint16_t tp : splits().top) {
      if (tp & bottom) continue;
      const unsigned mid = kAll13 ^ bottom ^ tp;
      if (middle == 0 || t.key[mid] > t.key[middle]) {
        middle = mid;
        top = tp;
      }
    }
    best.offer({static_cast<double>(t.units[top] + t.units[middle] + t.units[bottom]) /
                    kPercentileDenominator, top, middle, bottom});
  } else if (strategy == Strategy::kPercentile || model == nullptr || !model->loaded()) {
    // Exact integer scores: no rounding can reorder two splits.
    std::uint32_t floor_units = 0;
    for_each_split([&](unsigned top, const auto& fives) {
      const RowKey kt = t.key[top];
      const std::uint32_t ut = t.units[top];
      for (const auto& xy : fives) {
        const unsigned x = xy[0], y = xy[1];
        const std::uint32_t total = ut + t.units[x] + t.units[y];
        if (total < floor_units) continue;
        const unsigned middle = t.key[x] <= t.key[y] ? x : y;
        const unsigned bottom = x ^ y ^ middle;
        if (t.key[middle] < kt) continue;
        best.offer({static_cast<double>(total), top, middle, bottom});
        if (t.key[x] == t.key[y]) best.offer({static_cast<double>(total), top, bottom, middle});
        if (best.threshold() > 0) floor_units = static_cast<std::uint32_t>(best.threshold());
      }
    });
  } else {
    // Phase 1: a linear score per split (each row's expected points on its own) keeps
    // the best candidates; phase 2 ranks those by the full expected points.
    constexpr int kCandidates = 48;
    std::array<float, 8192> lin_mid, lin_bot, lin_top;
    auto row_value = [&](unsigned mask, int pos) {
      const std::size_t key = t.key[mask];
      const int b = bonus_value(t.strength[mask], static_cast<Position>(pos), rules);
      const auto q = static_cast<std::size_t>(pos);
      const float lose = 1.0f - model->win[q][key] - model->tie[q][key];
      return model->win[q][key] * static_cast<float>(b > 0 ? b : 1) - lose * model->loss[q][key];
    };
    for (const std::uint16_t m : splits().top) lin_top[m] = row_value(m, kTop);
    for (const std::uint16_t m : splits().five) {
      lin_mid[m] = row_value(m, kMiddle);
      lin_bot[m] = row_value(m, kBottom);
    }
    TopK shortlist(kCandidates);
    double floor_score = -HUGE_VAL;
    for_each_split([&](unsigned top, const auto& fives) {
      const RowKey kt = t.key[top];
      for (const auto& xy : fives) {
        const unsigned x = xy[0], y = xy[1];
        const unsigned middle = t.key[x] <= t.key[y] ? x : y;
        const unsigned bottom = x ^ y ^ middle;
        if (t.key[middle] < kt) continue;
        const double lin = static_cast<double>(lin_top[top]) + lin_mid[middle] + lin_bot[bottom];
        if (lin < floor_score) continue;
        shortlist.offer({lin, top, middle, bottom});
        floor_score = shortlist.threshold();
      }
    });
    for (const Candidate& c : shortlist.items()) {
      float p[3], tie[3], lv[3];
      int bonus[3];
      const unsigned rows[3] = {c.top, c.middle, c.bottom};
      for (std::size_t r = 0; r < 3; ++r) {
        const std::size_t key = t.key[rows[r]];
        p[r] = model->win[r][key];
        tie[r] = model->tie[r][key];
        lv[r] = model->loss[r][key];
        bonus[r] = bonus_value(t.strength[rows[r]], static_cast<Position>(r), rules);
      }
      best.offer({expected_points(p, tie, lv, bonus, rules, model->opponents), c.top, c.middle,
                  c.bottom});
    }
  }
  std::vector<Arrangement> out;
  for (const Candidate& c : best.items()) {
    Arrangement a;
    a.split = split_of(c.top, c.middle, c.bottom);
    const bool units = strategy == Strategy::kPercentile || model == nullptr || !model->loaded();
    a.score = strategy != Strategy::kNaive && units ? c.score / kPercentileDenominator : c.score;
    a.fouled = t.key[c.top] > t.key[c.middle] || t.key[c.middle] > t.key[c.bottom];
    out.push_back(a);
  }
  return out;
}

double expected_points(const float* p, const float* t, const float* lossv, const int* bonus,
                       const Rules& rules, int opponents) noexcept {
  double l[3], plain = 0, linear = 0;
  for (int r = 0; r < 3; ++r) {
    l[r] = std::max(0.0, 1.0 - p[r] - t[r]);
    const double v = bonus[r] > 0 ? bonus[r] : 1;
    linear += p[r] * v - l[r] * lossv[r];
    plain += bonus[r] > 0 ? 0 : 1;
  }
  const double sweep = static_cast<double>(p[0]) * p[1] * p[2];
  const double swept = l[0] * l[1] * l[2];
  // A sweep multiplies our plain rows; being swept, theirs (taken as plain: bonus rows
  // are rare and their value is already in lossv).
  double extra = (rules.sweep_multiplier - 1) * (sweep * plain - swept * 3.0);
  if (rules.super_multiplier > 0 && opponents + 1 >= rules.super_min_players) {
    // Sweeping every opponent (taken as independent) lifts the sweep to the super multiplier.
    double all = 1;
    for (int o = 0; o < opponents; ++o) all *= sweep;
    extra += (rules.super_multiplier - rules.sweep_multiplier) * all * plain;
  }
  if (rules.majority_bonus != 0) {
    // P(more rows won than lost) - P(more lost than won), over the 27 row outcomes.
    double more = 0, fewer = 0;
    const double q[3][3] = {{p[0], t[0], l[0]}, {p[1], t[1], l[1]}, {p[2], t[2], l[2]}};
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b)
        for (int c = 0; c < 3; ++c) {
          const int w = (a == 0) + (b == 0) + (c == 0);
          const int lo = (a == 2) + (b == 2) + (c == 2);
          const double pr = q[0][a] * q[1][b] * q[2][c];
          if (w > lo) more += pr;
          if (lo > w) fewer += pr;
        }
    extra += rules.majority_bonus * (more - fewer);
  }
  return linear + extra;
}

TableResult score_table(const std::vector<PlayerRows>& players, const Rules& rules) {
  const std::size_t n = players.size();
  TableResult res;
  res.points.assign(n, 0);
  res.between.assign(n, std::vector<int>(n, 0));
  res.row_winner.assign(n, std::vector<std::array<int, 3>>(n, {0, 0, 0}));
  res.multiplier.assign(n, std::vector<int>(n, 1));
  res.super_player.assign(n, false);
  const bool dragons_on = rules.dragon_points > 0;
  auto dragon = [&](std::size_t i) { return dragons_on && players[i].dragon; };
  // Row results between two non-fouled, non-dragon players.
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      for (int r = 0; r < 3; ++r) {
        const RowKey a = players[i].key[static_cast<std::size_t>(r)];
        const RowKey b = players[j].key[static_cast<std::size_t>(r)];
        res.row_winner[i][j][static_cast<std::size_t>(r)] = a > b ? 1 : (a < b ? -1 : 0);
      }
  auto sweeps = [&](std::size_t i, std::size_t j) {
    if (dragon(j)) return false;  // a dragon cannot be swept
    if (players[j].fouled) return true;
    const auto& w = res.row_winner[i][j];
    return w[0] == 1 && w[1] == 1 && w[2] == 1;
  };
  const bool super_table = rules.super_multiplier > 0 &&
                           static_cast<int>(n) >= rules.super_min_players;
  for (std::size_t i = 0; i < n && super_table; ++i) {
    if (players[i].fouled || dragon(i)) continue;
    bool all = true;
    for (std::size_t j = 0; j < n; ++j)
      if (j != i) all = all && sweeps(i, j);
    res.super_player[i] = all;
  }
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      int pts = 0;  // points i wins from j
      const PlayerRows& a = players[i];
      const PlayerRows& b = players[j];
      if (dragon(i) || dragon(j)) {
        pts = dragon(i) && dragon(j) ? 0 : (dragon(i) ? rules.dragon_points : -rules.dragon_points);
      } else if (a.fouled || b.fouled) {
        if (!(a.fouled && b.fouled)) {
          const PlayerRows& winner = a.fouled ? b : a;
          const int amount = rules.foul_points + winner.bonus[0] + winner.bonus[1] + winner.bonus[2];
          pts = a.fouled ? -amount : amount;
        }
      } else {
        const auto& w = res.row_winner[i][j];
        int wins_i = 0, wins_j = 0, plain_i = 0, plain_j = 0, bonus_i = 0, bonus_j = 0;
        for (std::size_t r = 0; r < 3; ++r) {
          if (w[r] > 0) {
            ++wins_i;
            if (a.bonus[r] > 0) bonus_i += a.bonus[r];
            else ++plain_i;
          } else if (w[r] < 0) {
            ++wins_j;
            if (b.bonus[r] > 0) bonus_j += b.bonus[r];
            else ++plain_j;
          }
        }
        int mult_i = 1, mult_j = 1;
        if (wins_i == 3) mult_i = res.super_player[i] ? rules.super_multiplier : rules.sweep_multiplier;
        if (wins_j == 3) mult_j = res.super_player[j] ? rules.super_multiplier : rules.sweep_multiplier;
        pts = plain_i * mult_i + bonus_i - plain_j * mult_j - bonus_j;
        if (wins_i > wins_j) pts += rules.majority_bonus;
        if (wins_j > wins_i) pts -= rules.majority_bonus;
        res.multiplier[i][j] = wins_i == 3 ? mult_i : 1;
        res.multiplier[j][i] = wins_j == 3 ? mult_j : 1;
      }
      res.between[i][j] = pts;
      res.between[j][i] = -pts;
      res.points[i] += pts;
      res.points[j] -= pts;
    }
  }
  return res;
}

}  // namespace capsa_fast::susun
