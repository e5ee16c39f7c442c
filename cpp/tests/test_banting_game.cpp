// Banting rounds: dealing, flow invariants, rejections that change nothing, and bots that
// only make legal moves, under several rule sets.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <memory>
#include <vector>

#include "capsa_fast/banting_game.hpp"
#include "check.hpp"

using namespace capsa_fast;
using namespace capsa_fast::banting;

namespace {

bool short_run() { return std::getenv("CAPSA_FAST_SHORT") != nullptr; }

std::vector<GameRules> rule_sets() {
  std::vector<GameRules> out(11);
  out[1].rules.straights = {0, 12, 1, 2, 3, 4, 5, 6, 7, 8};  // hong-kong's two-low order
  out[1].rules.flush_compare = FlushCompare::kRankFirst;
  out[2].rules.flush_compare = FlushCompare::kNone;        // taiwan-like, with bombs
  out[2].rules.bombs = true;
  out[2].rules.suit_rank = {0, 1, 2, 3};  // c < d < h < s
  out[3].rules.pass_locks = true;
  out[4].last_standing = true;
  out[5].previous_winner = true;
  out[5].rules.triples = false;
  out[6].dragon = false;
  out[6].tiers = {{1, 2}, {7, 3}};
  // capsa-klasik (seed 000): no 2 in straights, top-card flushes, pass locks, two_demotion
  out[7].rules.straights = {1, 2, 3, 4, 5, 6, 7, 8};
  out[7].rules.flush_compare = FlushCompare::kTopCard;
  out[7].rules.pass_locks = true;
  out[7].rules.two_demotion = true;
  out[8] = out[2];  // bombs with two_demotion
  out[8].rules.two_demotion = true;
  out[9] = out[2];  // bombs that end a last-standing round (seed 002)
  out[9].last_standing = true;
  out[9].bomb_ends = true;
  out[10].exchange = true;  // test_rounds plays matches' first rounds: no exchange
  out[10].previous_winner = true;
  return out;
}

// Everything a rejection must leave alone.
struct Snapshot {
  int turn, leader, table_seat;
  unsigned passed;
  bool first_play, has_table;
  std::array<CardMask, kMaxPlayers> hands;
  std::size_t moves;
  explicit Snapshot(const Round& r)
      : turn(r.turn()), leader(r.leader()), table_seat(r.table_seat()), passed(r.passed_mask()),
        first_play(r.first_play()), has_table(r.table() != nullptr), hands{},
        moves(r.history().size()) {
    for (int s = 0; s < r.players(); ++s) hands[static_cast<std::size_t>(s)] = r.hand(s);
  }
  bool operator==(const Snapshot& o) const {
    return turn == o.turn && leader == o.leader && table_seat == o.table_seat &&
           passed == o.passed && first_play == o.first_play && has_table == o.has_table &&
           hands == o.hands && moves == o.moves;
  }
};

void test_deal() {
  const auto a = shuffled_deck(12345);
  const auto b = shuffled_deck(12345);
  const auto c = shuffled_deck(12346);
  CHECK(a == b);
  CHECK(!(a == c));
  CardMask seen = 0;
  for (auto card : a) seen |= CardMask{1} << card;
  CHECK_EQ(seen, (CardMask{1} << 52) - 1);
  // SplitMix64's published first output for seed 0.
  SplitMix64 rng{0};
  CHECK_EQ(rng.next(), 0xE220A8397B1DCDAFull);
}

void test_rounds(const GameRules& rules, int players, BotLevel level, int rounds) {
  SplitMix64 rng{static_cast<std::uint64_t>(players * 7 + static_cast<int>(level))};
  int previous = -1;
  for (int g = 0; g < rounds; ++g) {
    Round r(rules, players, sim_round_seed(99, static_cast<std::uint64_t>(g)),
            rules.previous_winner ? previous : -1);
    CardMask all = 0;
    for (int s = 0; s < players; ++s) {
      CHECK_EQ(r.count(s), 13);
      all |= r.hand(s);
    }
    CHECK_EQ(__builtin_popcountll(all), 13 * players);
    int steps = 0;
    while (!r.over() && steps < 2000) {
      ++steps;
      // A wrong seat and a pass when leading are refused and change nothing.
      const Snapshot before(r);
      Verdict v;
      const int other = (r.turn() + 1) % players;
      CHECK(r.apply(other, nullptr, 0, true, &v) == RoundCode::kNotYourTurn);
      if (!r.table()) {
        CHECK(r.apply(r.turn(), nullptr, 0, true, &v) == RoundCode::kRules);
        CHECK(v.code == Code::kCannotPassWhenLeading);
      }
      CHECK(Snapshot(r) == before);
      // A hint is never a pass while the seat holds a play (seed 003 «Petunjuk»).
      SplitMix64 scratch = rng;
      const Hint h = hint_move(r, level, scratch);
      CHECK(h.move.is_pass == (r.for_each_legal([](const Combo&) {}) == 0));
      const bool demoted = r.twos_demoted();
      const Move m = bot_move(r, level, rng);
      CHECK_EQ(m.seat, r.turn());
      int cards[5];
      for (int i = 0; i < m.combo.size; ++i) cards[i] = m.combo.cards[static_cast<std::size_t>(i)];
      const RoundCode code = r.apply(m.seat, cards, m.is_pass ? 0 : m.combo.size, m.is_pass, &v);
      CHECK(code == RoundCode::kOk);
      if (code != RoundCode::kOk) break;
      const bool four = !m.is_pass && m.combo.kind == Kind::kFourOfAKind;
      CHECK(r.twos_demoted() == (demoted != (four && rules.rules.two_demotion)));
    }
    CHECK(r.over());
    const std::vector<int> s = r.scores();
    int sum = 0, zero = 0;
    for (int p = 0; p < players; ++p) {
      sum += s[static_cast<std::size_t>(p)];
      zero += r.cards_left()[static_cast<std::size_t>(p)] == 0;
    }
    CHECK_EQ(sum, 0);
    CHECK_EQ(zero, 1);
    CHECK_EQ(r.cards_left()[static_cast<std::size_t>(r.winner())], 0);
    const std::size_t order = r.finishing_order().size();
    CHECK(order == (rules.last_standing && !r.dragon() ? static_cast<std::size_t>(players) : 1u));
    Verdict v;
    CHECK(r.apply(0, nullptr, 0, true, &v) == RoundCode::kRoundOver);
    previous = r.winner();
  }
}

void test_clearing_and_inheritance() {
  // Under last-standing, a player who goes out on a play the others all pass on hands the
  // lead to the next holder: play rounds with bots until that happens and check it.
  GameRules rules;
  rules.last_standing = true;
  SplitMix64 rng{5};
  int seen = 0;
  for (int g = 0; g < 400 && seen < 20; ++g) {
    Round r(rules, 4, sim_round_seed(7, static_cast<std::uint64_t>(g)));
    while (!r.over()) {
      const Move m = bot_move(r, BotLevel::kRandom, rng);
      const int owner = r.table_seat();
      r.apply_legal(m.seat, m.is_pass ? nullptr : &m.combo);
      if (m.is_pass && !r.table() && !r.over()) {  // the trick was just cleared
        CHECK(r.passed_mask() == 0);
        if (r.hand(owner)) {
          CHECK_EQ(r.turn(), owner);
        } else {
          ++seen;
          int next = owner;
          do next = (next + 1) % 4; while (!r.hand(next));
          CHECK_EQ(r.turn(), next);
        }
        CHECK_EQ(r.leader(), r.turn());
      }
    }
  }
  CHECK(seen > 0);
}

void test_refuses_bad_ids() {
  // A card named twice or an id outside the deck is refused and changes nothing (found by
  // the fuzz targets: an id outside the deck was an undefined shift, and a card named twice
  // passed as a pair while only one card left the hand).
  GameRules rules;
  rules.dragon = false;  // so the round starts with a first play
  Round r(rules, 4, 12345);
  const int lowest = r.must_contain();
  const Snapshot before(r);
  Verdict v;
  const int twice[2] = {lowest, lowest};
  CHECK(r.apply(r.turn(), twice, 2, false, &v) == RoundCode::kRules);
  CHECK(v.code == Code::kNotInHand);
  for (const int bad : {-8, 52, 64, 1000}) {
    const int play[2] = {lowest, bad};
    CHECK(r.apply(r.turn(), play, 2, false, &v) == RoundCode::kRules);
    CHECK(v.code == Code::kNotInHand);
  }
  CHECK(Snapshot(r) == before);
}

// Two moves are the same when both pass or both play the same cards.
bool same_move(const Move& a, const Move& b) {
  return a.is_pass == b.is_pass && (a.is_pass || a.combo.mask() == b.combo.mask());
}

// The master: legal moves only, going out when it can, the same move for the same dice
// whatever the threads (an iteration budget), and a round it plays ends properly.
void test_master() {
  GameRules rules;
  SearchBudget small;
  small.iterations = short_run() ? 40 : 200;
  SearchBudget two = small;
  two.threads = 2;
  for (int g = 0; g < (short_run() ? 2 : 6); ++g) {
    Round r(rules, 4, sim_round_seed(5, static_cast<std::uint64_t>(g)));
    SplitMix64 rng{static_cast<std::uint64_t>(g) + 1};
    int steps = 0;
    while (!r.over() && steps++ < 400) {
      SplitMix64 a = rng;
      const Move m = bot_move(r, BotLevel::kMaster, rng, small);
      const Move again = master_move(r, a, two);
      CHECK(same_move(m, again));
      bool going_out = false;
      r.for_each_legal([&](const Combo& c) { going_out |= c.mask() == r.hand(r.turn()); });
      if (going_out) CHECK(!m.is_pass && m.combo.mask() == r.hand(r.turn()));
      Verdict v;
      int cards[5];
      for (int i = 0; i < m.combo.size; ++i) cards[i] = m.combo.cards[static_cast<std::size_t>(i)];
      CHECK(r.apply(m.seat, cards, m.is_pass ? 0 : m.combo.size, m.is_pass, &v) == RoundCode::kOk);
    }
    CHECK(r.over());
  }
  // What keeps standard-v2's move: a prior or a check margin larger than any score makes the
  // master play it every time (unless it trusts its model of the other seats); with
  // neither, nor the confidence test, it plays another move somewhere in these rounds (so
  // they are what kept it). (A huge confidence alone does not force it: a lead with no
  // spread over the worlds is certain.) The other seats here play standard-v2's moves, so
  // the master comes to trust its model, and then a huge prior no longer holds it.
  SearchBudget none = small;
  none.prior = 0;
  none.confidence = 0;
  none.check_worlds = 0;
  std::vector<SearchBudget> sure(2, small);
  sure[0].prior = 1e9;
  sure[1].check_margin = 1e9;
  for (SearchBudget& b : sure) b.trust_model = false;
  SearchBudget trusting = small;
  trusting.prior = 1e9;
  int differs = 0;
  int trusted = 0;
  for (int g = 0; g < (short_run() ? 2 : 4); ++g) {
    Round r(rules, 4, sim_round_seed(8, static_cast<std::uint64_t>(g)));
    SplitMix64 rng{static_cast<std::uint64_t>(g) + 11};
    while (!r.over()) {
      SplitMix64 unused{0};
      const Move v2 = bot_move(r, BotLevel::kStandardV2, unused);
      if (r.turn() != 0) {
        r.apply_legal(v2.seat, v2.is_pass ? nullptr : &v2.combo);
        continue;
      }
      for (const SearchBudget& b : sure) {
        SplitMix64 a = rng;
        CHECK(same_move(master_move(r, a, b), v2));
      }
      SplitMix64 a = rng;
      trusted += !same_move(master_move(r, a, trusting), v2);
      const Move free = master_move(r, rng, none);
      differs += !same_move(free, v2);
      r.apply_legal(free.seat, free.is_pass ? nullptr : &free.combo);
    }
  }
  CHECK(differs > 0);
  CHECK(trusted > 0);
  // Heads-up, 26 cards stay undealt: the chains also swap cards with that stock (they did not
  // run at all with one other seat), so the master comes to trust its model there too.
  // (Heads-up rounds are short: the trust comes after about eight of the other seat's moves.)
  int trusted_heads_up = 0;
  for (int g = 0; g < 16; ++g) {
    Round r(rules, 2, sim_round_seed(9, static_cast<std::uint64_t>(g)));
    SplitMix64 rng{static_cast<std::uint64_t>(g) + 21};
    while (!r.over()) {
      SplitMix64 unused{0};
      const Move v2 = bot_move(r, BotLevel::kStandardV2, unused);
      if (r.turn() == 0) trusted_heads_up += !same_move(master_move(r, rng, trusting), v2);
      r.apply_legal(v2.seat, v2.is_pass ? nullptr : &v2.combo);
    }
  }
  CHECK(trusted_heads_up > 0);
  // A timed search answers too (how long it takes is not checked here: the machine may be busy).
  SearchBudget timed;
  timed.time_ms = 2;
  Round r(rules, 4, sim_round_seed(6, 0));
  SplitMix64 rng{3};
  const Move m = bot_move(r, BotLevel::kMaster, rng, timed);
  CHECK(!m.is_pass && (m.combo.mask() >> r.must_contain() & 1));
}

// A round restarted from its dealt hands (at_start) and replayed from its history is the
// round again; and mismatches(), given the seats' real hands, counts exactly the other
// seats' moves that standard-v2 would have made differently, counted as the round went.
void test_inference(const GameRules& rules, int players) {
  for (int g = 0; g < (short_run() ? 3 : 12); ++g) {
    Round r(rules, players, sim_round_seed(21, static_cast<std::uint64_t>(g)));
    SplitMix64 rng{static_cast<std::uint64_t>(g) + 7};
    std::array<int, kMaxPlayers> differed{};  // per seat: the others' moves unlike v2's
    while (!r.over()) {
      const int turn = r.turn();
      const BotLevel level = turn % 2 ? BotLevel::kRandom : BotLevel::kStandardV2;
      SplitMix64 unused{0};
      const Move v2 = bot_move(r, BotLevel::kStandardV2, unused);
      const Move m = bot_move(r, level, rng);
      const bool same = same_move(v2, m);
      for (int s = 0; s < players; ++s)
        if (s != turn && !same) ++differed[static_cast<std::size_t>(s)];
      r.apply_legal(m.seat, m.is_pass ? nullptr : &m.combo);
      std::array<CardMask, kMaxPlayers> now{}, dealt{};
      for (int s = 0; s < players; ++s) {
        now[static_cast<std::size_t>(s)] = r.hand(s);
        dealt[static_cast<std::size_t>(s)] = r.hand(s) | r.played_by(s);
      }
      Round replay = r.at_start(dealt);
      CHECK(replay.history().empty() && replay.played() == 0 && !replay.over());
      for (const Move& h : r.history()) replay.apply_legal(h.seat, h.is_pass ? nullptr : &h.combo);
      CHECK_EQ(replay.turn(), r.turn());
      CHECK_EQ(replay.played(), r.played());
      CHECK_EQ(replay.passed_mask(), r.passed_mask());
      CHECK(replay.twos_demoted() == r.twos_demoted());
      CHECK((replay.table() == nullptr) == (r.table() == nullptr));
      if (r.table() && replay.table()) CHECK_EQ(replay.table()->mask(), r.table()->mask());
      for (int s = 0; s < players; ++s) CHECK_EQ(replay.hand(s), r.hand(s));
      if (r.over()) {
        CHECK(replay.scores() == r.scores());
        break;
      }
      for (int s = 0; s < players; ++s) CHECK_EQ(mismatches(r, s, now), differed[static_cast<std::size_t>(s)]);
    }
  }
}

// Duplicate deals: every rotation of a deal is a whole round, so each deal's points sum to
// zero; identical deterministic bots in every seat play the same round four times over,
// so each lineup entry ends a deal with that round's total, zero.
void test_duplicate() {
  GameRules rules;
  const int deals = short_run() ? 20 : 200;
  std::vector<int> points(static_cast<std::size_t>(deals) * 4);
  simulate_duplicate(rules, 4, {BotLevel::kStandard, BotLevel::kBeginner, BotLevel::kStandardV1, BotLevel::kRandom},
                     9, 0, deals, points.data());
  long beginner = 0, standard = 0;
  for (int d = 0; d < deals; ++d) {
    int sum = 0;
    for (int i = 0; i < 4; ++i) sum += points[static_cast<std::size_t>(d * 4 + i)];
    CHECK_EQ(sum, 0);
    standard += points[static_cast<std::size_t>(d * 4)];
    beginner += points[static_cast<std::size_t>(d * 4 + 1)];
  }
  CHECK(standard > beginner);  // over the same cards, the standard bot outscores the beginner
  simulate_duplicate(rules, 4, std::vector<BotLevel>(4, BotLevel::kStandard), 9, 0, deals, points.data());
  for (const int p : points) CHECK_EQ(p, 0);
  // The same deals give the same points however they are split into calls.
  std::vector<int> whole(40), parts(40);
  simulate_duplicate(rules, 4, {BotLevel::kRandom, BotLevel::kStandard, BotLevel::kRandom, BotLevel::kBeginner}, 4, 0, 10, whole.data());
  simulate_duplicate(rules, 4, {BotLevel::kRandom, BotLevel::kStandard, BotLevel::kRandom, BotLevel::kBeginner}, 4, 0, 4, parts.data());
  simulate_duplicate(rules, 4, {BotLevel::kRandom, BotLevel::kStandard, BotLevel::kRandom, BotLevel::kBeginner}, 4, 4, 6, parts.data() + 16);
  CHECK(whole == parts);
}

}  // namespace

// Round(other, rules): a copy that reads its own rules object (the Python binding keeps
// the rules beside the round and copies both) and plays on exactly as the original.
void test_copy_with_own_rules() {
  for (const GameRules& base : rule_sets()) {
    Round r(base, 4, sim_round_seed(3, 1));
    SplitMix64 rng{9};
    for (int k = 0; k < 11 && !r.over(); ++k) {
      const Move m = bot_move(r, BotLevel::kRandom, rng);
      r.apply_legal(m.seat, m.is_pass ? nullptr : &m.combo);
    }
    auto own = std::make_unique<GameRules>(base);
    Round copy(r, *own);
    CHECK(&copy.rules() == own.get());
    SplitMix64 rng2 = rng;
    while (!r.over()) {
      const Move a = bot_move(r, BotLevel::kStandard, rng);
      const Move b = bot_move(copy, BotLevel::kStandard, rng2);
      CHECK(a.seat == b.seat && a.is_pass == b.is_pass);
      r.apply_legal(a.seat, a.is_pass ? nullptr : &a.combo);
      copy.apply_legal(b.seat, b.is_pass ? nullptr : &b.combo);
      CHECK(r.hand(a.seat) == copy.hand(a.seat));
    }
    CHECK(copy.over() && copy.scores() == r.scores());
  }
}

CardMask mask_of(const char* text) {
  CardMask m = 0;
  for (const int c : parse_cards(text)) m |= CardMask{1} << c;
  return m;
}

void play(Round& r, int seat, const char* text) {
  const std::vector<int> cards = parse_cards(text);
  Verdict v;
  const RoundCode code = r.apply(seat, cards.data(), static_cast<int>(cards.size()), false, &v);
  CHECK(code == RoundCode::kOk);
}

void pass(Round& r, int seat) {
  Verdict v;
  CHECK(r.apply(seat, nullptr, 0, true, &v) == RoundCode::kOk);
}

// bomb_ends (seed 002): a player going out with a bomb ends a last-standing round for the
// seats still holding cards, scored and placed by the cards they hold then.
void test_bomb_ends() {
  GameRules rules;
  rules.rules.bombs = true;
  rules.last_standing = true;
  rules.bomb_ends = true;
  rules.dragon = false;
  // The first out goes out with a bomb: the scores are those of any first out.
  {
    Round r(rules, 4, 1, 0);
    r = r.with_hands({mask_of("7d 7c 7h 7s 3d"), mask_of("3c 4c 5c 6c 8c 9c Tc Jc Qc Kc"),
                      mask_of("3h 4h 5h 6h 8h 9h Th Jh"), mask_of("3s 4s 5s 6s 8s 9s Ts Js Qs Ks")});
    play(r, 0, "7d 7c 7h 7s 3d");
    CHECK(r.over());
    CHECK_EQ(r.winner(), 0);
    CHECK((r.finishing_order() == std::vector<int>{0, 2, 1, 3}));  // 8 < 10 = 10, 1 before 3
    CHECK((r.cards_left() == std::array<int, kMaxPlayers>{0, 10, 8, 10}));
    CHECK((r.scores() == std::vector<int>{48, -20, -8, -20}));
    CHECK((r.places() == std::vector<int>{0, 2, 1, 3}));
  }
  // A later player goes out with a bomb: the seats still holding cards are scored by what
  // they hold then (fewer than when seat 0 went out), the bomber by what it held when
  // seat 0 went out; they are placed by those cards (3 with 9 before 2 with 10).
  {
    Round r(rules, 4, 1, 0);
    r = r.with_hands({mask_of("2s"), mask_of("3c 7d 7c 7h 7s 8d"),
                      mask_of("4c 9c Tc Jc Qc Kc 9h Th Jh Qh Kh"),
                      mask_of("5c 6c 9s Ts Js Qs Ks 3s 4s 5s 6s")});
    play(r, 0, "2s");
    CHECK(!r.over());
    CHECK((r.cards_left() == std::array<int, kMaxPlayers>{0, 6, 11, 11}));
    pass(r, 1);
    pass(r, 2);
    pass(r, 3);
    CHECK_EQ(r.turn(), 1);  // the lead passes to the next holder
    play(r, 1, "3c");
    play(r, 2, "4c");
    play(r, 3, "5c");
    pass(r, 1);
    pass(r, 2);
    CHECK_EQ(r.turn(), 3);
    play(r, 3, "6c");
    CHECK(!r.over());
    play(r, 1, "7d 7c 7h 7s 8d");  // a bomb on a single, and seat 1 is out
    CHECK(r.over());
    CHECK((r.cards_left() == std::array<int, kMaxPlayers>{0, 6, 10, 9}));
    CHECK((r.finishing_order() == std::vector<int>{0, 1, 3, 2}));
    CHECK((r.places() == std::vector<int>{0, 1, 3, 2}));
    CHECK((r.scores() == std::vector<int>{35, -6, -20, -9}));
  }
  // Without bomb_ends the same bomb only adds to the finishing order.
  {
    GameRules plain = rules;
    plain.bomb_ends = false;
    Round r(plain, 4, 1, 0);
    r = r.with_hands({mask_of("7d 7c 7h 7s 3d"), mask_of("3c 4c"), mask_of("3h"), mask_of("3s 4s")});
    play(r, 0, "7d 7c 7h 7s 3d");
    CHECK(!r.over());
  }
  // Bots, who go out with a bomb when they can: every round ends properly, and a round
  // ends on a bomb that empties a hand, and only then with more than one seat holding.
  SplitMix64 rng{17};
  int bomb_endings = 0;
  for (int g = 0; g < (short_run() ? 300 : 3000); ++g) {
    Round r(rules, 4, sim_round_seed(41, static_cast<std::uint64_t>(g)));
    Move last;
    while (!r.over()) {
      last = bot_move(r, g % 2 ? BotLevel::kStandardV2 : BotLevel::kBeginner, rng);
      // Go out with a bomb whenever the hand is one and may be played.
      const CardMask hand = r.hand(r.turn());
      r.for_each_legal([&](const Combo& c) {
        if (c.is_bomb() && c.mask() == hand) last = Move{r.turn(), false, c};
      });
      r.apply_legal(last.seat, last.is_pass ? nullptr : &last.combo);
      if (!last.is_pass && last.combo.is_bomb() && r.count(last.seat) == 0) CHECK(r.over());
    }
    int holders = 0;
    for (int s = 0; s < 4; ++s) holders += r.count(s) > 0;
    if (holders > 1) ++bomb_endings;
    CHECK((holders == 1) || (!last.is_pass && last.combo.is_bomb()));
    CHECK_EQ(r.finishing_order().size(), 4u);
  }
  std::printf("bomb endings: %d\n", bomb_endings);
  CHECK(bomb_endings > 0);
}

// exchange: ranked (seed 002): places, the highest cards moving up, the give-backs, and
// the first lead after them.
void test_exchange() {
  GameRules rules;
  rules.exchange = true;
  rules.dragon = false;
  // Places under first-out: by cards left, ties in turn order from the winner.
  {
    Round r(rules, 4, 1, 0);
    r = r.with_hands({mask_of("3d"), mask_of("3c 4c 5c"), mask_of("4d 5d"), mask_of("3h 4h 5h")});
    play(r, 0, "3d");
    CHECK(r.over());
    CHECK((r.places() == std::vector<int>{0, 2, 1, 3}));
    // Ties wrap round the table from the winner: 3 (two cards) before 0 (two cards).
    Round r2(rules, 4, 1, 2);
    r2 = r2.with_hands({mask_of("3c 4c"), mask_of("4d 5d 6d"), mask_of("3d"), mask_of("3h 4h")});
    play(r2, 2, "3d");
    CHECK((r2.places() == std::vector<int>{2, 3, 0, 1}));
  }
  for (int players = 2; players <= 4; ++players) {
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
      Round r(rules, players, sim_round_seed(5, seed));
      std::array<CardMask, kMaxPlayers> before{};
      for (int s = 0; s < players; ++s) before[static_cast<std::size_t>(s)] = r.hand(s);
      std::vector<int> places;
      for (int i = 0; i < players; ++i) places.push_back((static_cast<int>(seed) + i) % players);
      if (players == 4 && seed % 2) places = {2, 0, 3, 1};
      r.begin_exchange(places);
      CHECK(r.exchanging() && !r.over());
      CHECK_EQ(r.turn(), -1);
      const std::size_t pairs = players == 4 ? 2u : 1u;
      CHECK_EQ(r.exchanges().size(), pairs);
      for (std::size_t k = 0; k < r.exchanges().size(); ++k) {
        const Exchange& x = r.exchanges()[k];
        CHECK_EQ(x.giver, places[static_cast<std::size_t>(players - 1 - static_cast<int>(k))]);
        CHECK_EQ(x.receiver, places[k]);
        // The giver's highest card in Big Two order.
        const CardMask dealt = before[static_cast<std::size_t>(x.giver)];
        for (CardMask h = dealt; h; h &= h - 1)
          CHECK(single_order(__builtin_ctzll(h), rules.rules) <= single_order(x.card, rules.rules));
        CHECK(dealt >> x.card & 1);
        CHECK(r.hand(x.receiver) >> x.card & 1);
        CHECK_EQ(r.count(x.giver), 12);
        CHECK_EQ(r.count(x.receiver), 14);
        CHECK(r.owes(x.receiver) && !r.owes(x.giver));
      }
      // No move while the exchange is open; refusals change nothing.
      Verdict v;
      const int any = __builtin_ctzll(r.hand(0));
      CHECK(r.apply(0, &any, 1, false, &v) == RoundCode::kNotYourTurn);
      const Exchange first = r.exchanges()[0];
      CHECK(r.give_back(first.giver, __builtin_ctzll(r.hand(first.giver))) == ExchangeCode::kClosed);
      CHECK(r.give_back(first.receiver, __builtin_ctzll(r.hand(first.giver))) == ExchangeCode::kNotInHand);
      CHECK(r.give_back(first.receiver, 52) == ExchangeCode::kNotInHand);
      CHECK(r.give_back(first.receiver, -1) == ExchangeCode::kNotInHand);
      CHECK_EQ(r.count(first.receiver), 14);
      // The receivers give back: the card received itself for the first pair.
      SplitMix64 rng{seed};
      for (std::size_t k = 0; k < pairs; ++k) {
        const Exchange x = r.exchanges()[k];
        const int back = k == 0 ? x.card : bot_give_back(r, x.receiver, BotLevel::kStandard, rng);
        CHECK(r.exchanging());
        CHECK(r.give_back(x.receiver, back) == ExchangeCode::kOk);
        CHECK(r.give_back(x.receiver, back) == ExchangeCode::kClosed);
        CHECK_EQ(r.exchanges()[k].back, back);
        CHECK(r.hand(x.giver) >> back & 1);
      }
      CHECK(!r.exchanging() && !r.over());
      CardMask all = 0;
      for (int s = 0; s < players; ++s) {
        CHECK_EQ(r.count(s), 13);
        all |= r.hand(s);
      }
      CHECK_EQ(__builtin_popcountll(all), 13 * players);
      // The holder of the lowest dealt card (which may have moved) opens with it.
      CHECK(r.first_play());
      CHECK(r.hand(r.turn()) >> r.must_contain() & 1);
      SplitMix64 dice{seed};
      while (!r.over()) {
        const Move m = bot_move(r, BotLevel::kStandard, dice);
        r.apply_legal(m.seat, m.is_pass ? nullptr : &m.combo);
      }
      CHECK_EQ(r.places().size(), static_cast<std::size_t>(players));
      CHECK_EQ(r.places()[0], r.winner());
    }
  }
  // Under previous-winner the previous winner still opens, freely, after the exchange.
  {
    GameRules pw = rules;
    pw.previous_winner = true;
    Round r(pw, 3, 77, 2);
    r.begin_exchange({2, 0, 1});
    CHECK_EQ(r.turn(), -1);
    CHECK(r.give_back(2, __builtin_ctzll(r.hand(2))) == ExchangeCode::kOk);
    CHECK_EQ(r.turn(), 2);
    CHECK(!r.first_play());
  }
  // Bot give-backs: always a card of the hand; random varies, beginner gives its lowest.
  {
    Round r(rules, 4, sim_round_seed(6, 1));
    r.begin_exchange({0, 1, 2, 3});
    SplitMix64 rng{3};
    for (BotLevel level : {BotLevel::kRandom, BotLevel::kBeginner, BotLevel::kStandard,
                           BotLevel::kExpert, BotLevel::kStandardV1, BotLevel::kMaster,
                           BotLevel::kStandardV2}) {
      const int c = bot_give_back(r, 0, level, rng);
      CHECK(r.hand(0) >> c & 1);
    }
    CHECK_EQ(bot_give_back(r, 0, BotLevel::kBeginner, rng), lowest_card(r.hand(0), rules.rules));
    bots_give_back(r, std::vector<BotLevel>(4, BotLevel::kStandard), rng);
    CHECK(!r.exchanging() && !r.over());
  }
  // The simulator's matches: scores sum to zero with and without the exchange, and the
  // exchange changes the rounds after the first.
  {
    const std::vector<BotLevel> levels(4, BotLevel::kStandard);
    std::vector<int> with(4 * 20), without(4 * 20), w1(20), w2(20);
    GameRules off = rules;
    off.exchange = false;
    simulate(rules, 4, levels, 9, 0, 20, with.data(), w1.data());
    simulate(off, 4, levels, 9, 0, 20, without.data(), w2.data());
    for (int g = 0; g < 20; ++g) {
      int sum = 0;
      for (int p = 0; p < 4; ++p) sum += with[static_cast<std::size_t>(g * 4 + p)];
      CHECK_EQ(sum, 0);
    }
    CHECK(std::equal(with.begin(), with.begin() + 4, without.begin()));  // round 1: no exchange
    CHECK(!std::equal(with.begin(), with.end(), without.begin()));
  }
}

int main() {
  test_deal();
  test_copy_with_own_rules();
  const int rounds = short_run() ? 40 : 300;
  for (const GameRules& rules : rule_sets())
    for (int players = 2; players <= 4; ++players)
      for (BotLevel level : {BotLevel::kRandom, BotLevel::kBeginner, BotLevel::kStandard,
                             BotLevel::kExpert, BotLevel::kStandardV1})
        test_rounds(rules, players, level, level == BotLevel::kExpert ? rounds / 40 : rounds);
  test_clearing_and_inheritance();
  test_refuses_bad_ids();
  for (const GameRules& rules : rule_sets())
    for (int players = 2; players <= 4; ++players) test_inference(rules, players);
  test_master();
  test_duplicate();
  test_bomb_ends();
  test_exchange();
  return capsa_fast::testing::finish("test_banting_game");
}
