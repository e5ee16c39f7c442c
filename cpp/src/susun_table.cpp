#include "capsa_fast/susun_table.hpp"

#include <algorithm>

namespace capsa_fast::susun {
namespace {

// Rank counts and suit counts of a hand.
struct Counts {
  std::array<int, kNumRanks> rank{};
  std::array<int, kNumSuits> suit{};
  explicit Counts(const int* cards13) noexcept {
    for (int i = 0; i < kHandSize; ++i) {
      ++rank[static_cast<std::size_t>(rank_of(cards13[i]))];
      ++suit[static_cast<std::size_t>(suit_of(cards13[i]))];
    }
  }
};

constexpr int kRowSize[3] = {3, 5, 5};

// Runs by their lowest rank index: 3-card A-2-3 (12), 2-3-4 (0) .. Q-K-A (10); 5-card
// A-2-3-4-5 (12), 2-3-4-5-6 (0) .. 10-J-Q-K-A (8). K-A-2 and the like wrap too far.
constexpr int kThreeRuns[] = {12, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
constexpr int kFiveRuns[] = {12, 0, 1, 2, 3, 4, 5, 6, 7, 8};

// The suit of each row (top, middle, bottom) for three flushes, or false.
bool flush_suits(const Counts& c, int* suits) noexcept {
  for (int a = 0; a < kNumSuits; ++a)
    for (int b = 0; b < kNumSuits; ++b)
      for (int d = b; d < kNumSuits; ++d) {  // the two fives in suit order: one of each pair
        std::array<int, kNumSuits> need{};
        need[static_cast<std::size_t>(a)] += 3;
        need[static_cast<std::size_t>(b)] += 5;
        need[static_cast<std::size_t>(d)] += 5;
        if (need == c.suit) {
          suits[0] = a;
          suits[1] = b;
          suits[2] = d;
          return true;
        }
      }
  return false;
}

// The lowest rank of each row's run for three straights, or false.
bool straight_starts(const Counts& c, int* starts) noexcept {
  for (const int t : kThreeRuns)
    for (std::size_t mi = 0; mi < std::size(kFiveRuns); ++mi)
      for (std::size_t bi = mi; bi < std::size(kFiveRuns); ++bi) {
        std::array<int, kNumRanks> left = c.rank;
        const int run_start[3] = {t, kFiveRuns[mi], kFiveRuns[bi]};
        bool ok = true;
        for (int row = 0; row < 3 && ok; ++row)
          for (int k = 0; k < kRowSize[row]; ++k)
            ok = ok && --left[static_cast<std::size_t>((run_start[row] + k) % kNumRanks)] >= 0;
        if (ok) {
          std::copy(run_start, run_start + 3, starts);
          return true;
        }
      }
  return false;
}

}  // namespace

const char* special_name(Special s) noexcept {
  switch (s) {
    case Special::kSixPairs: return "six_pairs";
    case Special::kThreeFlushes: return "three_flushes";
    case Special::kThreeStraights: return "three_straights";
    case Special::kDragon: return "dragon";
    case Special::kNone: break;
  }
  return "none";
}

bool special_from_name(std::string_view name, Special* out) noexcept {
  for (const Special s : {Special::kNone, Special::kSixPairs, Special::kThreeFlushes,
                          Special::kThreeStraights, Special::kDragon}) {
    if (name == special_name(s)) {
      *out = s;
      return true;
    }
  }
  return false;
}

bool holds_special(const int* cards13, Special s) noexcept {
  const Counts c(cards13);
  int starts[3];
  switch (s) {
    case Special::kSixPairs: {
      int pairs = 0;
      for (const int n : c.rank) pairs += n / 2;
      return pairs >= 6;
    }
    case Special::kThreeFlushes:
      return flush_suits(c, starts);
    case Special::kThreeStraights:
      return straight_starts(c, starts);
    case Special::kDragon:
      return is_dragon(cards13);
    case Special::kNone:
      break;
  }
  return false;
}

bool special_rows(const int* cards13, Special s, Split* out) noexcept {
  const Counts c(cards13);
  int row_of[kHandSize];  // the row each card goes to
  int key[3];
  if (s == Special::kThreeFlushes) {
    if (!flush_suits(c, key)) return false;
    // Per suit, lowest cards first into the rows of that suit in order top, middle,
    // bottom, so a row shared out of one suit reads low to high down the table.
    std::array<int, kHandSize> order{};
    for (int i = 0; i < kHandSize; ++i) order[static_cast<std::size_t>(i)] = i;
    std::sort(order.begin(), order.end(), [&](int a, int b) { return cards13[a] < cards13[b]; });
    int filled[3] = {0, 0, 0};
    for (const int i : order) {
      for (int row = 0; row < 3; ++row) {
        if (key[row] == suit_of(cards13[i]) && filled[row] < kRowSize[row]) {
          row_of[i] = row;
          ++filled[row];
          break;
        }
      }
    }
  } else if (s == Special::kThreeStraights) {
    if (!straight_starts(c, key)) return false;
    bool used[kHandSize] = {};
    for (int row = 0; row < 3; ++row)
      for (int k = 0; k < kRowSize[row]; ++k) {
        const int r = (key[row] + k) % kNumRanks;
        for (int i = 0; i < kHandSize; ++i)
          if (!used[i] && rank_of(cards13[i]) == r) {
            used[i] = true;
            row_of[i] = row;
            break;
          }
      }
  } else {
    return false;
  }
  int n[3] = {0, 0, 0};
  for (int i = 0; i < kHandSize; ++i) {
    const auto idx = static_cast<std::uint8_t>(i);
    switch (row_of[i]) {
      case 0: out->top[static_cast<std::size_t>(n[0]++)] = idx; break;
      case 1: out->middle[static_cast<std::size_t>(n[1]++)] = idx; break;
      default: out->bottom[static_cast<std::size_t>(n[2]++)] = idx; break;
    }
  }
  return true;
}

Special best_special(const int* cards13, const Rules& rules) noexcept {
  Special best = Special::kNone;
  for (const Special s : {Special::kDragon, Special::kSixPairs, Special::kThreeFlushes,
                          Special::kThreeStraights}) {
    if (special_rank(s, rules) > special_rank(best, rules) && holds_special(cards13, s)) best = s;
  }
  return best;
}

BotChoice bot_choice(const int* cards13, const Rules& rules, Strategy strategy,
                     const EvModel* model) {
  BotChoice choice;
  choice.arrangement = arrange(cards13, rules, strategy, 1, model).front();
  const Special s = best_special(cards13, rules);
  if (s == Special::kNone) return choice;
  // The ev score is expected points per opponent; the other strategies' scores are
  // percentile sums, against which any special (worth points from every opponent) pays.
  const bool in_points = strategy == Strategy::kEv && model != nullptr && model->loaded();
  if (s == Special::kDragon || !in_points ||
      special_points(s, rules) > choice.arrangement.score) {
    choice.declared = s;
  }
  return choice;
}

PlayerRows rows_of(const int* cards13, const BotChoice& choice, const Rules& rules) noexcept {
  PlayerRows r;
  if (choice.declared != Special::kNone) {
    r.special = choice.declared;
    r.dragon = choice.declared == Special::kDragon;
    return r;
  }
  const Split& s = choice.arrangement.split;
  int top[3], middle[5], bottom[5];
  for (int i = 0; i < 3; ++i) top[i] = cards13[s.top[static_cast<std::size_t>(i)]];
  for (int i = 0; i < 5; ++i) middle[i] = cards13[s.middle[static_cast<std::size_t>(i)]];
  for (int i = 0; i < 5; ++i) bottom[i] = cards13[s.bottom[static_cast<std::size_t>(i)]];
  return player_rows(top, middle, bottom, rules);
}

namespace {
BotChoice seat_choice(const int* cards13, const SeatBot& bot, const Rules& rules, int players) {
  if (bot.deep) return deep_choice(cards13, rules, players, bot.model, bot.budget);
  return bot_choice(cards13, rules, bot.strategy, bot.model);
}
}  // namespace

void play_table(const std::array<std::array<int, kHandSize>, kMaxTablePlayers>& hands,
                int players, const std::vector<SeatBot>& seats, const Rules& rules,
                int* points) {
  std::vector<PlayerRows> rows(static_cast<std::size_t>(players));
  for (int p = 0; p < players; ++p) {
    const auto& hand = hands[static_cast<std::size_t>(p)];
    rows[static_cast<std::size_t>(p)] =
        rows_of(hand.data(), seat_choice(hand.data(), seats[static_cast<std::size_t>(p)], rules, players), rules);
  }
  const TableResult result = score_table(rows, rules);
  for (int p = 0; p < players; ++p) points[p] = result.points[static_cast<std::size_t>(p)];
}

std::uint64_t table_seed(std::uint64_t seed, std::uint64_t g) noexcept {
  SplitMix64 mix{seed ^ (g * 0x9FB21C651E98DF25ull) ^ 0x5355534E5441424Cull};
  return mix.next() >> 19;  // 45 bits
}

void simulate_tables(const Rules& rules, int players, const std::vector<SeatBot>& seats,
                     std::uint64_t seed, std::uint64_t first, int count, int* points,
                     int* strategy_of) {
  const std::size_t kinds = seats.size();
  std::array<std::array<int, kHandSize>, kMaxTablePlayers> hands{};
  std::vector<SeatBot> at_table(static_cast<std::size_t>(players));
  for (int g = 0; g < count; ++g) {
    const std::uint64_t table = first + static_cast<std::uint64_t>(g);
    const auto deck = shuffled_deck(table_seed(seed, table));
    for (int p = 0; p < players; ++p) {
      for (int i = 0; i < kHandSize; ++i)
        hands[static_cast<std::size_t>(p)][static_cast<std::size_t>(i)] =
            deck[static_cast<std::size_t>(p * kHandSize + i)];
      const std::size_t kind = (static_cast<std::size_t>(p) + static_cast<std::size_t>(table % kinds)) % kinds;
      at_table[static_cast<std::size_t>(p)] = seats[kind];
      strategy_of[g * players + p] = static_cast<int>(kind);
    }
    play_table(hands, players, at_table, rules, points + g * players);
  }
}

void simulate_tables_duplicate(const Rules& rules, int players, const std::vector<SeatBot>& lineup,
                               std::uint64_t seed, std::uint64_t first, int count, int* points) {
  // Lineup entries that are the same bot share their choices.
  std::vector<int> same_as(static_cast<std::size_t>(players));
  for (int i = 0; i < players; ++i) {
    same_as[static_cast<std::size_t>(i)] = i;
    const SeatBot& a = lineup[static_cast<std::size_t>(i)];
    for (int k = 0; k < i; ++k) {
      const SeatBot& b = lineup[static_cast<std::size_t>(k)];
      if (a.strategy == b.strategy && a.model == b.model && a.deep == b.deep &&
          a.budget.hands == b.budget.hands && a.budget.candidates == b.budget.candidates &&
          a.budget.time_ms == b.budget.time_ms && a.budget.seed == b.budget.seed &&
          a.budget.bank == b.budget.bank && a.budget.bank_step == b.budget.bank_step) {
        same_as[static_cast<std::size_t>(i)] = same_as[static_cast<std::size_t>(k)];
        break;
      }
    }
  }
  std::array<std::array<int, kHandSize>, kMaxTablePlayers> hands{};
  // rows[entry][hand]: the rows lineup entry `entry` puts down with hand `hand`.
  std::array<std::array<PlayerRows, kMaxTablePlayers>, kMaxTablePlayers> rows{};
  std::vector<PlayerRows> seated(static_cast<std::size_t>(players));
  for (int g = 0; g < count; ++g) {
    const std::uint64_t table = first + static_cast<std::uint64_t>(g);
    const auto deck = shuffled_deck(table_seed(seed, table));
    for (int p = 0; p < players; ++p)
      for (int i = 0; i < kHandSize; ++i)
        hands[static_cast<std::size_t>(p)][static_cast<std::size_t>(i)] =
            deck[static_cast<std::size_t>(p * kHandSize + i)];
    for (int e = 0; e < players; ++e) {
      const auto ue = static_cast<std::size_t>(e);
      if (same_as[ue] != e) {
        rows[ue] = rows[static_cast<std::size_t>(same_as[ue])];
        continue;
      }
      for (int h = 0; h < players; ++h) {
        const int* hand = hands[static_cast<std::size_t>(h)].data();
        rows[ue][static_cast<std::size_t>(h)] = rows_of(hand, seat_choice(hand, lineup[ue], rules, players), rules);
      }
    }
    int* out = points + g * players;
    std::fill(out, out + players, 0);
    for (int k = 0; k < players; ++k) {
      auto entry = [&](int seat) { return static_cast<std::size_t>((seat + players - k) % players); };
      for (int s = 0; s < players; ++s) seated[static_cast<std::size_t>(s)] = rows[entry(s)][static_cast<std::size_t>(s)];
      const TableResult result = score_table(seated, rules);
      for (int s = 0; s < players; ++s) out[entry(s)] += result.points[static_cast<std::size_t>(s)];
    }
  }
}

}  // namespace capsa_fast::susun
