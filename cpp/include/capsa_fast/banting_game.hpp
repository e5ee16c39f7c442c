// A Capsa Banting round (RULES.md 3.3): dealing from a seed, turns, tricks, the end of the
// round and its score; and the bots that play it. Pure C++, no Python.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "capsa_fast/banting.hpp"
#include "capsa_fast/deal.hpp"

namespace capsa_fast::banting {

// The deal (deal.hpp) is shared with Susun tables.
using capsa_fast::SplitMix64;
using capsa_fast::shuffled_deck;

inline constexpr int kMaxPlayers = 4;

// Everything a round needs beyond the combo rules.
struct GameRules {
  Rules rules;
  std::vector<std::pair<int, int>> tiers{{1, 1}, {10, 2}, {13, 3}};
  bool dragon = true;
  bool last_standing = false;   // ending: play on until one player holds cards
  bool previous_winner = false; // first_lead: from round 2, the last winner leads freely
  // bomb_ends (with last_standing only): going out with a four of a kind or a straight flush
  // ends the round for every seat still holding cards, scored by the cards held then.
  bool bomb_ends = false;
  // exchange: ranked. From a match's second round (not after a dragon) the previous round's
  // places exchange cards before the first lead (Round::begin_exchange).
  bool exchange = false;
};

struct Move {
  int seat = -1;
  bool is_pass = true;
  Combo combo;  // the play, when not a pass
};

// Codes a round adds in front of the rules engine's (see Code).
enum class RoundCode : std::uint8_t { kOk = 0, kRoundOver, kNotYourTurn, kRules };

// One pair of the card exchange (exchange: ranked): `giver` (the lower place) gave its
// highest card `card` to `receiver`, who gives back `back` (-1 until it has).
struct Exchange {
  int giver = -1;
  int receiver = -1;
  int card = -1;
  int back = -1;
};
enum class ExchangeCode : std::uint8_t { kOk = 0, kClosed, kNotInHand };

// One round. All state is public for reading; change it only through apply().
class Round {
 public:
  // `opener` >= 0: that seat leads with any combo (previous-winner from round 2 on);
  // otherwise the holder of the lowest dealt card leads and must play it.
  Round(const GameRules& rules, int players, std::uint64_t seed, int opener = -1,
        bool record_history = true);
  // A copy of `other` that reads `rules` (equal to other.rules()) from now on: for an owner
  // that keeps its rules beside its round and is itself copied.
  Round(const Round& other, const GameRules& rules) : Round(other) { rules_ = &rules; }

  const GameRules& rules() const noexcept { return *rules_; }
  // The combo rules as they stand now: the table's, with this round's demotion of the 2s.
  const Rules& combo_rules() const noexcept { return combo_rules_; }
  bool twos_demoted() const noexcept { return combo_rules_.twos_demoted; }
  int players() const noexcept { return players_; }
  int turn() const noexcept { return turn_; }  // -1 once over, and during an exchange
  bool over() const noexcept { return turn_ < 0 && !exchanging_; }
  int leader() const noexcept { return leader_; }
  const Combo* table() const noexcept { return has_table_ ? &table_ : nullptr; }
  int table_seat() const noexcept { return table_seat_; }
  bool first_play() const noexcept { return first_play_; }
  bool has_passed(int seat) const noexcept { return passed_ >> seat & 1; }
  unsigned passed_mask() const noexcept { return passed_; }
  CardMask hand(int seat) const noexcept { return hands_[static_cast<std::size_t>(seat)]; }
  int count(int seat) const noexcept { return __builtin_popcountll(hand(seat)); }
  CardMask played() const noexcept { return played_; }  // every card played this round
  // The cards `seat` has played this round.
  CardMask played_by(int seat) const noexcept { return played_by_[static_cast<std::size_t>(seat)]; }
  const std::vector<Move>& history() const noexcept { return history_; }

  // Once over: the winner (first out, or the dragon), the cards each held when the first
  // player went out (13 for the others in a dragon round), the finishing order, scores.
  int winner() const noexcept { return winner_; }
  bool dragon() const noexcept { return dragon_; }
  const std::array<int, kMaxPlayers>& cards_left() const noexcept { return cards_left_; }
  const std::vector<int>& finishing_order() const noexcept { return finishing_; }
  std::vector<int> scores() const;

  // The card a first play must hold, or -1.
  int must_contain() const noexcept;

  // Once over: every seat from first to last place. Under last-standing the finishing
  // order; else by the cards held when the round ended (fewer first), ties in turn order
  // from the winner. The card exchange of the next round reads it.
  std::vector<int> places() const;

  // The card exchange (exchange: ranked, RULES.md 3.2) of a round that follows one with
  // these `places`. Contract: a fresh round (not over: no dragon was dealt), no move yet.
  // The last place's highest card (Big Two order) goes to the first place, and with four
  // players the third place's to the second place; then the round waits (turn() -1) until
  // each receiver has given a card back (give_back), and play starts as it would have:
  // the previous winner leads, or the holder of the lowest dealt card now.
  void begin_exchange(const std::vector<int>& places);
  bool exchanging() const noexcept { return exchanging_; }
  const std::vector<Exchange>& exchanges() const noexcept { return exchanges_; }
  // Whether `seat` still has a card to give back.
  bool owes(int seat) const noexcept;
  // `seat` gives `card` back to the seat that gave it a card: kClosed when no exchange is
  // open or the seat owes nothing, kNotInHand for a card it does not hold (any id is safe).
  // Nothing changes unless kOk.
  ExchangeCode give_back(int seat, int card);

  // Judges a move without making it: round codes first, then the rules engine's verdict
  // (validate() with this seat's hand, the table, first_play and passed).
  RoundCode check(int seat, const int* cards, int n, bool is_pass, Verdict* verdict) const;
  // Makes the move when check() accepts it; returns check()'s answer either way.
  RoundCode apply(int seat, const int* cards, int n, bool is_pass, Verdict* verdict);
  // Makes a move known to be legal (from legal plays, or a pass when there is a table).
  void apply_legal(int seat, const Combo* play);

  // Calls f(const Combo&) for each legal play of the seat to move; returns the count.
  template <class F>
  int for_each_legal(F&& f) const {
    if (over()) return 0;
    return for_each_legal_play(hand(turn_), table(), combo_rules_, must_contain(),
                               std::forward<F>(f), has_passed(turn_));
  }
  bool can_pass() const noexcept { return !over() && has_table_; }

  // This position with the seats holding `hands` instead (same counts expected), for
  // searches over what the other seats might hold. No history is kept.
  Round with_hands(const std::array<CardMask, kMaxPlayers>& hands) const;
  // The round as it was dealt, had the seats been dealt `hands` (history not recorded).
  Round at_start(const std::array<CardMask, kMaxPlayers>& hands) const;

 private:
  int next_holder(int seat) const noexcept;  // next seat after `seat` that holds cards
  void finish_out(int seat, bool bomb);
  void start_play();  // the first lead: opener_ or the holder of the lowest dealt card

  const GameRules* rules_;
  Rules combo_rules_;  // rules_->rules plus the round's twos_demoted state
  int players_;
  std::array<CardMask, kMaxPlayers> hands_{};
  int turn_ = 0;
  int leader_ = 0;
  bool has_table_ = false;
  Combo table_;
  int table_seat_ = -1;
  unsigned passed_ = 0;             // passed since the trick began
  unsigned passed_since_play_ = 0;  // passed since the table combo was played
  bool first_play_ = false;
  int lowest_ = -1;
  int opener_ = -1;
  bool exchanging_ = false;
  std::vector<Exchange> exchanges_;
  CardMask played_ = 0;
  std::array<CardMask, kMaxPlayers> played_by_{};
  bool record_ = true;
  std::vector<Move> history_;
  int winner_ = -1;
  bool dragon_ = false;
  std::array<int, kMaxPlayers> cards_left_{};
  std::vector<int> finishing_;
};

// Bot levels. kStandard is the hint level and the default opponent; kStandardV1 and
// kStandardV2 are the standard bot as it was before each time it was strengthened (kept for
// comparison; V2 is kStandard without its look-ahead near the end of a round, and what the
// searches play their rollouts with); kMaster searches (banting_search.cpp).
enum class BotLevel : std::uint8_t {
  kRandom, kBeginner, kStandard, kExpert, kStandardV1, kMaster, kStandardV2
};

// How long kMaster searches. With time_ms == 0 it plays `iterations` rollouts a move
// (spread over `threads` threads), and the move depends only on the position and the
// bot's random source, whatever the threads and the machine's load. With time_ms > 0 it
// searches until that much wall time has passed (at least a few rollouts), which is not
// reproducible. The default is about 50 ms a move on one core of the development machine.
// `prior` is added to the mean score of standard-v2's own move (always a candidate) before
// the candidates are compared: another move must beat it by that many points a round, and
// by `confidence` standard errors of its paired differences from it on the same worlds.
// Then, with check_worlds > 0, the leading move and standard-v2's are played out on that
// many more worlds with the other seats played by standard-v1 instead (a second model of
// them): the leading move is played only if it does at least check_margin points better
// there too. The check costs up to 2 * check_worlds more rollouts (timed: the last fifth of
// the time), and only when another move leads. With trust_model, none of those guards
// apply while the other seats' moves so far fit standard-v2 (the rollouts' model of them)
// far better than a rough player's would: then the best move found is played.
struct SearchBudget {
  static constexpr int kDefaultIterations = 1500;
  static constexpr double kDefaultPrior = 1.0;
  static constexpr double kDefaultConfidence = 1.0;
  static constexpr int kDefaultCheckWorlds = 200;
  int iterations = kDefaultIterations;
  double time_ms = 0;
  int threads = 1;
  double prior = kDefaultPrior;
  double confidence = kDefaultConfidence;
  int check_worlds = kDefaultCheckWorlds;
  double check_margin = 0;
  bool trust_model = true;
};

// The move a bot would make for the seat to move; always legal. `rng` drives kRandom and
// the samples of kExpert and kMaster; `budget` is kMaster's.
Move bot_move(const Round& round, BotLevel level, SplitMix64& rng,
              const SearchBudget& budget = SearchBudget{});

// The card a bot gives back in the exchange (the seat must owe one). kRandom: any card of
// its hand; kBeginner: its lowest card; the others: the card whose loss leaves the cheapest
// plan of the rest (plan_cost), the lower card on a tie.
int bot_give_back(const Round& round, int seat, BotLevel level, SplitMix64& rng);
// Every give-back still owed, each by its seat's bot (levels[seat]).
void bots_give_back(Round& round, const std::vector<BotLevel>& levels, SplitMix64& rng);

// A hint (seed 003 «Petunjuk»): the bot's move, except that it is never a pass while the
// seat holds a legal play; when the bot would pass, the standard bot's best play instead,
// with pass_reasonable set (passing is also a fair choice).
struct Hint {
  Move move;
  bool pass_reasonable = false;
};
Hint hint_move(const Round& round, BotLevel level, SplitMix64& rng,
               const SearchBudget& budget = SearchBudget{});

// The master's search (banting_search.cpp): flat Monte Carlo over the seat's candidate
// moves, each tried on the same sampled deals of the unseen cards (drawn by Metropolis
// chains in proportion to 0.2 ** mismatches()) and played out by standard bots, with the
// weaker half of the candidates dropped as the budget is spent (sequential halving).
// Contract: the round is not over.
Move master_move(const Round& round, SplitMix64& rng, const SearchBudget& budget);

// How many of the other seats' moves in the round's history standard-v2 would have made
// differently, had the seats held `hands` now (each seat's dealt hand being its cards in
// `hands` plus those it has played; `seat`'s own moves are not counted). The master's
// search samples its deals by this. Needs a round that records its history.
int mismatches(const Round& round, int seat, const std::array<CardMask, kMaxPlayers>& hands);

// A hand split into combos by the standard bot (exposed for tests and tools).
struct Plan {
  std::vector<Combo> combos;
  double cost = 0;  // lower is better: about the number of tricks still to win (a top
                    // combo, which wins its trick and the lead, counts below zero)
};
// How a plan prices a combo of height h (0 a lone 3 .. 1 a straight flush): 1 - slope * h.
// kStandard (slope 1.2, since 2026-12-02): a combo near the top wins its trick and the lead
// after it, so it lowers the cost; kV1 (slope 0.7): standard-v1's and expert's pricing, kept
// so that those levels play as they did.
enum class PlanStyle : std::uint8_t { kStandard = 0, kV1 = 1 };
Plan plan_hand(CardMask hand, const Rules& rules, PlanStyle style = PlanStyle::kStandard);
// plan_hand(hand, rules, style).cost, without building the combos.
double plan_cost(CardMask hand, const Rules& rules, PlanStyle style = PlanStyle::kStandard);
// While one is alive on a thread, plan_hand and plan_cost remember the plans they make on
// it (for a search, whose rollouts plan the same hands again and again). Only for plans
// under one round's rules: the key is the hand, the 2s' demotion and the style.
class PlanCacheScope {
 public:
  PlanCacheScope();
  ~PlanCacheScope();
  PlanCacheScope(const PlanCacheScope&) = delete;
  PlanCacheScope& operator=(const PlanCacheScope&) = delete;
};

// Many rounds played by bots, for the simulation tool. Rounds g = first .. first+count-1
// use seeds derived from (seed, g); under previous-winner each round after the first of
// the call is opened by the previous winner, and under exchange each such round (but one
// after a dragon) begins with the exchange, the bots giving back. Writes scores[g * players + seat] and
// winners[g]. Returns nothing; thread-safe for distinct output ranges.
void simulate(const GameRules& rules, int players, const std::vector<BotLevel>& levels,
              std::uint64_t seed, std::uint64_t first, int count, int* scores, int* winners,
              const SearchBudget& budget = SearchBudget{});

// Duplicate play, which takes most of the luck of the deal out of a comparison: deal
// d = first .. first+count-1 (dealt from sim_round_seed(seed, d)) is played once per
// rotation k = 0 .. players-1, seat s held by lineup[(s + players - k) % players], so
// every lineup entry plays every seat's cards. Each round opens with the lowest card (no
// previous winner) and exchanges nothing (each is a match's first round). Writes points[(d - first) * players + i]: lineup entry i's points
// summed over the rotations. Thread-safe for distinct output ranges.
void simulate_duplicate(const GameRules& rules, int players, const std::vector<BotLevel>& lineup,
                        std::uint64_t seed, std::uint64_t first, int count, int* points,
                        const SearchBudget& budget = SearchBudget{});

// The seed of simulated round g (45 bits, so it can be shown as a round code).
std::uint64_t sim_round_seed(std::uint64_t seed, std::uint64_t g) noexcept;

}  // namespace capsa_fast::banting
