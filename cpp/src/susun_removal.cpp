// Card removal for the ev model (susun.hpp: RemovalTables, HandRemoval): opponents' row
// keys re-weighed by the realizations that avoid our cards.
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <utility>
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
  // Per group: its rank and how many cards of it. With the tiebreak a key also names the
  // suit of its deciding card; counting that measured the same, so groups ignore it.
  std::array<std::int8_t, 5> rank{}, need{};
  poker::Strength strength = 0;

  bool same_share(const KeyNeeds& o) const noexcept {
    return kind == o.kind && n == o.n && suit == o.suit && rank == o.rank && need == o.need;
  }
};

// Strength and suit position behind a key (flushes with the tiebreak are laid out suit by
// suit; every other key is strength * 4 + the deciding card's suit position, or * 4 alone).
std::pair<int, int> key_parts(int key, bool tiebreak) noexcept {
  const int flush_first = poker::category_start(static_cast<int>(poker::Category::kFlush));
  const int flush_span = poker::category_start(static_cast<int>(poker::Category::kFlush) + 1) - flush_first;
  if (tiebreak && key >= flush_first * 4 && key < flush_first * 4 + 4 * flush_span)
    return {flush_first + (key - flush_first * 4) % flush_span, (key - flush_first * 4) / flush_span};
  return {key / 4, tiebreak ? key % 4 : -1};
}

KeyNeeds key_needs(int key, bool tiebreak) {
  const auto [st, suit] = key_parts(key, tiebreak);
  KeyNeeds k;
  if (st < 1 || st > poker::kMaxStrength) return k;

  k.strength = static_cast<poker::Strength>(st);
  k.kind = KeyNeeds::kGroups;
  const poker::Description d = poker::describe(k.strength);
  auto add = [&](int rank, int need) {
    const auto i = static_cast<std::size_t>(k.n++);
    k.rank[i] = static_cast<std::int8_t>(rank);
    k.need[i] = static_cast<std::int8_t>(need);
  };
  using poker::Category;
  switch (d.category) {
    case Category::kHighCard:
      break;
    case Category::kPair:
      add(d.ranks[0], 2);
      break;
    case Category::kTwoPair:
      add(d.ranks[0], 2);
      add(d.ranks[1], 2);
      break;
    case Category::kThreeOfAKind:
      add(d.ranks[0], 3);
      break;
    case Category::kFullHouse:
      add(d.ranks[0], 3);
      add(d.ranks[1], 2);
      break;
    case Category::kFourOfAKind:
      add(d.ranks[0], 4);
      break;
    case Category::kFlush:
      k.kind = KeyNeeds::kFlushSuits;
      k.suit = static_cast<std::int8_t>(suit);
      break;
    case Category::kStraight:
    case Category::kStraightFlush: {
      const bool flush = d.category == Category::kStraightFlush;
      for (int i = 0; i < 5; ++i) add((d.ranks[0] - i + 13) % 13, 1);
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
  float group[13][5] = {};                 // [rank][need]
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
      const int free = 4 - __builtin_popcount(suits[r]);
      for (int need = 0; need <= 4; ++need)
        group[r][need] = static_cast<float>(choose(free, need)) / static_cast<float>(choose(4, need));
    }
  }

  float share(const KeyNeeds& k) const noexcept {
    switch (k.kind) {
      case KeyNeeds::kNone:
        return 0.0f;
      case KeyNeeds::kGroups: {
        float s = 1.0f;
        for (std::size_t i = 0; i < k.n; ++i)
          s *= group[k.rank[i]][static_cast<std::size_t>(k.need[i])];
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

// The share of the ways to take `need` cards of one rank that avoid the cards of it we
// hold, by how many we hold: [held][need]. need = 0 is the empty group (share 1).
struct GroupShares {
  float v[5][5] = {};
  GroupShares() {
    for (int held = 0; held <= 4; ++held)
      for (int need = 0; need <= 4; ++need)
        v[held][need] = static_cast<float>(choose(4 - held, need)) / static_cast<float>(choose(4, need));
  }
};
const GroupShares kGroupShares;

}  // namespace

poker::Strength key_strength(int key, bool suit_tiebreak) noexcept {
  const int st = key_parts(key, suit_tiebreak).first;
  return st >= 1 && st <= poker::kMaxStrength ? static_cast<poker::Strength>(st) : 0;
}

// The keys in runs of one share per hand: consecutive keys with the same needs and the
// same value when won at every position (keys no row has join the run they sit in).
struct RemovalTables {
  std::vector<KeyNeeds> runs;
  // Per run, its share's five factors as indices into a hand's [rank][need]
  // table (unused ones point at an empty group); runs of suited keys are listed apart.
  std::vector<std::array<std::uint16_t, 5>> factors;
  std::vector<std::uint32_t> suited;
  std::vector<float> value;  // per run and position: an opponent's row's value there
  std::array<std::vector<float>, 3> mass;  // per position and run
  std::vector<RemovalKey> keys;
  std::vector<RemovalKey3> keys3;
  std::vector<RemovalKey5> keys5;
};

std::shared_ptr<const RemovalTables> build_removal_tables(const EvModel& model, const Rules& rules) {
  auto t = std::make_shared<RemovalTables>();
  const auto n_keys = static_cast<std::size_t>(kNumRowKeys);
  t->keys.resize(n_keys);
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
    t->keys[key].run = static_cast<std::uint32_t>(t->runs.size() - 1);
  }
  const std::size_t n_runs = t->runs.size();
  for (std::size_t r = 0; r < n_runs; ++r) {
    const KeyNeeds& k = t->runs[r];
    for (int p = 0; p < 3; ++p) {
      const int b = k.kind == KeyNeeds::kNone ? 1 : bonus_value(k.strength, static_cast<Position>(p), rules);
      t->value.push_back(static_cast<float>(b > 0 ? b : 1));
    }
    std::array<std::uint16_t, 5> f{};  // index 0: rank 2, need 0, the empty group
    if (k.kind == KeyNeeds::kGroups) {
      for (std::size_t i = 0; i < k.n; ++i)
        f[i] = static_cast<std::uint16_t>(k.rank[i] * 5 + k.need[i]);
    } else if (k.kind != KeyNeeds::kNone) {
      t->suited.push_back(static_cast<std::uint32_t>(r));
    }
    t->factors.push_back(f);
  }
  for (std::size_t p = 0; p < 3; ++p) {
    t->mass[p].assign(n_runs, 0.0f);
    for (std::size_t key = 0; key < n_keys; ++key) {
      RemovalKey& e = t->keys[key];
      e.below[p] = t->mass[p][e.run];
      e.at[p] = model.tie[p][key];
      t->mass[p][e.run] += model.tie[p][key];
    }
    for (std::size_t key = 0; key < n_keys; ++key) {
      RemovalKey& e = t->keys[key];
      e.above[p] = std::max(0.0f, t->mass[p][e.run] - e.below[p] - e.at[p]);
    }
  }
  // What our row of each key wins in each position: its bonus value there, or 1.
  for (std::size_t key = 0; key < n_keys; ++key) {
    const RemovalKey& e = t->keys[key];
    const KeyNeeds k = key_needs(static_cast<int>(key), rules.suit_tiebreak);
    float won[3] = {1.0f, 1.0f, 1.0f};
    for (int p = 0; p < 3 && k.kind != KeyNeeds::kNone; ++p) {
      const int b = bonus_value(k.strength, static_cast<Position>(p), rules);
      won[p] = static_cast<float>(b > 0 ? b : 1);
    }
    t->keys3.push_back({e.run, e.below[0], e.above[0], won[0]});
    t->keys5.push_back({e.run, {e.below[1], e.below[2]}, {e.above[1], e.above[2]}, {won[1], won[2]}});
  }
  return t;
}

void HandRemoval::condition(const RemovalTables& tables, const int* cards13) {
  keys_ = tables.keys.data();
  keys3_ = tables.keys3.data();
  keys5_ = tables.keys5.data();
  run_value_ = tables.value.data();
  std::array<unsigned, 13> suits{};
  std::array<int, 4> per_suit{};
  for (int i = 0; i < 13; ++i) {
    suits[static_cast<std::size_t>(rank_of(cards13[i]))] |= 1u << suit_of(cards13[i]);
    ++per_suit[static_cast<std::size_t>(suit_of(cards13[i]))];
  }
  float group[13 * 5];
  for (std::size_t r = 0; r < 13; ++r)
    std::copy_n(kGroupShares.v[__builtin_popcount(suits[r])], 5, group + r * 5);
  const std::size_t n = tables.runs.size();
  runs_.resize(n);
  const std::array<std::uint16_t, 5>* factors = tables.factors.data();
  for (std::size_t r = 0; r < n; ++r) {
    const auto& f = factors[r];
    runs_[r].share = group[f[0]] * group[f[1]] * group[f[2]] * group[f[3]] * group[f[4]];
  }
  // Flushes and straight flushes: which suits are free of our cards.
  for (const std::uint32_t r : tables.suited) {
    const KeyNeeds& k = tables.runs[r];
    float share = 0;
    for (int pos = 0; pos < 4; ++pos) {
      if (k.suit >= 0 && pos != k.suit) continue;
      const int suit = kSuitAt[pos];
      if (k.kind == KeyNeeds::kFlushSuits) {
        share += static_cast<float>(choose(13 - per_suit[static_cast<std::size_t>(suit)], 5)) /
                 static_cast<float>(choose(13, 5));
      } else {
        bool clear = true;
        for (std::size_t i = 0; i < k.n; ++i) clear = clear && !(suits[static_cast<std::size_t>(k.rank[i])] >> suit & 1u);
        share += clear ? 1.0f : 0.0f;
      }
    }
    runs_[r].share = k.suit >= 0 ? share : share / 4.0f;
  }
  // The three positions' running sums side by side: independent chains of additions.
  const float *m0 = tables.mass[0].data(), *m1 = tables.mass[1].data(), *m2 = tables.mass[2].data();
  float a0 = 0, a1 = 0, a2 = 0;
  for (std::size_t r = 0; r < n; ++r) {
    RemovalRun& run = runs_[r];
    run.below = {a0, a1, a2};
    a0 += run.share * m0[r];
    a1 += run.share * m1[r];
    a2 += run.share * m2[r];
  }
  total_ = {a0, a1, a2};
  for (std::size_t p = 0; p < 3; ++p) inv_total_[p] = total_[p] > 0 ? 1.0f / total_[p] : 0.0f;
  float u0 = 0, u1 = 0, u2 = 0, uv0 = 0, uv1 = 0, uv2 = 0;
  const float* value = tables.value.data();
  for (std::size_t r = n; r-- > 0;) {
    RemovalRun& run = runs_[r];
    run.above = {u0, u1, u2};
    run.above_value = {uv0, uv1, uv2};
    const float w0 = run.share * m0[r], w1 = run.share * m1[r], w2 = run.share * m2[r];
    u0 += w0;
    u1 += w1;
    u2 += w2;
    uv0 += w0 * value[r * 3];
    uv1 += w1 * value[r * 3 + 1];
    uv2 += w2 * value[r * 3 + 2];
  }
}

void HandRemoval::at(RowKey key, int position, float out[3]) const noexcept {
  const auto p = static_cast<std::size_t>(position);
  const RemovalKey& k = keys_[key];
  const RemovalRun& r = runs_[k.run];
  const float total = total_[p];
  if (total <= 0) {
    out[0] = out[1] = 0.0f;
    out[2] = 1.0f;
    return;
  }
  out[0] = (r.below[p] + r.share * k.below[p]) / total;
  out[1] = r.share * k.at[p] / total;
  const float above = r.above[p] + r.share * k.above[p];
  out[2] = above > 0 ? (r.above_value[p] + r.share * k.above[p] * run_value_[k.run * 3 + p]) / above : 1.0f;
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
