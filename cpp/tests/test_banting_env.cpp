// The reinforcement-learning face of a Banting round: the action order, masks that agree
// with decoding and with the rules engine, observations that describe the round, and the
// vector environment (bots inside, automatic reset, the same results on any thread count,
// illegal actions refused without a change).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <vector>

#include "capsa_fast/banting_env.hpp"
#include "check.hpp"

using namespace capsa_fast;
using namespace capsa_fast::banting;
using namespace capsa_fast::banting::env;

namespace {

bool short_run() { return std::getenv("CAPSA_FAST_SHORT") != nullptr; }

std::vector<GameRules> rule_sets() {
  std::vector<GameRules> out(6);
  out[1].rules.straights = {0, 12, 1, 2, 3, 4, 5, 6, 7, 8};
  out[1].rules.flush_compare = FlushCompare::kRankFirst;
  out[1].rules.suit_rank = {0, 1, 2, 3};  // c < d < h < s
  out[2].rules.flush_compare = FlushCompare::kNone;
  out[2].rules.bombs = true;
  out[2].rules.two_demotion = true;
  out[3].rules.pass_locks = true;
  out[3].rules.two_demotion = true;
  out[3].rules.straights = {1, 2, 3, 4, 5, 6, 7, 8};
  out[3].rules.flush_compare = FlushCompare::kTopCard;
  out[4].last_standing = true;
  out[5].previous_winner = true;
  out[5].rules.triples = false;
  out[5].dragon = false;
  return out;
}

void test_action_order() {
  const auto& subsets = action_subsets();
  CHECK_EQ(subsets.size(), std::size_t{1664});
  CHECK_EQ(subsets[0], 1u);         // {0}
  CHECK_EQ(subsets[12], 1u << 12);  // {12}
  CHECK_EQ(subsets[13], 3u);        // {0, 1}
  CHECK_EQ(subsets[1663], 0x1F00u);  // {8, 9, 10, 11, 12}
  int sizes[6] = {};
  for (std::size_t a = 0; a < subsets.size(); ++a) {
    sizes[__builtin_popcount(subsets[a])]++;
    CHECK_EQ(action_of_subset()[subsets[a]], static_cast<std::int16_t>(a));
    if (a > 0 && __builtin_popcount(subsets[a]) == __builtin_popcount(subsets[a - 1])) {
      // lexicographic: the first position where the lists differ is lower in the earlier
      std::vector<int> x, y;
      for (int j = 0; j < 13; ++j) {
        if (subsets[a - 1] >> j & 1) x.push_back(j);
        if (subsets[a] >> j & 1) y.push_back(j);
      }
      CHECK(x < y);
    }
  }
  CHECK_EQ(sizes[1], 13);
  CHECK_EQ(sizes[2], 78);
  CHECK_EQ(sizes[3], 286);
  CHECK_EQ(sizes[5], 1287);
  CHECK_EQ(sizes[4], 0);
}

// Everything the observation must say about the position, read back from the round.
void check_observation(const Round& r, int seat) {
  using L = ObsLayout;
  std::vector<std::int8_t> obs(kObsSize, 7);
  encode_observation(r, seat, obs.data());
  for (std::int8_t v : obs) CHECK(v == 0 || v == 1);
  const Rules& rules = r.rules().rules;
  int held = 0;
  for (int i = 0; i < 52; ++i) {
    held += obs[static_cast<std::size_t>(L::kHand + i)];
  }
  CHECK_EQ(held, r.count(seat));
  for (CardMask h = r.hand(seat); h; h &= h - 1)
    CHECK_EQ(obs[static_cast<std::size_t>(L::kHand + card_index(__builtin_ctzll(h), rules))], 1);
  // The row: each position one rank and one suit, ascending in Big Two order.
  std::uint8_t row[52];
  const int n = sorted_row(r, seat, row);
  CHECK_EQ(n, r.count(seat));
  for (int j = 0; j < 13; ++j) {
    const std::int8_t* p = obs.data() + L::kRow + j * 17;
    const int ranks = std::accumulate(p, p + 13, 0);
    const int suits = std::accumulate(p + 13, p + 17, 0);
    CHECK_EQ(ranks, j < n ? 1 : 0);
    CHECK_EQ(suits, j < n ? 1 : 0);
    if (j < n) {
      CHECK_EQ(p[big_two_rank(row[j])], 1);
      CHECK_EQ(p[13 + rules.suit_rank[static_cast<std::size_t>(suit_of(row[j]))]], 1);
      if (j > 0) CHECK(single_order(row[j - 1], rules) < single_order(row[j], rules));
    }
  }
  CardMask played = 0;
  for (int k = 0; k < 4; ++k) {
    const std::int8_t* c = obs.data() + L::kCounts + k * 14;
    if (k >= r.players()) {
      CHECK_EQ(std::accumulate(c, c + 14, 0), 0);
      continue;
    }
    const int s = (seat + k) % r.players();
    CHECK_EQ(c[r.count(s)], 1);
    CHECK_EQ(std::accumulate(c, c + 14, 0), 1);
    CHECK_EQ(obs[static_cast<std::size_t>(L::kPassed + k)], r.has_passed(s) ? 1 : 0);
    int seen = 0;
    for (int i = 0; i < 52; ++i) seen += obs[static_cast<std::size_t>(L::kPlayed + k * 52 + i)];
    CHECK_EQ(seen, __builtin_popcountll(r.played_by(s)));
    played |= r.played_by(s);
  }
  CHECK_EQ(played, r.played());
  const Combo* t = r.table();
  CHECK_EQ(obs[static_cast<std::size_t>(L::kTableKind + (t ? static_cast<int>(t->kind) : 0))], 1);
  int on_table = 0;
  for (int i = 0; i < 52; ++i) on_table += obs[static_cast<std::size_t>(L::kTableCards + i)];
  CHECK_EQ(on_table, t ? static_cast<int>(t->size) : 0);
  if (t) CHECK_EQ(obs[static_cast<std::size_t>(L::kTableSeat + (r.table_seat() - seat + r.players()) % r.players())], 1);
  CHECK_EQ(obs[static_cast<std::size_t>(L::kFlags + kFlagFirstPlay)], r.first_play() ? 1 : 0);
  CHECK_EQ(obs[static_cast<std::size_t>(L::kFlags + kFlagTwosDemoted)], r.twos_demoted() ? 1 : 0);
  CHECK_EQ(obs[static_cast<std::size_t>(L::kFlags + kFlagPassLocks)], rules.pass_locks ? 1 : 0);
  CHECK_EQ(obs[static_cast<std::size_t>(L::kFlags + kFlagLastStanding)], r.rules().last_standing ? 1 : 0);
}

// The mask equals the set of actions that decode to a legal move, and counts the rules
// engine's legal plays plus the pass.
void check_mask(const Round& r) {
  const int seat = r.turn();
  std::vector<std::uint8_t> mask(kNumActions, 9);
  std::vector<std::int16_t> list;
  const int count = legal_action_mask(r, seat, mask.data(), &list);
  CHECK_EQ(count, r.for_each_legal([](const Combo&) {}) + (r.can_pass() ? 1 : 0));
  CHECK_EQ(static_cast<int>(list.size()), count);
  int bits = 0;
  std::uint8_t row[52];
  sorted_row(r, seat, row);
  for (int a = 0; a < kNumActions; ++a) {
    Combo play;
    bool is_pass = false;
    const bool ok = decode_action(r, a, &play, &is_pass);
    CHECK_EQ(ok ? 1 : 0, static_cast<int>(mask[static_cast<std::size_t>(a)]));
    bits += mask[static_cast<std::size_t>(a)];
    if (ok && a < kPassAction) {
      CardMask expect = 0;
      for (unsigned s = action_subsets()[static_cast<std::size_t>(a)]; s; s &= s - 1)
        expect |= CardMask{1} << row[__builtin_ctz(s)];
      CHECK_EQ(play.mask(), expect);
      CHECK(!is_pass);
    }
    if (ok && a == kPassAction) CHECK(is_pass);
  }
  CHECK_EQ(bits, count);
  CHECK(count > 0);
  Combo play;
  bool is_pass = false;
  CHECK(!decode_action(r, -1, &play, &is_pass));
  CHECK(!decode_action(r, kNumActions, &play, &is_pass));
  // Other seats have no legal action.
  for (int s = 0; s < r.players(); ++s) {
    if (s == seat) continue;
    CHECK_EQ(legal_action_mask(r, s, mask.data()), 0);
    CHECK_EQ(std::accumulate(mask.begin(), mask.end(), 0), 0);
  }
}

void test_positions() {
  const int rounds = short_run() ? 6 : 40;
  for (const GameRules& rules : rule_sets()) {
    for (int players = 2; players <= 4; ++players) {
      SplitMix64 rng{static_cast<std::uint64_t>(players) * 977};
      for (int g = 0; g < rounds; ++g) {
        Round r(rules, players, sim_round_seed(5, static_cast<std::uint64_t>(g)));
        while (!r.over()) {
          for (int s = 0; s < players; ++s) check_observation(r, s);
          check_mask(r);
          // Half the moves from the mask's actions, half from the bots.
          if (rng.below(2)) {
            std::vector<std::uint8_t> mask(kNumActions);
            std::vector<std::int16_t> list;
            legal_action_mask(r, r.turn(), mask.data(), &list);
            Combo play;
            bool is_pass = false;
            const int a = list[static_cast<std::size_t>(rng.below(static_cast<int>(list.size())))];
            CHECK(decode_action(r, a, &play, &is_pass));
            r.apply_legal(r.turn(), is_pass ? nullptr : &play);
          } else {
            const Move m = bot_move(r, BotLevel::kStandard, rng);
            r.apply_legal(m.seat, m.is_pass ? nullptr : &m.combo);
          }
        }
      }
    }
  }
}

struct Outputs {
  std::vector<std::int8_t> obs;
  std::vector<std::uint8_t> mask, done;
  std::vector<float> rewards;
  std::vector<std::int8_t> seat;
  Outputs(int n, int players)
      : obs(static_cast<std::size_t>(n) * kObsSize), mask(static_cast<std::size_t>(n) * kNumActions),
        done(static_cast<std::size_t>(n)), rewards(static_cast<std::size_t>(n) * players),
        seat(static_cast<std::size_t>(n)) {}
};

// A run of random steps; returns every output concatenated (for comparing runs).
std::vector<double> run(const GameRules& rules, int players, const std::vector<int>& seats, int n,
                        int threads, int steps) {
  VecEnv venv(rules, players, n, seats, threads);
  Outputs o(n, players);
  venv.reset(99, o.obs.data(), o.mask.data(), o.seat.data());
  std::vector<std::int64_t> actions(static_cast<std::size_t>(n));
  std::vector<double> trace;
  for (int t = 0; t < steps; ++t) {
    venv.sample_actions(actions.data());
    for (int i = 0; i < n; ++i) {
      CHECK_EQ(o.mask[static_cast<std::size_t>(i) * kNumActions + static_cast<std::size_t>(actions[static_cast<std::size_t>(i)])], 1);
      CHECK_EQ(seats[static_cast<std::size_t>(o.seat[static_cast<std::size_t>(i)])], kLearnerSeat);
      CHECK_EQ(venv.round(i).turn(), static_cast<int>(o.seat[static_cast<std::size_t>(i)]));
    }
    CHECK_EQ(venv.step(actions.data(), o.obs.data(), o.mask.data(), o.rewards.data(), o.done.data(), o.seat.data()), -1L);
    for (int i = 0; i < n; ++i) {
      float sum = 0;
      for (int s = 0; s < players; ++s) sum += o.rewards[static_cast<std::size_t>(i * players + s)];
      CHECK(sum == 0.0f);  // zero-sum, and zero while the round goes on
      if (o.done[static_cast<std::size_t>(i)]) {
        float loss = 0;
        for (int s = 0; s < players; ++s) loss += std::abs(o.rewards[static_cast<std::size_t>(i * players + s)]);
        CHECK(loss > 0);
      }
    }
    for (std::size_t k = 0; k < o.obs.size(); k += 37) trace.push_back(o.obs[k]);
    for (float r : o.rewards) trace.push_back(r);
    for (std::int64_t a : actions) trace.push_back(static_cast<double>(a));
  }
  trace.push_back(static_cast<double>(venv.rounds_done()));
  return trace;
}

void test_vec_env() {
  const int steps = short_run() ? 60 : 400;
  for (const GameRules& rules : rule_sets()) {
    const std::vector<int> self_play(4, kLearnerSeat);
    const std::vector<int> vs_bots = {kLearnerSeat, static_cast<int>(BotLevel::kStandard),
                                      static_cast<int>(BotLevel::kRandom), static_cast<int>(BotLevel::kBeginner)};
    const auto a = run(rules, 4, self_play, 37, 1, steps);
    CHECK(a == run(rules, 4, self_play, 37, 3, steps));
    const auto b = run(rules, 4, vs_bots, 23, 2, steps);
    CHECK(b == run(rules, 4, vs_bots, 23, 1, steps));
    run(rules, 2, {static_cast<int>(BotLevel::kBeginner), kLearnerSeat}, 9, 2, steps);
    run(rules, 3, {kLearnerSeat, kLearnerSeat, static_cast<int>(BotLevel::kRandom)}, 9, 2, steps);
  }
}

// An illegal action anywhere in the batch changes nothing and names the first bad index;
// a round's code deals its position again; a round that ends on a bot's move is reported.
void test_vec_env_refusal() {
  const GameRules rules;
  const int n = 16;
  VecEnv venv(rules, 4, n, {kLearnerSeat, 1, 1, 1}, 2);
  Outputs o(n, 4);
  venv.reset(3, o.obs.data(), o.mask.data(), o.seat.data());
  std::vector<std::int64_t> actions(n);
  venv.sample_actions(actions.data());
  const std::vector<std::int8_t> obs_before = o.obs;
  std::vector<std::uint64_t> seeds;
  for (int i = 0; i < n; ++i) seeds.push_back(venv.round_seed(i));
  for (int i = 0; i < n; ++i) {
    const Round again(rules, 4, seeds[static_cast<std::size_t>(i)]);
    CHECK_EQ(again.hand(0) | venv.round(i).played_by(0), venv.round(i).hand(0) | venv.round(i).played_by(0));
  }
  for (std::int64_t bad : {std::int64_t{-1}, std::int64_t{kNumActions}, std::int64_t{1} << 40}) {
    auto wrong = actions;
    wrong[5] = bad;
    wrong[9] = bad;
    CHECK_EQ(venv.step(wrong.data(), o.obs.data(), o.mask.data(), o.rewards.data(), o.done.data(), o.seat.data()), 5L);
  }
  // A legal-looking index that is not legal here: the first action whose bit is off.
  auto wrong = actions;
  for (int a = 0; a < kNumActions; ++a) {
    if (!o.mask[static_cast<std::size_t>(11) * kNumActions + static_cast<std::size_t>(a)]) {
      wrong[11] = a;
      break;
    }
  }
  CHECK_EQ(venv.step(wrong.data(), o.obs.data(), o.mask.data(), o.rewards.data(), o.done.data(), o.seat.data()), 11L);
  CHECK(o.obs == obs_before);
  CHECK(venv.rounds_done() == 0);
  long rounds = 0;
  for (int t = 0; t < 2000; ++t) {
    venv.sample_actions(actions.data());
    CHECK_EQ(venv.step(actions.data(), o.obs.data(), o.mask.data(), o.rewards.data(), o.done.data(), o.seat.data()), -1L);
    for (int i = 0; i < n; ++i) {
      rounds += o.done[static_cast<std::size_t>(i)];
      CHECK_EQ(o.seat[static_cast<std::size_t>(i)], 0);
    }
  }
  CHECK_EQ(rounds, static_cast<long>(venv.rounds_done()));
  CHECK(rounds > 100);
}

// StepExtras: an illegal action ends only its environment's round (the mover gets the
// forfeit, final_obs is the position it was tried in); a round that ends in play leaves
// the mover's view of its end (no legal action; an empty hand for the winner).
void test_vec_env_forfeit() {
  const GameRules rules;
  const int n = 12;
  VecEnv venv(rules, 4, n, {kLearnerSeat, 1, 1, 1}, 2);
  Outputs o(n, 4);
  std::vector<std::int8_t> final_obs(static_cast<std::size_t>(n) * kObsSize, 7);
  std::vector<std::uint8_t> final_mask(static_cast<std::size_t>(n) * kNumActions, 7);
  std::vector<std::uint8_t> illegal(static_cast<std::size_t>(n), 7);
  const float forfeit = -39.0f;
  VecEnv::StepExtras extras;
  extras.forfeit = &forfeit;
  extras.illegal = illegal.data();
  extras.final_obs = final_obs.data();
  extras.final_mask = final_mask.data();
  venv.reset(5, o.obs.data(), o.mask.data(), o.seat.data());
  std::vector<std::int64_t> actions(n);
  venv.sample_actions(actions.data());
  actions[4] = -1;
  actions[7] = kNumActions;
  const std::vector<std::int8_t> obs_before = o.obs;
  const std::vector<std::uint8_t> mask_before = o.mask;
  const std::uint64_t seed4 = venv.round_seed(4);
  CHECK_EQ(venv.step(actions.data(), o.obs.data(), o.mask.data(), o.rewards.data(), o.done.data(), o.seat.data(), extras), -1L);
  for (int i = 0; i < n; ++i) {
    const auto u = static_cast<std::size_t>(i);
    const bool bad = i == 4 || i == 7;
    CHECK_EQ(illegal[u], bad ? 1 : 0);
    if (!bad) continue;
    CHECK_EQ(o.done[u], 1);
    CHECK(o.rewards[u * 4] == forfeit && o.rewards[u * 4 + 1] == 0.0f);
    CHECK(std::equal(obs_before.begin() + static_cast<std::ptrdiff_t>(u * kObsSize),
                     obs_before.begin() + static_cast<std::ptrdiff_t>((u + 1) * kObsSize),
                     final_obs.begin() + static_cast<std::ptrdiff_t>(u * kObsSize)));
    CHECK(std::equal(mask_before.begin() + static_cast<std::ptrdiff_t>(u * kNumActions),
                     mask_before.begin() + static_cast<std::ptrdiff_t>((u + 1) * kNumActions),
                     final_mask.begin() + static_cast<std::ptrdiff_t>(u * kNumActions)));
  }
  CHECK(venv.round_seed(4) != seed4);
  CHECK_EQ(venv.forfeited_rounds(), std::int64_t{2});
  // skip: a skipped environment's action is not read (an illegal one is no forfeit) and
  // its position stays; the others play.
  {
    std::vector<std::uint8_t> skip(static_cast<std::size_t>(n), 0);
    skip[3] = 1;
    VecEnv::StepExtras with_skip = extras;
    with_skip.skip = skip.data();
    venv.sample_actions(actions.data());
    actions[3] = -5;
    const std::vector<std::int8_t> obs3(o.obs.begin() + 3 * kObsSize, o.obs.begin() + 4 * kObsSize);
    const auto history3 = venv.round(3).history().size();
    const auto history5 = venv.round(5).history().size();
    CHECK_EQ(venv.step(actions.data(), o.obs.data(), o.mask.data(), o.rewards.data(), o.done.data(), o.seat.data(), with_skip), -1L);
    CHECK_EQ(illegal[3], 0);
    CHECK_EQ(o.done[3], 0);
    CHECK(std::equal(obs3.begin(), obs3.end(), o.obs.begin() + 3 * kObsSize));
    CHECK_EQ(venv.round(3).history().size(), history3);
    CHECK(venv.round(5).history().size() > history5 || o.done[5] == 1);
    CHECK_EQ(venv.forfeited_rounds(), std::int64_t{2});
  }
  CHECK_EQ(venv.rounds_done(), std::int64_t{0});
  long ended = 0, won = 0;
  for (int t = 0; t < 600; ++t) {
    venv.sample_actions(actions.data());
    CHECK_EQ(venv.step(actions.data(), o.obs.data(), o.mask.data(), o.rewards.data(), o.done.data(), o.seat.data(), extras), -1L);
    for (int i = 0; i < n; ++i) {
      const auto u = static_cast<std::size_t>(i);
      CHECK_EQ(illegal[u], 0);
      if (!o.done[u]) continue;
      ++ended;
      int held = 0;
      for (int c = 0; c < 52; ++c) held += final_obs[u * kObsSize + static_cast<std::size_t>(ObsLayout::kHand + c)];
      const auto* m = final_mask.data() + u * kNumActions;
      CHECK(std::all_of(m, m + kNumActions, [](std::uint8_t x) { return x == 0; }));
      CHECK((o.rewards[u * 4] > 0) == (held == 0));
      won += held == 0;
    }
  }
  CHECK_EQ(ended, static_cast<long>(venv.rounds_done()));
  CHECK(ended > 50 && won > 0);
}

}  // namespace

int main() {
  test_action_order();
  test_positions();
  test_vec_env();
  test_vec_env_refusal();
  test_vec_env_forfeit();
  return capsa_fast::testing::finish("test_banting_env");
}
