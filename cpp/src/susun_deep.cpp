// The deep Susun strategy: ev's best arrangements scored exactly against opponents' hands.
//
// ev values a row by its chance against a model of opponents' rows, one row at a time and
// as if the opponents' rows were independent of each other and of our cards. deep checks
// ev's few best arrangements against whole opponent hands from the cards we do not hold
// (so card removal, the link between an opponent's three rows, sweeps and fouls all count
// as the table scores them), each opponent arranging with ev. Every candidate meets the
// same opponents, which keeps their comparison sharp.
//
// The opponents come from a bank (the default since 2026-12-05): random hands from the
// whole deck, arranged by ev once per model and rules. The bank's hands that share no card
// with ours are random hands of the unseen cards, about one in 78: a 262,144-hand bank
// gives some 3,400 opponents a decision for the price of scoring them, where sampling
// arranged 100 in the same time. Each is one opponent; what ties a table's opponents
// together (the super) is estimated (bank_values). With DeepBudget::bank = 0 deep samples
// whole tables instead, arranging each opponent as it goes.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

#include "capsa_fast/susun_table.hpp"
#include "capsa_fast/threads.hpp"

namespace capsa_fast::susun {
namespace {

// How far a candidate's sampled value is pulled towards ev's estimate (see deep_choice).
constexpr double kPriorWeight = 0.5;
// The same for the bank's values, which rest on about 3,400 hands instead of 100. Less
// weight gains a little more from ev and loses more to other styles (measured by duplicate deals:
// heads-up, deep - ev / deep - ev-v1 a deal at 0.25 +0.014 / +0.086, at 0.5 +0.011 /
// +0.113, at 0.75 +0.002 / +0.130); half, as for the samples.
constexpr double kBankPriorWeight = 0.5;
// Fewer bank hands than this fit a seat's cards: deep samples instead (never expected: a
// bank of n hands holds about n / 78 that fit, 256 at the smallest bank allowed).
constexpr int kMinBankHands = 100;

// As in score_table(): the special a player scores with, if any.
Special special_of(const PlayerRows& p, const Rules& rules) noexcept {
  if (rules.dragon_points > 0 && p.dragon) return Special::kDragon;
  return special_rank(p.special, rules) > 0 ? p.special : Special::kNone;
}

bool same_rules(const Rules& a, const Rules& b) noexcept {
  return a.suit_tiebreak == b.suit_tiebreak && a.bonus == b.bonus &&
         a.sweep_multiplier == b.sweep_multiplier && a.super_multiplier == b.super_multiplier &&
         a.super_players == b.super_players && a.majority_bonus == b.majority_bonus &&
         a.foul_points == b.foul_points && a.dragon_points == b.dragon_points &&
         a.special_points == b.special_points;
}

}  // namespace

// A bank: `size` random hands from the whole deck, each with the rows ev puts down for it.
// A random hand that shares no card with ours is a random hand of the cards we do not
// hold, so the bank's hands disjoint from a seat's hand are a fair sample of one opponent.
struct DeepBank {
  Rules rules;
  bool card_removal = false;
  std::vector<std::uint64_t> masks;
  std::vector<PlayerRows> rows;
  // The model's chance that the hand sweeps one opponent (its three rows' win chances
  // multiplied; 0 for a special): for the chance it sweeps every opponent of a table.
  std::vector<float> sweep_chance;
};
// A model's identity for the banks below (copies of a model share it), and the banks'
// arrangements shipped with the package for it (ship_deep_bank).
struct DeepBanks {
  struct Shipped {
    Rules rules;
    std::shared_ptr<const std::vector<std::uint32_t>> codes;
  };
  std::mutex mutex;
  std::vector<Shipped> shipped;
};
std::shared_ptr<DeepBanks> new_deep_banks() { return std::make_shared<DeepBanks>(); }

namespace {

constexpr std::uint64_t kBankSeed = 0xBA4CDEE9F00DULL;

// A bank of `size` hands, none of them arranged yet (fill_bank arranges them).
std::shared_ptr<DeepBank> new_bank(const Rules& rules, const EvModel& model, int size) {
  auto bank = std::make_shared<DeepBank>();
  bank->rules = rules;
  bank->card_removal = model.card_removal;
  bank->masks.resize(static_cast<std::size_t>(size));
  bank->rows.resize(static_cast<std::size_t>(size));
  bank->sweep_chance.resize(static_cast<std::size_t>(size));
  return bank;
}

// The bank's hand i (the first 13 cards of its own shuffle, in dealing order) and its mask.
std::array<int, kHandSize> bank_hand(int i, std::uint64_t* mask) {
  const auto deck = shuffled_deck(kBankSeed ^ (static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull));
  std::array<int, kHandSize> hand{};
  *mask = 0;
  for (int k = 0; k < kHandSize; ++k) {
    hand[static_cast<std::size_t>(k)] = deck[static_cast<std::size_t>(k)];
    *mask |= std::uint64_t{1} << deck[static_cast<std::size_t>(k)];
  }
  return hand;
}

// Each card's place among the hand's cards sorted by id (0 = the lowest).
std::array<int, kHandSize> places(const std::array<int, kHandSize>& hand) {
  std::array<int, kHandSize> place{};
  for (std::size_t j = 0; j < kHandSize; ++j)
    for (std::size_t k = 0; k < kHandSize; ++k) place[j] += hand[k] < hand[j] ? 1 : 0;
  return place;
}

// A bot's choice as a code (see ship_deep_bank): two bits per card in id order, the row it
// is in (0 top, 1 middle, 2 bottom), and the declared special above them. Cards sorted by
// id make the rows' bits regular (the high cards go low), so the codes compress well.
constexpr int kSpecialShift = 2 * kHandSize;
std::uint32_t encode_choice(const std::array<int, kHandSize>& hand, const BotChoice& c) {
  const auto place = places(hand);
  std::uint32_t code = static_cast<std::uint32_t>(c.declared) << kSpecialShift;
  const Split& s = c.arrangement.split;
  for (const std::uint8_t j : s.middle) code |= 1u << (2 * place[j]);
  for (const std::uint8_t j : s.bottom) code |= 2u << (2 * place[j]);
  return code;
}

// The choice a code holds; false for a code that is not one (rows of the wrong sizes, an
// unknown special).
bool decode_choice(const std::array<int, kHandSize>& hand, std::uint32_t code, BotChoice* out) {
  if ((code >> kSpecialShift) >= static_cast<std::uint32_t>(kNumSpecials)) return false;
  const auto place = places(hand);
  BotChoice c;
  c.declared = static_cast<Special>(code >> kSpecialShift);
  std::array<int, 3> filled{};
  for (std::size_t j = 0; j < kHandSize; ++j) {
    const std::uint32_t row = (code >> (2 * place[j])) & 3u;
    const auto at = static_cast<std::uint8_t>(j);
    if (row == 0 && filled[0] < 3) c.arrangement.split.top[static_cast<std::size_t>(filled[0]++)] = at;
    else if (row == 1 && filled[1] < 5) c.arrangement.split.middle[static_cast<std::size_t>(filled[1]++)] = at;
    else if (row == 2 && filled[2] < 5) c.arrangement.split.bottom[static_cast<std::size_t>(filled[2]++)] = at;
    else return false;
  }
  *out = c;
  return true;
}

// Deals and arranges the bank's hands [first, last) on up to four threads, or takes their
// arrangements from `codes` (ship_deep_bank: checked codes, one per hand of the bank). Hand
// i depends on i alone, so a bank built in steps is the bank built at once.
void fill_bank(DeepBank& bank, const EvModel& model, int first, int last,
               const std::uint32_t* codes = nullptr) {
  const Rules& rules = bank.rules;
  auto fill = [&](int begin, int end) {
    for (int i = begin; i < end; ++i) {
      std::uint64_t mask = 0;
      const auto hand = bank_hand(i, &mask);
      bank.masks[static_cast<std::size_t>(i)] = mask;
      BotChoice choice;
      if (codes == nullptr || !decode_choice(hand, codes[i], &choice))
        choice = bot_choice(hand.data(), rules, Strategy::kEv, &model);
      const PlayerRows rows = rows_of(hand.data(), choice, rules);
      float chance = 0;
      if (special_of(rows, rules) == Special::kNone && !rows.fouled) {
        chance = 1;
        for (std::size_t r = 0; r < 3; ++r) chance *= model.win[r][rows.key[r]];
      }
      bank.rows[static_cast<std::size_t>(i)] = rows;
      bank.sweep_chance[static_cast<std::size_t>(i)] = chance;
    }
  };
  const int count = last - first;
  const int workers = std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, 4);
  run_parts(workers, [&](int w) { fill(first + count * w / workers, first + count * (w + 1) / workers); });
}

// The banks built so far, most recently used first, kKeptBanks at most (about 9 MB each at
// the default size): a process that meets many rule sets keeps its memory bounded and
// builds a bank again when an evicted one is needed. One bank is built at a time. Twelve
// hold the four presets at the three table sizes, the banks the package's tables use
// (capsa_fast.susun.table.deep_bank_for), so a server never rebuilds one of them. Banks
// built in steps (DeepBudget::bank_step) wait in `growing`, as many at most.
constexpr std::size_t kKeptBanks = 12;
struct BankEntry {
  std::weak_ptr<DeepBanks> model;  // the model it was built with
  std::shared_ptr<DeepBank> bank;
  int filled = 0;  // hands arranged so far (all of them in a kept bank)
};

bool bank_matches(const BankEntry& e, const Rules& rules, const EvModel& model, int size) {
  const DeepBank& b = *e.bank;
  return e.model.lock() == model.deep_banks && static_cast<int>(b.masks.size()) == size &&
         b.card_removal == model.card_removal && same_rules(b.rules, rules);
}

// The bank for these rules, model and size, built whole if it is not kept (step 0); with a
// step, `step` more of its hands are arranged and nullptr is returned until it is whole.
std::shared_ptr<const DeepBank> bank_for(const Rules& rules, const EvModel& model, int size, int step) {
  static std::mutex mutex;
  static std::vector<BankEntry> kept, growing;
  const std::lock_guard<std::mutex> lock(mutex);
  for (std::vector<BankEntry>* list : {&kept, &growing})
    list->erase(std::remove_if(list->begin(), list->end(), [](const BankEntry& e) { return e.model.expired(); }),
                list->end());
  auto found = std::find_if(kept.begin(), kept.end(), [&](const BankEntry& e) { return bank_matches(e, rules, model, size); });
  if (found != kept.end()) {
    std::rotate(kept.begin(), found, found + 1);
    return kept.front().bank;
  }
  found = std::find_if(growing.begin(), growing.end(), [&](const BankEntry& e) { return bank_matches(e, rules, model, size); });
  if (found == growing.end()) {
    // A shipped bank is made whole at once from its codes, with no step.
    std::shared_ptr<const std::vector<std::uint32_t>> codes;
    {
      const std::lock_guard<std::mutex> shipped_lock(model.deep_banks->mutex);
      for (const DeepBanks::Shipped& s : model.deep_banks->shipped)
        if (static_cast<int>(s.codes->size()) == size && same_rules(s.rules, rules)) codes = s.codes;
    }
    if (codes) {
      auto bank = new_bank(rules, model, size);
      fill_bank(*bank, model, 0, size, codes->data());
      kept.insert(kept.begin(), BankEntry{model.deep_banks, bank, size});
      if (kept.size() > kKeptBanks) kept.pop_back();
      return kept.front().bank;
    }
    growing.insert(growing.begin(), BankEntry{model.deep_banks, new_bank(rules, model, size), 0});
    if (growing.size() > kKeptBanks) growing.pop_back();
    found = growing.begin();
  }
  BankEntry& entry = *found;
  const int last = step > 0 ? std::min(size, entry.filled + step) : size;
  fill_bank(*entry.bank, model, entry.filled, last);
  entry.filled = last;
  if (entry.filled < size) return nullptr;
  kept.insert(kept.begin(), std::move(entry));
  growing.erase(found);
  if (kept.size() > kKeptBanks) kept.pop_back();
  return kept.front().bank;
}

// deep's values from the bank (see DeepBudget::bank): each candidate's mean points per
// opponent against every bank hand that shares no card with ours, shrunk by
// kBankPriorWeight towards ev's estimate. Each opponent is dealt on its own, so what ties
// the opponents of a table together, the super, is estimated: we sweep every opponent with
// the chance we sweep one raised to their number (card removal between them ignored), and
// an opponent who sweeps us sweeps the others with its model chance (sweep_chance) raised
// to their number. False when too few bank hands fit, or the bank is still being built in
// steps (then deep samples as before).
bool bank_values(std::uint64_t mine, const std::vector<PlayerRows>& cand_rows,
                 const std::vector<double>& prior, const Rules& rules, int players,
                 const EvModel& model, int size, int step, std::vector<double>& value) {
  const std::shared_ptr<const DeepBank> held = bank_for(rules, model, size, step);
  if (!held) return false;
  const DeepBank& bank = *held;
  std::vector<std::uint32_t> usable;
  for (std::size_t i = 0; i < bank.masks.size(); ++i)
    if (!(bank.masks[i] & mine)) usable.push_back(static_cast<std::uint32_t>(i));
  if (static_cast<int>(usable.size()) < kMinBankHands) return false;
  const int opponents = players - 1;
  const bool super_table = super_applies(rules, players);
  const int mult = super_table && opponents == 1 ? rules.super_multiplier : rules.sweep_multiplier;
  const int extra = super_table && opponents > 1 ? rules.super_multiplier - rules.sweep_multiplier : 0;
  std::vector<double> their_super(usable.size(), 0);  // sweep_chance ** (opponents - 1)
  if (extra != 0)
    for (std::size_t u = 0; u < usable.size(); ++u)
      their_super[u] = std::pow(static_cast<double>(bank.sweep_chance[usable[u]]), opponents - 1);
  // The plain hands (no special; ev never fouls) in columns, for a loop the compiler can
  // vectorize; the rest (specials) go through pair_points.
  std::array<std::vector<std::int32_t>, 3> key, bonus, plain;
  std::vector<float> their;
  std::vector<std::uint32_t> odd;
  for (std::size_t u = 0; u < usable.size(); ++u) {
    const PlayerRows& b = bank.rows[usable[u]];
    if (special_of(b, rules) != Special::kNone || b.fouled) {
      odd.push_back(usable[u]);
      continue;
    }
    for (std::size_t r = 0; r < 3; ++r) {
      key[r].push_back(b.key[r]);
      bonus[r].push_back(b.bonus[r]);
      plain[r].push_back(b.bonus[r] > 0 ? 0 : 1);
    }
    their.push_back(static_cast<float>(their_super[u]));
  }
  const std::size_t m = their.size();
  const double n = static_cast<double>(usable.size());
  const double w = kBankPriorWeight;
  value.assign(cand_rows.size(), 0);
  for (std::size_t c = 0; c < cand_rows.size(); ++c) {
    const PlayerRows& a = cand_rows[c];
    long long total = 0;
    if (special_of(a, rules) != Special::kNone || a.fouled) {  // a special sweeps no one
      for (const std::uint32_t i : usable) total += pair_points(a, bank.rows[i], mult, mult, rules);
      value[c] = static_cast<double>(total) / n;
      continue;
    }
    for (const std::uint32_t i : odd) total += pair_points(a, bank.rows[i], mult, mult, rules);
    const std::int32_t a0 = a.key[0], a1 = a.key[1], a2 = a.key[2];
    const std::int32_t ab0 = a.bonus[0], ab1 = a.bonus[1], ab2 = a.bonus[2];
    const std::int32_t ap0 = ab0 > 0 ? 0 : 1, ap1 = ab1 > 0 ? 0 : 1, ap2 = ab2 > 0 ? 0 : 1;
    const std::int32_t more = mult - 1, majority = rules.majority_bonus;
    const std::int32_t *k0 = key[0].data(), *k1 = key[1].data(), *k2 = key[2].data();
    const std::int32_t *b0 = bonus[0].data(), *b1 = bonus[1].data(), *b2 = bonus[2].data();
    const std::int32_t *p0 = plain[0].data(), *p1 = plain[1].data(), *p2 = plain[2].data();
    std::int32_t sum = 0, swept = 0, swept_rows = 0;
    for (std::size_t u = 0; u < m; ++u) {
      const std::int32_t w0 = a0 > k0[u], w1 = a1 > k1[u], w2 = a2 > k2[u];
      const std::int32_t l0 = a0 < k0[u], l1 = a1 < k1[u], l2 = a2 < k2[u];
      const std::int32_t wins_a = w0 + w1 + w2, wins_b = l0 + l1 + l2;
      const std::int32_t plain_a = w0 * ap0 + w1 * ap1 + w2 * ap2;
      const std::int32_t plain_b = l0 * p0[u] + l1 * p1[u] + l2 * p2[u];
      const std::int32_t sweep_a = wins_a == 3, sweep_b = wins_b == 3;
      sum += plain_a * (1 + sweep_a * more) + w0 * ab0 + w1 * ab1 + w2 * ab2 -
             plain_b * (1 + sweep_b * more) - (l0 * b0[u] + l1 * b1[u] + l2 * b2[u]) +
             majority * ((wins_a > wins_b) - (wins_b > wins_a));
      swept += sweep_a;
      swept_rows += sweep_a * plain_a;
    }
    total += sum;
    double mean = static_cast<double>(total) / n;
    if (extra != 0) {
      double lost = 0;  // an opponent's super against us, weighed by its chance
      for (std::size_t u = 0; u < m; ++u)
        if (a0 < k0[u] && a1 < k1[u] && a2 < k2[u])
          lost += static_cast<double>(p0[u] + p1[u] + p2[u]) * their[u];
      // Ours counts against each opponent once we sweep them all.
      mean += extra * (static_cast<double>(swept_rows) / n) *
              std::pow(static_cast<double>(swept) / n, opponents - 1);
      mean -= extra * lost / n;
    }
    value[c] = c < prior.size() ? (1 - w) * mean + w * prior[c] : mean;
  }
  return true;
}

}  // namespace

bool sweeps(const PlayerRows& i, const PlayerRows& j, const Rules& rules) noexcept {
  if (special_of(j, rules) != Special::kNone) return false;
  if (j.fouled) return true;
  return i.key[0] > j.key[0] && i.key[1] > j.key[1] && i.key[2] > j.key[2];
}

int pair_points(const PlayerRows& a, const PlayerRows& b, int mult_a, int mult_b,
                const Rules& rules) noexcept {
  const Special sa = special_of(a, rules), sb = special_of(b, rules);
  if (sa != Special::kNone || sb != Special::kNone) {
    const int ra = special_rank(sa, rules), rb = special_rank(sb, rules);
    if (ra == rb) return 0;
    return ra > rb ? special_points(sa, rules) : -special_points(sb, rules);
  }
  if (a.fouled || b.fouled) {
    if (a.fouled && b.fouled) return 0;
    const PlayerRows& winner = a.fouled ? b : a;
    const int amount = rules.foul_points + winner.bonus[0] + winner.bonus[1] + winner.bonus[2];
    return a.fouled ? -amount : amount;
  }
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
  int pts = plain_a * (wins_a == 3 ? mult_a : 1) + bonus_a - plain_b * (wins_b == 3 ? mult_b : 1) - bonus_b;
  if (wins_a > wins_b) pts += rules.majority_bonus;
  if (wins_b > wins_a) pts -= rules.majority_bonus;
  return pts;
}

int first_player_points(const PlayerRows* rows, int players, const bool* opp_sweeps_rest,
                        const Rules& rules) noexcept {
  const bool super_table = super_applies(rules, players);
  const PlayerRows& a = rows[0];
  bool super_a = super_table && !a.fouled && special_of(a, rules) == Special::kNone;
  for (int j = 1; j < players && super_a; ++j) super_a = sweeps(a, rows[j], rules);
  const int mult_a = super_a ? rules.super_multiplier : rules.sweep_multiplier;
  int total = 0;
  for (int j = 1; j < players; ++j) {
    const PlayerRows& b = rows[j];
    // b's three wins over a make a super when b also sweeps every other opponent (then b
    // sweeps a, as three wins with neither fouled nor special mean).
    const bool super_b = super_table && opp_sweeps_rest[j];
    total += pair_points(a, b, mult_a, super_b ? rules.super_multiplier : rules.sweep_multiplier, rules);
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
  if (budget.bank > 0) {
    std::vector<double> value;
    if (bank_values(mine, cand_rows, prior, rules, players, *model, budget.bank, budget.bank_step, value))
      return choices[static_cast<std::size_t>(std::max_element(value.begin(), value.end()) - value.begin())];
  }
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

std::vector<std::uint32_t> deep_bank_codes(const Rules& rules, const EvModel& model, int first, int last) {
  std::vector<std::uint32_t> codes(static_cast<std::size_t>(std::max(0, last - first)));
  auto encode = [&](int begin, int end) {
    for (int i = begin; i < end; ++i) {
      std::uint64_t mask = 0;
      const auto hand = bank_hand(i, &mask);
      codes[static_cast<std::size_t>(i - first)] =
          encode_choice(hand, bot_choice(hand.data(), rules, Strategy::kEv, &model));
    }
  };
  const int count = last - first;
  const int workers = std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, 4);
  if (count > 0)
    run_parts(workers, [&](int w) { encode(first + count * w / workers, first + count * (w + 1) / workers); });
  return codes;
}

bool ship_deep_bank(const Rules& rules, const EvModel& model, std::vector<std::uint32_t> codes, int check) {
  const int size = static_cast<int>(codes.size());
  if (size < DeepBudget::kMinBank || size > DeepBudget::kMaxBank) return false;
  // (A code that does not decode is arranged again when the bank is made: fill_bank.)
  for (int k = 0; k < check; ++k) {
    const int i = static_cast<int>(static_cast<long long>(size - 1) * k / std::max(1, check - 1));
    if (deep_bank_codes(rules, model, i, i + 1)[0] != codes[static_cast<std::size_t>(i)]) return false;
  }
  const std::lock_guard<std::mutex> lock(model.deep_banks->mutex);
  auto& shipped = model.deep_banks->shipped;
  shipped.erase(std::remove_if(shipped.begin(), shipped.end(),
                               [&](const DeepBanks::Shipped& s) {
                                 return static_cast<int>(s.codes->size()) == size && same_rules(s.rules, rules);
                               }),
                shipped.end());
  shipped.push_back({rules, std::make_shared<const std::vector<std::uint32_t>>(std::move(codes))});
  return true;
}

}  // namespace capsa_fast::susun
