// Card removal for the ev model (susun.hpp: RemovalTables, HandRemoval): opponents' row
// keys re-weighed by the realizations that avoid our cards.
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "capsa_fast/cards.hpp"
#include "capsa_fast/susun.hpp"

namespace capsa_fast::susun {

namespace {

constexpr int kSuitAt[4] = {1, 0, 2, 3};  // suit id at each position d < c < h < s

// What an opponent's row of one key takes from the deck.
struct KeyNeeds {
  enum Kind : std::uint8_t {
    kNone,        // no row has this key
    kGroups,      // the groups below (none for a high-card row)
    kFlushSuits,  // five cards of one suit (`suit`, a position, or any)
    kSameSuit,    // the five ranks below, all of one suit (`suit` or any)
  };
  Kind kind = kNone;
  std::uint8_t n = 0;
  std::int8_t suit = -1;
  // Per group: its rank, how many cards of it, the suit position of its highest card (the
  // tiebreak's deciding card) or -1.
  std::array<std::int8_t, 5> rank{}, need{}, high{};
  poker::Strength strength = 0;

  bool same_share(const KeyNeeds& o) const noexcept {
    return kind == o.kind && n == o.n && suit == o.suit && rank == o.rank && need == o.need &&
           high == o.high;
  }
};

KeyNeeds key_needs(int key, bool tiebreak) {
  const int flush_first = poker::category_start(static_cast<int>(poker::Category::kFlush));
  const int flush_span = poker::category_start(static_cast<int>(poker::Category::kFlush) + 1) - flush_first;
  int st = key / 4, suit = tiebreak ? key % 4 : -1;
  if (tiebreak && key >= flush_first * 4 && key < flush_first * 4 + 4 * flush_span) {
    st = flush_first + (key - flush_first * 4) % flush_span;
    suit = (key - flush_first * 4) / flush_span;
  }
  KeyNeeds k;
  if (st < 1 || st > poker::kMaxStrength) return k;

  k.strength = static_cast<poker::Strength>(st);
  k.kind = KeyNeeds::kGroups;
  const poker::Description d = poker::describe(k.strength);
  auto add = [&](int rank, int need, int high) {
    const auto i = static_cast<std::size_t>(k.n++);
    k.rank[i] = static_cast<std::int8_t>(rank);
    k.need[i] = static_cast<std::int8_t>(need);
    k.high[i] = static_cast<std::int8_t>(high);
  };
  using poker::Category;
  switch (d.category) {
    case Category::kHighCard:
      break;
    case Category::kPair:
      add(d.ranks[0], 2, suit);
      break;
    case Category::kTwoPair:
      add(d.ranks[0], 2, suit);
      add(d.ranks[1], 2, -1);
      break;
    case Category::kThreeOfAKind:
      add(d.ranks[0], 3, suit);
      break;
    case Category::kFullHouse:
      add(d.ranks[0], 3, suit);
      add(d.ranks[1], 2, -1);
      break;
    case Category::kFourOfAKind:
      add(d.ranks[0], 4, -1);  // every suit: the highest is always the spade
      break;
    case Category::kFlush:
      k.kind = KeyNeeds::kFlushSuits;
      k.suit = static_cast<std::int8_t>(suit);
      break;
    case Category::kStraight:
    case Category::kStraightFlush: {
      const bool flush = d.category == Category::kStraightFlush;
      for (int i = 0; i < 5; ++i) add((d.ranks[0] - i + 13) % 13, 1, i == 0 && !flush ? suit : -1);
      if (flush) {
        k.kind = KeyNeeds::kSameSuit;
        k.suit = static_cast<std::int8_t>(suit);
      }
      break;
    }
  }
  return k;
}

constexpr int choose(int n, int k) {
  if (k < 0 || n < k) return 0;
  int r = 1;
  for (int i = 0; i < k; ++i) r = r * (n - i) / (i + 1);
  return r;
}

// What one hand's cards leave free, and the share of a key's realizations they allow.
struct Held {
  std::array<unsigned, 13> suits{};        // suit ids we hold, per rank
  float group[13][5][5] = {};              // [rank][need][high + 1]
  std::array<float, 4> flush{};            // per suit position: C(free, 5) / C(13, 5)

  explicit Held(const int* cards13) {
    std::array<int, 4> per_suit{};
    for (int i = 0; i < 13; ++i) {
      suits[static_cast<std::size_t>(rank_of(cards13[i]))] |= 1u << suit_of(cards13[i]);
      ++per_suit[static_cast<std::size_t>(suit_of(cards13[i]))];
    }
    for (int pos = 0; pos < 4; ++pos)
      flush[static_cast<std::size_t>(pos)] =
          static_cast<float>(choose(13 - per_suit[static_cast<std::size_t>(kSuitAt[pos])], 5)) /
          static_cast<float>(choose(13, 5));
    for (std::size_t r = 0; r < 13; ++r) {
      const unsigned mine = suits[r];
      const int free = 4 - __builtin_popcount(mine);
      for (int need = 1; need <= 4; ++need) {
        group[r][need][0] = static_cast<float>(choose(free, need)) / static_cast<float>(choose(4, need));
        for (int high = 0; high < 4; ++high) {
          // The highest card at suit position `high`, the rest from the positions below.
          const int all = choose(high, need - 1);
          if (all == 0 || (mine >> kSuitAt[high] & 1u)) continue;
          int lower_free = 0;
          for (int q = 0; q < high; ++q) lower_free += !(mine >> kSuitAt[q] & 1u);
          group[r][need][high + 1] = static_cast<float>(choose(lower_free, need - 1)) / static_cast<float>(all);
        }
      }
    }
  }

  float share(const KeyNeeds& k) const noexcept {
    switch (k.kind) {
      case KeyNeeds::kNone:
        return 0.0f;
      case KeyNeeds::kGroups: {
        float s = 1.0f;
        for (std::size_t i = 0; i < k.n; ++i)
          s *= group[k.rank[i]][static_cast<std::size_t>(k.need[i])][k.high[i] + 1];
        return s;
      }
      case KeyNeeds::kFlushSuits:
        return k.suit >= 0 ? flush[static_cast<std::size_t>(k.suit)]
                           : (flush[0] + flush[1] + flush[2] + flush[3]) / 4.0f;
      case KeyNeeds::kSameSuit: {
        float clear_suits = 0;
        for (int pos = 0; pos < 4; ++pos) {
          if (k.suit >= 0 && pos != k.suit) continue;
          bool clear = true;
          for (std::size_t i = 0; i < k.n; ++i) clear = clear && !(suits[static_cast<std::size_t>(k.rank[i])] >> kSuitAt[pos] & 1u);
          clear_suits += clear ? 1.0f : 0.0f;
        }
        return k.suit >= 0 ? clear_suits : clear_suits / 4.0f;
      }
    }
    return 0.0f;
  }
};

}  // namespace

// The keys in runs of one share per hand: consecutive keys with the same needs and the
// same value when won at every position (keys no row has join the run they sit in).
struct RemovalTables {
  std::vector<KeyNeeds> runs;
  std::vector<std::uint16_t> run_of;  // per key
  // Per position and run: the model's mass, and the value of an opponent's row there.
  std::array<std::vector<float>, 3> mass, value;
  // Per position and key: the mass of its run below the key, at it, above it.
  std::array<std::vector<std::array<float, 3>>, 3> in_run;
};

std::shared_ptr<const RemovalTables> build_removal_tables(const EvModel& model, const Rules& rules) {
  auto t = std::make_shared<RemovalTables>();
  const auto n_keys = static_cast<std::size_t>(kNumRowKeys);
  t->run_of.resize(n_keys);
  std::array<int, 3> run_value{};
  for (std::size_t key = 0; key < n_keys; ++key) {
    // Keys no opponent row of the model has join the run they sit in, whatever they need.
    const bool seen = model.tie[0][key] > 0 || model.tie[1][key] > 0 || model.tie[2][key] > 0;
    const KeyNeeds k = seen ? key_needs(static_cast<int>(key), rules.suit_tiebreak) : KeyNeeds{};
    std::array<int, 3> v{1, 1, 1};
    if (k.kind != KeyNeeds::kNone)
      for (int p = 0; p < 3; ++p) {
        const int b = bonus_value(k.strength, static_cast<Position>(p), rules);
        v[static_cast<std::size_t>(p)] = b > 0 ? b : 1;
      }
    const bool opens = t->runs.empty() || (k.kind != KeyNeeds::kNone &&
                                           (!t->runs.back().same_share(k) || v != run_value));
    if (opens && !t->runs.empty() && t->runs.back().kind == KeyNeeds::kNone) {
      t->runs.back() = k;  // the keys before the first row's key join its run
      run_value = v;
    } else if (opens) {
      t->runs.push_back(k);
      run_value = v;
    }
    t->run_of[key] = static_cast<std::uint16_t>(t->runs.size() - 1);
  }
  for (std::size_t r = 0; r < t->runs.size(); ++r) {
    for (std::size_t p = 0; p < 3; ++p) {
      const KeyNeeds& k = t->runs[r];
      const int b = k.kind == KeyNeeds::kNone ? 1 : bonus_value(k.strength, static_cast<Position>(p), rules);
      t->mass[p].push_back(0.0f);
      t->value[p].push_back(static_cast<float>(b > 0 ? b : 1));
    }
  }
  for (std::size_t p = 0; p < 3; ++p) {
    t->in_run[p].resize(n_keys);
    for (std::size_t key = 0; key < n_keys; ++key) {
      const std::size_t r = t->run_of[key];
      t->in_run[p][key] = {t->mass[p][r], model.tie[p][key], 0.0f};
      t->mass[p][r] += model.tie[p][key];
    }
    for (std::size_t key = 0; key < n_keys; ++key) {
      auto& e = t->in_run[p][key];
      e[2] = std::max(0.0f, t->mass[p][t->run_of[key]] - e[0] - e[1]);
    }
  }
  return t;
}

void HandRemoval::condition(const RemovalTables& tables, const int* cards13) {
  tables_ = &tables;
  const Held held(cards13);
  const std::size_t n = tables.runs.size();
  share_.resize(n);
  for (std::size_t r = 0; r < n; ++r) share_[r] = held.share(tables.runs[r]);
  for (std::size_t p = 0; p < 3; ++p) {
    below_[p].resize(n);
    above_[p].resize(n);
    above_value_[p].resize(n);
  }
  // The three positions' running sums side by side: independent chains of additions.
  const float *m0 = tables.mass[0].data(), *m1 = tables.mass[1].data(), *m2 = tables.mass[2].data();
  const float *v0 = tables.value[0].data(), *v1 = tables.value[1].data(), *v2 = tables.value[2].data();
  float a0 = 0, a1 = 0, a2 = 0;
  for (std::size_t r = 0; r < n; ++r) {
    below_[0][r] = a0;
    below_[1][r] = a1;
    below_[2][r] = a2;
    a0 += share_[r] * m0[r];
    a1 += share_[r] * m1[r];
    a2 += share_[r] * m2[r];
  }
  total_ = {a0, a1, a2};
  float u0 = 0, u1 = 0, u2 = 0, uv0 = 0, uv1 = 0, uv2 = 0;
  for (std::size_t r = n; r-- > 0;) {
    above_[0][r] = u0;
    above_[1][r] = u1;
    above_[2][r] = u2;
    above_value_[0][r] = uv0;
    above_value_[1][r] = uv1;
    above_value_[2][r] = uv2;
    const float w0 = share_[r] * m0[r], w1 = share_[r] * m1[r], w2 = share_[r] * m2[r];
    u0 += w0;
    u1 += w1;
    u2 += w2;
    uv0 += w0 * v0[r];
    uv1 += w1 * v1[r];
    uv2 += w2 * v2[r];
  }
}

void HandRemoval::curves(const RowKey* keys, std::size_t n, int position, float* win, float* tie,
                         float* loss) const noexcept {
  const auto p = static_cast<std::size_t>(position);
  const float total = total_[p];
  if (total <= 0) {
    std::fill(win, win + n, 0.0f);
    std::fill(tie, tie + n, 0.0f);
    std::fill(loss, loss + n, 1.0f);
    return;
  }
  const float inv = 1.0f / total;
  const std::uint16_t* run_of = tables_->run_of.data();
  const std::array<float, 3>* in_run = tables_->in_run[p].data();
  const float *share = share_.data(), *below = below_[p].data(), *above = above_[p].data(),
              *above_value = above_value_[p].data(), *value = tables_->value[p].data();
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t r = run_of[keys[i]];
    const std::array<float, 3>& e = in_run[keys[i]];
    const float s = share[r];
    win[i] = (below[r] + s * e[0]) * inv;
    tie[i] = s * e[1] * inv;
    const float up = above[r] + s * e[2];
    loss[i] = up > 0 ? (above_value[r] + s * e[2] * value[r]) / up : 1.0f;
  }
}

void HandRemoval::at(RowKey key, int position, float out[3]) const noexcept {
  const auto p = static_cast<std::size_t>(position);
  const std::size_t r = tables_->run_of[key];
  const std::array<float, 3>& e = tables_->in_run[p][key];
  const float s = share_[r], total = total_[p];
  if (total <= 0) {
    out[0] = out[1] = 0.0f;
    out[2] = 1.0f;
    return;
  }
  out[0] = (below_[p][r] + s * e[0]) / total;
  out[1] = s * e[1] / total;
  const float above = above_[p][r] + s * e[2];
  out[2] = above > 0 ? (above_value_[p][r] + s * e[2] * tables_->value[p][r]) / above : 1.0f;
}

void EvModel::condition_on(const int* cards13, const Rules& rules, EvModel& out) const {
  const Held held(cards13);
  const auto n_keys = static_cast<std::size_t>(kNumRowKeys);
  std::vector<double> weight(n_keys);
  for (std::size_t key = 0; key < n_keys; ++key)
    weight[key] = held.share(key_needs(static_cast<int>(key), rules.suit_tiebreak));
  for (std::size_t p = 0; p < 3; ++p) {
    std::vector<double> w(n_keys);
    double total = 0;
    for (std::size_t key = 0; key < n_keys; ++key) {
      w[key] = weight[key] * tie[p][key];
      total += w[key];
    }
    out.win[p].assign(n_keys, 0.0f);
    out.tie[p].assign(n_keys, 0.0f);
    out.loss[p].assign(n_keys, 1.0f);
    if (total <= 0) continue;
    double below = 0;
    for (std::size_t key = 0; key < n_keys; ++key) {
      out.win[p][key] = static_cast<float>(below / total);
      out.tie[p][key] = static_cast<float>(w[key] / total);
      below += w[key];
    }
    double above = 0, above_value = 0;
    for (std::size_t key = n_keys; key-- > 0;) {
      out.loss[p][key] = above > 0 ? static_cast<float>(above_value / above) : 1.0f;
      if (w[key] > 0) {
        const KeyNeeds k = key_needs(static_cast<int>(key), rules.suit_tiebreak);
        const int b = bonus_value(k.strength, static_cast<Position>(p), rules);
        above += w[key];
        above_value += w[key] * (b > 0 ? b : 1);
      }
    }
  }
  out.opponents = opponents;
}

}  // namespace capsa_fast::susun
