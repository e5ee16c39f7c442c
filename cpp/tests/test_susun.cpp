// Susun engine: count_valid and the percentile search against a brute-force walk of all
// 72,072 splits, percentile tables, and the scoring rules.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>

#include "capsa_fast/cards.hpp"
#include "capsa_fast/susun.hpp"
#include "check.hpp"

using namespace capsa_fast;
using namespace capsa_fast::susun;

namespace {

struct Brute {
  int valid = 0;
  std::uint64_t best_units = 0;
};

// Every split the slow way: choose the bottom five, then the middle five of the rest.
Brute brute_force(const int* hand, const Rules& rules) {
  Brute out;
  const bool tb = rules.suit_tiebreak;
  for (unsigned b = 0; b < 8192; ++b) {
    if (__builtin_popcount(b) != 5) continue;
    for (unsigned m = 0; m < 8192; ++m) {
      if (__builtin_popcount(m) != 5 || (m & b)) continue;
      const unsigned t = 8191u ^ b ^ m;
      int rows[3][5];
      int n[3] = {0, 0, 0};
      for (int i = 0; i < 13; ++i) {
        const int r = (t >> i & 1) ? 0 : ((m >> i & 1) ? 1 : 2);
        rows[r][n[r]++] = hand[i];
      }
      const RowKey kt = row_key(rows[0], 3, tb), km = row_key(rows[1], 5, tb),
                   kb = row_key(rows[2], 5, tb);
      if (kt > km || km > kb) continue;
      ++out.valid;
      const std::uint64_t units = std::uint64_t{percentile_units(kt, 3, tb)} +
                                  percentile_units(km, 5, tb) + percentile_units(kb, 5, tb);
      out.best_units = std::max(out.best_units, units);
    }
  }
  return out;
}

// A model like the shipped one: opponents' rows from hands arranged by percentile.
EvModel simulated_model(const Rules& rules, int hands) {
  std::vector<double> counts[3];
  for (auto& c : counts) c.assign(kNumRowKeys, 0);
  std::mt19937 rng(99);
  std::vector<int> deck(52);
  std::iota(deck.begin(), deck.end(), 0);
  for (int i = 0; i < hands; ++i) {
    std::shuffle(deck.begin(), deck.end(), rng);
    const Arrangement a = arrange(deck.data(), rules, Strategy::kPercentile, 1, nullptr).front();
    int r0[3], r1[5], r2[5];
    for (std::size_t j = 0; j < 3; ++j) r0[j] = deck[a.split.top[j]];
    for (std::size_t j = 0; j < 5; ++j) {
      r1[j] = deck[a.split.middle[j]];
      r2[j] = deck[a.split.bottom[j]];
    }
    counts[0][row_key(r0, 3, rules.suit_tiebreak)] += 1;
    counts[1][row_key(r1, 5, rules.suit_tiebreak)] += 1;
    counts[2][row_key(r2, 5, rules.suit_tiebreak)] += 1;
  }
  EvModel m;
  for (std::size_t p = 0; p < 3; ++p) {
    double total = 0, below = 0;
    for (double c : counts[p]) total += c;
    m.win[p].resize(kNumRowKeys);
    m.tie[p].resize(kNumRowKeys);
    m.loss[p].assign(kNumRowKeys, 1.0f);
    for (std::size_t k = 0; k < static_cast<std::size_t>(kNumRowKeys); ++k) {
      m.win[p][k] = static_cast<float>(below / total);
      m.tie[p][k] = static_cast<float>(counts[p][k] / total);
      below += counts[p][k];
    }
  }
  m.pack();
  return m;
}

// The best expected points of any valid split, the slow way.
double brute_force_ev(const int* hand, const Rules& rules, const EvModel& m) {
  double best = -1e300;
  for (unsigned b = 0; b < 8192; ++b) {
    if (__builtin_popcount(b) != 5) continue;
    for (unsigned mid = 0; mid < 8192; ++mid) {
      if (__builtin_popcount(mid) != 5 || (mid & b)) continue;
      const unsigned t = 8191u ^ b ^ mid;
      int rws[3][5];
      int n[3] = {0, 0, 0};
      for (int i = 0; i < 13; ++i) {
        const int r = (t >> i & 1) ? 0 : ((mid >> i & 1) ? 1 : 2);
        rws[r][n[r]++] = hand[i];
      }
      const RowKey k[3] = {row_key(rws[0], 3, rules.suit_tiebreak),
                           row_key(rws[1], 5, rules.suit_tiebreak),
                           row_key(rws[2], 5, rules.suit_tiebreak)};
      if (k[0] > k[1] || k[1] > k[2]) continue;
      const poker::Strength st[3] = {poker::evaluate(rws[0], 3), poker::evaluate(rws[1], 5),
                                     poker::evaluate(rws[2], 5)};
      float p[3], tie[3], lv[3];
      int bonus[3];
      for (int r = 0; r < 3; ++r) {
        const float* f = m.at(k[r], r);
        p[r] = f[0];
        tie[r] = f[1];
        lv[r] = f[2];
        bonus[r] = bonus_value(st[r], static_cast<Position>(r), rules);
      }
      best = std::max(best, expected_points(p, tie, lv, bonus, rules, m.opponents));
    }
  }
  return best;
}

PlayerRows rows(const char* top, const char* middle, const char* bottom, const Rules& r) {
  const std::vector<int> t = parse_cards(top), m = parse_cards(middle), b = parse_cards(bottom);
  return player_rows(t.data(), m.data(), b.data(), r);
}

}  // namespace

int main() {
  const bool short_run = std::getenv("CAPSA_FAST_SHORT") != nullptr;
  Rules tiebreak;  // the capsa-susun settings; the preset's bonus table lives in Python
  tiebreak.bonus[kMiddle][static_cast<std::size_t>(poker::Category::kFullHouse)] = 3;
  Rules plain;
  plain.suit_tiebreak = false;

  // The strongest rows take almost all of the percentile scale, the weakest almost none.
  const std::vector<int> aces = parse_cards("As Ah Ad");
  const std::vector<int> low = parse_cards("2c 3d 4h");
  CHECK(percentile_units(row_key(aces.data(), 3, true), 3, true) > kPercentileDenominator * 0.999);
  CHECK(percentile_units(row_key(low.data(), 3, true), 3, true) < kPercentileDenominator * 0.01);

  std::mt19937 rng(42);
  std::vector<int> deck(52);
  std::iota(deck.begin(), deck.end(), 0);
  const int hands = short_run ? 2 : 12;
  for (int h = 0; h < hands; ++h) {
    std::shuffle(deck.begin(), deck.end(), rng);
    for (const Rules* r : {&tiebreak, &plain}) {
      const Brute b = brute_force(deck.data(), *r);
      CHECK_EQ(count_valid(deck.data(), *r), b.valid);
      const Arrangement a = arrange(deck.data(), *r, Strategy::kPercentile, 1, nullptr).front();
      CHECK(!a.fouled);
      CHECK(std::abs(a.score * kPercentileDenominator - static_cast<double>(b.best_units)) < 0.5);
      const Arrangement n = arrange(deck.data(), *r, Strategy::kNaive, 1, nullptr).front();
      CHECK(!n.fouled);
    }
  }

  // The ev search (a linear shortlist, then the full expected points) finds the best
  // expected points of all splits in nearly every hand, and comes close otherwise.
  {
    Rules ev_rules = tiebreak;
    ev_rules.bonus[kTop][static_cast<std::size_t>(poker::Category::kThreeOfAKind)] = 5;
    const EvModel model = simulated_model(ev_rules, short_run ? 300 : 5000);
    int exact = 0;
    const int ev_hands = short_run ? 2 : 20;
    for (int h = 0; h < ev_hands; ++h) {
      std::shuffle(deck.begin(), deck.end(), rng);
      const Arrangement a = arrange(deck.data(), ev_rules, Strategy::kEv, 1, &model).front();
      CHECK(!a.fouled);
      const double best = brute_force_ev(deck.data(), ev_rules, model);
      CHECK(a.score <= best + 1e-6);
      CHECK(a.score >= best - 0.5);
      exact += a.score >= best - 1e-6;
    }
    CHECK(exact >= ev_hands - 2);
  }

  // Equal middle and bottom rows: fouled only when the suit tiebreak orders them wrongly.
  const PlayerRows equal_plain = rows("2c 3d 5h", "Kd Kc 9d 7c 4d", "Ks Kh 9s 7s 4s", plain);
  CHECK(!equal_plain.fouled);
  const PlayerRows wrong_suits = rows("2c 3d 5h", "Ks Kh 9s 7s 4s", "Kd Kc 9d 7c 4h", tiebreak);
  CHECK(wrong_suits.fouled);
  // A full house on the bottom is not a bonus row; in the middle it is.
  CHECK_EQ(rows("2c 3d 5h", "6c 6d 6h 9c 9d", "As Ah Ad Kc Kd", tiebreak).bonus[2], 0);
  CHECK_EQ(rows("2c 3d 5h", "6c 6d 6h 9c 9d", "As Ah Ad Ac Kd", tiebreak).bonus[1], 3);

  // Worked example of RULES.md 4.2 (bottom rows only; top and middle rows cancel out in
  // a cycle): A full house, B flush, C straight, D pair of aces.
  std::vector<PlayerRows> table(4);
  const RowKey fh = rows("2c 3d 5h", "6c 7d 8h 9c Jd", "Ks Kh Kd 4c 4d", plain).key[2];
  const RowKey fl = rows("2c 3d 5h", "6c 7d 8h 9c Jd", "2s 5s 7s 9s Js", plain).key[2];
  const RowKey st = rows("2c 3d 5h", "6c 7d 8h 9c Jd", "4h 5c 6d 7s 8c", plain).key[2];
  const RowKey pa = rows("2c 3d 5h", "6c 7d 8h 9c Jd", "Ah Ad 9h 7h 3h", plain).key[2];
  const RowKey bottoms[4] = {fh, fl, st, pa};
  for (int i = 0; i < 4; ++i) {
    table[static_cast<std::size_t>(i)].key = {static_cast<RowKey>(100 + i), static_cast<RowKey>(200 - i), bottoms[i]};
  }
  Rules classic = plain;
  classic.super_multiplier = 0;
  const TableResult res = score_table(table, classic);
  // Top and middle: player i wins top against j < i and middle against j > i, so those
  // two rows split one each between every pair; the bottom decides the rest.
  CHECK_EQ(res.points[0], 3);
  CHECK_EQ(res.points[1], 1);
  CHECK_EQ(res.points[2], -1);
  CHECK_EQ(res.points[3], -3);

  // Sweeps, supers, fouls.
  std::vector<PlayerRows> two(2);
  two[0].key = {10, 20, 30};
  two[1].key = {5, 15, 25};
  CHECK_EQ(score_table(two, tiebreak).points[0], 6);  // swept: 3 plain rows x 2
  two[1].fouled = true;
  two[0].bonus = {0, 3, 0};
  CHECK_EQ(score_table(two, tiebreak).points[0], 15);  // foul 12 + the winner's bonus 3
  two[0].fouled = true;
  CHECK_EQ(score_table(two, tiebreak).points[0], 0);  // two fouled players
  std::vector<PlayerRows> four(4);
  for (int i = 0; i < 4; ++i) four[static_cast<std::size_t>(i)].key = {static_cast<RowKey>(10 + i), static_cast<RowKey>(20 + i), static_cast<RowKey>(30 + i)};
  const TableResult sup = score_table(four, tiebreak);
  CHECK(sup.super_player[3]);
  CHECK_EQ(sup.between[3][0], 12);  // 3 plain rows x super 4
  std::vector<PlayerRows> three(four.begin() + 1, four.end());
  const TableResult no_super = score_table(three, tiebreak);
  CHECK(!no_super.super_player[2]);
  CHECK_EQ(no_super.between[2][0], 6);
  return capsa_fast::testing::finish("test_susun");
}
