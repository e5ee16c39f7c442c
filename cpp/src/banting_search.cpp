// The master bot: a search over the seat's candidate moves.
//
// Each candidate is tried on the same sampled deals ("worlds") of the cards the seat
// cannot see, dealt to the other seats in their counts, and the round is played out from
// there by rule-based standard bots (standard-v2); a candidate's value is the seat's mean score over its worlds.
// Once the other seats have moved, the worlds are deals drawn by Metropolis chains (the
// third session of 2026-12-04; see infer()) in proportion to kMismatch ** mismatches():
// a deal in which standard-v2 would have played as they did is likelier than one in which
// it would not.
// The budget is spent in phases (sequential halving): after each phase the weaker half of
// the candidates is dropped, so the strong ones get most of the rollouts. Sharing the
// worlds between candidates makes their comparison much less noisy than separate samples.
// standard-v2's own move starts SearchBudget::prior points ahead (1.0 by default; measured
// by duplicate deals): a candidate has to beat it clearly to be played instead. Clearly
// means twice over (the second session of 2026-12-04): its lead over standard-v2's move on
// the same worlds must exceed the prior by SearchBudget::confidence standard errors, and it
// must still do at least as well (SearchBudget::check_margin) on check_worlds fresh worlds
// in which the other seats play standard-v1, a different model of them: a move that wins
// only against the rollouts' own model of the other players is not played.
// Those guards are for players the model does not fit. When the other seats' moves so far
// fit standard-v2 far better than a rough player (SearchBudget::trust_model, see
// fits_model()), the search trusts its rollouts and plays the best move it finds.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "capsa_fast/banting_game.hpp"
#include "capsa_fast/threads.hpp"

namespace capsa_fast::banting {
namespace {

constexpr CardMask kDeck = (CardMask{1} << kDeckSize) - 1;
constexpr std::size_t kMaxCandidates = 16;
// The inferred deals: kChains Metropolis chains over the deals of the unseen cards, each
// step swapping a card between two other seats (or a seat and the undealt stock, with fewer
// than four players) and accepted with probability
// min(1, kMismatch ** (change in mismatches)); after kBurnIn steps every kThin-th deal is
// kept (12 * 10 = 120 deals). Measured by duplicate deals: they replaced
// a pool of 256 deals dealt at random and weighted 0.6 ** mismatches, which late in a
// round held few deals that fit; with chains, 0.2 measured better than 0.6 or 0.05 against
// three standard, and 12 short chains better than 2 long ones (more different deals).
constexpr int kChains = 12;
constexpr int kChainSteps = 200;
constexpr int kBurnIn = 120;
constexpr int kThin = 8;
constexpr double kMismatch = 0.2;
// How well standard-v2 explains the other seats (fits_model()): the fewest mismatches of any
// deal the chains visited, over the other seats' moves, scored as the log odds of a player
// who differs from standard-v2 at kFitRate of its moves against one who does at kRoughRate.
// Above kTrustLogOdds the search trusts its model. Measured: against three
// standard the odds pass 3 at about three searched moves in four, against three expert at
// about one in eight.
constexpr double kFitRate = 0.03;
constexpr double kRoughRate = 0.35;
constexpr double kTrustLogOdds = 3.0;

using Clock = std::chrono::steady_clock;

bool same_move(const Move& a, const Move& b) {
  return a.is_pass == b.is_pass && (a.is_pass || a.combo.mask() == b.combo.mask());
}

// Per seat in `seats` (a bit mask; never `seat`): how many of its moves so far standard-v2
// would have made differently, had the seats been dealt what they played plus `hands`.
std::array<int, kMaxPlayers> seat_mismatches(const Round& round, int seat,
                                             const std::array<CardMask, kMaxPlayers>& hands, unsigned seats) {
  std::array<CardMask, kMaxPlayers> dealt{};
  for (int s = 0; s < round.players(); ++s)
    dealt[static_cast<std::size_t>(s)] = hands[static_cast<std::size_t>(s)] | round.played_by(s);
  Round replay = round.at_start(dealt);
  SplitMix64 unused{0};  // standard-v2 rolls no dice
  std::array<int, kMaxPlayers> missed{};
  for (const Move& m : round.history()) {
    if (m.seat != seat && (seats >> m.seat & 1) &&
        !same_move(bot_move(replay, BotLevel::kStandardV2, unused), m))
      ++missed[static_cast<std::size_t>(m.seat)];
    replay.apply_legal(m.seat, m.is_pass ? nullptr : &m.combo);
  }
  return missed;
}

// The moves worth searching: the standard bot's, passing, the weakest and strongest play
// of each size, then the plays that spoil the rest of the hand least (by the standard
// bot's plan cost of what is left), up to kMaxCandidates.
std::vector<Move> candidates(const Round& r, SplitMix64& rng, const std::vector<Combo>& legal) {
  const int seat = r.turn();
  std::vector<Move> out;
  auto add = [&](const Move& m) {
    for (const Move& o : out)
      if (same_move(o, m)) return;
    out.push_back(m);
  };
  add(bot_move(r, BotLevel::kStandardV2, rng));
  if (r.can_pass()) add(Move{seat, true, Combo{}});
  for (int size : {1, 2, 3, 5}) {
    const Combo* lo = nullptr;
    const Combo* hi = nullptr;
    for (const Combo& c : legal) {
      if (c.size != size) continue;
      if (!lo || c.strength < lo->strength) lo = &c;
      if (!hi || c.strength > hi->strength) hi = &c;
    }
    if (lo) add(Move{seat, false, *lo});
    if (hi) add(Move{seat, false, *hi});
  }
  if (out.size() >= kMaxCandidates || out.size() >= legal.size() + (r.can_pass() ? 1 : 0)) return out;
  const CardMask hand = r.hand(seat);
  const Rules& rules = r.combo_rules();
  std::vector<std::pair<double, std::size_t>> by_cost;
  by_cost.reserve(legal.size());
  for (std::size_t i = 0; i < legal.size(); ++i)
    by_cost.emplace_back(plan_hand(hand & ~legal[i].mask(), rules).cost, i);
  std::stable_sort(by_cost.begin(), by_cost.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [cost, i] : by_cost) {
    if (out.size() >= kMaxCandidates) break;
    add(Move{seat, false, legal[i]});
  }
  return out;
}

// An option's rollout scores, and its differences from option 0's on the same worlds (while
// both were played).
struct Tally {
  long long total = 0;
  long long diff = 0;
  long long diff_squares = 0;
  std::uint64_t paired = 0;

  void add(const Tally& t) {
    total += t.total;
    diff += t.diff;
    diff_squares += t.diff_squares;
    paired += t.paired;
  }
  // Whether the mean difference from option 0 reaches `margin` plus `z` standard errors.
  bool ahead_of_first(double margin, double z) const {
    if (paired == 0) return false;
    const double n = static_cast<double>(paired);
    const double mean = static_cast<double>(diff) / n;
    const double var =
        paired > 1 ? std::max(0.0, (static_cast<double>(diff_squares) - mean * mean * n) / (n - 1)) : 0.0;
    return mean - margin >= z * std::sqrt(var / n);
  }
};

struct Searcher {
  const Round& root;
  int seat;
  std::vector<Move> options;
  std::vector<int> unseen;
  std::uint64_t seed;
  BotLevel others = BotLevel::kStandardV2;  // how the other seats play in the rollouts

  // Plays option `o` in world `w` (its own dice) and returns the seat's score.
  int rollout(const Round& world, std::size_t o, SplitMix64& rng) const {
    Round w = world;
    const Move& m = options[o];
    w.apply_legal(seat, m.is_pass ? nullptr : &m.combo);
    while (!w.over()) {
      const Move next = bot_move(w, w.turn() == seat ? BotLevel::kStandardV2 : others, rng);
      w.apply_legal(next.seat, next.is_pass ? nullptr : &next.combo);
    }
    return w.scores()[static_cast<std::size_t>(seat)];
  }

  std::vector<std::array<CardMask, kMaxPlayers>> pool;  // the inferred deals, if any
  int fewest_missed = -1;  // the fewest mismatches of any deal the chains visited
  std::array<int, kMaxPlayers> fewest_by_seat{};  // each seat's own fewest, over the same deals
  std::array<int, kMaxPlayers> observed{};        // each other seat's moves so far

  // The other seats' hands dealt from the unseen cards, shuffled by `key`, in their counts.
  std::array<CardMask, kMaxPlayers> deal(std::uint64_t key) const {
    SplitMix64 rng{key};
    std::vector<int> cards = unseen;
    for (std::size_t i = cards.size(); i > 1; --i)
      std::swap(cards[i - 1], cards[static_cast<std::size_t>(rng.below(static_cast<int>(i)))]);
    std::array<CardMask, kMaxPlayers> hands{};
    std::size_t next = 0;
    for (int s = 0; s < root.players(); ++s) {
      if (s == seat) {
        hands[static_cast<std::size_t>(s)] = root.hand(s);
        continue;
      }
      CardMask h = 0;
      for (int k = 0; k < root.count(s); ++k) h |= CardMask{1} << cards[next++];
      hands[static_cast<std::size_t>(s)] = h;
    }
    return hands;
  }

  // Fills the pool from the round's history (left empty when there is none): kChains
  // Metropolis chains over the deals, each step swapping a card between two holders of
  // unseen cards: the other seats, and with fewer than four players the undealt cards
  // (kept in the unused slot `players()` while the chain runs; they make no moves).
  void infer() {
    if (root.history().empty()) return;
    std::vector<std::size_t> holders;  // the other seats still holding cards, and the stock
    for (int s = 0; s < root.players(); ++s)
      if (s != seat && root.count(s) > 0) holders.push_back(static_cast<std::size_t>(s));
    const auto stock = static_cast<std::size_t>(root.players());
    int held = 0;  // the unseen cards in the other seats' hands
    for (const std::size_t s : holders) held += root.count(static_cast<int>(s));
    const bool with_stock = stock < kMaxPlayers && static_cast<int>(unseen.size()) > held;
    if (with_stock) holders.push_back(stock);
    for (const Move& m : root.history()) observed[static_cast<std::size_t>(m.seat)] += m.seat != seat;
    fewest_by_seat.fill(-1);
    if (holders.size() < 2) return;  // one deal only: the plain deal is it
    const double log_mismatch = std::log(kMismatch);
    auto nth = [](CardMask m, int k) {  // the k-th card of m, as a mask
      for (; k > 0; --k) m &= m - 1;
      return CardMask{1} << __builtin_ctzll(m);
    };
    auto visit = [&](const std::array<int, kMaxPlayers>& missed) {  // a deal the chain is at
      int total = 0;
      for (std::size_t k = 0; k < missed.size(); ++k) {
        total += missed[k];
        if (fewest_by_seat[k] < 0 || missed[k] < fewest_by_seat[k]) fewest_by_seat[k] = missed[k];
      }
      if (fewest_missed < 0 || total < fewest_missed) fewest_missed = total;
    };
    pool.reserve(static_cast<std::size_t>(kChains * ((kChainSteps - kBurnIn) / kThin)));
    for (int c = 0; c < kChains; ++c) {
      SplitMix64 rng{seed ^ 0x2545F4914F6CDD1Dull ^ (static_cast<std::uint64_t>(c + 1) * 0x9E3779B97F4A7C15ull)};
      auto hands = deal(rng.next());
      if (with_stock) {
        CardMask rest = 0;
        for (const int card : unseen) rest |= CardMask{1} << card;
        for (const CardMask h : hands) rest &= ~h;
        hands[stock] = rest;
      }
      auto missed = seat_mismatches(root, seat, hands, ~0u);
      visit(missed);
      for (int step = 0; step < kChainSteps; ++step) {
        const auto i = static_cast<std::size_t>(rng.below(static_cast<int>(holders.size())));
        auto j = static_cast<std::size_t>(rng.below(static_cast<int>(holders.size()) - 1));
        if (j >= i) ++j;
        const std::size_t a = holders[i];
        const std::size_t b = holders[j];
        const CardMask from_a = nth(hands[a], rng.below(__builtin_popcountll(hands[a])));
        const CardMask from_b = nth(hands[b], rng.below(__builtin_popcountll(hands[b])));
        auto next = hands;
        next[a] = (next[a] & ~from_a) | from_b;
        next[b] = (next[b] & ~from_b) | from_a;
        const auto now = seat_mismatches(root, seat, next, (1u << a) | (1u << b));
        const int change = now[a] + now[b] - missed[a] - missed[b];
        const double u = static_cast<double>(rng.next() >> 11) * 0x1.0p-53;
        if (change <= 0 || u < std::exp(log_mismatch * change)) {
          hands = next;
          missed[a] = now[a];
          missed[b] = now[b];
          visit(missed);
        }
        if (step >= kBurnIn && (step - kBurnIn) % kThin == kThin - 1) {
          pool.push_back(hands);
          if (with_stock) pool.back()[stock] = 0;  // a Round's hands are the seats' only
        }
      }
    }
  }

  // Whether standard-v2 explains the other seats' moves so far far better than a rough
  // player would: the log odds of kFitRate against kRoughRate pass kTrustLogOdds over all of
  // them, and favour kFitRate for each seat on its own (a table of two seats that fit and
  // one that does not is not trusted).
  bool fits_model() const {
    if (fewest_missed < 0) return false;
    auto odds = [](int missed, int moves) {
      return missed * std::log(kFitRate / kRoughRate) + (moves - missed) * std::log((1 - kFitRate) / (1 - kRoughRate));
    };
    int moves = 0;
    for (std::size_t k = 0; k < fewest_by_seat.size(); ++k) {
      moves += observed[k];
      if (fewest_by_seat[k] > 0 && odds(fewest_by_seat[k], observed[k]) <= 0) return false;
    }
    return odds(fewest_missed, moves) > kTrustLogOdds;
  }

  // The other seats' hands in world number `index`: a deal drawn from the pool, or, with
  // none, the unseen cards dealt by the world's own random source.
  Round world(std::uint64_t index) const {
    const std::uint64_t key = seed ^ (index * 0xD6E8FEB86659FD93ull);
    if (pool.empty()) return root.with_hands(deal(key));
    SplitMix64 pick{key};
    return root.with_hands(pool[static_cast<std::size_t>(pick.below(static_cast<int>(pool.size())))]);
  }

  // Worlds first .. first+count-1 (or until `deadline`, when set) for the active options
  // (sorted); adds each option's scores to its tally and returns how many worlds were played.
  std::uint64_t play(std::uint64_t first, std::uint64_t count, const std::vector<std::size_t>& active,
                     std::vector<Tally>& totals, Clock::time_point deadline, bool timed) const {
    std::uint64_t done = 0;
    for (std::uint64_t i = first; i < first + count; ++i) {
      if (timed && done > 0 && Clock::now() >= deadline) break;
      const Round w = world(i);
      SplitMix64 rng{seed ^ (i * 0x9E3779B97F4A7C15ull) ^ 0x5851F42D4C957F2Dull};
      int first_score = 0;  // option 0's, when active (it comes first)
      for (const std::size_t o : active) {
        SplitMix64 dice = rng;  // the same dice for every option in this world
        const int score = rollout(w, o, dice);
        Tally& t = totals[o];
        t.total += score;
        if (o == 0) {
          first_score = score;
        } else if (active[0] == 0) {
          const long long d = score - first_score;
          t.diff += d;
          t.diff_squares += d * d;
          ++t.paired;
        }
      }
      ++done;
    }
    return done;
  }
};

}  // namespace

int mismatches(const Round& round, int seat, const std::array<CardMask, kMaxPlayers>& hands) {
  int total = 0;
  for (const int m : seat_mismatches(round, seat, hands, ~0u)) total += m;
  return total;
}

Move master_move(const Round& r, SplitMix64& rng, const SearchBudget& budget) {
  const int seat = r.turn();
  std::vector<Combo> legal;
  r.for_each_legal([&](const Combo& c) { legal.push_back(c); });
  if (legal.empty()) return Move{seat, true, Combo{}};
  const CardMask hand = r.hand(seat);
  for (const Combo& c : legal)
    if (c.mask() == hand) return Move{seat, false, c};  // going out

  const PlanCacheScope plans;  // the rollouts plan the same hands again and again
  Searcher s{r, seat, candidates(r, rng, legal), {}, rng.next(), BotLevel::kStandardV2, {}, -1, {}, {}};
  if (s.options.size() == 1) return s.options[0];
  const auto start = Clock::now();
  for (CardMask m = kDeck & ~hand & ~r.played(); m; m &= m - 1) s.unseen.push_back(__builtin_ctzll(m));
  s.infer();
  // The other seats play like the rollouts' model: trust it (no prior, confidence or check).
  const bool trusted = budget.trust_model && s.fits_model();
  const double prior = trusted ? 0.0 : budget.prior;
  const double confidence = trusted ? 0.0 : budget.confidence;

  const bool timed = budget.time_ms > 0;
  const bool check = !trusted && budget.check_worlds > 0;
  // Timed: the check, when there is one, gets the last fifth of the time.
  const double search_ms = budget.time_ms * (check ? 0.8 : 1.0);
  const int threads = std::max(1, budget.threads);
  const std::size_t n = s.options.size();
  const int phases = std::max(1, static_cast<int>(std::ceil(std::log2(static_cast<double>(n)))));
  std::vector<std::size_t> active(n);
  for (std::size_t i = 0; i < n; ++i) active[i] = i;
  std::vector<Tally> totals(n);
  std::vector<std::uint64_t> worlds(n, 0);
  // An option's mean score, standard-v2's own move (option 0) credited with the prior: the
  // largest of many noisy means is biased upwards, and the rollouts model the other seats
  // as standard-v2, which flatters moves that exploit that model when they play otherwise.
  auto value = [&](std::size_t o) {
    const double mean = static_cast<double>(totals[o].total) / static_cast<double>(std::max<std::uint64_t>(worlds[o], 1));
    return o == 0 ? mean + prior : mean;
  };
  const long long rollouts = std::max(budget.iterations, 1);
  long long used = 0;
  std::uint64_t next_world = 0;
  for (int phase = 0; phase < phases; ++phase) {
    // This phase's share: a count of worlds, or a slice of the time.
    const long long share = (rollouts - used) / (phases - phase);
    const std::uint64_t count =
        timed ? ~std::uint64_t{0} >> 8
              : static_cast<std::uint64_t>(std::max<long long>(1, share / static_cast<long long>(active.size())));
    const auto deadline = start + std::chrono::duration_cast<Clock::duration>(
                                      std::chrono::duration<double, std::milli>(
                                          search_ms * (phase + 1) / phases));
    std::uint64_t played = 0;
    if (threads == 1) {
      played = s.play(next_world, count, active, totals, deadline, timed);
    } else {
      // Each thread plays its own range of world numbers into its own totals; they are
      // integers, so their sum does not depend on the order the threads finish in.
      std::vector<std::vector<Tally>> part(static_cast<std::size_t>(threads), std::vector<Tally>(n));
      std::vector<std::uint64_t> done(static_cast<std::size_t>(threads), 0);
      const std::uint64_t per = timed ? count : (count + static_cast<std::uint64_t>(threads) - 1) / static_cast<std::uint64_t>(threads);
      run_parts(threads, [&](int t) {
        // Timed threads take far-apart ranges of world numbers, so none plays a world twice.
        const std::uint64_t first = next_world + static_cast<std::uint64_t>(t) * (timed ? std::uint64_t{1} << 32 : per);
        const std::uint64_t mine = timed ? count : std::min(per, count - std::min(count, static_cast<std::uint64_t>(t) * per));
        const PlanCacheScope thread_plans;  // the cache is per thread
        done[static_cast<std::size_t>(t)] = s.play(first, mine, active, part[static_cast<std::size_t>(t)], deadline, timed);
      });
      for (int t = 0; t < threads; ++t) {
        for (std::size_t o = 0; o < n; ++o) totals[o].add(part[static_cast<std::size_t>(t)][o]);
        played += done[static_cast<std::size_t>(t)];
      }
    }
    for (const std::size_t o : active) worlds[o] += played;
    used += static_cast<long long>(played) * static_cast<long long>(active.size());
    next_world += timed ? (~std::uint64_t{0} >> 16) / static_cast<std::uint64_t>(phases) : count;
    if (phase + 1 < phases && active.size() > 1) {
      std::stable_sort(active.begin(), active.end(),
                       [&](std::size_t a, std::size_t b) { return value(a) > value(b); });
      active.resize((active.size() + 1) / 2);
      std::sort(active.begin(), active.end());
    }
  }
  std::size_t best = active[0];
  for (const std::size_t o : active)
    if (value(o) > value(best)) best = o;
  if (best == 0) return s.options[0];
  // Another move leads: it must lead clearly (by the prior and `confidence` standard errors
  // of its differences from option 0 on the worlds both played), and still do as well with
  // the other seats played by standard-v1, on worlds of their own (numbered far from the
  // search's).
  if (!totals[best].ahead_of_first(prior, confidence)) return s.options[0];
  if (check) {
    Searcher other = s;
    other.others = BotLevel::kStandardV1;
    std::vector<Tally> checked(n);
    const auto deadline = start + std::chrono::duration_cast<Clock::duration>(
                                      std::chrono::duration<double, std::milli>(budget.time_ms));
    other.play(std::uint64_t{1} << 62, static_cast<std::uint64_t>(budget.check_worlds), {0, best}, checked,
               deadline, timed);
    if (!checked[best].ahead_of_first(budget.check_margin, 0)) return s.options[0];
  }
  return s.options[best];
}

}  // namespace capsa_fast::banting
