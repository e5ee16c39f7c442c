#include "capsa_fast/banting_env.hpp"

#include <algorithm>
#include <cstring>

namespace capsa_fast::banting::env {

namespace {

std::array<std::uint16_t, kNumPlayActions> make_subsets() noexcept {
  std::array<std::uint16_t, kNumPlayActions> out{};
  std::size_t next = 0;
  for (int size : {1, 2, 3, 5}) {
    const std::size_t first = next;
    for (unsigned subset = 0; subset < (1u << kRowCards); ++subset)
      if (__builtin_popcount(subset) == size) out[next++] = static_cast<std::uint16_t>(subset);
    // Lexicographic order of the sorted position lists: the subset whose lowest differing
    // position is in it comes first.
    std::sort(out.begin() + static_cast<std::ptrdiff_t>(first),
              out.begin() + static_cast<std::ptrdiff_t>(next), [](unsigned a, unsigned b) {
                const unsigned diff = a ^ b;
                return diff != 0 && (a & (diff & (~diff + 1))) != 0;
              });
  }
  return out;
}

// The cards of a hand sorted low to high in Big Two order (single_order), with each card's
// position.
struct Row {
  std::uint8_t cards[kDeckSize];
  int n = 0;
  std::array<std::int8_t, kDeckSize> position{};
};

void make_row(CardMask hand, const Rules& rules, Row* row) noexcept {
  std::uint64_t by_index = 0;
  for (CardMask h = hand; h; h &= h - 1) by_index |= std::uint64_t{1} << card_index(__builtin_ctzll(h), rules);
  std::array<int, 4> suit_at{};  // suit id at each suit position
  for (int s = 0; s < 4; ++s) suit_at[rules.suit_rank[static_cast<std::size_t>(s)]] = s;
  row->n = 0;
  for (std::uint64_t m = by_index; m; m &= m - 1) {
    const int i = __builtin_ctzll(m);
    const int card = make_card((i / 4 + 1) % kNumRanks, suit_at[static_cast<std::size_t>(i % 4)]);
    row->position[static_cast<std::size_t>(card)] = static_cast<std::int8_t>(row->n);
    row->cards[row->n++] = static_cast<std::uint8_t>(card);
  }
}

void set_cards(std::int8_t* out, CardMask cards, const Rules& rules) noexcept {
  for (CardMask h = cards; h; h &= h - 1) out[card_index(__builtin_ctzll(h), rules)] = 1;
}

constexpr std::uint64_t kBotStream = 0x243F6A8885A308D3ull;
constexpr std::uint64_t kSampleStream = 0x13198A2E03707344ull;

}  // namespace

const std::array<std::uint16_t, kNumPlayActions>& action_subsets() noexcept {
  static const std::array<std::uint16_t, kNumPlayActions> subsets = make_subsets();
  return subsets;
}

const std::vector<std::int16_t>& action_of_subset() noexcept {
  static const std::vector<std::int16_t> index = [] {
    std::vector<std::int16_t> t(1u << kRowCards, -1);
    const auto& subsets = action_subsets();
    for (std::size_t a = 0; a < subsets.size(); ++a) t[subsets[a]] = static_cast<std::int16_t>(a);
    return t;
  }();
  return index;
}

int sorted_row(const Round& r, int seat, std::uint8_t* row) noexcept {
  Row rw;
  make_row(r.hand(seat), r.rules().rules, &rw);
  std::copy(rw.cards, rw.cards + rw.n, row);
  return rw.n;
}

namespace {

void encode(const Round& r, int seat, const Row& row, std::int8_t* out) noexcept {
  using L = ObsLayout;
  std::memset(out, 0, kObsSize);
  const Rules& rules = r.rules().rules;
  const int players = r.players();
  const auto rel = [&](int k) { return (seat + k) % players; };

  set_cards(out + L::kHand, r.hand(seat), rules);
  for (int j = 0; j < row.n && j < kRowCards; ++j) {
    const int c = row.cards[j];
    out[L::kRow + j * 17 + big_two_rank(c)] = 1;
    out[L::kRow + j * 17 + 13 + rules.suit_rank[static_cast<std::size_t>(suit_of(c))]] = 1;
  }
  for (int k = 0; k < players; ++k) {
    const int s = rel(k);
    out[L::kCounts + k * 14 + std::min(r.count(s), 13)] = 1;
    if (r.has_passed(s)) out[L::kPassed + k] = 1;
    set_cards(out + L::kPlayed + k * 52, r.played_by(s), rules);
  }
  if (const Combo* t = r.table()) {
    out[L::kTableKind + static_cast<int>(t->kind)] = 1;
    set_cards(out + L::kTableCards, t->mask(), rules);
    out[L::kTableSeat + (r.table_seat() - seat + players) % players] = 1;
  } else {
    out[L::kTableKind] = 1;
  }
  out[L::kFlags + kFlagFirstPlay] = r.first_play() ? 1 : 0;
  out[L::kFlags + kFlagTwosDemoted] = r.twos_demoted() ? 1 : 0;
  out[L::kFlags + kFlagPassLocks] = rules.pass_locks ? 1 : 0;
  out[L::kFlags + kFlagTwoDemotion] = rules.two_demotion ? 1 : 0;
  out[L::kFlags + kFlagLastStanding] = r.rules().last_standing ? 1 : 0;
  out[L::kFlags + kFlagBombs] = rules.bombs ? 1 : 0;
}

// The mask, and when given the legal actions with their plays (a pass has an empty combo).
int mask_of(const Round& r, int seat, const Row& row, std::uint8_t* mask,
            std::vector<std::int16_t>* list, std::vector<Combo>* plays) {
  std::memset(mask, 0, kNumActions);
  if (list) list->clear();
  if (plays) plays->clear();
  if (r.over() || r.turn() != seat) return 0;
  const auto& index = action_of_subset();
  int count = 0;
  r.for_each_legal([&](const Combo& c) {
    unsigned subset = 0;
    for (std::size_t q = 0; q < c.size; ++q) subset |= 1u << row.position[c.cards[q]];
    const std::int16_t a = index[subset];
    mask[a] = 1;
    if (list) list->push_back(a);
    if (plays) plays->push_back(c);
    ++count;
  });
  if (r.can_pass()) {
    mask[kPassAction] = 1;
    if (list) list->push_back(static_cast<std::int16_t>(kPassAction));
    if (plays) plays->push_back(Combo{});
    ++count;
  }
  return count;
}

}  // namespace

void encode_observation(const Round& r, int seat, std::int8_t* out) noexcept {
  Row row;
  make_row(r.hand(seat), r.rules().rules, &row);
  encode(r, seat, row, out);
}

int legal_action_mask(const Round& r, int seat, std::uint8_t* mask,
                      std::vector<std::int16_t>* list) {
  Row row;
  make_row(r.hand(seat), r.rules().rules, &row);
  return mask_of(r, seat, row, mask, list, nullptr);
}

bool decode_action(const Round& r, int action, Combo* play, bool* is_pass) noexcept {
  if (r.turn() < 0 || action < 0 || action >= kNumActions) return false;
  const int seat = r.turn();
  Verdict v;
  if (action == kPassAction) {
    *is_pass = true;
    return r.check(seat, nullptr, 0, true, &v) == RoundCode::kOk;
  }
  Row row;
  make_row(r.hand(seat), r.rules().rules, &row);
  const unsigned subset = action_subsets()[static_cast<std::size_t>(action)];
  if (subset >> row.n) return false;  // a position past the end of the hand
  int cards[5];
  int n = 0;
  for (unsigned s = subset; s; s &= s - 1) cards[n++] = row.cards[__builtin_ctz(s)];
  if (r.check(seat, cards, n, false, &v) != RoundCode::kOk) return false;
  *is_pass = false;
  *play = v.combo;
  return true;
}

// ThreadPool ---------------------------------------------------------------------------

ThreadPool::ThreadPool(int threads) {
  const auto cores = static_cast<int>(std::thread::hardware_concurrency());
  if (cores > 0 && threads > cores) idle_spin_ = finish_spin_ = std::chrono::microseconds{0};
  workers_.reserve(static_cast<std::size_t>(std::max(0, threads - 1)));
  try {
    for (int t = 1; t < threads; ++t) workers_.emplace_back([this] { work(); });
  } catch (const std::system_error&) {
    // The system will not start more threads: the pool runs with those it has.
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_.store(true, std::memory_order_relaxed);
  }
  wake_.notify_all();
  for (auto& w : workers_) w.join();
}

void ThreadPool::run_chunks() {
  for (;;) {
    const int b = next_.fetch_add(chunk_, std::memory_order_relaxed);
    if (b >= n_) return;
    (*task_)(b, std::min(n_, b + chunk_));
  }
}

// A worker spins a moment after its work for the next call, then sleeps (spin.hpp).
void ThreadPool::work() {
  std::uint64_t seen = 0;
  for (;;) {
    spin_until([&] { return stop_.load(std::memory_order_relaxed) ||
                            generation_.load(std::memory_order_acquire) != seen; },
               idle_spin_);
    std::unique_lock<std::mutex> lock(mutex_);
    wake_.wait(lock, [&] { return stop_.load(std::memory_order_relaxed) ||
                                  generation_.load(std::memory_order_relaxed) != seen; });
    if (stop_.load(std::memory_order_relaxed)) return;
    seen = generation_.load(std::memory_order_relaxed);
    lock.unlock();
    error_.guard([this] { run_chunks(); });
    if (unfinished_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      // Under the lock, so the notify cannot fall between the caller's check and its wait.
      const std::lock_guard<std::mutex> done_lock(mutex_);
      done_.notify_all();
    }
  }
}

void ThreadPool::parallel_for(int n, int chunk, const std::function<void(int, int)>& f) {
  chunk = std::max(1, chunk);
  if (workers_.empty() || n <= chunk) {
    for (int b = 0; b < n; b += chunk) f(b, std::min(n, b + chunk));
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    task_ = &f;
    n_ = n;
    chunk_ = chunk;
    next_.store(0, std::memory_order_relaxed);
    unfinished_.store(static_cast<int>(workers_.size()), std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();
  error_.guard([this] { run_chunks(); });
  // The caller spins while the others finish their last chunk, then sleeps (spin.hpp);
  // f is the caller's, so even after an exception it waits for them before returning.
  const auto finished = [this] { return unfinished_.load(std::memory_order_acquire) == 0; };
  if (!spin_until(finished, finish_spin_)) {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, finished);
  }
  error_.rethrow();  // and forgets it: the next call starts clean
}

// VecEnv -------------------------------------------------------------------------------

VecEnv::VecEnv(const GameRules& rules, int players, int n, const std::vector<int>& seats,
               int threads)
    : rules_(rules), players_(players), pool_(threads) {
  for (int s = 0; s < players_; ++s) seats_[static_cast<std::size_t>(s)] = seats[static_cast<std::size_t>(s)];
  envs_.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) envs_.emplace_back(Round(rules_, players_, 0, -1, false));
}

void VecEnv::deal(Env& e, std::uint64_t env_index, int opener) {
  e.seed = sim_round_seed(seed_, env_index << 32 | e.index);
  ++e.index;
  e.opener = opener;
  e.round = Round(rules_, players_, e.seed, opener, true);
}

void VecEnv::run_bots(Env& e) {
  Round& r = e.round;
  while (!r.over()) {
    const int level = seats_[static_cast<std::size_t>(r.turn())];
    if (level == kLearnerSeat) return;
    // A standard seat is the rule-based standard bot (standard-v2): standard's look-ahead
    // near the end of a round costs about 12 times as much a move, which the environment's
    // throughput (issue figures for 3 standard bots) cannot carry.
    const BotLevel bot = static_cast<BotLevel>(level) == BotLevel::kStandard ? BotLevel::kStandardV2
                                                                             : static_cast<BotLevel>(level);
    const Move m = bot_move(r, bot, e.bots);
    r.apply_legal(m.seat, m.is_pass ? nullptr : &m.combo);
  }
}

void VecEnv::start_round(Env& e, std::uint64_t env_index, int opener, const Round* previous) {
  std::vector<int> places;
  if (previous != nullptr && rules_.exchange && !previous->dragon()) places = previous->places();
  for (;;) {
    deal(e, env_index, opener);
    if (!places.empty() && !e.round.over()) {
      // The action space holds plays only: every seat, a learner's too, gives back the
      // standard bot's choice.
      std::vector<BotLevel> levels;
      for (int s = 0; s < players_; ++s) {
        const int level = seats_[static_cast<std::size_t>(s)];
        levels.push_back(level == kLearnerSeat ? BotLevel::kStandard : static_cast<BotLevel>(level));
      }
      e.round.begin_exchange(places);
      bots_give_back(e.round, levels, e.bots);
    }
    run_bots(e);
    if (!e.round.over()) return;
    ++e.skipped;
    opener = rules_.previous_winner ? e.round.winner() : -1;
    places = rules_.exchange && !e.round.dragon() ? e.round.places() : std::vector<int>{};
  }
}

void VecEnv::show(Env& e, std::int8_t* obs, std::uint8_t* mask, std::int8_t* seat) {
  const int s = e.round.turn();
  *seat = static_cast<std::int8_t>(s);
  Row row;
  make_row(e.round.hand(s), rules_.rules, &row);
  encode(e.round, s, row, obs);
  mask_of(e.round, s, row, mask, &e.legal, &e.plays);
}

namespace {
int chunk_for(int n, int threads) { return std::clamp(n / (threads * 8), 1, 64); }
}  // namespace

void VecEnv::reset(std::uint64_t seed, std::int8_t* obs, std::uint8_t* mask, std::int8_t* seat) {
  seed_ = seed;
  pool_.parallel_for(size(), chunk_for(size(), pool_.threads()), [&](int b, int end) {
    for (int i = b; i < end; ++i) {
      Env& e = envs_[static_cast<std::size_t>(i)];
      const auto ui = static_cast<std::uint64_t>(i);
      e.index = 0;
      e.done = 0;
      e.skipped = 0;
      e.forfeited = 0;
      e.has_finished = false;
      e.bots = SplitMix64{sim_round_seed(seed ^ kBotStream, ui)};
      e.sampler = SplitMix64{sim_round_seed(seed ^ kSampleStream, ui)};
      start_round(e, ui, -1, nullptr);
      const auto off = static_cast<std::size_t>(i);
      show(e, obs + off * kObsSize, mask + off * kNumActions, seat + off);
    }
  });
}

long VecEnv::step(const std::int64_t* actions, std::int8_t* obs, std::uint8_t* mask,
                  float* rewards, std::uint8_t* done, std::int8_t* seat) {
  return step(actions, obs, mask, rewards, done, seat, StepExtras{});
}

long VecEnv::step(const std::int64_t* actions, std::int8_t* obs, std::uint8_t* mask,
                  float* rewards, std::uint8_t* done, std::int8_t* seat, const StepExtras& extras) {
  std::atomic<long> bad{size()};
  pool_.parallel_for(size(), chunk_for(size(), pool_.threads()), [&](int b, int end) {
    for (int i = b; i < end; ++i) {
      Env& e = envs_[static_cast<std::size_t>(i)];
      if (extras.skip != nullptr && extras.skip[i]) continue;
      const std::int64_t a = actions[i];
      // The legal actions of the position shown, with their plays.
      e.pending_index = -1;
      for (std::size_t k = 0; k < e.legal.size(); ++k) {
        if (e.legal[k] == a) {
          e.pending_index = static_cast<int>(k);
          break;
        }
      }
      if (e.pending_index < 0 && extras.forfeit == nullptr) {
        long cur = bad.load(std::memory_order_relaxed);
        while (i < cur && !bad.compare_exchange_weak(cur, i, std::memory_order_relaxed)) {
        }
      }
    }
  });
  if (bad.load() < size()) return bad.load();
  pool_.parallel_for(size(), chunk_for(size(), pool_.threads()), [&](int b, int end) {
    for (int i = b; i < end; ++i) {
      Env& e = envs_[static_cast<std::size_t>(i)];
      const auto off = static_cast<std::size_t>(i);
      Round& r = e.round;
      const int mover = r.turn();
      float* rw = rewards + off * static_cast<std::size_t>(players_);
      std::fill(rw, rw + players_, 0.0f);
      if (extras.skip != nullptr && extras.skip[i]) {
        done[off] = 0;
        if (extras.illegal != nullptr) extras.illegal[off] = 0;
        show(e, obs + off * kObsSize, mask + off * kNumActions, seat + off);
        continue;
      }
      const bool forfeit = e.pending_index < 0;
      if (extras.illegal != nullptr) extras.illegal[off] = forfeit ? 1 : 0;
      if (forfeit) {
        rw[mover] = *extras.forfeit;
      } else {
        const bool is_pass = e.legal[static_cast<std::size_t>(e.pending_index)] == kPassAction;
        r.apply_legal(mover, is_pass ? nullptr : &e.plays[static_cast<std::size_t>(e.pending_index)]);
        run_bots(e);
      }
      const bool ended = forfeit || r.over();
      done[off] = ended ? 1 : 0;
      if (ended) {
        if (extras.final_obs != nullptr) {
          std::int8_t* fo = extras.final_obs + off * kObsSize;
          std::uint8_t* fm = extras.final_mask + off * kNumActions;
          Row row;
          make_row(r.hand(mover), rules_.rules, &row);
          encode(r, mover, row, fo);
          mask_of(r, mover, row, fm, nullptr, nullptr);
        }
        e.finished.round = r;
        e.finished.seed = e.seed;
        e.finished.index = e.index ? e.index - 1 : 0;
        e.finished.opener = e.opener;
        e.has_finished = true;
        int opener = -1;
        if (forfeit) {
          ++e.forfeited;
        } else {
          const std::vector<int> scores = r.scores();
          for (int s = 0; s < players_; ++s) rw[s] = static_cast<float>(scores[static_cast<std::size_t>(s)]);
          ++e.done;
          if (rules_.previous_winner) opener = r.winner();
        }
        start_round(e, off, opener, forfeit ? nullptr : &e.finished.round);
      }
      show(e, obs + off * kObsSize, mask + off * kNumActions, seat + off);
    }
  });
  return -1;
}

void VecEnv::sample_actions(std::int64_t* out) {
  pool_.parallel_for(size(), std::max(64, chunk_for(size(), pool_.threads())), [&](int b, int end) {
    for (int i = b; i < end; ++i) {
      Env& e = envs_[static_cast<std::size_t>(i)];
      const int k = static_cast<int>(e.legal.size());
      out[i] = k ? e.legal[static_cast<std::size_t>(e.sampler.below(k))] : kPassAction;
    }
  });
}

std::int64_t VecEnv::rounds_done() const noexcept {
  std::int64_t total = 0;
  for (const Env& e : envs_) total += e.done;
  return total;
}

std::int64_t VecEnv::skipped_rounds() const noexcept {
  std::int64_t total = 0;
  for (const Env& e : envs_) total += e.skipped;
  return total;
}

std::int64_t VecEnv::forfeited_rounds() const noexcept {
  std::int64_t total = 0;
  for (const Env& e : envs_) total += e.forfeited;
  return total;
}

}  // namespace capsa_fast::banting::env
