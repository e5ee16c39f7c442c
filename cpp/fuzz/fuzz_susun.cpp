// Fuzz target: Capsa Susun rows, the arrangement search and table scoring (susun.hpp),
// under rules read from the input (every field of susun::Rules within the ranges
// python/capsa_fast/susun/rules.py allows).
//
// One 13-card hand (sometimes a dragon) is checked against a brute-force walk of all
// 72,072 ordered splits, built from row_key() of each row on its own:
//   - count_valid equals the number of splits with top <= middle <= bottom;
//   - arrange, every strategy and a small top_k: each result's rows are a permutation of
//     the 13 cards and its fouled flag matches the row keys; percentile returns exactly
//     the brute-force top-k totals with exact scores; naive takes the strongest bottom
//     then the strongest middle; ev (with a model) reports the exact expected points of the
//     split it returns, never above the brute-force best (checked in one input in eight,
//     as it costs 72,072 evaluations); ev without a model is percentile;
//   - row_key: no tiebreak is strength * 4; with it, the order of RULES.md 4.1 written out
//     (the ranks of the groups, then the suit of the deciding card, kickers never; flushes
//     by suit first), over every 3- and 5-subset of the hand on one scale; percentile units
//     rise strictly with the key.
// Then score_table for 2-4 players, from arranged, randomly split or raw rows, against the
// scoring of RULES.md 4.2 written out pair by pair: zero-sum, antisymmetric, the row
// winners, supers, multipliers and the points of every pair.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "capsa_fast/poker.hpp"
#include "capsa_fast/susun.hpp"
#include "capsa_fast/susun_table.hpp"
#include "fuzz_input.hpp"

using namespace capsa_fast;
using namespace capsa_fast::susun;
using capsa_fast::fuzz::Input;

namespace {

constexpr int kSuitPosition[4] = {1, 0, 2, 3};  // d < c < h < s, by suit id

Rules read_rules(Input& in) {
  Rules r;
  const std::uint8_t f = in.byte();
  r.suit_tiebreak = !(f & 1);
  switch (f >> 1 & 3) {
    case 0: {  // the capsa-susun bonus table
      r.bonus[kTop][3] = 5;
      r.bonus[kMiddle][6] = 3;
      r.bonus[kMiddle][7] = 14;
      r.bonus[kMiddle][8] = 18;
      r.bonus[kMiddle][kRoyalFlush] = 22;
      r.bonus[kBottom][7] = 7;
      r.bonus[kBottom][8] = 9;
      r.bonus[kBottom][kRoyalFlush] = 11;
      break;
    }
    case 1:
      break;  // no bonus rows
    default:  // any table: the top row only has high card, pair and three of a kind
      for (std::size_t p = 0; p < 3; ++p)
        for (std::size_t c = 0; c < kBonusColumns; ++c) {
          if (p == kTop && c != 0 && c != 1 && c != 3) continue;
          const std::uint8_t b = in.byte();
          if (b >= 160) r.bonus[p][c] = b >= 250 ? in.range(0, 10000) : b - 159;
        }
      break;
  }
  const std::uint8_t m = in.byte();
  r.sweep_multiplier = m < 240 ? 1 + m % 4 : in.range(1, 100);
  const std::uint8_t s = in.byte();
  r.super_multiplier = s < 240 ? s % 6 : in.range(0, 100);
  r.super_players = (in.byte() & 7u) << 2;  // any set of the table sizes 2, 3, 4
  const std::uint8_t j = in.byte();
  r.majority_bonus = j < 240 ? j % 3 : in.range(0, 1000);
  const std::uint8_t fo = in.byte();
  r.foul_points = fo < 240 ? fo % 20 : in.range(0, 10000);
  const std::uint8_t d = in.byte();
  r.dragon_points = d < 128 ? 208 : (d < 192 ? 0 : (d < 250 ? d : static_cast<int>(in.u32() % 100001)));
  return r;
}

// 13 distinct cards; with `dragon`, one of each rank in a shuffled order.
std::array<int, 13> read_hand(Input& in, bool dragon) {
  std::array<int, 13> h{};
  std::uint64_t used = 0;
  for (int i = 0; i < 13; ++i) {
    int c = dragon ? make_card(i, in.byte() & 3) : in.card();
    while (used >> c & 1) c = (c + 1) % kDeckSize;
    used |= std::uint64_t{1} << c;
    h[static_cast<std::size_t>(i)] = c;
  }
  if (dragon)
    for (std::size_t i = 13; i > 1; --i) std::swap(h[i - 1], h[in.byte() % i]);
  return h;
}

bool reference_dragon(const int* c) {
  unsigned ranks = 0;
  for (int i = 0; i < 13; ++i) ranks |= 1u << rank_of(c[i]);
  return ranks == (1u << 13) - 1;
}

// Row keys and percentile units of every 3- and 5-subset of the hand, by position mask.
struct Subsets {
  std::vector<RowKey> key = std::vector<RowKey>(1 << 13);
  std::vector<std::uint32_t> units = std::vector<std::uint32_t>(1 << 13);
  std::vector<unsigned> threes, fives;
  Subsets(const int* hand, bool tb) {
    for (unsigned m = 0; m < (1u << 13); ++m) {
      const int n = __builtin_popcount(m);
      if (n != 3 && n != 5) continue;
      int cs[5];
      int k = 0;
      for (int i = 0; i < 13; ++i)
        if (m >> i & 1) cs[k++] = hand[i];
      key[m] = row_key(cs, n, tb);
      units[m] = percentile_units(key[m], n, tb);
      (n == 3 ? threes : fives).push_back(m);
    }
  }
};

// Every ordered split with top <= middle <= bottom, and its percentile total.
struct Brute {
  int valid = 0;
  std::vector<std::uint64_t> totals;
  explicit Brute(const Subsets& s) {
    constexpr unsigned kAll = (1u << 13) - 1;
    for (const unsigned t : s.threes)
      for (const unsigned m : s.fives) {
        if (m & t) continue;
        const unsigned b = kAll ^ t ^ m;
        if (s.key[t] > s.key[m] || s.key[m] > s.key[b]) continue;
        ++valid;
        totals.push_back(std::uint64_t{s.units[t]} + s.units[m] + s.units[b]);
      }
  }
};

// The row keys of an arranged hand, by position.
struct Rows {
  int top[3], middle[5], bottom[5];
  Rows(const int* hand, const Split& s) {
    for (std::size_t i = 0; i < 3; ++i) top[i] = hand[s.top[i]];
    for (std::size_t i = 0; i < 5; ++i) {
      middle[i] = hand[s.middle[i]];
      bottom[i] = hand[s.bottom[i]];
    }
  }
};

unsigned split_mask(const std::uint8_t* idx, int n) {
  unsigned m = 0;
  for (int i = 0; i < n; ++i) m |= 1u << idx[i];
  return m;
}

void check_split(const Split& s, bool fouled, const Subsets& sub) {
  unsigned all = 0;
  auto take = [&](std::uint8_t i) {
    FUZZ_CHECK(i < 13 && !(all >> i & 1));
    all |= 1u << i;
  };
  for (const auto i : s.top) take(i);
  for (const auto i : s.middle) take(i);
  for (const auto i : s.bottom) take(i);
  FUZZ_CHECK(all == (1u << 13) - 1);
  const RowKey kt = sub.key[split_mask(s.top.data(), 3)];
  const RowKey km = sub.key[split_mask(s.middle.data(), 5)];
  const RowKey kb = sub.key[split_mask(s.bottom.data(), 5)];
  FUZZ_CHECK(fouled == (kt > km || km > kb));
}

std::uint64_t split_units(const Split& s, const Subsets& sub) {
  return std::uint64_t{sub.units[split_mask(s.top.data(), 3)]} + sub.units[split_mask(s.middle.data(), 5)] +
         sub.units[split_mask(s.bottom.data(), 5)];
}

// The order of RULES.md 4.1 with the suit tiebreak, packed into one integer: category,
// the flush suit (flushes compare it first), the ranks of the groups (the four; a full
// house's triple and pair; the triple; the pairs, higher first; the pair; a straight's top
// card; every rank of a high-card hand or a flush, a missing one lowest), then the suit
// (d < c < h < s) of the highest card of the group compared first. Kickers are left out.
std::uint32_t reference_order(const int* cs, int n) {
  const auto cat = poker::category_of(poker::evaluate(cs, n));
  const bool flush = cat == poker::Category::kFlush;
  int count[13] = {};
  for (int i = 0; i < n; ++i) ++count[rank_of(cs[i])];
  int ranks[5], k = 0;
  if (cat == poker::Category::kStraight || cat == poker::Category::kStraightFlush) {
    int top = 12;
    while (count[top] == 0) --top;
    ranks[k++] = top == 12 && count[0] ? 3 : top;  // A-2-3-4-5 is five high
  } else {
    const bool every_rank = cat == poker::Category::kHighCard || flush;
    for (int size = 4; size >= 1; --size)
      for (int r = 12; r >= 0; --r)
        if (count[r] == size && (size >= 2 || every_rank)) ranks[k++] = r;
  }
  int suit = 0;
  for (int i = 0; i < n; ++i)
    if (rank_of(cs[i]) == ranks[0]) suit = std::max(suit, kSuitPosition[suit_of(cs[i])]);
  std::uint32_t v = static_cast<std::uint32_t>(cat) << 2;
  v |= static_cast<std::uint32_t>(flush ? kSuitPosition[suit_of(cs[0])] : 0);
  for (int j = 0; j < 5; ++j) v = v << 4 | static_cast<std::uint32_t>(j < k ? ranks[j] + 1 : 0);
  return v << 2 | static_cast<std::uint32_t>(flush ? 0 : suit);
}

// row_key against the order of the rules (poker strength without the tiebreak,
// reference_order with it), 3- and 5-card rows together, and percentile units rising with
// the key within a size.
void check_row_keys(const int* hand, const Subsets& sub, bool tb) {
  struct Seen {
    std::uint32_t ref;
    RowKey key;
  };
  std::vector<Seen> order;
  for (const auto* list : {&sub.threes, &sub.fives}) {
    std::vector<std::pair<RowKey, std::uint32_t>> seen;
    for (const unsigned m : *list) {
      int cs[5];
      int n = 0;
      for (int i = 0; i < 13; ++i)
        if (m >> i & 1) cs[n++] = hand[i];
      const RowKey key = sub.key[m];
      FUZZ_CHECK(key < kNumRowKeys);
      const poker::Strength st = poker::evaluate(cs, n);
      if (!tb) FUZZ_CHECK(key == st * 4);
      order.push_back({tb ? reference_order(cs, n) : st, key});
      // The same cards in another order give the same key.
      std::reverse(cs, cs + n);
      FUZZ_CHECK(row_key(cs, n, tb) == key);
      const std::uint32_t u = sub.units[m];
      FUZZ_CHECK(u > 0 && u <= kPercentileDenominator);
      seen.emplace_back(key, u);
    }
    std::sort(seen.begin(), seen.end());
    for (std::size_t i = 1; i < seen.size(); ++i) {
      if (seen[i].first == seen[i - 1].first) FUZZ_CHECK(seen[i].second == seen[i - 1].second);
      else FUZZ_CHECK(seen[i].second > seen[i - 1].second);
    }
  }
  // Sorted by the reference, the keys rise with it and are equal exactly where it is.
  std::sort(order.begin(), order.end(), [](const Seen& a, const Seen& b) { return a.ref < b.ref; });
  for (std::size_t i = 1; i < order.size(); ++i) {
    if (order[i].ref == order[i - 1].ref) FUZZ_CHECK(order[i].key == order[i - 1].key);
    else FUZZ_CHECK(order[i].key > order[i - 1].key);
  }
}

int reference_bonus(poker::Strength st, Position pos, const Rules& r) {
  const auto& row = r.bonus[static_cast<std::size_t>(pos)];
  if (st == poker::kMaxStrength && row[kRoyalFlush] != 0) return row[kRoyalFlush];
  return row[static_cast<std::size_t>(poker::category_of(st))];
}

// Win, tie and loss curves for the ev strategy: one that rises with the key like a real
// model, and one whose values jump around (any probabilities must be safe to search).
EvModel make_model(bool smooth) {
  EvModel m;
  std::uint64_t x = 0x9E3779B97F4A7C15ull;
  for (std::size_t p = 0; p < 3; ++p) {
    m.win[p].resize(kNumRowKeys);
    m.tie[p].resize(kNumRowKeys);
    m.loss[p].resize(kNumRowKeys);
    for (std::size_t k = 0; k < static_cast<std::size_t>(kNumRowKeys); ++k) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      const float u = static_cast<float>(x >> 40) / static_cast<float>(1 << 24);
      const float w = smooth ? static_cast<float>(k) / static_cast<float>(kNumRowKeys) : u;
      m.win[p][k] = w;
      m.tie[p][k] = (1.0f - w) * (smooth ? 0.01f : u);
      m.loss[p][k] = 1.0f + (smooth ? 0.0f : 5.0f * u);
    }
  }
  m.pack();
  return m;
}
// Built on first use, one per shape and table size (opponents 1..3).
const EvModel& model(bool smooth, int opponents) {
  static EvModel models[2][3];
  EvModel& m = models[smooth ? 0 : 1][opponents - 1];
  if (!m.loaded()) {
    m = make_model(smooth);
    m.opponents = opponents;
  }
  return m;
}

void check_arrangements(Input& in, const int* hand, const Rules& rules, const Subsets& sub,
                        const Brute& brute) {
  const std::uint8_t kb = in.byte();
  const int k = kb < 240 ? 1 + kb % 6 : in.range(1, 40);
  const std::uint8_t which = in.byte();

  // Percentile: exactly the brute-force top-k totals, best first, with exact scores.
  const std::vector<Arrangement> pct = arrange(hand, rules, Strategy::kPercentile, k, nullptr);
  std::vector<std::uint64_t> top = brute.totals;
  std::sort(top.rbegin(), top.rend());
  top.resize(std::min<std::size_t>(top.size(), static_cast<std::size_t>(k)));
  if (brute.valid == 0) {
    FUZZ_CHECK(pct.size() == 1 && pct[0].fouled);
  } else {
    FUZZ_CHECK(pct.size() == top.size());
  }
  for (std::size_t i = 0; i < pct.size(); ++i) {
    check_split(pct[i].split, pct[i].fouled, sub);
    if (brute.valid == 0) continue;
    FUZZ_CHECK(!pct[i].fouled);
    const std::uint64_t u = split_units(pct[i].split, sub);
    FUZZ_CHECK(u == top[i]);
    FUZZ_CHECK(pct[i].score == static_cast<double>(u) / kPercentileDenominator);
  }
  for (std::size_t i = 0; i < pct.size(); ++i)
    for (std::size_t j = i + 1; j < pct.size(); ++j)
      FUZZ_CHECK(split_mask(pct[i].split.top.data(), 3) != split_mask(pct[j].split.top.data(), 3) ||
                 split_mask(pct[i].split.middle.data(), 5) != split_mask(pct[j].split.middle.data(), 5));

  switch (which % 3) {
    case 0: {  // naive: the strongest bottom, then the strongest middle of the rest
      const std::vector<Arrangement> nv = arrange(hand, rules, Strategy::kNaive, k, nullptr);
      FUZZ_CHECK(nv.size() == 1);
      check_split(nv[0].split, nv[0].fouled, sub);
      const unsigned bottom = split_mask(nv[0].split.bottom.data(), 5);
      RowKey best_bottom = 0, best_middle = 0;
      for (const unsigned m : sub.fives) best_bottom = std::max(best_bottom, sub.key[m]);
      for (const unsigned m : sub.fives)
        if (!(m & bottom)) best_middle = std::max(best_middle, sub.key[m]);
      FUZZ_CHECK(sub.key[bottom] == best_bottom);
      FUZZ_CHECK(sub.key[split_mask(nv[0].split.middle.data(), 5)] == best_middle);
      break;
    }
    case 1: {  // ev without a model searches as percentile does
      const std::vector<Arrangement> ev = arrange(hand, rules, Strategy::kEv, k, nullptr);
      FUZZ_CHECK(ev.size() == pct.size());
      for (std::size_t i = 0; i < ev.size(); ++i) {
        check_split(ev[i].split, ev[i].fouled, sub);
        FUZZ_CHECK(ev[i].score == pct[i].score);
      }
      break;
    }
    default: {  // ev with a model: exact expected points of valid splits, best first
      const EvModel* mp = &model((which & 4) != 0, in.range(1, 3));
      const std::vector<Arrangement> ev = arrange(hand, rules, Strategy::kEv, k, mp);
      FUZZ_CHECK(!ev.empty() && ev.size() <= static_cast<std::size_t>(std::max(brute.valid, 1)));
      FUZZ_CHECK(ev.size() <= static_cast<std::size_t>(k));
      auto points = [&](unsigned t, unsigned m, unsigned b) {
        const unsigned rows[3] = {t, m, b};
        float p[3], tie[3], lv[3];
        int bonus[3];
        for (int r = 0; r < 3; ++r) {
          const float* f = mp->at(sub.key[rows[r]], r);
          p[r] = f[0];
          tie[r] = f[1];
          lv[r] = f[2];
          int cs[5];
          int n = 0;
          for (int i = 0; i < 13; ++i)
            if (rows[r] >> i & 1) cs[n++] = hand[i];
          bonus[r] = reference_bonus(poker::evaluate(cs, n), static_cast<Position>(r), rules);
        }
        return expected_points(p, tie, lv, bonus, rules, mp->opponents);
      };
      for (std::size_t i = 0; i < ev.size(); ++i) {
        const Split& s = ev[i].split;
        check_split(s, ev[i].fouled, sub);
        if (brute.valid > 0) FUZZ_CHECK(!ev[i].fouled);
        const double want = points(split_mask(s.top.data(), 3), split_mask(s.middle.data(), 5),
                                   split_mask(s.bottom.data(), 5));
        FUZZ_CHECK(std::fabs(ev[i].score - want) <= 1e-9 * std::max(1.0, std::fabs(want)));
        if (i > 0) FUZZ_CHECK(ev[i].score <= ev[i - 1].score);
      }
      if (which & 0xE0) break;  // the brute-force bound in one input in eight
      constexpr unsigned kAll = (1u << 13) - 1;
      double best = -HUGE_VAL;
      for (const unsigned t : sub.threes)
        for (const unsigned m : sub.fives) {
          if (m & t) continue;
          const unsigned b = kAll ^ t ^ m;
          if (sub.key[t] > sub.key[m] || sub.key[m] > sub.key[b]) continue;
          best = std::max(best, points(t, m, b));
        }
      FUZZ_CHECK(ev[0].score <= best + 1e-9 * std::max(1.0, std::fabs(best)));
      break;
    }
  }
}

// RULES.md 4.2 for one pair: the points i wins from j.
struct Reference {
  const std::vector<PlayerRows>& p;
  const Rules& r;
  bool dragon(std::size_t i) const { return r.dragon_points > 0 && p[i].dragon; }
  int row(std::size_t i, std::size_t j, std::size_t k) const {
    return p[i].key[k] > p[j].key[k] ? 1 : (p[i].key[k] < p[j].key[k] ? -1 : 0);
  }
  bool sweeps(std::size_t i, std::size_t j) const {
    if (dragon(j)) return false;
    if (p[j].fouled) return true;
    return row(i, j, 0) == 1 && row(i, j, 1) == 1 && row(i, j, 2) == 1;
  }
  bool super(std::size_t i) const {
    if (r.super_multiplier == 0 || !(r.super_players >> p.size() & 1u)) return false;
    if (p[i].fouled || dragon(i)) return false;
    for (std::size_t j = 0; j < p.size(); ++j)
      if (j != i && !sweeps(i, j)) return false;
    return true;
  }
  int bonus_sum(std::size_t i) const { return p[i].bonus[0] + p[i].bonus[1] + p[i].bonus[2]; }
  // Points i wins from j and the multiplier on i's plain rows.
  std::pair<int, int> points(std::size_t i, std::size_t j) const {
    if (dragon(i) || dragon(j)) {
      if (dragon(i) && dragon(j)) return {0, 1};
      return {dragon(i) ? r.dragon_points : -r.dragon_points, 1};
    }
    if (p[i].fouled && p[j].fouled) return {0, 1};
    if (p[j].fouled) return {r.foul_points + bonus_sum(i), 1};
    if (p[i].fouled) return {-(r.foul_points + bonus_sum(j)), 1};
    int won[2] = {0, 0}, value[2] = {0, 0};
    int plain[2] = {0, 0};
    for (std::size_t k = 0; k < 3; ++k) {
      const int w = row(i, j, k);
      if (w == 0) continue;
      const std::size_t who = w > 0 ? 0 : 1;
      const int b = p[who == 0 ? i : j].bonus[k];
      ++won[who];
      if (b > 0) value[who] += b;
      else ++plain[who];
    }
    int mult[2] = {1, 1};
    if (won[0] == 3) mult[0] = super(i) ? r.super_multiplier : r.sweep_multiplier;
    if (won[1] == 3) mult[1] = super(j) ? r.super_multiplier : r.sweep_multiplier;
    int pts = plain[0] * mult[0] + value[0] - plain[1] * mult[1] - value[1];
    if (won[0] > won[1]) pts += r.majority_bonus;
    if (won[1] > won[0]) pts -= r.majority_bonus;
    return {pts, mult[0]};
  }
};

void check_table(Input& in, const int* hand, const Arrangement& mine, const Rules& rules) {
  const int n = in.range(2, 4);
  std::vector<PlayerRows> players;
  for (int i = 0; i < n; ++i) {
    PlayerRows p;
    const std::uint8_t how = in.byte();
    if (i == 0) {  // the hand arranged above
      const Rows rw(hand, mine.split);
      p = player_rows(rw.top, rw.middle, rw.bottom, rules);
      p.dragon = is_dragon(hand);
    } else if (how < 192) {  // another hand, split as the input says (often fouled)
      const std::array<int, 13> h = read_hand(in, how < 8);
      Split s;
      std::array<std::uint8_t, 13> order;
      for (std::uint8_t j = 0; j < 13; ++j) order[j] = j;
      for (std::size_t j = 13; j > 1; --j) std::swap(order[j - 1], order[in.byte() % j]);
      std::copy(order.begin(), order.begin() + 3, s.top.begin());
      std::copy(order.begin() + 3, order.begin() + 8, s.middle.begin());
      std::copy(order.begin() + 8, order.end(), s.bottom.begin());
      const Rows rw(h.data(), s);
      p = player_rows(rw.top, rw.middle, rw.bottom, rules);
      p.dragon = is_dragon(h.data());
    } else {  // raw rows: any keys, bonuses and flags
      for (auto& k : p.key) k = static_cast<RowKey>(in.u16() % kNumRowKeys);
      for (auto& b : p.bonus) b = in.byte() < 224 ? 0 : in.range(1, 10000);
      p.fouled = in.flag();
      p.dragon = in.flag();
    }
    players.push_back(p);
  }
  const TableResult res = score_table(players, rules);
  const auto un = static_cast<std::size_t>(n);
  FUZZ_CHECK(res.points.size() == un && res.between.size() == un && res.row_winner.size() == un &&
             res.multiplier.size() == un && res.super_player.size() == un);
  const Reference ref{players, rules};
  long long total = 0;
  for (std::size_t i = 0; i < un; ++i) {
    total += res.points[i];
    long long sum = 0;
    FUZZ_CHECK(res.between[i][i] == 0);
    FUZZ_CHECK(res.super_player[i] == ref.super(i));
    for (std::size_t j = 0; j < un; ++j) {
      sum += res.between[i][j];
      FUZZ_CHECK(res.between[i][j] == -res.between[j][i]);
      for (std::size_t k = 0; k < 3; ++k) {
        FUZZ_CHECK(res.row_winner[i][j][k] == ref.row(i, j, k));
        FUZZ_CHECK(res.row_winner[i][j][k] == -res.row_winner[j][i][k]);
      }
      if (i == j) continue;
      const auto [pts, mult] = ref.points(i, j);
      FUZZ_CHECK(res.between[i][j] == pts);
      FUZZ_CHECK(res.multiplier[i][j] == mult);
    }
    FUZZ_CHECK(sum == res.points[i]);
  }
  FUZZ_CHECK(total == 0);
}

}  // namespace

// A hand built to hold a special (six pairs, three flushes or three straights) from the
// input's bytes; a repeated card makes it fall back to the last good one.
std::array<int, 13> special_hand(Input& in, int kind) {
  std::array<int, 13> h{};
  std::uint64_t used = 0;
  int n = 0;
  auto add = [&](int card) {
    if (n < 13 && !(used >> card & 1)) {
      used |= std::uint64_t{1} << card;
      h[static_cast<std::size_t>(n++)] = card;
    }
  };
  for (int tries = 0; n < 13 && tries < 64; ++tries) {
    if (kind == 0) {  // pairs of ranks, then a single
      const int r = in.range(0, 12);
      add(r * 4 + in.range(0, 3));
      add(r * 4 + in.range(0, 3));
    } else if (kind == 1) {  // rows of one suit each
      const int suit = in.range(0, 3);
      const int row = n < 3 ? 3 : 5;
      const int start = n;
      for (int k = 0; k < 13 && n < start + row; ++k) add(in.range(0, 12) * 4 + suit);
    } else {  // runs: 3 from A-2-3 .. Q-K-A, 5 from A-2-3-4-5 .. 10-J-Q-K-A
      const int len = n < 3 ? 3 : 5;
      const int first = len == 3 ? in.range(0, 11) : in.range(0, 9);
      for (int k = 0; k < len; ++k) add(((first + 12 + k) % 13) * 4 + in.range(0, 3));
    }
  }
  for (int c = 0; n < 13; ++c) add(c);  // fill up whatever did not fit
  return h;
}

// Special hands against the slow way: six pairs by rank counts, three flushes and three
// straights by trying every split; the rows shown must be the hand and hold the special.
void check_specials(const std::array<int, 13>& hand) {
  int counts[13] = {};
  for (const int c : hand) ++counts[rank_of(c)];
  int pairs = 0;
  for (const int k : counts) pairs += k / 2;
  FUZZ_CHECK(holds_special(hand.data(), Special::kSixPairs) == (pairs >= 6));
  auto suited = [&](const int* idx, int k) {
    for (int i = 1; i < k; ++i)
      if (suit_of(hand[static_cast<std::size_t>(idx[i])]) != suit_of(hand[static_cast<std::size_t>(idx[0])])) return false;
    return true;
  };
  auto run = [&](const int* idx, int k) {
    unsigned ranks = 0;
    for (int i = 0; i < k; ++i) ranks |= 1u << rank_of(hand[static_cast<std::size_t>(idx[i])]);
    for (int first = 0; first < 13; ++first) {  // lowest rank read upward, A as 12 before 2
      if (k == 3 && first == 11) continue;      // K-A-2 is no run
      if (k == 5 && first >= 9 && first != 12) continue;
      unsigned want = 0;
      for (int i = 0; i < k; ++i) want |= 1u << ((first + i) % 13);
      if (want == ranks) return true;
    }
    return false;
  };
  bool flushes = false, straights = false;
  int top[3], mid[5], bot[5];
  for (unsigned t = 0; t < (1u << 13); ++t) {
    if (__builtin_popcount(t) != 3) continue;
    const unsigned rest = ((1u << 13) - 1) & ~t;
    for (unsigned m = rest; m; m = (m - 1) & rest) {  // every subset of the other ten
      if (__builtin_popcount(m) != 5) continue;
      int a = 0, b = 0, c = 0;
      for (int i = 0; i < 13; ++i) {
        if (t >> i & 1) top[a++] = i;
        else if (m >> i & 1) mid[b++] = i;
        else bot[c++] = i;
      }
      flushes = flushes || (suited(top, 3) && suited(mid, 5) && suited(bot, 5));
      straights = straights || (run(top, 3) && run(mid, 5) && run(bot, 5));
    }
  }
  FUZZ_CHECK(holds_special(hand.data(), Special::kThreeFlushes) == flushes);
  FUZZ_CHECK(holds_special(hand.data(), Special::kThreeStraights) == straights);
  for (const Special sp : {Special::kThreeFlushes, Special::kThreeStraights}) {
    Split shown;
    const bool has = special_rows(hand.data(), sp, &shown);
    FUZZ_CHECK(has == holds_special(hand.data(), sp));
    if (!has) continue;
    unsigned seen = 0;
    int ti[3], mi[5], bi[5];
    for (int i = 0; i < 3; ++i) seen |= 1u << (ti[i] = shown.top[static_cast<std::size_t>(i)]);
    for (int i = 0; i < 5; ++i) seen |= 1u << (mi[i] = shown.middle[static_cast<std::size_t>(i)]);
    for (int i = 0; i < 5; ++i) seen |= 1u << (bi[i] = shown.bottom[static_cast<std::size_t>(i)]);
    FUZZ_CHECK(seen == (1u << 13) - 1);
    const bool ok = sp == Special::kThreeFlushes
                        ? suited(ti, 3) && suited(mi, 5) && suited(bi, 5)
                        : run(ti, 3) && run(mi, 5) && run(bi, 5);
    FUZZ_CHECK(ok);
  }
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  const Rules rules = read_rules(in);
  const std::array<int, 13> hand = read_hand(in, in.byte() < 16);
  FUZZ_CHECK(is_dragon(hand.data()) == reference_dragon(hand.data()));

  const Subsets sub(hand.data(), rules.suit_tiebreak);
  const Brute brute(sub);
  FUZZ_CHECK(count_valid(hand.data(), rules) == brute.valid);
  check_row_keys(hand.data(), sub, rules.suit_tiebreak);
  check_arrangements(in, hand.data(), rules, sub, brute);

  // player_rows of the best arrangement: its keys, foul and bonus values.
  const Arrangement best = arrange(hand.data(), rules, Strategy::kPercentile, 1, nullptr).front();
  const Rows rw(hand.data(), best.split);
  const PlayerRows p = player_rows(rw.top, rw.middle, rw.bottom, rules);
  FUZZ_CHECK(p.key[0] == row_key(rw.top, 3, rules.suit_tiebreak));
  FUZZ_CHECK(p.key[1] == row_key(rw.middle, 5, rules.suit_tiebreak));
  FUZZ_CHECK(p.key[2] == row_key(rw.bottom, 5, rules.suit_tiebreak));
  FUZZ_CHECK(p.fouled == best.fouled && !p.dragon);
  FUZZ_CHECK(p.bonus[0] == reference_bonus(poker::evaluate(rw.top, 3), kTop, rules));
  FUZZ_CHECK(p.bonus[1] == reference_bonus(poker::evaluate(rw.middle, 5), kMiddle, rules));
  FUZZ_CHECK(p.bonus[2] == reference_bonus(poker::evaluate(rw.bottom, 5), kBottom, rules));
  FUZZ_CHECK(p.bonus[0] == bonus_value(poker::evaluate(rw.top, 3), kTop, rules));

  check_table(in, hand.data(), best, rules);
  // One hand a run (the splits are walked the slow way): the dealt one or one built to hold
  // a special (with whatever the input breaks of it).
  const int kind = in.range(0, 3);
  check_specials(kind == 3 ? hand : special_hand(in, kind));
  return 0;
}
