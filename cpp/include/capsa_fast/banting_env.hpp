// Capsa Banting as a reinforcement-learning environment: the observation a seat sees, its
// action mask, the decoding of an action into a play, and many rounds stepped at once
// (VecEnv), optionally with bots in the other seats. Pure C++, no Python.
//
// Actions: 0..1663 are the position subsets of banting ACTIONS (sizes 1, 2, 3 and 5, each
// size in lexicographic order of the positions) into the seat's current hand sorted low to
// high in Big Two order (single_order: rank, then the rules' suit order); 1664 is a pass.
// The observation is seat-relative (slot k describes the seat k places after the one
// observing) and every entry is 0 or 1; ObsLayout gives the sections.
#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "capsa_fast/banting_game.hpp"
#include "capsa_fast/spin.hpp"
#include "capsa_fast/threads.hpp"

namespace capsa_fast::banting::env {

inline constexpr int kRowCards = 13;
inline constexpr int kNumPlayActions = 1664;  // 13 + 78 + 286 + 1287
inline constexpr int kPassAction = kNumPlayActions;
inline constexpr int kNumActions = kNumPlayActions + 1;

// Offsets and sizes of the observation's sections (docs/rl.md's table lists them).
struct ObsLayout {
  static constexpr int kHand = 0;                       // 52: own cards, by Big Two index
  static constexpr int kRow = kHand + 52;               // 13 x (13 ranks + 4 suits): own row
  static constexpr int kCounts = kRow + 13 * 17;        // 4 x 14: cards held, one-hot 0..13
  static constexpr int kTableKind = kCounts + 4 * 14;   // 9: none, single .. straight flush
  static constexpr int kTableCards = kTableKind + 9;    // 52: the table's cards
  static constexpr int kTableSeat = kTableCards + 52;   // 4: who played the table
  static constexpr int kPassed = kTableSeat + 4;        // 4: passed since the trick began
  static constexpr int kPlayed = kPassed + 4;           // 4 x 52: cards each seat played
  static constexpr int kFlags = kPlayed + 4 * 52;       // 6: see Flag
  static constexpr int kSize = kFlags + 6;              // 612
};
inline constexpr int kObsSize = ObsLayout::kSize;

enum Flag : int {
  kFlagFirstPlay = 0,    // the next play opens the round and must hold the lowest card
  kFlagTwosDemoted = 1,  // two_demotion: the 2s are the lowest singles now
  kFlagPassLocks = 2,    // rule settings, constant for a table
  kFlagTwoDemotion = 3,
  kFlagLastStanding = 4,
  kFlagBombs = 5,
};

// The Big Two index of a card: 4 x rank (3 = 0 .. 2 = 12) + the suit's position in the
// rules' suit order; equals single_order.
inline int card_index(int card, const Rules& rules) noexcept { return single_order(card, rules); }

// Position subsets (bit j = position j) in action order, and the action of each subset
// (-1 for a subset that is no action).
const std::array<std::uint16_t, kNumPlayActions>& action_subsets() noexcept;
const std::vector<std::int16_t>& action_of_subset() noexcept;

// The seat's cards sorted low to high (single_order); returns how many.
int sorted_row(const Round& r, int seat, std::uint8_t* row) noexcept;

// Writes the kObsSize entries (0 or 1) of what `seat` sees.
void encode_observation(const Round& r, int seat, std::int8_t* out) noexcept;

// Writes kNumActions entries: 1 for each legal action of `seat` (all 0 unless it is that
// seat's turn); `list`, when given, receives the legal actions in increasing order.
// Returns the number of legal actions.
int legal_action_mask(const Round& r, int seat, std::uint8_t* mask,
                      std::vector<std::int16_t>* list = nullptr);

// The play of an action by the seat to move: false when the action is out of range, names
// a position the hand does not have, or is not legal now. A pass leaves *play untouched and
// sets *is_pass.
bool decode_action(const Round& r, int action, Combo* play, bool* is_pass) noexcept;

// Who plays each seat of a VecEnv: the caller (a learner), or a bot inside C++.
inline constexpr int kLearnerSeat = -1;

// A fixed set of threads that split a loop over [0, n) between them and the caller, in
// small chunks taken from a shared counter (a thread slowed by other work does less).
class ThreadPool {
 public:
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;
  int threads() const noexcept { return static_cast<int>(workers_.size()) + 1; }
  // Calls f(begin, end) over chunks of [0, n); returns when all are done.
  void parallel_for(int n, int chunk, const std::function<void(int, int)>& f);

 private:
  void work();
  void run_chunks();
  std::vector<std::thread> workers_;
  // How long threads spin before they sleep (spin.hpp); none when there are more threads
  // than cores, where a spinning thread only takes a core from one with work.
  std::chrono::microseconds idle_spin_ = kIdleSpin, finish_spin_ = kFinishSpin;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(int, int)>* task_ = nullptr;
  int n_ = 0, chunk_ = 1;
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<int> unfinished_{0};  // workers still in this call
  FirstError error_;                // the first exception of this call, on any thread
  std::atomic<bool> stop_{false};
  alignas(64) std::atomic<int> next_{0};
};

// n rounds stepped together. Each round of environment i is dealt from
// sim_round_seed(seed, (i << 32) + k) for its k-th round since the last reset, so it has a
// round code; under previous-winner or exchange an environment's rounds form a match (the
// exchange's give-backs, a learner's too, are the standard bot's choice). Bot seats move
// inside step() until a learner seat is to move; a round that ends before any learner seat
// moved (a dragon deal) is not shown: it is counted in skipped_rounds() and the next round
// is dealt.
class VecEnv {
 public:
  // seats[s]: kLearnerSeat or a BotLevel for each of the `players` seats (at least one
  // learner). threads >= 1.
  VecEnv(const GameRules& rules, int players, int n, const std::vector<int>& seats,
         int threads);
  VecEnv(const VecEnv&) = delete;  // the rounds point at rules_
  VecEnv& operator=(const VecEnv&) = delete;

  int size() const noexcept { return static_cast<int>(envs_.size()); }
  int players() const noexcept { return players_; }

  // Deals every environment's first round and writes what its seat to move sees:
  // obs[n, kObsSize], mask[n, kNumActions], seat[n].
  void reset(std::uint64_t seed, std::int8_t* obs, std::uint8_t* mask, std::int8_t* seat);

  // Checks every action first: returns the index of the first environment whose action is
  // illegal (nothing changed), or -1 after making every move. Then: rewards[n, players]
  // (the round's points in the step that ended it, else 0), done[n], and for the round now
  // in play (a new one where a round ended) obs, mask and seat as in reset().
  long step(const std::int64_t* actions, std::int8_t* obs, std::uint8_t* mask, float* rewards,
            std::uint8_t* done, std::int8_t* seat);

  // What step() can also do and write (the Gymnasium vector env's needs); null: not used.
  struct StepExtras {
    // An illegal action ends its environment's round instead of failing the step: the
    // seat that tried it gets *forfeit, the others 0, and the next round is dealt (opened
    // by the lowest card, as a new match under previous-winner).
    const float* forfeit = nullptr;
    std::uint8_t* illegal = nullptr;  // [n]: 1 where the action was illegal (forfeit mode)
    // [n, kObsSize] and [n, kNumActions]: where a round ended in this step, what the seat
    // that moved sees at its end (for an illegal action, the position it was tried in);
    // rows of the other environments are left as they were.
    std::int8_t* final_obs = nullptr;
    std::uint8_t* final_mask = nullptr;
    // [n]: 1 for an environment this step leaves alone (its action is not read; rewards
    // and done 0, the position shown again): a caller that reports a round's end in one
    // step and the next round in the following one (Gymnasium's next-step autoreset).
    const std::uint8_t* skip = nullptr;
  };
  long step(const std::int64_t* actions, std::int8_t* obs, std::uint8_t* mask, float* rewards,
            std::uint8_t* done, std::int8_t* seat, const StepExtras& extras);

  // A uniformly random legal action of each environment's seat to move (its own dice).
  void sample_actions(std::int64_t* out);

  const Round& round(int i) const { return envs_[static_cast<std::size_t>(i)].round; }
  std::uint64_t round_seed(int i) const { return envs_[static_cast<std::size_t>(i)].seed; }
  // Rounds dealt to environment i before the current one since the reset.
  std::uint64_t round_index(int i) const {
    const std::uint64_t k = envs_[static_cast<std::size_t>(i)].index;
    return k ? k - 1 : 0;
  }
  // The seat that opened the current round freely (previous-winner), or -1 when the
  // holder of the lowest card had to open with it.
  int round_opener(int i) const { return envs_[static_cast<std::size_t>(i)].opener; }
  // The last round of environment i that ended in a step (played out or forfeited), as
  // it stood then; null before any has.
  struct Finished {
    Round round;
    std::uint64_t seed = 0, index = 0;  // as round_seed() and round_index() gave them
    int opener = -1;
  };
  const Finished* finished(int i) const {
    const Env& e = envs_[static_cast<std::size_t>(i)];
    return e.has_finished ? &e.finished : nullptr;
  }
  std::int64_t rounds_done() const noexcept;
  std::int64_t skipped_rounds() const noexcept;
  // Rounds ended by an illegal action (StepExtras::forfeit) since the reset.
  std::int64_t forfeited_rounds() const noexcept;

 private:
  struct Env {
    Round round;
    std::uint64_t seed = 0;
    std::uint64_t index = 0;  // rounds dealt since the reset
    SplitMix64 bots, sampler;
    std::vector<std::int16_t> legal;  // the legal actions of the position shown
    std::vector<Combo> plays;         // their plays (an empty combo for the pass)
    int pending_index = -1;           // the checked move of the current step, in legal
    std::int64_t done = 0, skipped = 0, forfeited = 0;
    int opener = -1;  // of the current round
    Finished finished;
    bool has_finished = false;
    explicit Env(const Round& r) : round(r), finished{r} {}
  };
  void deal(Env& e, std::uint64_t env_index, int opener);
  // Bots move until a learner is to move or the round is over.
  void run_bots(Env& e);
  // From a fresh deal: bots move; rounds over before a learner moved are skipped. The
  // round after `previous` (when given) begins with the card exchange under exchange.
  void start_round(Env& e, std::uint64_t env_index, int opener, const Round* previous);
  void show(Env& e, std::int8_t* obs, std::uint8_t* mask, std::int8_t* seat);

  GameRules rules_;
  int players_;
  std::array<int, kMaxPlayers> seats_{};
  std::uint64_t seed_ = 0;
  std::vector<Env> envs_;
  ThreadPool pool_;
};

}  // namespace capsa_fast::banting::env
