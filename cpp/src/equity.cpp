// Hold'em equity engine (capsa_fast/equity.hpp).
#include "capsa_fast/equity.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "capsa_fast/cards.hpp"
#include "capsa_fast/poker.hpp"
#include "capsa_fast/poker_hand.hpp"
#include "capsa_fast/threads.hpp"

namespace capsa_fast::equity {
namespace {

using poker::Hand;
using poker::Strength;
using Clock = std::chrono::steady_clock;

// A tie among k players gives each 1/k of the pot: counted in units of 1/2520 (the least
// common multiple of 1..10), shares stay integers.
constexpr std::int64_t kShareUnit = 2520;

inline std::uint64_t bit(int card) noexcept { return std::uint64_t{1} << card; }

inline std::uint64_t combo_mask(int combo) noexcept {
  int lo = 0, hi = 0;
  combo_cards(combo, lo, hi);
  return bit(lo) | bit(hi);
}

// ---------------------------------------------------------------------------------------
// Strength of a rank multiset alone (no flush): the evaluator's unsuited table, keyed by
// the sum of the ranks' keys (the low 32 bits of the card keys).
inline std::uint32_t rank_key(int rank) noexcept {
  return static_cast<std::uint32_t>(poker::tables::kCardKey7[rank * 4]);
}
inline Strength unsuited(std::uint32_t key) noexcept {
  using namespace poker::tables;
  return kHash7Values[kHash7Offsets[key >> kHash7Shift] + (key & ((1u << kHash7Shift) - 1))];
}

constexpr std::int64_t kChoose4[5][5] = {
    {1, 0, 0, 0, 0}, {1, 1, 0, 0, 0}, {1, 2, 1, 0, 0}, {1, 3, 3, 1, 0}, {1, 4, 6, 4, 1}};

std::int64_t choose(int n, int k) noexcept {
  if (k < 0 || k > n) return 0;
  std::int64_t r = 1;
  for (int i = 1; i <= k; ++i) r = r * (n - k + i) / i;
  return r;
}

// Every multiset of m ranks (each at most 4 times), m = 0..5, with its rank-key sum.
struct RankPattern {
  std::uint32_t key;
  std::uint8_t n;  // distinct ranks
  std::uint8_t rank[5];
  std::uint8_t mult[5];
};
struct RankPatterns {
  std::vector<RankPattern> by_size[6];
  RankPatterns() {
    for (int m = 0; m <= 5; ++m) {
      RankPattern p{};
      build(m, 0, p);
    }
  }
  void build(int left, int from, RankPattern& p) {
    if (left == 0) {
      int total = 0;
      for (int i = 0; i < p.n; ++i) total += p.mult[i];
      by_size[total].push_back(p);
      return;
    }
    for (int r = from; r < kNumRanks; ++r) {
      for (int k = 1; k <= std::min(4, left); ++k) {
        RankPattern q = p;
        q.rank[q.n] = static_cast<std::uint8_t>(r);
        q.mult[q.n] = static_cast<std::uint8_t>(k);
        ++q.n;
        q.key += static_cast<std::uint32_t>(k) * rank_key(r);
        build(left - k, r + 1, q);
      }
    }
  }
};
const RankPatterns& rank_patterns() {
  static const RankPatterns patterns;
  return patterns;
}

// ---------------------------------------------------------------------------------------
// One deal settled over every board: integer counts.
struct Tally {
  std::int64_t boards = 0;
  std::int64_t win[kMaxPlayers] = {};
  std::int64_t tie[kMaxPlayers] = {};
  std::int64_t share[kMaxPlayers] = {};  // in 1/kShareUnit pots
};

inline void add_outcome(const Strength* s, int n, std::int64_t count, Tally& t) noexcept {
  Strength best = 0;
  int k = 0;
  for (int p = 0; p < n; ++p) {
    if (s[p] > best) {
      best = s[p];
      k = 1;
    } else if (s[p] == best) {
      ++k;
    }
  }
  if (k == 1) {
    for (int p = 0; p < n; ++p) {
      if (s[p] == best) {
        t.win[p] += count;
        t.share[p] += count * kShareUnit;
      }
    }
    return;
  }
  const std::int64_t part = count * (kShareUnit / k);
  for (int p = 0; p < n; ++p) {
    if (s[p] == best) {
      t.tie[p] += count;
      t.share[p] += part;
    }
  }
}

// Preflop (no board): boards grouped by rank pattern, then each suit's boards that let a
// player make a flush corrected. `holes` holds 2 ids per player; `used` every dealt or dead
// card.
void settle_preflop(const int* holes, int n, std::uint64_t used, Tally& t) {
  const RankPatterns& pats = rank_patterns();
  int avail[kNumRanks];
  for (int r = 0; r < kNumRanks; ++r) avail[r] = 4 - __builtin_popcountll((used >> (4 * r)) & 15);
  std::uint32_t hole_key[kMaxPlayers];
  for (int p = 0; p < n; ++p) hole_key[p] = rank_key(holes[2 * p] >> 2) + rank_key(holes[2 * p + 1] >> 2);
  Strength s[kMaxPlayers], f[kMaxPlayers];

  std::int64_t boards = 0;
  for (const RankPattern& pat : pats.by_size[5]) {
    std::int64_t count = 1;
    for (int i = 0; i < pat.n && count; ++i) count *= kChoose4[avail[pat.rank[i]]][pat.mult[i]];
    if (!count) continue;
    boards += count;
    for (int p = 0; p < n; ++p) s[p] = unsuited(pat.key + hole_key[p]);
    add_outcome(s, n, count, t);
  }
  t.boards = boards;

  for (int suit = 0; suit < kNumSuits; ++suit) {
    int in_suit[kMaxPlayers];
    unsigned suit_ranks[kMaxPlayers];
    int most = 0;
    for (int p = 0; p < n; ++p) {
      in_suit[p] = 0;
      suit_ranks[p] = 0;
      for (int j = 0; j < 2; ++j) {
        const int c = holes[2 * p + j];
        if ((c & 3) == suit) {
          ++in_suit[p];
          suit_ranks[p] |= 1u << (c >> 2);
        }
      }
      most = std::max(most, in_suit[p]);
    }
    // Ranks whose card of this suit is still in the deck, and what is left of each rank
    // in the other suits.
    int free_ranks[kNumRanks];
    int n_free = 0;
    int other[kNumRanks];
    for (int r = 0; r < kNumRanks; ++r) {
      const bool free_card = !(used & bit(r * 4 + suit));
      if (free_card) free_ranks[n_free++] = r;
      other[r] = avail[r] - (free_card ? 1 : 0);
    }
    for (int k = 5 - most; k <= 5 && k <= n_free; ++k) {
      const std::vector<RankPattern>& rest = pats.by_size[5 - k];
      // Every k-subset of the free ranks, as an index walk.
      int idx[5];
      for (int i = 0; i < k; ++i) idx[i] = i;
      for (;;) {
        unsigned mask = 0;
        std::uint32_t key = 0;
        for (int i = 0; i < k; ++i) {
          mask |= 1u << free_ranks[idx[i]];
          key += rank_key(free_ranks[idx[i]]);
        }
        for (int p = 0; p < n; ++p) {
          f[p] = in_suit[p] + k >= 5 ? poker::tables::kFlush[mask | suit_ranks[p]] : Strength{0};
        }
        for (const RankPattern& pat : rest) {
          std::int64_t count = 1;
          for (int i = 0; i < pat.n && count; ++i) count *= kChoose4[other[pat.rank[i]]][pat.mult[i]];
          if (!count) continue;
          bool differs = false;
          Strength a[kMaxPlayers];
          for (int p = 0; p < n; ++p) {
            s[p] = unsuited(key + pat.key + hole_key[p]);
            a[p] = f[p] ? f[p] : s[p];
            differs |= a[p] != s[p];
          }
          if (!differs) continue;
          add_outcome(a, n, count, t);
          add_outcome(s, n, -count, t);
        }
        int i = k - 1;
        while (i >= 0 && idx[i] == n_free - k + i) --i;
        if (i < 0) break;
        ++idx[i];
        for (int j = i + 1; j < k; ++j) idx[j] = idx[j - 1] + 1;
      }
    }
  }
}

// Any street: every completion of the board from the cards not in `used`.
void settle_direct(const int* holes, int n, const std::vector<int>& board, std::uint64_t used,
                   Tally& t) {
  Hand hands[kMaxPlayers];
  Hand base;
  for (int c : board) base += c;
  for (int p = 0; p < n; ++p) hands[p] = base + holes[2 * p] + holes[2 * p + 1];
  int deck[kDeckSize];
  int m = 0;
  for (int c = 0; c < kDeckSize; ++c) {
    if (!(used & bit(c))) deck[m++] = c;
  }
  const int need = 5 - static_cast<int>(board.size());
  Strength s[kMaxPlayers];
  // Depth-first over increasing deck positions, each player's hand grown a card a level.
  struct Walk {
    const int* deck;
    int m, n;
    Strength* s;
    Tally* t;
    void go(const Hand* h, int from, int left) const {
      if (left == 0) {
        for (int p = 0; p < n; ++p) s[p] = h[p].evaluate();
        add_outcome(s, n, 1, *t);
        ++t->boards;
        return;
      }
      Hand next[kMaxPlayers];
      for (int i = from; i <= m - left; ++i) {
        for (int p = 0; p < n; ++p) next[p] = h[p] + deck[i];
        go(next, i + 1, left - 1);
      }
    }
  };
  Walk{deck, m, n, s, &t}.go(hands, 0, need);
}

// ---------------------------------------------------------------------------------------
// Setting up a problem.

struct Problem {
  int n = 0;
  std::vector<int> board;
  std::uint64_t board_mask = 0, dead_mask = 0;
  std::vector<Range> ranges;  // without combos touching board or dead cards
  int remaining = 0;          // cards in the deck before any hole card is dealt
  int need = 0;               // board cards to come
};

Problem make_problem(const std::vector<Range>& players, const std::vector<int>& board,
                     const std::vector<int>& dead) {
  if (players.size() < 2 || players.size() > static_cast<std::size_t>(kMaxPlayers)) {
    throw std::invalid_argument("equity needs 2 to " + std::to_string(kMaxPlayers) +
                                " players, got " + std::to_string(players.size()));
  }
  if (board.size() != 0 && board.size() != 3 && board.size() != 4 && board.size() != 5) {
    throw std::invalid_argument("the board has 0, 3, 4 or 5 cards, got " + std::to_string(board.size()));
  }
  Problem pr;
  pr.n = static_cast<int>(players.size());
  pr.board = board;
  for (int c : board) {
    if (c < 0 || c >= kDeckSize) throw std::invalid_argument("not a card id: " + std::to_string(c));
    if (pr.board_mask & bit(c)) throw std::invalid_argument("duplicate card on the board: " + format_card(c));
    pr.board_mask |= bit(c);
  }
  for (int c : dead) {
    if (c < 0 || c >= kDeckSize) throw std::invalid_argument("not a card id: " + std::to_string(c));
    if (pr.board_mask & bit(c)) throw std::invalid_argument("dead card also on the board: " + format_card(c));
    if (pr.dead_mask & bit(c)) throw std::invalid_argument("duplicate dead card: " + format_card(c));
    pr.dead_mask |= bit(c);
  }
  pr.need = 5 - static_cast<int>(board.size());
  pr.remaining = kDeckSize - static_cast<int>(board.size()) - __builtin_popcountll(pr.dead_mask);
  if (pr.remaining - 2 * pr.n < pr.need) {
    throw std::invalid_argument("not enough cards left in the deck for " + std::to_string(pr.n) +
                                " players and the board");
  }
  for (int p = 0; p < pr.n; ++p) {
    for (double w : players[static_cast<std::size_t>(p)].weights) {
      if (!(w > 0 && w <= 1)) throw std::invalid_argument("player " + std::to_string(p) + ": weights lie in (0, 1]");
    }
    Range r = remove_cards(players[static_cast<std::size_t>(p)], pr.board_mask | pr.dead_mask);
    if (r.size() == 0) {
      throw std::invalid_argument("player " + std::to_string(p) +
                                  ": no combination of the range is left once the board and dead cards are removed");
    }
    // Only a range's relative weights matter: its largest becomes 1, so tiny weights
    // ("AA:1e-320") do not underflow to a deal weight of 0 in products.
    const double top = *std::max_element(r.weights.begin(), r.weights.end());
    for (double& w : r.weights) w /= top;
    pr.ranges.push_back(std::move(r));
  }
  return pr;
}

// Deals of one combo per player with no card twice, depth first; stops once `cap` deals
// are found (returns cap + 1 then). With `out`, stores them (n combos each).
struct Deals {
  std::vector<std::uint16_t> combos;
  std::vector<double> weights;
};
std::uint64_t walk_deals(const Problem& pr, std::uint64_t cap, Deals* out, std::uint64_t node_budget) {
  std::uint64_t found = 0, nodes = 0;
  std::uint16_t pick[kMaxPlayers];
  std::vector<std::vector<std::uint64_t>> masks(static_cast<std::size_t>(pr.n));
  for (int p = 0; p < pr.n; ++p) {
    for (std::uint16_t c : pr.ranges[static_cast<std::size_t>(p)].combos) masks[static_cast<std::size_t>(p)].push_back(combo_mask(c));
  }
  const std::function<bool(int, std::uint64_t, double)> go = [&](int p, std::uint64_t used, double w) {
    if (p == pr.n) {
      ++found;
      if (out) {
        out->combos.insert(out->combos.end(), pick, pick + pr.n);
        out->weights.push_back(w);
      }
      return found <= cap;
    }
    const Range& r = pr.ranges[static_cast<std::size_t>(p)];
    const auto& m = masks[static_cast<std::size_t>(p)];
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (++nodes > node_budget) return false;
      if (m[i] & used) continue;
      pick[p] = r.combos[i];
      if (!go(p + 1, used | m[i], w * r.weights[i])) return false;
    }
    return true;
  };
  go(0, 0, 1.0);
  return nodes > node_budget ? cap + 1 : found;
}

// The suit permutations that map the board and the dead cards onto themselves; deals that
// one of them maps onto each other have the same outcome.
struct SuitSymmetry {
  std::vector<std::array<std::uint8_t, 4>> perms;
  std::uint64_t map_mask(std::uint64_t m, const std::array<std::uint8_t, 4>& s) const {
    std::uint64_t out = 0;
    for (int c = 0; c < kDeckSize; ++c) {
      if (m & bit(c)) out |= bit((c & ~3) | s[static_cast<std::size_t>(c & 3)]);
    }
    return out;
  }
  explicit SuitSymmetry(const Problem& pr) {
    std::array<std::uint8_t, 4> s = {0, 1, 2, 3};
    do {
      if (map_mask(pr.board_mask, s) == pr.board_mask && map_mask(pr.dead_mask, s) == pr.dead_mask) perms.push_back(s);
    } while (std::next_permutation(s.begin(), s.end()));
  }
  // The smallest image of a deal (n <= 5 players, 11 bits a combo).
  std::uint64_t canonical(const std::uint16_t* deal, int n) const {
    std::uint64_t best = std::numeric_limits<std::uint64_t>::max();
    for (const auto& s : perms) {
      std::uint64_t key = 0;
      for (int p = 0; p < n; ++p) {
        int lo = 0, hi = 0;
        combo_cards(deal[p], lo, hi);
        const int a = (lo & ~3) | s[static_cast<std::size_t>(lo & 3)];
        const int b = (hi & ~3) | s[static_cast<std::size_t>(hi & 3)];
        key = (key << 11) | static_cast<std::uint64_t>(combo_index(a, b));
      }
      best = std::min(best, key);
    }
    return best;
  }
};

// Work, in hand evaluations, of settling one deal on its own.
double deal_cost(const Problem& pr, const std::uint16_t* deal) {
  const int left = pr.remaining - 2 * pr.n;
  if (pr.need != 5) return pr.n * static_cast<double>(choose(left, pr.need)) + 50;
  double corrections = 0;
  for (int suit = 0; suit < kNumSuits; ++suit) {
    int most = 0;
    for (int p = 0; p < pr.n; ++p) {
      int lo = 0, hi = 0;
      combo_cards(deal[p], lo, hi);
      most = std::max(most, ((lo & 3) == suit) + ((hi & 3) == suit));
    }
    corrections += most == 2 ? 37000 : most == 1 ? 10600 : 1300;
  }
  return pr.n * (6175 + corrections);
}

void settle_deal(const Problem& pr, const std::uint16_t* deal, Tally& t) {
  int holes[2 * kMaxPlayers];
  std::uint64_t used = pr.board_mask | pr.dead_mask;
  for (int p = 0; p < pr.n; ++p) {
    combo_cards(deal[p], holes[2 * p], holes[2 * p + 1]);
    used |= combo_mask(deal[p]);
  }
  if (pr.need == 5) {
    settle_preflop(holes, pr.n, used, t);
  } else {
    settle_direct(holes, pr.n, pr.board, used, t);
  }
}

// Runs body(i) for i in [0, count) on `threads` threads, items taken dynamically. An
// exception thrown by body on any thread stops the items not yet taken and is rethrown
// here, on the calling thread, once every thread has stopped (threads.hpp).
void parallel_for(std::size_t count, int threads, const std::function<void(std::size_t, int)>& body) {
  const int t = static_cast<int>(std::max<std::size_t>(1, std::min<std::size_t>(static_cast<std::size_t>(std::max(1, threads)), count)));
  std::atomic<std::size_t> next{0};
  run_parts(t, [&](int id) {
    try {
      for (;;) {
        const std::size_t i = next.fetch_add(1, std::memory_order_relaxed);
        if (i >= count) break;
        body(i, id);
      }
    } catch (...) {
      next.store(count, std::memory_order_relaxed);  // the other threads stop too
      throw;
    }
  });
}

// ---------------------------------------------------------------------------------------
// Exact by deals. `per_combo` (heads-up): accumulates player 0's results per combo.
struct MatchupPlan {
  Deals deals;
  std::vector<std::uint32_t> unique_of;  // deal -> index into reps
  std::vector<std::uint32_t> reps;       // a deal settled for each class of equal deals
  double cost = 0;
};

// Returns false when there are more than `cap` deals.
// Also false, before listing any deal, when even the cheapest plan the deals allow (each
// deal at its least cost, all suit-symmetric ones merged) would cost more than max_cost:
// listing and merging millions of deals takes seconds of its own.
bool plan_matchups(const Problem& pr, std::uint64_t cap, MatchupPlan& plan,
                   double max_cost = std::numeric_limits<double>::infinity()) {
  const std::uint64_t count = walk_deals(pr, cap, nullptr, cap * 4 + 100000);
  if (count > cap) return false;
  if (count == 0) {
    throw std::invalid_argument("the players' ranges can never be dealt together: every deal has a card twice");
  }
  const SuitSymmetry sym(pr);
  const int n = pr.n;
  const double least_deal_cost =
      pr.need == 5 ? n * (6175.0 + 4 * 1300.0) : n * static_cast<double>(choose(pr.remaining - 2 * n, pr.need)) + 50;
  const double perms = n <= 5 ? static_cast<double>(sym.perms.size()) : 1.0;
  if (std::ceil(static_cast<double>(count) / perms) * least_deal_cost > max_cost) return false;
  walk_deals(pr, cap, &plan.deals, std::numeric_limits<std::uint64_t>::max());
  const std::size_t m = plan.deals.weights.size();
  plan.unique_of.resize(m);
  if (n <= 5 && sym.perms.size() > 1) {
    std::vector<std::pair<std::uint64_t, std::uint32_t>> keys(m);
    for (std::size_t i = 0; i < m; ++i) keys[i] = {sym.canonical(&plan.deals.combos[i * static_cast<std::size_t>(n)], n), static_cast<std::uint32_t>(i)};
    std::sort(keys.begin(), keys.end());
    for (std::size_t i = 0; i < m; ++i) {
      if (i == 0 || keys[i].first != keys[i - 1].first) plan.reps.push_back(keys[i].second);
      plan.unique_of[keys[i].second] = static_cast<std::uint32_t>(plan.reps.size() - 1);
    }
  } else {
    for (std::size_t i = 0; i < m; ++i) {
      plan.reps.push_back(static_cast<std::uint32_t>(i));
      plan.unique_of[i] = static_cast<std::uint32_t>(i);
    }
  }
  for (std::uint32_t r : plan.reps) plan.cost += deal_cost(pr, &plan.deals.combos[r * static_cast<std::size_t>(n)]);
  return true;
}

std::vector<Tally> settle_plan(const Problem& pr, const MatchupPlan& plan, int threads) {
  std::vector<Tally> tallies(plan.reps.size());
  parallel_for(plan.reps.size(), threads, [&](std::size_t i, int) {
    settle_deal(pr, &plan.deals.combos[plan.reps[i] * static_cast<std::size_t>(pr.n)], tallies[i]);
  });
  return tallies;
}

// ---------------------------------------------------------------------------------------
// Heads-up, board by board.

struct Side {
  std::vector<std::uint16_t> combo;
  std::vector<double> w;
  std::vector<Hand> hand;
  std::vector<std::uint64_t> mask;
  std::vector<std::uint8_t> c0, c1;
  explicit Side(const Range& r) {
    for (std::size_t i = 0; i < r.size(); ++i) {
      int lo = 0, hi = 0;
      combo_cards(r.combos[i], lo, hi);
      combo.push_back(r.combos[i]);
      w.push_back(r.weights[i]);
      hand.push_back(Hand() + lo + hi);
      mask.push_back(bit(lo) | bit(hi));
      c0.push_back(static_cast<std::uint8_t>(lo));
      c1.push_back(static_cast<std::uint8_t>(hi));
    }
  }
  std::size_t size() const { return combo.size(); }
};

// What one board gives: totals for player 0, and per combo of player 0 when asked.
struct BoardOut {
  double win = 0, tie = 0, z = 0;
  std::uint64_t pairs = 0;
};

class BoardSettler {
 public:
  BoardSettler(const Side& a, const Side& b) : a_(a), b_(b), wb_(kNumCombos, 0.0) {
    for (std::size_t i = 0; i < b.size(); ++i) wb_[b.combo[i]] = b.w[i];
    ka_.reserve(a.size());
    kb_.reserve(b.size());
  }

  // per_combo (may be null): for each of a's entries, win/tie/z are written at index
  // entry * 3 (0 where the entry collides with the board).
  BoardOut settle(const Hand& board, std::uint64_t board_mask, double* per_combo) {
    // Written by index into vectors as long as the ranges, then cut to what was written
    // (push_back's capacity check per key cost a few percent).
    kb_.resize(b_.size());
    std::size_t nb = 0;
    for (std::size_t i = 0; i < b_.size(); ++i) {
      if (b_.mask[i] & board_mask) continue;
      kb_[nb++] = (static_cast<std::uint32_t>((board + b_.hand[i]).evaluate()) << 11) | static_cast<std::uint32_t>(i);
    }
    kb_.resize(nb);
    ka_.resize(a_.size());
    std::size_t na = 0;
    for (std::size_t i = 0; i < a_.size(); ++i) {
      if (a_.mask[i] & board_mask) {
        if (per_combo) per_combo[3 * i] = per_combo[3 * i + 1] = per_combo[3 * i + 2] = 0;
        continue;
      }
      ka_[na++] = (static_cast<std::uint32_t>((board + a_.hand[i]).evaluate()) << 11) | static_cast<std::uint32_t>(i);
    }
    ka_.resize(na);
    sort_by_strength(kb_);
    sort_by_strength(ka_);
    double t_all = 0;
    std::int64_t n_all = 0;
    std::memset(c_all_, 0, sizeof c_all_);
    std::memset(n_card_, 0, sizeof n_card_);
    std::memset(c_lo_, 0, sizeof c_lo_);
    std::memset(c_le_, 0, sizeof c_le_);
    for (std::uint32_t k : kb_) {
      const std::size_t i = k & 2047;
      const double w = b_.w[i];
      t_all += w;
      ++n_all;
      c_all_[b_.c0[i]] += w;
      c_all_[b_.c1[i]] += w;
      ++n_card_[b_.c0[i]];
      ++n_card_[b_.c1[i]];
    }
    BoardOut out;
    double t_lo = 0, t_le = 0;
    std::size_t lo = 0, le = 0;
    for (std::uint32_t k : ka_) {
      const std::uint32_t s = k >> 11;
      const std::size_t i = k & 2047;
      for (; lo < kb_.size() && (kb_[lo] >> 11) < s; ++lo) {
        const std::size_t j = kb_[lo] & 2047;
        t_lo += b_.w[j];
        c_lo_[b_.c0[j]] += b_.w[j];
        c_lo_[b_.c1[j]] += b_.w[j];
      }
      for (; le < kb_.size() && (kb_[le] >> 11) <= s; ++le) {
        const std::size_t j = kb_[le] & 2047;
        t_le += b_.w[j];
        c_le_[b_.c0[j]] += b_.w[j];
        c_le_[b_.c1[j]] += b_.w[j];
      }
      const int x = a_.c0[i], y = a_.c1[i];
      const double same = wb_[a_.combo[i]];
      const std::int64_t pairs = n_all - n_card_[x] - n_card_[y] + (same > 0 ? 1 : 0);
      double win = 0, tie = 0, z = 0;
      if (pairs > 0) {
        const double all = t_all - c_all_[x] - c_all_[y] + same;
        const double below = std::max(0.0, t_lo - c_lo_[x] - c_lo_[y]);
        const double upto = std::max(below, t_le - c_le_[x] - c_le_[y] + same);
        const double wa = a_.w[i];
        win = wa * below;
        tie = wa * (upto - below);
        z = wa * std::max(upto, all);
        out.pairs += static_cast<std::uint64_t>(pairs);
      }
      out.win += win;
      out.tie += tie;
      out.z += z;
      if (per_combo) {
        per_combo[3 * i] = win;
        per_combo[3 * i + 1] = tie;
        per_combo[3 * i + 2] = z;
      }
    }
    return out;
  }

 private:
  // Keys (strength << 11 | entry) in increasing strength: std::sort for a few, else two
  // counting passes over the 13 strength bits (7 then 6).
  void sort_by_strength(std::vector<std::uint32_t>& keys) {
    if (keys.size() < 24) {
      std::sort(keys.begin(), keys.end());
      return;
    }
    tmp_.resize(keys.size());
    std::uint32_t lo[129] = {}, hi[65] = {};
    for (std::uint32_t k : keys) {
      ++lo[((k >> 11) & 127) + 1];
      ++hi[(k >> 18) + 1];
    }
    for (int i = 0; i < 128; ++i) lo[i + 1] += lo[i];
    for (int i = 0; i < 64; ++i) hi[i + 1] += hi[i];
    for (std::uint32_t k : keys) tmp_[lo[(k >> 11) & 127]++] = k;
    for (std::uint32_t k : tmp_) keys[hi[k >> 18]++] = k;
  }

  const Side& a_;
  const Side& b_;
  std::vector<double> wb_;
  std::vector<std::uint32_t> ka_, kb_, tmp_;
  double c_all_[kDeckSize], c_lo_[kDeckSize], c_le_[kDeckSize];
  std::int64_t n_card_[kDeckSize];
};

double boards_cost(const Problem& pr) {
  const double boards = static_cast<double>(choose(pr.remaining, pr.need));
  const double a = static_cast<double>(pr.ranges[0].size()), b = static_cast<double>(pr.ranges[1].size());
  // An evaluation per combo, plus sorting (about as much again per ten combos).
  return boards * ((a + b) * (1.6 + 0.1 * std::log2(a + b + 1)) + 20);
}

// The deck a board is completed from: every card not on the board or dead.
std::vector<int> open_deck(const Problem& pr) {
  std::vector<int> deck;
  for (int c = 0; c < kDeckSize; ++c) {
    if (!((pr.board_mask | pr.dead_mask) & bit(c))) deck.push_back(c);
  }
  return deck;
}

// Every completed board, split by its first new card for the threads. visit(board,
// mask, thread) for each.
template <class Visit>
void for_each_board(const Problem& pr, int threads, Visit&& visit) {
  const std::vector<int> deck = open_deck(pr);
  const int m = static_cast<int>(deck.size());
  Hand base;
  for (int c : pr.board) base += c;
  if (pr.need == 0) {
    visit(base, pr.board_mask, 0);
    return;
  }
  parallel_for(static_cast<std::size_t>(m - pr.need + 1), threads, [&](std::size_t first, int id) {
    struct Walk {
      const std::vector<int>& deck;
      int m;
      int id;
      Visit& visit;
      void go(const Hand& h, std::uint64_t mask, int from, int left) {
        if (left == 0) {
          visit(h, mask, id);
          return;
        }
        for (int i = from; i <= m - left; ++i) go(h + deck[static_cast<std::size_t>(i)], mask | bit(deck[static_cast<std::size_t>(i)]), i + 1, left - 1);
      }
    };
    const int c = deck[first];
    Walk{deck, m, id, visit}.go(base + c, pr.board_mask | bit(c), static_cast<int>(first) + 1, pr.need - 1);
  });
}

// ---------------------------------------------------------------------------------------
// Monte Carlo.

struct Rng {
  std::uint64_t s[4];
  static std::uint64_t splitmix(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  Rng(std::uint64_t seed, std::uint64_t stream) {
    std::uint64_t x = seed ^ (stream * 0xD1B54A32D192ED03ull);
    for (auto& v : s) v = splitmix(x);
  }
  std::uint64_t next() {
    const std::uint64_t result = rotl(s[1] * 5, 7) * 9;
    const std::uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
  }
  // Uniform in [0, n) (Lemire's method, unbiased).
  std::uint32_t below(std::uint32_t n) {
    std::uint64_t m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(next() >> 32)) * n;
    if (static_cast<std::uint32_t>(m) < n) {
      const std::uint32_t threshold = static_cast<std::uint32_t>(-n) % n;
      while (static_cast<std::uint32_t>(m) < threshold) m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(next() >> 32)) * n;
    }
    return static_cast<std::uint32_t>(m >> 32);
  }
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
};

// Draws a combo index of a range with probability proportional to its weight (Vose's alias
// method).
struct Alias {
  std::vector<double> prob;
  std::vector<std::uint32_t> alias;
  explicit Alias(const std::vector<double>& w) : prob(w.size()), alias(w.size()) {
    const std::size_t n = w.size();
    double total = 0;
    for (double x : w) total += x;
    std::vector<double> scaled(n);
    std::vector<std::uint32_t> small, large;
    for (std::size_t i = 0; i < n; ++i) {
      scaled[i] = w[i] * static_cast<double>(n) / total;
      (scaled[i] < 1 ? small : large).push_back(static_cast<std::uint32_t>(i));
    }
    while (!small.empty() && !large.empty()) {
      const std::uint32_t s = small.back(), l = large.back();
      small.pop_back();
      prob[s] = scaled[s];
      alias[s] = l;
      scaled[l] -= 1 - scaled[s];
      if (scaled[l] < 1) {
        large.pop_back();
        small.push_back(l);
      }
    }
    for (std::uint32_t i : large) prob[i] = 1, alias[i] = i;
    for (std::uint32_t i : small) prob[i] = 1, alias[i] = i;
  }
  std::uint32_t draw(Rng& rng) const {
    const std::uint32_t i = rng.below(static_cast<std::uint32_t>(prob.size()));
    return rng.unit() < prob[i] ? i : alias[i];
  }
};

// Sums of one Monte Carlo run, merged block by block in a fixed order so that a seed gives
// the same answer on any number of threads.
struct Sums {
  std::vector<double> v;
  std::uint64_t draws = 0, showdowns = 0;
  void add(const Sums& o) {
    if (v.size() < o.v.size()) v.resize(o.v.size(), 0.0);
    for (std::size_t i = 0; i < o.v.size(); ++i) v[i] += o.v[i];
    draws += o.draws;
    showdowns += o.showdowns;
  }
};

// Ratio estimate sum_x / sum_z and its standard error from n draws.
double ratio_stderr(double sx, double sxx, double sxz, double sz, double szz, std::uint64_t n) {
  if (n < 2 || sz <= 0) return std::numeric_limits<double>::infinity();
  const double r = sx / sz;
  const double resid = std::max(0.0, sxx - 2 * r * sxz + r * r * szz);
  return std::sqrt(resid * static_cast<double>(n) / static_cast<double>(n - 1)) / sz;
}

constexpr std::uint64_t kMinStopDraws = 1024;

// Runs blocks of `block_draws` draws (block b seeded by (seed, b)) in rounds until done()
// says so or the draw target or the time limit is reached. run_block(b, draws, sums).
template <class RunBlock, class Done>
Sums run_monte_carlo(const Options& opt, std::uint64_t block_draws, RunBlock&& run_block, Done&& done,
                     Clock::time_point start, std::uint64_t fixed_round_blocks = 1024) {
  const std::uint64_t target = opt.samples ? opt.samples : opt.max_samples;
  Sums total;
  std::uint64_t next_block = 0;
  // Rounds grow from 4 blocks to 64 so that a target error or the time limit is checked
  // often at first; the schedule does not depend on the threads, so neither does the
  // answer. A fixed number of draws without a time limit runs in rounds of
  // fixed_round_blocks (threads are not left idle by small rounds; the blocks' sums held
  // at once stay bounded).
  std::uint64_t round_blocks = 4;
  std::uint64_t max_round_blocks = 64;
  if (opt.samples && opt.time_limit <= 0) round_blocks = max_round_blocks = fixed_round_blocks;
  const Clock::time_point first_round = Clock::now();
  for (;;) {
    const std::uint64_t start_draw = next_block * block_draws;
    if (start_draw >= target) break;
    const std::uint64_t left_blocks = (target - start_draw + block_draws - 1) / block_draws;
    std::uint64_t blocks = std::min(round_blocks, left_blocks);
    if (opt.time_limit > 0 && next_block > 0) {
      // No more blocks than the time left fits at the pace so far, so a run ends near its
      // time limit, not up to a round of 64 slow blocks (ranges that reject most deals) past it.
      const Clock::time_point now = Clock::now();
      const double per_block = std::chrono::duration<double>(now - first_round).count() /
                               static_cast<double>(next_block);
      const double left = opt.time_limit - std::chrono::duration<double>(now - start).count();
      const double fits = left / per_block;
      if (fits < static_cast<double>(blocks)) blocks = static_cast<std::uint64_t>(std::max(1.0, fits));
    }
    std::vector<Sums> parts(static_cast<std::size_t>(blocks));
    parallel_for(static_cast<std::size_t>(blocks), opt.threads, [&](std::size_t i, int) {
      const std::uint64_t b = next_block + i;
      const std::uint64_t first = b * block_draws;
      run_block(b, std::min(block_draws, target - first), parts[i]);
    });
    for (const Sums& s : parts) total.add(s);
    next_block += blocks;
    if (round_blocks < max_round_blocks) round_blocks = std::min(max_round_blocks, round_blocks * 2);
    // An error estimated from a few dozen draws can be 0 by chance: at least
    // kMinStopDraws before the target error may stop a run.
    if (!opt.samples && total.draws >= kMinStopDraws && done(total)) break;
    if (opt.time_limit > 0 &&
        std::chrono::duration<double>(Clock::now() - start).count() >= opt.time_limit) {
      break;
    }
  }
  return total;
}

std::uint64_t draw_board(Rng& rng, const std::vector<int>& deck, int need, const Hand& base,
                         std::uint64_t base_mask, Hand& board) {
  std::uint64_t mask = base_mask;
  board = base;
  const auto m = static_cast<std::uint32_t>(deck.size());
  for (int k = 0; k < need;) {
    const int c = deck[rng.below(m)];
    if (mask & bit(c)) continue;
    mask |= bit(c);
    board += c;
    ++k;
  }
  return mask;
}

// Layout of the heads-up Sums: win, tie, x, xx, xz, z, zz (x = win + tie / 2, player 0),
// then the squares and products with z of win and tie, for their own standard errors.
enum { kWin = 0, kTie, kX, kXX, kXZ, kZ, kZZ, kWW, kWZ, kTT, kTZ, kStats };

// Adds one draw's (win, tie, weight) to a heads-up layout.
void add_draw(double* v, double w, double t, double z) {
  const double x = w + t / 2;
  v[kWin] += w;
  v[kTie] += t;
  v[kX] += x;
  v[kXX] += x * x;
  v[kXZ] += x * z;
  v[kZ] += z;
  v[kZZ] += z * z;
  v[kWW] += w * w;
  v[kWZ] += w * z;
  v[kTT] += t * t;
  v[kTZ] += t * z;
}

// The standard error of the equity share alone (what a result reports).
double equity_stderr(const double* v, std::uint64_t n) {
  return ratio_stderr(v[kX], v[kXX], v[kXZ], v[kZ], v[kZZ], n);
}

// The largest standard error of the equity, win and tie shares: a run stops on this, since
// the equity's can be small (even 0: two random hands) while win and tie are still rough.
double worst_share_stderr(const double* v, std::uint64_t n) {
  return std::max({equity_stderr(v, n), ratio_stderr(v[kWin], v[kWW], v[kWZ], v[kZ], v[kZZ], n),
                   ratio_stderr(v[kTie], v[kTT], v[kTZ], v[kZ], v[kZZ], n)});
}

void fill_heads_up(const Sums& s, Result& r) {
  const double* v = s.v.data();
  if (s.v.empty() || v[kZ] <= 0) throw std::invalid_argument("the players' ranges can never be dealt together: every deal has a card twice");
  const double win = v[kWin] / v[kZ], tie = v[kTie] / v[kZ];
  r.win = {win, std::max(0.0, 1 - win - tie)};
  r.tie = {tie, tie};
  r.equity = {win + tie / 2, std::max(0.0, 1 - win - tie / 2)};
}

Result heads_up_monte_carlo(const Problem& pr, const Options& opt, Clock::time_point start) {
  const Side a(pr.ranges[0]), b(pr.ranges[1]);
  const std::vector<int> deck = open_deck(pr);
  Hand base;
  for (int c : pr.board) base += c;
  const std::uint64_t per_draw = a.size() + b.size();
  const std::uint64_t block_draws = std::clamp<std::uint64_t>(40000 / (per_draw + 8), 16, 4096);
  const auto run_block = [&](std::uint64_t block, std::uint64_t draws, Sums& out) {
    Rng rng(opt.seed, block);
    BoardSettler settler(a, b);
    out.v.assign(kStats, 0.0);
    double* v = out.v.data();
    for (std::uint64_t d = 0; d < draws; ++d) {
      Hand board;
      const std::uint64_t mask = draw_board(rng, deck, pr.need, base, pr.board_mask, board);
      const BoardOut o = settler.settle(board, mask, nullptr);
      add_draw(v, o.win, o.tie, o.z);
      out.showdowns += o.pairs;
    }
    out.draws += draws;
  };
  const Sums s = run_monte_carlo(
      opt, block_draws, run_block,
      [&](const Sums& t) { return worst_share_stderr(t.v.data(), t.draws) <= opt.target_stderr; }, start);
  Result r;
  fill_heads_up(s, r);
  const double se = equity_stderr(s.v.data(), s.draws);
  r.stderr_each = {se, se};
  r.stderr_max = se;
  r.showdowns = s.showdowns;
  r.samples = s.draws;
  r.method = "monte_carlo_boards";
  return r;
}

// Multiway Monte Carlo: draws one checks before choosing between rejection
// and a list of the deals that fit (rejection when at least 1 in kRareFit fits), and the
// most combos such a list holds (4 MB of ids; with its weights and their alias table, about
// 25 MB at most), and the search steps that may look for them (a tenth of a second).
constexpr int kPilotDraws = 4096;
constexpr int kRareFit = 64;
constexpr std::size_t kMaxListedCombos = 2'000'000;
constexpr std::uint64_t kListingNodes = 20'000'000;

Result multiway_monte_carlo(const Problem& pr, const Options& opt, Clock::time_point start) {
  const int n = pr.n;
  std::vector<Alias> alias;
  std::vector<std::vector<Hand>> hands(static_cast<std::size_t>(n));
  std::vector<std::vector<std::uint64_t>> masks(static_cast<std::size_t>(n));
  for (int p = 0; p < n; ++p) {
    const Range& r = pr.ranges[static_cast<std::size_t>(p)];
    alias.emplace_back(r.weights);
    for (std::uint16_t c : r.combos) {
      int lo = 0, hi = 0;
      combo_cards(c, lo, hi);
      hands[static_cast<std::size_t>(p)].push_back(Hand() + lo + hi);
      masks[static_cast<std::size_t>(p)].push_back(bit(lo) | bit(hi));
    }
  }
  const std::vector<int> deck = open_deck(pr);
  Hand base;
  for (int c : pr.board) base += c;
  // Players holding every combo the deck allows, all of one weight ("random"), are dealt
  // two cards from what the others leave, after them. Exact: however the other players'
  // combos fall, a full range has the same number of combos left, so conditioning on
  // the others' cards is all a full range does. The others are drawn by rejection (a deal
  // with a card twice is drawn again from its first player), which alone would reject
  // nearly every deal of ten random hands.
  const auto full_combos = static_cast<std::size_t>(pr.remaining * (pr.remaining - 1) / 2);
  std::vector<int> drawn, dealt;  // players drawn by rejection, then players dealt cards
  for (int p = 0; p < n; ++p) {
    const Range& r = pr.ranges[static_cast<std::size_t>(p)];
    bool full = r.size() == full_combos;
    for (double w : r.weights) full = full && w == r.weights[0];
    (full ? dealt : drawn).push_back(p);
  }
  // Ranges that rarely fit together (few draws hold no card twice: six players of
  // "QQ+,AK") are drawn instead from the list of the deals that fit, when it is short
  // enough to list, each deal with the product of its combos' weights: the distribution
  // rejection draws from, without the misses.
  // One draw of the drawn players' combos by rejection: false when a card came twice.
  const auto draw_by_rejection = [&](Rng& rng, std::uint64_t& used, Hand* held) {
    for (int p : drawn) {
      const std::uint32_t i = alias[static_cast<std::size_t>(p)].draw(rng);
      const std::uint64_t cm = masks[static_cast<std::size_t>(p)][i];
      if (cm & used) return false;
      used |= cm;
      held[p] = hands[static_cast<std::size_t>(p)][i];
    }
    return true;
  };
  Deals listed;
  std::optional<Alias> listed_alias;
  if (drawn.size() >= 2) {
    Rng pilot(opt.seed, ~std::uint64_t{0});
    Hand scratch[kMaxPlayers];
    int fits = 0;
    for (int tries = 0; tries < kPilotDraws; ++tries) {
      std::uint64_t used = pr.board_mask | pr.dead_mask;
      fits += draw_by_rejection(pilot, used, scratch);
    }
    if (fits * kRareFit < kPilotDraws) {
      Problem sub = pr;
      sub.n = static_cast<int>(drawn.size());
      sub.ranges.clear();
      for (int p : drawn) sub.ranges.push_back(pr.ranges[static_cast<std::size_t>(p)]);
      const auto cap = static_cast<std::uint64_t>(kMaxListedCombos / drawn.size());
      if (walk_deals(sub, cap, &listed, kListingNodes) <= cap) {
        if (listed.weights.empty()) {
          throw std::invalid_argument("the players' ranges can never be dealt together: every deal has a card twice");
        }
        listed_alias.emplace(listed.weights);
      }
    }
  }
  // Layout: per player win, tie, x, xx.
  const auto run_block = [&](std::uint64_t block, std::uint64_t draws, Sums& out) {
    Rng rng(opt.seed, block);
    out.v.assign(static_cast<std::size_t>(4 * n), 0.0);
    double* v = out.v.data();
    Hand held[kMaxPlayers];
    Strength s[kMaxPlayers];
    std::uint64_t misses = 0;
    const auto m = static_cast<std::uint32_t>(deck.size());
    for (std::uint64_t d = 0; d < draws;) {
      std::uint64_t used = pr.board_mask | pr.dead_mask;
      bool ok = true;
      if (listed_alias) {
        const std::uint16_t* deal = &listed.combos[listed_alias->draw(rng) * drawn.size()];
        for (std::size_t k = 0; k < drawn.size(); ++k) {
          int lo = 0, hi = 0;
          combo_cards(deal[k], lo, hi);
          used |= bit(lo) | bit(hi);
          held[drawn[k]] = Hand() + lo + hi;
        }
      } else {
        ok = draw_by_rejection(rng, used, held);
      }
      if (!ok) {
        if (++misses > 1000000 + 1000 * d) {
          throw std::invalid_argument(
              "the players' ranges rarely fit together (fewer than 1 random draw in 1,000 has no card twice) and too "
              "many deals fit to list them; narrow a range, or ask for an exact enumeration");
        }
        continue;
      }
      for (int p : dealt) {
        Hand h;
        for (int k = 0; k < 2;) {
          const int c = deck[rng.below(m)];
          if (used & bit(c)) continue;
          used |= bit(c);
          h += c;
          ++k;
        }
        held[p] = h;
      }
      Hand board = base;
      for (int k = 0; k < pr.need;) {
        const int c = deck[rng.below(m)];
        if (used & bit(c)) continue;
        used |= bit(c);
        board += c;
        ++k;
      }
      Strength best = 0;
      int k = 0;
      for (int p = 0; p < n; ++p) {
        s[p] = (board + held[p]).evaluate();
        if (s[p] > best) best = s[p], k = 1;
        else if (s[p] == best) ++k;
      }
      const double part = 1.0 / k;
      for (int p = 0; p < n; ++p) {
        if (s[p] != best) continue;
        v[4 * p + (k == 1 ? 0 : 1)] += 1;
        v[4 * p + 2] += part;
        v[4 * p + 3] += part * part;
      }
      ++d;
    }
    out.draws += draws;
    out.showdowns += draws;
  };
  const auto stderr_of = [&](const Sums& t, int p) {
    if (t.draws < 2) return std::numeric_limits<double>::infinity();
    const double nd = static_cast<double>(t.draws);
    const double mean = t.v[static_cast<std::size_t>(4 * p + 2)] / nd;
    const double var = std::max(0.0, t.v[static_cast<std::size_t>(4 * p + 3)] / nd - mean * mean) * nd / (nd - 1);
    return std::sqrt(var / nd);
  };
  // Win and tie are 0/1 a deal: their variance is p (1 - p).
  const auto indicator_stderr = [](double hits, double nd) {
    const double p = hits / nd;
    return std::sqrt(p * (1 - p) / (nd - 1));
  };
  const auto done = [&](const Sums& t) {
    const double nd = static_cast<double>(t.draws);
    for (int p = 0; p < n; ++p) {
      if (stderr_of(t, p) > opt.target_stderr) return false;
      if (indicator_stderr(t.v[static_cast<std::size_t>(4 * p)], nd) > opt.target_stderr) return false;
      if (indicator_stderr(t.v[static_cast<std::size_t>(4 * p + 1)], nd) > opt.target_stderr) return false;
    }
    return true;
  };
  // Each deal is cheap: blocks of 2,048 draws.
  const Sums s = run_monte_carlo(opt, 2048, run_block, done, start);
  Result r;
  const double nd = static_cast<double>(s.draws);
  for (int p = 0; p < n; ++p) {
    r.win.push_back(s.v[static_cast<std::size_t>(4 * p)] / nd);
    r.tie.push_back(s.v[static_cast<std::size_t>(4 * p + 1)] / nd);
    r.equity.push_back(s.v[static_cast<std::size_t>(4 * p + 2)] / nd);
    r.stderr_each.push_back(stderr_of(s, p));
    r.stderr_max = std::max(r.stderr_max, r.stderr_each.back());
  }
  r.showdowns = s.showdowns;
  r.samples = s.draws;
  r.method = "monte_carlo_deals";
  return r;
}

Result exact_matchups(const Problem& pr, const MatchupPlan& plan, int threads) {
  const std::vector<Tally> tallies = settle_plan(pr, plan, threads);
  const int n = pr.n;
  std::vector<double> win(static_cast<std::size_t>(n)), tie(win), share(win);
  double total = 0;
  std::uint64_t showdowns = 0;
  for (std::size_t i = 0; i < plan.unique_of.size(); ++i) {
    const Tally& t = tallies[plan.unique_of[i]];
    const double w = plan.deals.weights[i] / static_cast<double>(t.boards);
    total += plan.deals.weights[i];
    showdowns += static_cast<std::uint64_t>(t.boards);
    for (int p = 0; p < n; ++p) {
      win[static_cast<std::size_t>(p)] += w * static_cast<double>(t.win[p]);
      tie[static_cast<std::size_t>(p)] += w * static_cast<double>(t.tie[p]);
      share[static_cast<std::size_t>(p)] += w * static_cast<double>(t.share[p]) / kShareUnit;
    }
  }
  Result r;
  for (int p = 0; p < n; ++p) {
    r.win.push_back(win[static_cast<std::size_t>(p)] / total);
    r.tie.push_back(tie[static_cast<std::size_t>(p)] / total);
    r.equity.push_back(share[static_cast<std::size_t>(p)] / total);
  }
  r.stderr_each.assign(static_cast<std::size_t>(n), 0.0);
  r.exact = true;
  r.showdowns = showdowns;
  r.method = "matchups";
  return r;
}

Result exact_boards(const Problem& pr, int threads) {
  const Side a(pr.ranges[0]), b(pr.ranges[1]);
  const int t = std::max(1, threads);
  std::vector<std::vector<BoardSettler>> settlers(static_cast<std::size_t>(t));
  struct Acc {
    double win = 0, tie = 0, z = 0;
    std::uint64_t pairs = 0;
    char pad[32];
  };
  std::vector<Acc> acc(static_cast<std::size_t>(t));
  for (auto& s : settlers) s.emplace_back(a, b);
  for_each_board(pr, t, [&](const Hand& board, std::uint64_t mask, int id) {
    const BoardOut o = settlers[static_cast<std::size_t>(id)][0].settle(board, mask, nullptr);
    Acc& x = acc[static_cast<std::size_t>(id)];
    x.win += o.win;
    x.tie += o.tie;
    x.z += o.z;
    x.pairs += o.pairs;
  });
  Sums s;
  s.v.assign(kStats, 0.0);
  for (const Acc& x : acc) {
    s.v[kWin] += x.win;
    s.v[kTie] += x.tie;
    s.v[kZ] += x.z;
    s.showdowns += x.pairs;
  }
  Result r;
  fill_heads_up(s, r);
  r.stderr_each = {0.0, 0.0};
  r.exact = true;
  r.showdowns = s.showdowns;
  r.method = "boards";
  return r;
}

// Throws when no deal fits (searched depth first, within a node budget: past it the
// Monte Carlo draw gives up on its own after a million misses).
void check_dealable(const Problem& pr) {
  if (walk_deals(pr, 0, nullptr, 20'000'000) == 0) {
    throw std::invalid_argument("the players' ranges can never be dealt together: every deal has a card twice");
  }
}

void check_cap(const Options& opt, double cost) {
  if (opt.exact_work_cap > 0 && !(cost <= opt.exact_work_cap)) {
    if (std::isinf(cost)) {
      throw std::invalid_argument("exact enumeration is over the limit: too many deals to list; use Monte Carlo");
    }
    char text[160];
    std::snprintf(text, sizeof text, "exact enumeration needs about %.3g hand evaluations, over the limit of %.3g; use Monte Carlo",
                  cost, opt.exact_work_cap);
    throw std::invalid_argument(text);
  }
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Work the time limit allows, at about a nanosecond an evaluation per thread.
double exact_budget(const Options& opt) {
  double budget = opt.max_exact_work;
  if (opt.time_limit > 0) budget = std::min(budget, opt.time_limit * 0.5e9 * opt.threads);
  return budget;
}

// The exact route's costs: enumerating boards (given) and, when a plan of matchups fits,
// listing the deals of the ranges (`plan`). A plan costs at least 50 evaluations a deal; a
// bounded call (a time limit or a work cap, as servers make) lists at most 500,000 deals
// (tens of MB), an unbounded one at most `unbounded_deals`. Forced (Method::kExact), the
// cheaper cost must fit the work cap or this throws. Returns the matchups' cost (infinite
// without a plan).
double plan_exact(const Problem& pr, const Options& opt, double budget, double cost_boards,
                  double unbounded_deals, MatchupPlan& plan) {
  const bool forced = opt.method == Method::kExact;
  const double inf = std::numeric_limits<double>::infinity();
  const double listed = opt.time_limit > 0 || opt.exact_work_cap > 0 ? 5e5 : unbounded_deals;
  const double cap_d = forced ? (opt.exact_work_cap > 0 ? std::min(listed, opt.exact_work_cap / 50) : listed)
                              : std::min(listed, std::min(budget, cost_boards) / 50);
  const double max_cost = forced ? (opt.exact_work_cap > 0 ? opt.exact_work_cap : inf)
                                 : std::min(budget, cost_boards);
  const bool planned = cap_d >= 1 && plan_matchups(pr, static_cast<std::uint64_t>(cap_d), plan, max_cost);
  const double cost_matchups = planned ? plan.cost : inf;
  if (forced) check_cap(opt, std::min(cost_boards, cost_matchups));
  return cost_matchups;
}

}  // namespace

Result equity(const std::vector<Range>& players, const std::vector<int>& board,
              const std::vector<int>& dead, const Options& options) {
  const auto start = Clock::now();
  const Problem pr = make_problem(players, board, dead);
  Options opt = options;
  opt.threads = std::max(1, opt.threads);
  const double budget = exact_budget(opt);

  if (opt.method != Method::kMonteCarlo) {
    const bool forced = opt.method == Method::kExact;
    const double cost_boards = pr.n == 2 ? boards_cost(pr) : std::numeric_limits<double>::infinity();
    MatchupPlan plan;
    const double cost_matchups = plan_exact(pr, opt, budget, cost_boards, 2e7, plan);
    if (forced || std::min(cost_boards, cost_matchups) <= budget) {
      if (std::isfinite(cost_matchups) && cost_matchups <= cost_boards) return exact_matchups(pr, plan, opt.threads);
      if (pr.n == 2) return exact_boards(pr, opt.threads);
      throw std::invalid_argument("exact enumeration would list too many deals of the ranges; use Monte Carlo");
    }
  }
  check_dealable(pr);
  if (opt.time_limit > 0) opt.time_limit = std::max(1e-3, opt.time_limit - seconds_since(start));
  if (pr.n == 2) return heads_up_monte_carlo(pr, opt, start);
  return multiway_monte_carlo(pr, opt, start);
}

TableResult equity_table(const Range& villain, const std::vector<int>& board,
                         const std::vector<int>& dead, const Options& options) {
  const auto start = Clock::now();
  Problem pr = make_problem({full_range(), villain}, board, dead);
  Options opt = options;
  opt.threads = std::max(1, opt.threads);
  const Side a(pr.ranges[0]), b(pr.ranges[1]);
  TableResult out;
  out.equity.assign(kNumCombos, 0.0);
  out.win = out.tie = out.weight = out.stderr_each = out.equity;
  std::vector<double> win(kNumCombos), tie(kNumCombos), z(kNumCombos);

  const double budget = exact_budget(opt);
  bool done = false;
  if (opt.method != Method::kMonteCarlo) {
    const bool forced = opt.method == Method::kExact;
    const double cost_boards = boards_cost(pr);
    MatchupPlan plan;
    const double cost_matchups = plan_exact(pr, opt, budget, cost_boards, 4e6, plan);
    if (forced || std::min(cost_boards, cost_matchups) <= budget) {
      if (std::isfinite(cost_matchups) && cost_matchups <= cost_boards) {
        const std::vector<Tally> tallies = settle_plan(pr, plan, opt.threads);
        for (std::size_t i = 0; i < plan.unique_of.size(); ++i) {
          const Tally& t = tallies[plan.unique_of[i]];
          const std::uint16_t c = plan.deals.combos[2 * i];
          const double w = plan.deals.weights[i];
          const double per = w / static_cast<double>(t.boards);
          win[c] += per * static_cast<double>(t.win[0]);
          tie[c] += per * static_cast<double>(t.tie[0]);
          z[c] += w;
          out.showdowns += static_cast<std::uint64_t>(t.boards);
        }
        out.method = "matchups";
      } else {
        const int t = opt.threads;
        std::vector<BoardSettler> settlers;
        for (int i = 0; i < t; ++i) settlers.emplace_back(a, b);
        std::vector<std::vector<double>> acc(static_cast<std::size_t>(t), std::vector<double>(3 * a.size(), 0.0));
        std::vector<std::vector<double>> scratch(static_cast<std::size_t>(t), std::vector<double>(3 * a.size(), 0.0));
        std::vector<std::uint64_t> pairs(static_cast<std::size_t>(t) * 8, 0);
        for_each_board(pr, t, [&](const Hand& bd, std::uint64_t mask, int id) {
          auto& sc = scratch[static_cast<std::size_t>(id)];
          const BoardOut o = settlers[static_cast<std::size_t>(id)].settle(bd, mask, sc.data());
          auto& ac = acc[static_cast<std::size_t>(id)];
          for (std::size_t i = 0; i < sc.size(); ++i) ac[i] += sc[i];
          pairs[static_cast<std::size_t>(id) * 8] += o.pairs;
        });
        for (int id = 0; id < t; ++id) {
          for (std::size_t i = 0; i < a.size(); ++i) {
            win[a.combo[i]] += acc[static_cast<std::size_t>(id)][3 * i];
            tie[a.combo[i]] += acc[static_cast<std::size_t>(id)][3 * i + 1];
            z[a.combo[i]] += acc[static_cast<std::size_t>(id)][3 * i + 2];
          }
          out.showdowns += pairs[static_cast<std::size_t>(id) * 8];
        }
        out.method = "boards";
      }
      out.exact = true;
      done = true;
    }
  }
  if (!done) {
    check_dealable(pr);
    if (opt.time_limit > 0) opt.time_limit = std::max(1e-3, opt.time_limit - seconds_since(start));
    const std::vector<int> deck = open_deck(pr);
    Hand base;
    for (int c : pr.board) base += c;
    const std::size_t na = a.size();
    // Layout per entry of a: win, tie, x, xx, xz, z, zz.
    const auto run_block = [&](std::uint64_t block, std::uint64_t draws, Sums& s) {
      Rng rng(opt.seed, block);
      BoardSettler settler(a, b);
      std::vector<double> sc(3 * na);
      s.v.assign(kStats * na, 0.0);
      for (std::uint64_t d = 0; d < draws; ++d) {
        Hand bd;
        const std::uint64_t mask = draw_board(rng, deck, pr.need, base, pr.board_mask, bd);
        const BoardOut o = settler.settle(bd, mask, sc.data());
        for (std::size_t i = 0; i < na; ++i) {
          const double w = sc[3 * i], t = sc[3 * i + 1], zz = sc[3 * i + 2];
          if (zz <= 0) continue;
          add_draw(&s.v[kStats * i], w, t, zz);
        }
        s.showdowns += o.pairs;
      }
      s.draws += draws;
    };
    const auto worst = [&](const Sums& s) {
      double m = 0;
      for (std::size_t i = 0; i < na; ++i) {
        const double* v = &s.v[kStats * i];
        if (v[kZ] <= 0) continue;
        m = std::max(m, worst_share_stderr(v, s.draws));
      }
      return m;
    };
    const std::uint64_t block_draws = std::clamp<std::uint64_t>(40000 / (na + b.size() + 8), 8, 1024);
    // Each block's sums hold kStats numbers per combo: rounds of at most 64 blocks.
    const Sums s = run_monte_carlo(opt, block_draws, run_block,
                                   [&](const Sums& t) { return worst(t) <= opt.target_stderr; }, start, 64);
    for (std::size_t i = 0; i < na; ++i) {
      const double* v = &s.v[kStats * i];
      const std::uint16_t c = a.combo[i];
      win[c] = v[kWin];
      tie[c] = v[kTie];
      z[c] = v[kZ];
      if (v[kZ] > 0) out.stderr_each[c] = equity_stderr(v, s.draws);
    }
    out.showdowns = s.showdowns;
    out.samples = s.draws;
    out.method = "monte_carlo_boards";
  }
  double total = 0;
  for (int c = 0; c < kNumCombos; ++c) total += z[static_cast<std::size_t>(c)];
  if (total <= 0) throw std::invalid_argument("no combination can be dealt against the range");
  for (int c = 0; c < kNumCombos; ++c) {
    const auto i = static_cast<std::size_t>(c);
    if (z[i] <= 0) continue;
    out.win[i] = win[i] / z[i];
    out.tie[i] = tie[i] / z[i];
    out.equity[i] = out.win[i] + out.tie[i] / 2;
    out.weight[i] = z[i] / total;
  }
  return out;
}

Result equity_reference(const std::vector<Range>& players, const std::vector<int>& board,
                        const std::vector<int>& dead) {
  const Problem pr = make_problem(players, board, dead);
  Deals deals;
  if (walk_deals(pr, std::numeric_limits<std::uint64_t>::max() - 1, &deals, std::numeric_limits<std::uint64_t>::max()) == 0) {
    throw std::invalid_argument("the players' ranges can never be dealt together: every deal has a card twice");
  }
  const int n = pr.n;
  std::vector<double> win(static_cast<std::size_t>(n)), tie(win), share(win);
  double total = 0;
  std::uint64_t showdowns = 0;
  for (std::size_t d = 0; d < deals.weights.size(); ++d) {
    std::uint64_t used = pr.board_mask | pr.dead_mask;
    int cards[kMaxPlayers][7];
    for (int p = 0; p < n; ++p) {
      combo_cards(deals.combos[d * static_cast<std::size_t>(n) + static_cast<std::size_t>(p)], cards[p][0], cards[p][1]);
      used |= bit(cards[p][0]) | bit(cards[p][1]);
      for (std::size_t j = 0; j < pr.board.size(); ++j) cards[p][2 + j] = pr.board[j];
    }
    std::vector<int> deck;
    for (int c = 0; c < kDeckSize; ++c) {
      if (!(used & bit(c))) deck.push_back(c);
    }
    const int m = static_cast<int>(deck.size());
    const int k0 = static_cast<int>(pr.board.size());
    std::vector<double> dwin(static_cast<std::size_t>(n)), dtie(dwin), dshare(dwin);
    std::uint64_t boards = 0;
    // Every need-subset of the deck by index walk.
    std::vector<int> idx(static_cast<std::size_t>(pr.need));
    for (int i = 0; i < pr.need; ++i) idx[static_cast<std::size_t>(i)] = i;
    for (;;) {
      for (int p = 0; p < n; ++p) {
        for (int i = 0; i < pr.need; ++i) cards[p][2 + k0 + i] = deck[static_cast<std::size_t>(idx[static_cast<std::size_t>(i)])];
      }
      int s[kMaxPlayers];
      int best = 0, k = 0;
      for (int p = 0; p < n; ++p) {
        s[p] = poker::evaluate7(cards[p]);
        if (s[p] > best) best = s[p], k = 1;
        else if (s[p] == best) ++k;
      }
      for (int p = 0; p < n; ++p) {
        if (s[p] != best) continue;
        (k == 1 ? dwin : dtie)[static_cast<std::size_t>(p)] += 1;
        dshare[static_cast<std::size_t>(p)] += 1.0 / k;
      }
      ++boards;
      int i = pr.need - 1;
      while (i >= 0 && idx[static_cast<std::size_t>(i)] == m - pr.need + i) --i;
      if (i < 0) break;
      ++idx[static_cast<std::size_t>(i)];
      for (int j = i + 1; j < pr.need; ++j) idx[static_cast<std::size_t>(j)] = idx[static_cast<std::size_t>(j - 1)] + 1;
    }
    const double w = deals.weights[d];
    total += w;
    showdowns += boards;
    for (int p = 0; p < n; ++p) {
      const auto pi = static_cast<std::size_t>(p);
      win[pi] += w * dwin[pi] / static_cast<double>(boards);
      tie[pi] += w * dtie[pi] / static_cast<double>(boards);
      share[pi] += w * dshare[pi] / static_cast<double>(boards);
    }
  }
  Result r;
  for (int p = 0; p < n; ++p) {
    const auto pi = static_cast<std::size_t>(p);
    r.win.push_back(win[pi] / total);
    r.tie.push_back(tie[pi] / total);
    r.equity.push_back(share[pi] / total);
  }
  r.stderr_each.assign(static_cast<std::size_t>(n), 0.0);
  r.exact = true;
  r.showdowns = showdowns;
  r.method = "reference";
  return r;
}

}  // namespace capsa_fast::equity
