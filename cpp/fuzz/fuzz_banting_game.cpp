// Fuzz target: a Capsa Banting round (banting_game.hpp) driven move by move by the input.
//
// The input gives the rules (every field of GameRules), the table size, the deal's seed and
// the opener, then one instruction per move: a legal play or pass chosen by index, a bot's
// move (random, beginner, standard; expert at most once per input, as it plays hundreds of
// rollouts), an arbitrary set of cards (sometimes with repeats or ids outside the deck) or
// a pass from the seat to move or another seat, or a copy through with_hands(). Each move
// goes through check() first, then apply() or apply_legal(). When the input runs out, bots
// finish the round. Checked throughout:
//   - the deal is the seed's shuffled deck, 13 cards a seat, or a dragon ends it at once;
//   - check() and apply() agree, and a move is accepted exactly when it is a legal play
//     (or a pass with a table); bots only make accepted moves;
//   - a refused move changes nothing; an accepted one moves exactly its cards from the
//     hand to the played pile, so every dealt card is in one hand or played;
//   - the seat to move holds cards and always has a move; for_each_legal agrees with
//     count_legal_plays on the same position;
//   - the round ends within a bounded number of moves, with one winner holding no cards,
//     a finishing order, and scores that are score(cards_left, tiers) and sum to zero;
//   - a hint is an accepted move, never a pass while a play exists (seed 003);
//   - two_demotion: each four of a kind played flips twos_demoted, nothing else does;
//   - bomb_ends: a round a bomb ended has the seats still holding last in the finishing
//     order, by their cards, each scored by them;
//   - in a quarter of the inputs, simulate() plays a few rounds of bots (with the card
//     exchange between them under exchange): zero-sum scores, winners in the table, and
//     the same results when called again.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "banting_input.hpp"
#include "capsa_fast/banting_game.hpp"
#include "fuzz_input.hpp"

using namespace capsa_fast;
using namespace capsa_fast::banting;
using capsa_fast::fuzz::Input;

namespace {

// Everything a refused move must leave alone.
struct Snapshot {
  int turn, leader, table_seat, winner;
  unsigned passed;
  bool first_play, has_table, dragon, twos_demoted;
  Combo table;
  std::array<CardMask, kMaxPlayers> hands{};
  CardMask played;
  std::size_t moves;
  std::vector<int> finishing;
  explicit Snapshot(const Round& r)
      : turn(r.turn()), leader(r.leader()), table_seat(r.table_seat()), winner(r.winner()),
        passed(r.passed_mask()), first_play(r.first_play()), has_table(r.table() != nullptr),
        dragon(r.dragon()), twos_demoted(r.twos_demoted()),
        table(r.table() ? *r.table() : Combo{}), played(r.played()),
        moves(r.history().size()), finishing(r.finishing_order()) {
    for (int s = 0; s < r.players(); ++s) hands[static_cast<std::size_t>(s)] = r.hand(s);
  }
  bool operator==(const Snapshot& o) const {
    return turn == o.turn && leader == o.leader && table_seat == o.table_seat &&
           winner == o.winner && passed == o.passed && first_play == o.first_play &&
           has_table == o.has_table && dragon == o.dragon && twos_demoted == o.twos_demoted &&
           table.kind == o.table.kind &&
           table.size == o.table.size && table.cards == o.table.cards &&
           table.strength == o.table.strength && hands == o.hands && played == o.played &&
           moves == o.moves && finishing == o.finishing;
  }
};

bool all_ranks(CardMask h) {
  std::uint16_t ranks = 0;
  for (; h; h &= h - 1) ranks = static_cast<std::uint16_t>(ranks | 1u << rank_of(__builtin_ctzll(h)));
  return ranks == (1u << kNumRanks) - 1;
}

// The single order (0..51) of the highest card of a hand.
int top_card(CardMask h, const Rules& rules) {
  int top = -1;
  for (; h; h &= h - 1) top = std::max(top, single_order(__builtin_ctzll(h), rules));
  return top;
}

std::vector<int> cards_of(const Combo& c) {
  std::vector<int> out;
  for (std::size_t i = 0; i < c.size; ++i) out.push_back(c.cards[i]);
  return out;
}

class Driver {
 public:
  Driver(const GameRules& rules, int players, std::uint64_t seed, int opener, bool record)
      : rules_(rules), r_(rules, players, seed, opener, record), record_(record) {
    const auto deck = shuffled_deck(seed);
    for (int s = 0; s < players; ++s) {
      CardMask h = 0;
      for (int i = 0; i < kHandSize; ++i) h |= CardMask{1} << deck[static_cast<std::size_t>(s * kHandSize + i)];
      FUZZ_CHECK(r_.hand(s) == h);
      FUZZ_CHECK(r_.count(s) == kHandSize);
      FUZZ_CHECK((dealt_ & h) == 0);
      dealt_ |= h;
    }
    // A hand holding all 13 ranks ends the round at once when the rules count dragons; of
    // two such hands, the one with the higher top card wins.
    int best_dragon = -1;
    for (int s = 0; s < players; ++s) {
      if (!all_ranks(r_.hand(s))) continue;
      const int top = top_card(r_.hand(s), rules.rules);
      if (best_dragon < 0 || top > best_dragon) best_dragon = top;
    }
    FUZZ_CHECK(r_.dragon() == (rules.dragon && best_dragon >= 0));
    if (r_.dragon()) {
      FUZZ_CHECK(r_.over() && all_ranks(r_.hand(r_.winner())));
      FUZZ_CHECK(top_card(r_.hand(r_.winner()), rules.rules) == best_dragon);
    } else if (opener >= 0 && opener < players) {
      FUZZ_CHECK(r_.turn() == opener && !r_.first_play() && r_.must_contain() == -1);
    } else {
      const int lowest = lowest_card(dealt_, rules.rules);
      FUZZ_CHECK(r_.first_play() && r_.must_contain() == lowest);
      FUZZ_CHECK(r_.hand(r_.turn()) >> lowest & 1);
    }
    check_position();
  }

  const Round& round() const { return r_; }

  // Makes a move through apply(), after check() has judged it the same way; a refusal must
  // leave the round as it was, an acceptance must be a legal play (or a pass with a table).
  RoundCode attempt(int seat, const std::vector<int>& cards, bool is_pass) {
    const Snapshot before(r_);
    const int n = static_cast<int>(cards.size());
    Verdict checked;
    const RoundCode judged = r_.check(seat, cards.data(), n, is_pass, &checked);
    FUZZ_CHECK(Snapshot(r_) == before);
    const bool legal_play = !is_pass && seat == r_.turn() && is_legal(cards);
    const bool legal_pass = is_pass && seat == r_.turn() && r_.can_pass();
    FUZZ_CHECK((judged == RoundCode::kOk) == (legal_play || legal_pass));
    if (r_.over()) FUZZ_CHECK(judged == RoundCode::kRoundOver);
    else if (seat != r_.turn()) FUZZ_CHECK(judged == RoundCode::kNotYourTurn);
    Verdict v;
    const RoundCode code = r_.apply(seat, cards.data(), n, is_pass, &v);
    FUZZ_CHECK(code == judged);
    if (code == RoundCode::kRules || code == RoundCode::kOk) FUZZ_CHECK(v.code == checked.code);
    if (code != RoundCode::kOk) {
      FUZZ_CHECK(Snapshot(r_) == before);
    } else {
      accepted(before, seat, is_pass ? 0 : v.combo.mask());
    }
    return code;
  }

  // A move known to be legal, through apply_legal().
  void apply_legal(const Move& m) {
    FUZZ_CHECK(m.seat == r_.turn());
    const Snapshot before(r_);
    r_.apply_legal(m.seat, m.is_pass ? nullptr : &m.combo);
    accepted(before, m.seat, m.is_pass ? 0 : m.combo.mask());
  }

  // A bot's move must be one check() accepts.
  Move bot(BotLevel level, SplitMix64& rng) {
    const Snapshot before(r_);
    const Move m = bot_move(r_, level, rng);
    FUZZ_CHECK(Snapshot(r_) == before);
    FUZZ_CHECK(m.seat == r_.turn());
    const std::vector<int> cs = m.is_pass ? std::vector<int>{} : cards_of(m.combo);
    Verdict v;
    FUZZ_CHECK(r_.check(m.seat, cs.data(), static_cast<int>(cs.size()), m.is_pass, &v) == RoundCode::kOk);
    if (!m.is_pass) FUZZ_CHECK(v.combo.mask() == m.combo.mask() && v.combo.strength == m.combo.strength);
    // The hint of the same level (standard for expert, whose rollouts are costly) is an
    // accepted move that is never a pass while a play exists, and changes nothing.
    SplitMix64 scratch = rng;
    const Hint h = hint_move(r_, level == BotLevel::kExpert ? BotLevel::kStandard : level, scratch);
    FUZZ_CHECK(Snapshot(r_) == before);
    const std::vector<int> hs = h.move.is_pass ? std::vector<int>{} : cards_of(h.move.combo);
    FUZZ_CHECK(r_.check(h.move.seat, hs.data(), static_cast<int>(hs.size()), h.move.is_pass, &v) == RoundCode::kOk);
    FUZZ_CHECK(h.move.is_pass == legal().empty());
    if (level == BotLevel::kStandard || level == BotLevel::kBeginner) {  // deterministic bots
      FUZZ_CHECK(h.pass_reasonable == (m.is_pass && !legal().empty()));
      if (!h.pass_reasonable) FUZZ_CHECK(h.move.is_pass == m.is_pass && h.move.combo.mask() == m.combo.mask());
    }
    return m;
  }

  std::vector<Combo> legal() const {
    std::vector<Combo> out;
    r_.for_each_legal([&](const Combo& c) { out.push_back(c); });
    return out;
  }

  // The round's end: a winner, zero-sum scores from cards_left.
  void check_end() const {
    FUZZ_CHECK(r_.over() && r_.turn() == -1);
    const int players = r_.players();
    const int w = r_.winner();
    FUZZ_CHECK(w >= 0 && w < players);
    const auto& left = r_.cards_left();
    int zeros = 0;
    std::vector<int> counts;
    for (int s = 0; s < players; ++s) {
      const int c = left[static_cast<std::size_t>(s)];
      FUZZ_CHECK(c >= 0 && c <= kHandSize);
      zeros += c == 0;
      counts.push_back(c);
    }
    FUZZ_CHECK(zeros == 1 && left[static_cast<std::size_t>(w)] == 0);
    const std::vector<int>& order = r_.finishing_order();
    FUZZ_CHECK(!order.empty() && order[0] == w);
    if (r_.dragon()) {
      FUZZ_CHECK(order.size() == 1);
      for (int s = 0; s < players; ++s) if (s != w) FUZZ_CHECK(left[static_cast<std::size_t>(s)] == kHandSize);
    } else if (rules_.last_standing) {
      std::vector<int> sorted = order;
      std::sort(sorted.begin(), sorted.end());
      for (int s = 0; s < players; ++s) FUZZ_CHECK(sorted.size() == static_cast<std::size_t>(players) && sorted[static_cast<std::size_t>(s)] == s);
      // Everyone but the last holds nothing; under bomb_ends, a bomb may have stopped the
      // seats still holding, who come last, each scored by the cards it holds.
      std::size_t out = 0;
      while (out < order.size() && r_.hand(order[out]) == 0) ++out;
      for (std::size_t i = out; i < order.size(); ++i) {
        FUZZ_CHECK(r_.hand(order[i]) != 0);
        if (i > out) FUZZ_CHECK(r_.count(order[i - 1]) <= r_.count(order[i]));
        if (order.size() - out > 1) FUZZ_CHECK(left[static_cast<std::size_t>(order[i])] == r_.count(order[i]));
      }
      FUZZ_CHECK(out + 1 == order.size() || (rules_.bomb_ends && out + 1 < order.size()));
    } else {
      FUZZ_CHECK(order.size() == 1);
      for (int s = 0; s < players; ++s) FUZZ_CHECK(left[static_cast<std::size_t>(s)] == r_.count(s));
    }
    const std::vector<int> scores = r_.scores();
    FUZZ_CHECK(scores == score(counts, rules_.tiers));
    long long total = 0;
    for (const int p : scores) total += p;
    FUZZ_CHECK(total == 0);
    if (record_) FUZZ_CHECK(r_.history().size() == moves_);
  }

 private:
  // Whether the cards are one of the legal plays: distinct ids, the same set.
  bool is_legal(const std::vector<int>& cards) const {
    if (r_.over() || cards.empty()) return false;
    CardMask m = 0;
    for (const int c : cards) {
      if (c < 0 || c >= kDeckSize || (m >> c & 1)) return false;
      m |= CardMask{1} << c;
    }
    bool found = false;
    r_.for_each_legal([&](const Combo& c) { found = found || c.mask() == m; });
    return found;
  }

  void accepted(const Snapshot& before, int seat, CardMask play) {
    ++moves_;
    // two_demotion: every four of a kind played flips the 2s' demotion, nothing else does.
    const bool four = play && r_.table() && r_.table()->kind == Kind::kFourOfAKind &&
                      r_.table()->mask() == play;
    const bool flips = four && rules_.rules.two_demotion;
    FUZZ_CHECK(r_.twos_demoted() == (before.twos_demoted != flips));
    FUZZ_CHECK(rules_.rules.two_demotion || !r_.twos_demoted());
    const auto s = static_cast<std::size_t>(seat);
    FUZZ_CHECK((before.hands[s] & play) == play);
    for (int o = 0; o < r_.players(); ++o) {
      const auto i = static_cast<std::size_t>(o);
      FUZZ_CHECK(r_.hand(o) == (o == seat ? before.hands[i] & ~play : before.hands[i]));
    }
    FUZZ_CHECK(r_.played() == (before.played | play));
    if (record_) {
      FUZZ_CHECK(r_.history().size() == before.moves + 1);
      const Move& last = r_.history().back();
      FUZZ_CHECK(last.seat == seat && last.is_pass == (play == 0));
      if (play) FUZZ_CHECK(last.combo.mask() == play);
    } else {
      FUZZ_CHECK(r_.history().empty());
    }
    if (play) {
      FUZZ_CHECK(!r_.first_play());
      FUZZ_CHECK(r_.table() && r_.table()->mask() == play && r_.table_seat() == seat);
    }
    check_position();
  }

  // Invariants of any position.
  void check_position() const {
    CardMask all = r_.played();
    for (int s = 0; s < r_.players(); ++s) {
      FUZZ_CHECK((all & r_.hand(s)) == 0);
      all |= r_.hand(s);
    }
    FUZZ_CHECK(all == dealt_);
    if (r_.over()) return;
    const int t = r_.turn();
    FUZZ_CHECK(t >= 0 && t < r_.players() && r_.hand(t) != 0);
    const Combo* table = r_.table();
    if (table) {
      FUZZ_CHECK(table->kind != Kind::kNone);
      FUZZ_CHECK(r_.table_seat() >= 0 && r_.table_seat() < r_.players());
      FUZZ_CHECK((table->mask() & ~r_.played()) == 0);
    } else {
      FUZZ_CHECK(r_.passed_mask() == 0 && r_.table_seat() == -1);
    }
    int seen = 0;
    const int n = r_.for_each_legal([&](const Combo&) { ++seen; });
    FUZZ_CHECK(n == seen);
    // The stateless count under the round's rules and its demotion state agrees.
    Rules now = rules_.rules;
    now.twos_demoted = r_.twos_demoted();
    FUZZ_CHECK(n == count_legal_plays(r_.hand(t), table, now, r_.must_contain(), r_.has_passed(t)));
    FUZZ_CHECK(n > 0 || r_.can_pass());  // the seat to move always has a move
  }

  const GameRules& rules_;
  Round r_;
  bool record_;
  CardMask dealt_ = 0;
  std::size_t moves_ = 0;
};

// simulate(): every round zero-sum with a winner in the table, and the same call giving
// the same results (the seed decides everything). Levels below expert, which is slow.
void check_simulate(const GameRules& rules, int players, std::uint64_t seed) {
  std::vector<BotLevel> levels;
  for (int s = 0; s < players; ++s) levels.push_back(static_cast<BotLevel>((seed >> (8 * s)) % 3));
  const int count = 1 + static_cast<int>(seed >> 40) % 3;
  const std::uint64_t first = seed >> 50;
  std::vector<int> scores(static_cast<std::size_t>(count * players)), winners(static_cast<std::size_t>(count));
  simulate(rules, players, levels, seed, first, count, scores.data(), winners.data());
  for (int g = 0; g < count; ++g) {
    const int w = winners[static_cast<std::size_t>(g)];
    FUZZ_CHECK(w >= 0 && w < players);
    long long total = 0;
    for (int s = 0; s < players; ++s) total += scores[static_cast<std::size_t>(g * players + s)];
    FUZZ_CHECK(total == 0);
    FUZZ_CHECK(scores[static_cast<std::size_t>(g * players + w)] >= 0);
    FUZZ_CHECK(sim_round_seed(seed, first + static_cast<std::uint64_t>(g)) < (std::uint64_t{1} << 45));
  }
  std::vector<int> again_scores(scores.size()), again_winners(winners.size());
  simulate(rules, players, levels, seed, first, count, again_scores.data(), again_winners.data());
  FUZZ_CHECK(again_scores == scores && again_winners == winners);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  GameRules rules;
  rules.rules = fuzz::read_rules(in);
  rules.tiers = fuzz::read_tiers(in);
  const std::uint8_t f = in.byte();
  rules.dragon = !(f & 1);
  rules.last_standing = (f & 2) != 0;
  rules.previous_winner = (f & 4) != 0;
  rules.bomb_ends = rules.last_standing && (f & 0x40) != 0;
  rules.exchange = (f & 0x80) != 0;  // simulate() exchanges between its rounds
  const bool record = !(f & 8);
  bool expert_left = (f & 0x30) == 0x30;  // one expert move allowed in a quarter of inputs
  const int players = in.range(2, kMaxPlayers);
  const std::uint64_t seed = in.u64();
  // The opener, for previous-winner rounds; out of range means none.
  const int opener = rules.previous_winner ? in.range(-1, players) : -1;
  Driver d(rules, players, seed, opener, record);
  SplitMix64 rng{in.u64()};

  const int limit = 4 * kDeckSize * kMaxPlayers;  // far more moves than any round takes
  int steps = 0;
  while (!d.round().over()) {
    FUZZ_CHECK(++steps < limit);
    const Round& r = d.round();
    if (in.empty()) {  // the input is spent: bots finish the round
      d.apply_legal(d.bot(steps & 1 ? BotLevel::kStandard : BotLevel::kBeginner, rng));
      continue;
    }
    const std::uint8_t op = in.byte();
    switch (op & 7) {
      case 0:
      case 1: {  // a legal play or pass, by index
        const std::vector<Combo> legal = d.legal();
        const std::size_t options = legal.size() + (r.can_pass() ? 1 : 0);
        const std::size_t pick = in.u16() % options;
        const bool pass = pick == legal.size();
        const RoundCode code = d.attempt(r.turn(), pass ? std::vector<int>{} : cards_of(legal[pick]), pass);
        FUZZ_CHECK(code == RoundCode::kOk);
        break;
      }
      case 2:
      case 3: {  // a bot's move
        BotLevel level = static_cast<BotLevel>(in.byte() % 3);
        if (op == 0xFB && expert_left) {
          level = BotLevel::kExpert;
          expert_left = false;
        }
        const Move m = d.bot(level, rng);
        if (op & 0x80) {
          const RoundCode code = d.attempt(m.seat, m.is_pass ? std::vector<int>{} : cards_of(m.combo), m.is_pass);
          FUZZ_CHECK(code == RoundCode::kOk);
        } else {
          d.apply_legal(m);
        }
        break;
      }
      case 4:
      case 5: {  // arbitrary cards, mostly from the hand, maybe for another seat; with
                 // op & 0x40, repeats and ids outside the deck too
        const int seat = (op & 0x30) == 0x30 ? in.range(-1, r.players()) : r.turn();
        const bool raw = (op & 0x40) != 0;
        const std::vector<int> mine = fuzz::ids_of(r.hand(r.turn()));
        const int n = in.range(0, 6);
        std::vector<int> cards;
        CardMask used = 0;
        for (int i = 0; i < n; ++i) {
          const std::uint8_t b = in.byte();
          int c = b < 192 ? mine[in.byte() % mine.size()] : in.card();
          if (raw) {
            if (b >= 248) c = static_cast<int>(in.u32());
            else if (b >= 240) c = in.range(-8, 71);
          } else {
            while (used >> c & 1) c = (c + 1) % kDeckSize;
            used |= CardMask{1} << c;
          }
          cards.push_back(c);
        }
        d.attempt(seat, cards, false);
        break;
      }
      case 6: {  // a pass, from the seat to move or another
        const int seat = (op & 0x30) == 0x30 ? in.range(-1, r.players()) : r.turn();
        d.attempt(seat, {}, true);
        break;
      }
      default: {  // the same position with the same hands plays the same
        std::array<CardMask, kMaxPlayers> hands{};
        for (int s = 0; s < r.players(); ++s) hands[static_cast<std::size_t>(s)] = r.hand(s);
        const Round copy = r.with_hands(hands);
        FUZZ_CHECK(copy.turn() == r.turn() && copy.history().empty());
        FUZZ_CHECK(copy.must_contain() == r.must_contain() && copy.passed_mask() == r.passed_mask());
        int a = 0, b = 0;
        copy.for_each_legal([&](const Combo&) { ++a; });
        r.for_each_legal([&](const Combo&) { ++b; });
        FUZZ_CHECK(a == b);
        break;
      }
    }
  }
  d.check_end();
  // Once over, every move is refused and changes nothing.
  const Snapshot end(d.round());
  FUZZ_CHECK(d.attempt(0, {}, true) == RoundCode::kRoundOver);
  FUZZ_CHECK(Snapshot(d.round()) == end);

  // In one input in four, simulate() a few rounds of bots under the same rules.
  if ((f & 0xC0) == 0xC0) check_simulate(rules, players, seed);
  return 0;
}
