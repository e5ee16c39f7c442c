// Susun engine: count_valid and the percentile search against a brute-force walk of all
// 72,072 splits, percentile tables, and the scoring rules.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "capsa_fast/cards.hpp"
#include "capsa_fast/isa.hpp"
#include "capsa_fast/susun.hpp"
#include "capsa_fast/susun_table.hpp"
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

// RULES.md 4.1 with the suit tiebreak, written out from the text (no row_key, no
// poker::describe): category, the flush suit (flushes compare it first), the ranks of the
// groups (the four; the triple and pair of a full house; the triple; the pairs, higher
// first; the pair; a straight's top card; every rank of a high-card hand or flush, a
// missing one lower than any), then the suit d < c < h < s of the highest card of the
// group compared first. Packed into one integer that compares the same way.
constexpr int kSuitRank[4] = {1, 0, 2, 3};  // c d h s -> d < c < h < s

std::uint32_t reference_order(const int* cards, int n) {
  const auto category = static_cast<int>(poker::category_of(poker::evaluate(cards, n)));
  const bool flush = category == static_cast<int>(poker::Category::kFlush);
  const bool straight = category == static_cast<int>(poker::Category::kStraight) ||
                        category == static_cast<int>(poker::Category::kStraightFlush);
  int count[13] = {};
  for (int i = 0; i < n; ++i) ++count[rank_of(cards[i])];
  std::vector<int> ranks;  // the compared ranks, in order
  if (straight) {
    int top = 12;
    while (count[top] == 0) --top;
    if (top == 12 && count[0] == 1 && count[3] == 1 && count[11] == 0) top = 3;  // A-2-3-4-5
    ranks.push_back(top);
  } else {
    for (int size = 4; size >= 1; --size)
      for (int r = 12; r >= 0; --r)
        if (count[r] == size && (size >= 2 || category == 0 || flush)) ranks.push_back(r);
  }
  int deciding_suit = 0;
  for (int i = 0; i < n; ++i)
    if (rank_of(cards[i]) == ranks[0]) deciding_suit = std::max(deciding_suit, kSuitRank[suit_of(cards[i])]);
  std::uint32_t v = static_cast<std::uint32_t>(category);
  v = v << 2 | static_cast<std::uint32_t>(flush ? kSuitRank[suit_of(cards[0])] : 0);
  for (std::size_t j = 0; j < 5; ++j) v = v << 4 | (j < ranks.size() ? static_cast<std::uint32_t>(ranks[j] + 1) : 0u);
  return v << 2 | static_cast<std::uint32_t>(flush ? 0 : deciding_suit);
}

// Every 3- and 5-card hand: row_key orders them exactly as reference_order with the
// tiebreak, or as poker strength without it (3- and 5-card rows on one scale), and each
// hand's percentile units are (2 * hands of its size below + hands equal) counted in that
// order. With `sample` > 1, the units of one hand in `sample` are checked (every hand
// still takes part in the order and the counts).
void check_order_and_percentiles(bool tb, int sample) {
  struct Entry {
    std::uint32_t ref;
    RowKey key;
    std::uint8_t size;
  };
  std::vector<Entry> all;
  all.reserve(2'598'960 + 22'100);
  int c[5];
  for (c[0] = 0; c[0] < 52; ++c[0])
    for (c[1] = c[0] + 1; c[1] < 52; ++c[1])
      for (c[2] = c[1] + 1; c[2] < 52; ++c[2]) {
        all.push_back({tb ? reference_order(c, 3) : poker::evaluate(c, 3), row_key(c, 3, tb), 3});
        for (c[3] = c[2] + 1; c[3] < 52; ++c[3])
          for (c[4] = c[3] + 1; c[4] < 52; ++c[4])
            all.push_back({tb ? reference_order(c, 5) : poker::evaluate(c, 5), row_key(c, 5, tb), 5});
      }
  std::sort(all.begin(), all.end(), [](const Entry& a, const Entry& b) { return a.ref < b.ref; });
  int order_errors = 0;
  for (std::size_t i = 1; i < all.size(); ++i) {
    const bool same = all[i].ref == all[i - 1].ref;
    order_errors += same ? all[i].key != all[i - 1].key : all[i].key <= all[i - 1].key;
  }
  CHECK_EQ(order_errors, 0);
  for (const int size : {3, 5}) {
    std::vector<std::uint32_t> refs;
    for (const Entry& e : all)
      if (e.size == size) refs.push_back(e.ref);  // still sorted
    const std::uint64_t scale = kPercentileDenominator / (2 * refs.size());
    int unit_errors = 0;
    std::size_t seen = 0;
    for (const Entry& e : all) {
      if (e.size != size || seen++ % static_cast<std::size_t>(sample) != 0) continue;
      const auto lo = std::lower_bound(refs.begin(), refs.end(), e.ref);
      const auto hi = std::upper_bound(lo, refs.end(), e.ref);
      const auto below = static_cast<std::uint64_t>(lo - refs.begin());
      const auto equal = static_cast<std::uint64_t>(hi - lo);
      unit_errors += percentile_units(e.key, size, tb) != (2 * below + equal) * scale;
    }
    CHECK_EQ(unit_errors, 0);
  }
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
    // The answer is the same cards in the same rows whatever order the hand is given in:
    // equal values are ordered by the sorted hand's subsets, not by the search's order.
    for (int h = 0; h < (short_run ? 10 : 100); ++h) {
      std::shuffle(deck.begin(), deck.end(), rng);
      std::vector<int> hand(deck.begin(), deck.begin() + 13), shuffled = hand;
      std::shuffle(shuffled.begin(), shuffled.end(), rng);
      const auto a = arrange(hand.data(), ev_rules, Strategy::kEv, 3, &model);
      const auto b = arrange(shuffled.data(), ev_rules, Strategy::kEv, 3, &model);
      CHECK_EQ(a.size(), b.size());
      auto cards = [](const std::vector<int>& from, const auto& idx) {
        std::vector<int> c;
        for (const auto i : idx) c.push_back(from[i]);
        std::sort(c.begin(), c.end());
        return c;
      };
      for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
        CHECK(a[i].score == b[i].score);
        CHECK(cards(hand, a[i].split.top) == cards(shuffled, b[i].split.top));
        CHECK(cards(hand, a[i].split.middle) == cards(shuffled, b[i].split.middle));
        CHECK(cards(hand, a[i].split.bottom) == cards(shuffled, b[i].split.bottom));
      }
    }
    // A model prepared for the rules (its linear values precomputed per key) searches
    // exactly as one that is not; one prepared for other rules is not used for these.
    EvModel prepared = model;
    prepared.prepare(ev_rules);
    CHECK(prepared.prepared_for(ev_rules) && !prepared.prepared_for(tiebreak));
    for (int h = 0; h < (short_run ? 20 : 300); ++h) {
      std::shuffle(deck.begin(), deck.end(), rng);
      const auto slow = arrange(deck.data(), ev_rules, Strategy::kEv, 3, &model);
      const auto fast = arrange(deck.data(), ev_rules, Strategy::kEv, 3, &prepared);
      CHECK_EQ(slow.size(), fast.size());
      for (std::size_t i = 0; i < slow.size() && i < fast.size(); ++i) {
        CHECK(slow[i].score == fast[i].score);
        CHECK(slow[i].split.top == fast[i].split.top && slow[i].split.middle == fast[i].split.middle);
      }
    }
  }

  // Card removal: the fast curves (runs of keys, one share per run) equal the reference
  // computed key by key; opponents' rows that need cards we hold have no mass; and the
  // search with card removal finds what a search over the reference curves finds.
  for (const Rules& base : {tiebreak, plain}) {
    Rules ev_rules = base;
    ev_rules.bonus[kMiddle][static_cast<std::size_t>(poker::Category::kFullHouse)] = 2;
    EvModel model = simulated_model(ev_rules, short_run ? 300 : 3000);
    model.prepare(ev_rules);
    CHECK(model.removal == nullptr);  // the tables are built only for a model that uses them
    EvModel removal = model;
    removal.card_removal = true;
    removal.prepare(ev_rules);
    CHECK(removal.removal != nullptr);
    HandRemoval fast;
    int worst = 0;
    double worst_gap = 0, worst_score_gap = 0;
    for (int h = 0; h < (short_run ? 4 : 40); ++h) {
      std::shuffle(deck.begin(), deck.end(), rng);
      std::vector<int> hand(deck.begin(), deck.begin() + 13);
      if (h == 0) hand = {48, 49, 50, 51, 44, 45, 46, 47, 0, 5, 10, 15, 20};  // four aces, four kings
      EvModel reference;
      model.condition_on(hand.data(), ev_rules, reference);
      fast.condition(*removal.removal, hand.data());
      for (int key = 0; key < kNumRowKeys; ++key) {
        for (int p = 0; p < 3; ++p) {
          float f[3];
          fast.at(static_cast<RowKey>(key), p, f);
          const auto k = static_cast<std::size_t>(key);
          const auto pp = static_cast<std::size_t>(p);
          const double curve_gap = std::max({std::fabs(f[0] - reference.win[pp][k]), std::fabs(f[1] - reference.tie[pp][k]),
                                       std::fabs(f[2] - reference.loss[pp][k]) / std::max(1.0f, reference.loss[pp][k])});
          // The search's first-pass value.
          const poker::Strength st = key_strength(key, ev_rules.suit_tiebreak);
          const int b = st ? bonus_value(st, static_cast<Position>(p), ev_rules) : 0;
          const double lin = static_cast<double>(b > 0 ? b : 1) * reference.win[pp][k] -
                             (1.0 - reference.win[pp][k] - reference.tie[pp][k]) * reference.loss[pp][k];
          float lin5[2];
          fast.linear5(static_cast<RowKey>(key), lin5[0], lin5[1]);
          const float got = p == 0 ? fast.linear3(static_cast<RowKey>(key)) : lin5[p - 1];
          const double gap = std::max(curve_gap, std::fabs(got - lin));
          if (gap > worst_gap) worst_gap = gap;
          if (gap > 1e-4) ++worst;
        }
      }
      if (h == 0) {
        // No opponent row holds a pair of aces or kings any more.
        int pair[5] = {48, 49, 0, 5, 10}, kings[3] = {44, 45, 20};
        CHECK(reference.tie[kBottom][row_key(pair, 5, ev_rules.suit_tiebreak)] == 0.0f);
        CHECK(reference.tie[kTop][row_key(kings, 3, ev_rules.suit_tiebreak)] == 0.0f);
      }
      reference.pack();
      const auto a = arrange(hand.data(), ev_rules, Strategy::kEv, 1, &removal).front();
      const auto b = arrange(hand.data(), ev_rules, Strategy::kEv, 1, &reference).front();
      worst_score_gap = std::max(worst_score_gap, std::fabs(a.score - b.score));
    }
    std::printf("card removal: %d curve values off by more than 1e-4 (largest %.2g); best scores within %.2g\n",
                worst, worst_gap, worst_score_gap);
    CHECK(worst == 0);
    CHECK(worst_score_gap < 1e-3);
  }

  // Every scan path the CPU has gives the portable path's counts and arrangements (ev with
  // and without a prepared model, percentile), hand for hand.
  {
    Rules ev_rules = tiebreak;
    ev_rules.bonus[kTop][static_cast<std::size_t>(poker::Category::kThreeOfAKind)] = 5;
    EvModel model = simulated_model(ev_rules, short_run ? 300 : 3000);
    EvModel prepared = model;
    prepared.prepare(ev_rules);
    const ScanPath chosen = scan_path();
    CHECK(chosen != ScanPath::kAuto && scan_path_supported(chosen));
    CHECK(scan_path_supported(ScanPath::kPortable));
    struct Result {
      int valid[2];
      std::vector<Arrangement> ev, ev_prepared, percentile;
    };
    const int n = short_run ? 40 : 400;
    std::vector<std::vector<int>> dealt;
    for (int h = 0; h < n; ++h) {
      std::shuffle(deck.begin(), deck.end(), rng);
      dealt.emplace_back(deck.begin(), deck.begin() + 13);
    }
    auto run = [&](ScanPath p) {
      CHECK(force_scan_path(p));
      CHECK(scan_path() == p);
      std::vector<Result> out;
      for (const auto& hand : dealt) {
        out.push_back({{count_valid(hand.data(), tiebreak), count_valid(hand.data(), plain)},
                       arrange(hand.data(), ev_rules, Strategy::kEv, 5, &model),
                       arrange(hand.data(), ev_rules, Strategy::kEv, 5, &prepared),
                       arrange(hand.data(), tiebreak, Strategy::kPercentile, 3, nullptr)});
      }
      return out;
    };
    auto same = [](const std::vector<Arrangement>& a, const std::vector<Arrangement>& b) {
      if (a.size() != b.size()) return false;
      for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].score != b[i].score || a[i].split.top != b[i].split.top ||
            a[i].split.middle != b[i].split.middle || a[i].split.bottom != b[i].split.bottom)
          return false;
      return true;
    };
    // The tables themselves, built eight subsets a step on the AVX2 path and sixteen on the
    // AVX-512 one, against the scalar reference: random hands, hands of one or two suits
    // (every five a flush or a straight flush), and hands whose five highest cards are a
    // flush of another suit than the lowest card's (a flush at the last positions: the
    // upper half of the AVX2 path's lookups), both tiebreak settings.
    {
      std::vector<std::vector<int>> table_hands = dealt;
      for (int suits = 1; suits <= 2; ++suits) {
        for (int h = 0; h < 20; ++h) {
          std::vector<int> pool;
          for (int c = 0; c < 52; ++c)
            if (c % 4 < suits) pool.push_back(c);
          std::shuffle(pool.begin(), pool.end(), rng);
          table_hands.emplace_back(pool.begin(), pool.begin() + 13);
        }
      }
      for (int h = 0; h < 20; ++h) {
        const int suit = h % 4;
        std::vector<int> flush_cards, low_cards;
        for (int r = 6; r < 13; ++r) flush_cards.push_back(r * 4 + suit);
        for (int c = 0; c < 6 * 4; ++c)
          if (c % 4 != suit) low_cards.push_back(c);
        std::shuffle(flush_cards.begin(), flush_cards.end(), rng);
        std::shuffle(low_cards.begin(), low_cards.end(), rng);
        std::vector<int> hand(flush_cards.begin(), flush_cards.begin() + 5);
        hand.insert(hand.end(), low_cards.begin(), low_cards.begin() + 8);
        std::shuffle(hand.begin(), hand.end(), rng);
        table_hands.push_back(hand);
      }
      std::vector<std::vector<std::uint32_t>> want;
      CHECK(force_scan_path(ScanPath::kPortable));
      for (const auto& hand : table_hands)
        for (const Rules* r : {&tiebreak, &plain}) want.push_back(subset_tables(hand.data(), *r));
      for (const ScanPath p : {ScanPath::kAvx2, ScanPath::kAvx512}) {
        if (!force_scan_path(p)) continue;
        std::size_t at = 0, differ = 0;
        for (const auto& hand : table_hands)
          for (const Rules* r : {&tiebreak, &plain})
            differ += subset_tables(hand.data(), *r) != want[at++];
        CHECK_EQ(differ, std::size_t{0});
        std::printf("subset tables, %s against scalar: %zu of %zu differ\n", scan_path_name(p), differ, at);
      }
    }
    // The ev search's whole candidate list (kMaxEvCandidates arrangements) on every path,
    // with and without the suit tiebreak, for random hands and for hands of seven ranks in
    // two suits: these hold splits whose middle and bottom rows tie (which of two equal
    // fives is the middle row is the split's flag), which random hands rarely do.
    {
      std::vector<std::vector<int>> list_hands(dealt.begin(), dealt.begin() + std::min<std::ptrdiff_t>(n, 20));
      for (int h = 0; h < 20; ++h) {
        std::vector<int> ranks(13);
        std::iota(ranks.begin(), ranks.end(), 0);
        std::shuffle(ranks.begin(), ranks.end(), rng);
        std::vector<int> hand;
        for (int r = 0; r < 7; ++r)
          for (int suit = 0; suit < 2; ++suit) hand.push_back(ranks[static_cast<std::size_t>(r)] * 4 + suit);
        std::shuffle(hand.begin(), hand.end(), rng);
        hand.pop_back();
        list_hands.push_back(hand);
      }
      auto lists = [&](ScanPath p) {
        std::vector<std::vector<Arrangement>> out;
        if (!force_scan_path(p)) return out;
        for (const auto& hand : list_hands) {
          out.push_back(arrange(hand.data(), plain, Strategy::kEv, kMaxEvCandidates, &model));
          out.push_back(arrange(hand.data(), ev_rules, Strategy::kEv, kMaxEvCandidates, &prepared));
        }
        return out;
      };
      const auto want = lists(ScanPath::kPortable);
      for (const ScanPath p : {ScanPath::kAvx2, ScanPath::kAvx512}) {
        const auto got = lists(p);
        if (got.empty()) continue;
        std::size_t differ = 0;
        for (std::size_t i = 0; i < got.size(); ++i) differ += !same(got[i], want[i]);
        CHECK_EQ(differ, std::size_t{0});
      }
      CHECK(force_scan_path(ScanPath::kPortable));
    }
    const std::vector<Result> reference = run(ScanPath::kPortable);
    std::string exercised = "portable";
    for (const ScanPath p : {ScanPath::kAvx2, ScanPath::kAvx512}) {
      if (!scan_path_supported(p)) {
        // Refused, and the path in use is left as it was (susun.hpp's contract), whichever
        // path that is: the one before it in this loop, or the portable reference.
        const ScanPath before = scan_path();
        CHECK(!force_scan_path(p));
        CHECK(scan_path() == before);
        continue;
      }
      exercised += std::string(", ") + scan_path_name(p);
      const std::vector<Result> got = run(p);
      for (std::size_t h = 0; h < got.size(); ++h) {
        CHECK_EQ(got[h].valid[0], reference[h].valid[0]);
        CHECK_EQ(got[h].valid[1], reference[h].valid[1]);
        CHECK(same(got[h].ev, reference[h].ev));
        CHECK(same(got[h].ev_prepared, reference[h].ev_prepared));
        CHECK(same(got[h].percentile, reference[h].percentile));
      }
    }
    std::printf("paths exercised: Susun scans %s (default %s, CAPSA_FAST_ISA cap %s)\n",
                exercised.c_str(), scan_path_name(chosen), isa_name(isa_cap()));
    CHECK(force_scan_path(ScanPath::kAuto) && scan_path() == chosen);
  }

  // The suit tiebreak's order and the percentile tables against a reference written from
  // RULES.md 4.1, over every hand.
  check_order_and_percentiles(true, short_run ? 97 : 1);
  check_order_and_percentiles(false, short_run ? 97 : 1);
  // Seed 001: "kartu kicker hanya sebagai kartu pelengkap": the groups' ranks, then the
  // suit of the deciding card, before any kicker (RULES.md 4.1's examples).
  auto key = [](const char* text, bool tb) {
    const std::vector<int> c = parse_cards(text);
    return row_key(c.data(), static_cast<int>(c.size()), tb);
  };
  CHECK(key("As Ad 2c 3c 4h", true) > key("Ah Ac Kd Qd Js", true));
  CHECK(key("Qs Qd 8c 8d 5c", true) > key("Qh Qc 8s 8h Ad", true));
  CHECK(key("As Ad 2c 3c 4h", false) < key("Ah Ac Kd Qd Js", false));
  CHECK(key("Qs Qd 8c 8d 5c", false) < key("Qh Qc 8s 8h Ad", false));
  CHECK_EQ(key("As Ad Kc", true), key("As Ah 4d 3c 2c", true));  // pairs: rank and suit only
  CHECK(key("As Kd Qc", true) < key("Ah Kh Qh 3d 2c", true));   // high cards: every rank
  CHECK(key("9s Ts Js Qs Ks", true) > key("9h Th Jh Qh Kh", true));  // then the top card's suit
  CHECK_EQ(group_strength(poker::evaluate(parse_cards("Ah Ac Kd Qd Js").data(), 5)),
           group_strength(poker::evaluate(parse_cards("Ah Ac 4d 3d 2s").data(), 5)));

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
  // Swept heads-up: a super at 2 players (seed 001, super_players default {2, 4}): 3 plain
  // rows x 4, not x 2; without 2 in super_players, the sweep multiplier.
  CHECK_EQ(score_table(two, tiebreak).points[0], 12);
  CHECK(score_table(two, tiebreak).super_player[0]);
  Rules four_only = tiebreak;
  four_only.super_players = 1u << 4;
  CHECK_EQ(score_table(two, four_only).points[0], 6);
  CHECK(!score_table(two, four_only).super_player[0]);
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
  CHECK(score_table(four, four_only).super_player[3]);
  // Seed 001: super does not apply when only 3 play.
  std::vector<PlayerRows> three(four.begin() + 1, four.end());
  const TableResult no_super = score_table(three, tiebreak);
  CHECK(!no_super.super_player[2]);
  CHECK_EQ(no_super.between[2][0], 6);
  Rules at_three = tiebreak;
  at_three.super_players = 1u << 3;
  CHECK(score_table(three, at_three).super_player[2]);
  CHECK_EQ(score_table(three, at_three).between[2][0], 12);
  CHECK(!score_table(four, at_three).super_player[3]);
  // The ev search's super term follows the same table sizes.
  {
    const float p[3] = {0.9f, 0.9f, 0.9f}, t[3] = {0, 0, 0}, l[3] = {1, 1, 1};
    const int plain_rows[3] = {0, 0, 0};
    CHECK(expected_points(p, t, l, plain_rows, tiebreak, 1) >
          expected_points(p, t, l, plain_rows, four_only, 1));
    CHECK_EQ(expected_points(p, t, l, plain_rows, tiebreak, 2),
             expected_points(p, t, l, plain_rows, four_only, 2));
  }
  // Special hands (RULES.md 4.4): detection, the rows that show them, and their scoring.
  {
    const std::vector<int> pairs = parse_cards("2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 9s");
    const std::vector<int> pairs_with_triple = parse_cards("2c 2d 2h 3c 3d 4c 4d 5c 5d 6c 6d 9s 9h");
    const std::vector<int> flushes = parse_cards("2c 5c 9c Kd 2d 4d 6d 8d 3h 5h 7h 9h Jh");
    const std::vector<int> one_off = parse_cards("2c 5c 9s Kd 2d 4d 6d 8d 3h 5h 7h 9h Jh");
    const std::vector<int> straights = parse_cards("Ac 2d 3h 4c 5d 6h 7s 8c 9d Th Js Qc Kd");
    const std::vector<int> qka = parse_cards("Qc Kd Ah 2c 3d 4h 5s 6c 7d 8h 9s Tc Jd");
    CHECK(holds_special(pairs.data(), Special::kSixPairs));
    CHECK(holds_special(pairs_with_triple.data(), Special::kSixPairs));  // the triple: a pair
    CHECK(!holds_special(flushes.data(), Special::kSixPairs));
    CHECK(holds_special(flushes.data(), Special::kThreeFlushes));
    CHECK(!holds_special(one_off.data(), Special::kThreeFlushes));
    CHECK(holds_special(straights.data(), Special::kThreeStraights));
    CHECK(holds_special(straights.data(), Special::kDragon));
    CHECK(holds_special(qka.data(), Special::kThreeStraights));  // Q-K-A on top
    Split shown;
    CHECK(special_rows(flushes.data(), Special::kThreeFlushes, &shown));
    for (const auto* row : {&shown.middle, &shown.bottom})
      for (const auto i : *row) CHECK_EQ(suit_of(flushes[i]), suit_of(flushes[(*row)[0]]));
    CHECK(!special_rows(pairs.data(), Special::kSixPairs, &shown));

    Rules specials = tiebreak;
    specials.special_points[static_cast<std::size_t>(Special::kSixPairs)] = 6;
    specials.special_points[static_cast<std::size_t>(Special::kThreeFlushes)] = 9;
    CHECK(best_special(straights.data(), specials) == Special::kDragon);
    CHECK(best_special(flushes.data(), specials) == Special::kThreeFlushes);
    CHECK(best_special(flushes.data(), tiebreak) == Special::kNone);  // not counted
    std::vector<PlayerRows> seats(3);
    seats[0].special = Special::kSixPairs;
    seats[1].special = Special::kThreeFlushes;
    seats[2].fouled = true;
    const TableResult r = score_table(seats, specials);
    CHECK_EQ(r.between[1][0], 9);  // the higher special wins its own points
    CHECK_EQ(r.between[0][2], 6);  // a special against a fouled player: its points
    CHECK_EQ(r.between[1][2], 9);
    CHECK_EQ(r.points[0] + r.points[1] + r.points[2], 0);
    seats[1].special = Special::kSixPairs;
    CHECK_EQ(score_table(seats, specials).between[1][0], 0);  // equal specials
    seats[1].special = Special::kThreeStraights;  // not counted: compared by its rows
    CHECK_EQ(score_table(seats, specials).between[0][1], 6);
  }
  // deep: the points of player 0 as the search counts them are the table's own, at every
  // table size, with fouls, specials, sweeps and supers in play; and deep's choice is a
  // valid arrangement (or a special the hand holds), the same every time for a hand.
  {
    Rules r = tiebreak;
    r.super_multiplier = 4;
    r.super_players = 1u << 2 | 1u << 3 | 1u << 4;
    r.special_points[static_cast<std::size_t>(Special::kSixPairs)] = 6;
    r.bonus[kBottom][static_cast<std::size_t>(poker::Category::kFourOfAKind)] = 7;
    r.majority_bonus = 1;
    const EvModel model = simulated_model(r, short_run ? 300 : 3000);
    int checked = 0;
    for (int t = 0; t < (short_run ? 200 : 3000); ++t) {
      std::shuffle(deck.begin(), deck.end(), rng);
      const int players = 2 + t % 3;
      std::vector<PlayerRows> rows(static_cast<std::size_t>(players));
      for (int p = 0; p < players; ++p) {
        const int* hand = deck.data() + 13 * p;
        // Some seats foul on purpose (the dealt order), some declare, most arrange.
        if (t % 7 == p) {
          rows[static_cast<std::size_t>(p)] = player_rows(hand, hand + 3, hand + 8, r);
        } else if (t % 11 == p && holds_special(hand, Special::kSixPairs)) {
          rows[static_cast<std::size_t>(p)].special = Special::kSixPairs;
        } else {
          rows[static_cast<std::size_t>(p)] = rows_of(hand, bot_choice(hand, r, Strategy::kEv, &model), r);
        }
      }
      bool rest[kMaxTablePlayers] = {};
      for (int o = 1; o < players; ++o) {
        rest[o] = true;
        for (int k = 1; k < players; ++k)
          if (k != o) rest[o] = rest[o] && sweeps(rows[static_cast<std::size_t>(o)], rows[static_cast<std::size_t>(k)], r);
      }
      CHECK_EQ(first_player_points(rows.data(), players, rest, r), score_table(rows, r).points[0]);
      if (players == 2)  // heads-up, a sweep is a super (super_players holds 2)
        CHECK_EQ(pair_points(rows[0], rows[1], r.super_multiplier, r.super_multiplier, r),
                 score_table(rows, r).points[0]);
      ++checked;
    }
    CHECK(checked > 0);
    DeepBudget sampled;
    sampled.hands = short_run ? 6 : 30;
    DeepBudget banked = sampled;  // the same, against a bank of hands
    banked.bank = DeepBudget::kMinBank;
    for (int h = 0; h < (short_run ? 4 : 20); ++h) {
      std::shuffle(deck.begin(), deck.end(), rng);
      for (int players = 2; players <= 4; ++players) {
        const DeepBudget& budget = h % 2 ? banked : sampled;
        const BotChoice c = deep_choice(deck.data(), r, players, &model, budget);
        const BotChoice again = deep_choice(deck.data(), r, players, &model, budget);
        CHECK(c.declared == again.declared);
        CHECK(c.arrangement.split.top == again.arrangement.split.top &&
              c.arrangement.split.bottom == again.arrangement.split.bottom);
        if (c.declared != Special::kNone) {
          CHECK(holds_special(deck.data(), c.declared));
          continue;
        }
        CHECK(!c.arrangement.fouled);
        unsigned used = 0;
        for (auto i : c.arrangement.split.top) used |= 1u << i;
        for (auto i : c.arrangement.split.middle) used |= 1u << i;
        for (auto i : c.arrangement.split.bottom) used |= 1u << i;
        CHECK_EQ(used, (1u << 13) - 1);
      }
    }
    // Shipped banks (ship_deep_bank): a bank made from ev's codes decides as the bank deep
    // arranged itself above; codes ev does not give are refused; a code that does not
    // decode is arranged again when the bank is made.
    EvModel shipped = model;
    shipped.deep_banks = new_deep_banks();  // a copy shares its banks: a model of its own
    const int size = DeepBudget::kMinBank;
    const std::vector<std::uint32_t> codes = deep_bank_codes(r, model, 0, size);
    CHECK_EQ(static_cast<int>(codes.size()), size);
    CHECK(deep_bank_codes(r, model, 100, 110) ==
          std::vector<std::uint32_t>(codes.begin() + 100, codes.begin() + 110));
    std::vector<std::uint32_t> wrong = codes;
    wrong[0] ^= 5u;  // hand 0 is a checked hand
    CHECK(!ship_deep_bank(r, shipped, wrong, 8));
    CHECK(!ship_deep_bank(r, shipped, std::vector<std::uint32_t>(codes.begin(), codes.begin() + 100), 8));
    std::vector<std::uint32_t> odd = codes;
    odd[1] = 0xFFFFFFFFu;  // hand 1 is not checked
    CHECK(ship_deep_bank(r, shipped, odd, 8));
    for (int h = 0; h < (short_run ? 4 : 20); ++h) {
      std::shuffle(deck.begin(), deck.end(), rng);
      for (int players = 2; players <= 4; ++players) {
        const BotChoice a = deep_choice(deck.data(), r, players, &shipped, banked);
        const BotChoice b = deep_choice(deck.data(), r, players, &model, banked);
        CHECK(a.declared == b.declared);
        CHECK(a.arrangement.split.top == b.arrangement.split.top &&
              a.arrangement.split.middle == b.arrangement.split.middle &&
              a.arrangement.split.bottom == b.arrangement.split.bottom);
      }
    }
  }

  return capsa_fast::testing::finish("test_susun");
}
