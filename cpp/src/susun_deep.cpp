// The deep Susun strategy: ev's best arrangements scored exactly against sampled tables.
//
// ev values a row by its chance against a model of opponents' rows, one row at a time and
// as if the opponents' rows were independent of each other and of our cards. deep checks
// ev's few best arrangements against whole opponent hands dealt from the cards we do not
// hold (so card removal, the link between an opponent's three rows, sweeps, supers and
// fouls all count as the table scores them), each opponent arranging with ev. Every
// candidate meets the same sampled tables, which keeps their comparison sharp.
#include <algorithm>
#include <chrono>

#include "capsa_fast/susun_table.hpp"

namespace capsa_fast::susun {
namespace {

// How far a candidate's sampled value is pulled towards ev's estimate (see deep_choice).
constexpr double kPriorWeight = 0.5;

// As in score_table(): the special a player scores with, if any.
Special special_of(const PlayerRows& p, const Rules& rules) noexcept {
  if (rules.dragon_points > 0 && p.dragon) return Special::kDragon;
  return special_rank(p.special, rules) > 0 ? p.special : Special::kNone;
}

}  // namespace

bool sweeps(const PlayerRows& i, const PlayerRows& j, const Rules& rules) noexcept {
  if (special_of(j, rules) != Special::kNone) return false;
  if (j.fouled) return true;
  return i.key[0] > j.key[0] && i.key[1] > j.key[1] && i.key[2] > j.key[2];
}

int first_player_points(const PlayerRows* rows, int players, const bool* opp_sweeps_rest,
                        const Rules& rules) noexcept {
  const bool super_table = super_applies(rules, players);
  const PlayerRows& a = rows[0];
  const Special sa = special_of(a, rules);
  bool super_a = super_table && !a.fouled && sa == Special::kNone;
  for (int j = 1; j < players && super_a; ++j) super_a = sweeps(a, rows[j], rules);
  int total = 0;
  for (int j = 1; j < players; ++j) {
    const PlayerRows& b = rows[j];
    const Special sb = special_of(b, rules);
    int pts = 0;
    if (sa != Special::kNone || sb != Special::kNone) {
      const int ra = special_rank(sa, rules), rb = special_rank(sb, rules);
      if (ra != rb) pts = ra > rb ? special_points(sa, rules) : -special_points(sb, rules);
    } else if (a.fouled || b.fouled) {
      if (!(a.fouled && b.fouled)) {
        const PlayerRows& winner = a.fouled ? b : a;
        const int amount = rules.foul_points + winner.bonus[0] + winner.bonus[1] + winner.bonus[2];
        pts = a.fouled ? -amount : amount;
      }
    } else {
      int wins_a = 0, wins_b = 0, plain_a = 0, plain_b = 0, bonus_a = 0, bonus_b = 0;
      for (std::size_t r = 0; r < 3; ++r) {
        if (a.key[r] > b.key[r]) {
          ++wins_a;
          if (a.bonus[r] > 0) bonus_a += a.bonus[r];
          else ++plain_a;
        } else if (a.key[r] < b.key[r]) {
          ++wins_b;
          if (b.bonus[r] > 0) bonus_b += b.bonus[r];
          else ++plain_b;
        }
      }
      const bool super_b = super_table && opp_sweeps_rest[j] && sweeps(b, a, rules);
      const int mult_a = wins_a == 3 ? (super_a ? rules.super_multiplier : rules.sweep_multiplier) : 1;
      const int mult_b = wins_b == 3 ? (super_b ? rules.super_multiplier : rules.sweep_multiplier) : 1;
      pts = plain_a * mult_a + bonus_a - plain_b * mult_b - bonus_b;
      if (wins_a > wins_b) pts += rules.majority_bonus;
      if (wins_b > wins_a) pts -= rules.majority_bonus;
    }
    total += pts;
  }
  return total;
}

BotChoice deep_choice(const int* cards13, const Rules& rules, int players, const EvModel* model,
                      const DeepBudget& budget) {
  BotChoice base = bot_choice(cards13, rules, Strategy::kEv, model);
  if (base.declared == Special::kDragon || players < 2 || players > kMaxTablePlayers ||
      model == nullptr || !model->loaded() || budget.candidates < 1)
    return base;
  std::vector<BotChoice> choices;
  std::vector<double> prior;
  for (const Arrangement& a : arrange(cards13, rules, Strategy::kEv, budget.candidates, model)) {
    if (a.fouled) continue;
    choices.push_back(BotChoice{a, Special::kNone});
    prior.push_back(a.score);
  }
  if (choices.empty()) return base;
  const Special held = best_special(cards13, rules);
  if (held != Special::kNone) choices.push_back(BotChoice{choices.front().arrangement, held});
  if (choices.size() == 1) return choices.front();
  std::vector<PlayerRows> cand_rows;
  for (const BotChoice& c : choices) cand_rows.push_back(rows_of(cards13, c, rules));

  std::uint64_t mine = 0;
  for (int i = 0; i < kHandSize; ++i) mine |= std::uint64_t{1} << cards13[i];
  std::array<int, kDeckSize> unseen{};
  int n_unseen = 0;
  for (int c = 0; c < kDeckSize; ++c)
    if (!(mine >> c & 1)) unseen[static_cast<std::size_t>(n_unseen++)] = c;
  SplitMix64 rng{budget.seed ^ (mine * 0x9E3779B97F4A7C15ull) ^ 0xDEE9C0DE5EEDull};
  const int opponents = players - 1;
  const int samples = std::max(1, budget.hands / opponents);
  const bool timed = budget.time_ms > 0;
  const auto start = std::chrono::steady_clock::now();
  std::vector<long long> totals(choices.size(), 0);
  std::array<PlayerRows, kMaxTablePlayers> table{};
  std::array<bool, kMaxTablePlayers> rest{};
  int done = 0;
  for (int sample = 0; timed || sample < samples; ++sample, ++done) {
    if (timed && sample > 0 &&
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() >=
            budget.time_ms)
      break;
    // Deal the opponents' hands from the top of a partial shuffle of the unseen cards.
    const int need = opponents * kHandSize;
    for (int i = 0; i < need; ++i) {
      const int j = i + rng.below(n_unseen - i);
      std::swap(unseen[static_cast<std::size_t>(i)], unseen[static_cast<std::size_t>(j)]);
    }
    for (int o = 1; o <= opponents; ++o) {
      const int* hand = unseen.data() + (o - 1) * kHandSize;
      table[static_cast<std::size_t>(o)] = rows_of(hand, bot_choice(hand, rules, Strategy::kEv, model), rules);
    }
    for (int o = 1; o <= opponents; ++o) {
      bool all = true;
      for (int k = 1; k <= opponents && all; ++k)
        if (k != o) all = sweeps(table[static_cast<std::size_t>(o)], table[static_cast<std::size_t>(k)], rules);
      rest[static_cast<std::size_t>(o)] = all;
    }
    for (std::size_t c = 0; c < choices.size(); ++c) {
      table[0] = cand_rows[c];
      totals[c] += first_player_points(table.data(), players, rest.data(), rules);
    }
  }
  // Each candidate's value: its mean points per opponent over the samples, shrunk halfway
  // towards ev's own estimate (the declared special, which ev does not value, keeps its
  // sample mean). A hundred sampled hands pick among 96 close candidates with noise, and
  // the opponents are ev on one model: by the samples alone deep answered that model too
  // sharply. With settled models (2026-12-05, six passes, card removal) the samples alone
  // gained 0.013 a hand over ev heads-up and lost ground against other styles; halfway, it
  // gained 0.021 over ev and 0.037 / 0.058 over the earlier ev / ev-v1 (0.000 / 0.021).
  std::vector<double> value(choices.size());
  for (std::size_t c = 0; c < choices.size(); ++c) {
    const double sampled = static_cast<double>(totals[c]) / (static_cast<double>(done) * opponents);
    const double ev_estimate = c < prior.size() ? prior[c] : sampled;
    value[c] = (1 - kPriorWeight) * sampled + kPriorWeight * ev_estimate;
  }
  std::size_t best = 0;
  for (std::size_t c = 1; c < choices.size(); ++c)
    if (value[c] > value[best]) best = c;
  return choices[best];
}

}  // namespace capsa_fast::susun
