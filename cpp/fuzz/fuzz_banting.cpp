// Fuzz target: Capsa Banting combos, comparison, legal plays, validation and scoring
// (banting.hpp), under a rule set read from the input (every field, any allowed value).
//
// A hand (1..52 cards), maybe a table combo (one an opponent could lead, from cards not in
// the hand), a first-play or must-contain card and the passed flag are read from the input.
// The reference below is written from RULES.md 3 alone (combo kinds, the order within a
// kind, the precedence of refusal codes) and judges:
//   - classify on random card sets: kind, reason, sorted cards;
//   - compare/comparable/beats on pairs of combos: the reference order, antisymmetry, and
//     beats == comparable && compare > 0;
//   - validate on random plays (0..6 cards, in hand or not): the reference's code; with
//     ids outside the deck or a card named twice, kNotInHand;
//   - legal_plays / count_legal_plays / for_each_legal_play: the same count each way, no
//     duplicates, every play validates OK against the same table; for hands of up to 13
//     cards, exactly the subsets the reference accepts;
//   - score and tier_multiplier: the tier rule, and scores summing to zero.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "banting_input.hpp"
#include "capsa_fast/banting.hpp"
#include "fuzz_input.hpp"

using namespace capsa_fast;
using namespace capsa_fast::banting;
using capsa_fast::fuzz::Input;

namespace {

int sign(long long x) { return x > 0 ? 1 : (x < 0 ? -1 : 0); }

bool holds(CardMask m, int c) { return (m >> c & 1) != 0; }

CardMask mask_of(const int* cs, int n) {
  CardMask m = 0;
  for (int i = 0; i < n; ++i) m |= CardMask{1} << cs[i];
  return m;
}

// The highest of some cards in Big Two order.
int top_of(const int* cs, int n, const Rules& r) {
  int top = cs[0];
  for (int i = 1; i < n; ++i)
    if (single_order(cs[i], r) > single_order(top, r)) top = cs[i];
  return top;
}

// Start rank of the five-rank run these ranks form, or -1.
int run_of(std::uint16_t ranks) {
  for (int s = 0; s < 13; ++s) {
    std::uint16_t m = 0;
    for (int i = 0; i < 5; ++i) m = static_cast<std::uint16_t>(m | 1u << ((s + i) % 13));
    if (m == ranks) return s;
  }
  return -1;
}

int listed_position(int start, const Rules& r) {
  for (std::size_t i = 0; i < r.straights.size(); ++i)
    if (r.straights[i] == start) return static_cast<int>(i);
  return -1;
}

// The kind RULES.md 3.1 gives n distinct cards (n >= 0), and why not when it gives none.
Kind reference_kind(const int* cs, int n, const Rules& r, Code* why) {
  *why = Code::kOk;
  auto none = [&](Code c) {
    *why = c;
    return Kind::kNone;
  };
  if (n < 1) return none(Code::kNotACombo);
  if (n == 1) return Kind::kSingle;
  int count[13] = {};
  std::uint16_t ranks = 0;
  bool suited = true;
  for (int i = 0; i < n; ++i) {
    ++count[rank_of(cs[i])];
    ranks = static_cast<std::uint16_t>(ranks | 1u << rank_of(cs[i]));
    suited = suited && suit_of(cs[i]) == suit_of(cs[0]);
  }
  const int distinct = __builtin_popcount(ranks);
  if (n == 2) return distinct == 1 ? Kind::kPair : none(Code::kNotACombo);
  if (n == 3) {
    if (distinct != 1) return none(Code::kNotACombo);
    return r.triples ? Kind::kTriple : none(Code::kRuleForbids);
  }
  if (n != 5) return none(Code::kNotACombo);
  const int most = *std::max_element(count, count + 13);
  if (most == 4) return Kind::kFourOfAKind;
  if (most == 3 && distinct == 2) return Kind::kFullHouse;
  if (distinct != 5) return none(Code::kNotACombo);
  const int start = run_of(ranks);
  if (start >= 0 && listed_position(start, r) >= 0) return suited ? Kind::kStraightFlush : Kind::kStraight;
  if (suited) return r.flush_compare == FlushCompare::kNone ? none(Code::kRuleForbids) : Kind::kFlush;
  return none(start >= 0 ? Code::kRuleForbids : Code::kNotACombo);
}

bool reference_comparable(const Combo& a, const Combo& b, const Rules& r) {
  if (a.kind == Kind::kNone || b.kind == Kind::kNone) return false;
  if (a.size == b.size) return true;
  return r.bombs && ((a.is_bomb() && b.size <= 3) || (b.is_bomb() && a.size <= 3));
}

// The order within one kind, as a tuple compared lexicographically.
std::vector<int> order_key(const Combo& x, const Rules& r) {
  int cs[5] = {};
  for (int i = 0; i < x.size; ++i) cs[i] = x.cards[static_cast<std::size_t>(i)];
  const int n = x.size;
  const int top = top_of(cs, n, r);
  int count[13] = {};
  std::uint16_t ranks = 0;
  for (int i = 0; i < n; ++i) {
    ++count[rank_of(cs[i])];
    ranks = static_cast<std::uint16_t>(ranks | 1u << rank_of(cs[i]));
  }
  switch (x.kind) {
    case Kind::kSingle:  // rank (a demoted 2 below the 3s), then suit
      if (r.twos_demoted && rank_of(top) == 0) return {-1, single_order(top, r)};
      return {single_order(top, r) / 4, single_order(top, r)};
    case Kind::kPair:
    case Kind::kTriple:
      return {single_order(top, r)};  // rank, then the highest suit
    case Kind::kStraight:
    case Kind::kStraightFlush: {
      const int start = run_of(ranks);
      int decider = top;
      if (r.straight_tiebreak == StraightTiebreak::kSequenceTop) {
        for (int i = 0; i < n; ++i)
          if (rank_of(cs[i]) == (start + 4) % 13) decider = cs[i];
      }
      return {listed_position(start, r), r.suit_rank[static_cast<std::size_t>(suit_of(decider))]};
    }
    case Kind::kFlush: {
      std::vector<int> by_rank;
      for (int i = 0; i < n; ++i) by_rank.push_back(big_two_rank(cs[i]));
      std::sort(by_rank.rbegin(), by_rank.rend());
      const int suit = r.suit_rank[static_cast<std::size_t>(suit_of(cs[0]))];
      if (r.flush_compare == FlushCompare::kTopCard) return {by_rank[0], suit};
      if (r.flush_compare == FlushCompare::kSuitFirst) by_rank.insert(by_rank.begin(), suit);
      else by_rank.push_back(suit);
      return by_rank;
    }
    case Kind::kFullHouse:
    case Kind::kFourOfAKind:
      for (int rk = 0; rk < 13; ++rk)
        if (count[rk] >= 3) return {big_two_rank(rk * 4)};
      break;
    case Kind::kNone:
      break;
  }
  return {};
}

// compare() as RULES.md 3.1 states it. Contract: reference_comparable(a, b).
int reference_compare(const Combo& a, const Combo& b, const Rules& r) {
  if (a.size != b.size) return a.is_bomb() ? 1 : -1;
  if (a.kind != b.kind) return sign(static_cast<int>(a.kind) - static_cast<int>(b.kind));
  const std::vector<int> ka = order_key(a, r), kb = order_key(b, r);
  return ka < kb ? -1 : (kb < ka ? 1 : 0);
}

// validate() as API.md orders the codes.
Code reference_validate(CardMask hand, const int* play, int n, bool is_pass, const Combo* table,
                        const Rules& r, bool first_play, bool passed) {
  if (is_pass) return table ? Code::kOk : Code::kCannotPassWhenLeading;
  if (table && passed && r.pass_locks) return Code::kPassedThisTrick;
  for (int i = 0; i < n; ++i)
    if (!holds(hand, play[i])) return Code::kNotInHand;
  Code why = Code::kOk;
  const Kind kind = reference_kind(play, n, r, &why);
  const bool bomb = kind == Kind::kFourOfAKind || kind == Kind::kStraightFlush;
  if (table && n != table->size && !(r.bombs && table->size <= 3 && bomb)) return Code::kWrongCardCount;
  if (kind == Kind::kNone) return why;
  if (first_play && !holds(mask_of(play, n), lowest_card(hand, r))) return Code::kMustIncludeLowest;
  if (table) {
    Combo c;
    c.kind = kind;
    c.size = static_cast<std::uint8_t>(n);
    for (int i = 0; i < n; ++i) c.cards[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(play[i]);
    if (!(reference_comparable(c, *table, r) && reference_compare(c, *table, r) > 0)) return Code::kDoesNotBeat;
  }
  return Code::kOk;
}

// What classify() must give n distinct cards.
Combo checked_classify(const int* cs, int n, const Rules& r) {
  Code why = Code::kOk;
  const Combo c = classify(cs, n, r, &why);
  Code want_why = Code::kOk;
  const Kind want = reference_kind(cs, n, r, &want_why);
  FUZZ_CHECK(c.kind == want);
  FUZZ_CHECK(why == want_why);
  if (c.kind != Kind::kNone) {
    FUZZ_CHECK(c.size == n);
    FUZZ_CHECK(c.mask() == mask_of(cs, n));
    for (int i = 1; i < n; ++i)
      FUZZ_CHECK(single_order(c.cards[static_cast<std::size_t>(i - 1)], r) < single_order(c.cards[static_cast<std::size_t>(i)], r));
    FUZZ_CHECK(c.is_bomb() == (c.kind == Kind::kFourOfAKind || c.kind == Kind::kStraightFlush));
  }
  return c;
}

void check_pair(const Combo& a, const Combo& b, const Rules& r) {
  const bool cmp = comparable(a, b, r);
  FUZZ_CHECK(cmp == comparable(b, a, r));
  FUZZ_CHECK(cmp == reference_comparable(a, b, r));
  if (cmp) {
    const int ab = compare(a, b, r);
    FUZZ_CHECK(ab == -compare(b, a, r));
    FUZZ_CHECK(ab == reference_compare(a, b, r));
    FUZZ_CHECK(beats(a, b, r) == (ab > 0));
    FUZZ_CHECK(beats(b, a, r) == (ab < 0));
  } else {
    FUZZ_CHECK(!beats(a, b, r) && !beats(b, a, r));
  }
}

// Up to 6 distinct cards, mostly from the hand; with `raw`, any ids, repeats allowed.
std::vector<int> read_play(Input& in, const std::vector<int>& hand_ids, bool raw = false) {
  const int n = in.range(0, 6);
  std::vector<int> play;
  CardMask used = 0;
  for (int i = 0; i < n; ++i) {
    const std::uint8_t b = in.byte();
    int c = b < 200 && !hand_ids.empty() ? hand_ids[in.byte() % hand_ids.size()] : in.card();
    if (raw) {
      if (b >= 240) c = static_cast<int>(in.u32());  // far outside the deck
      else if (b >= 220) c = in.range(-8, 71);
      play.push_back(c);
      continue;
    }
    while (holds(used, c)) c = (c + 1) % kDeckSize;
    used |= CardMask{1} << c;
    play.push_back(c);
  }
  return play;
}

// Whether a play holds only distinct ids 0..51.
bool distinct_cards(const std::vector<int>& play) {
  CardMask seen = 0;
  for (const int c : play) {
    if (c < 0 || c >= kDeckSize || holds(seen, c)) return false;
    seen |= CardMask{1} << c;
  }
  return true;
}

void check_scoring(Input& in) {
  const std::vector<std::pair<int, int>> tiers = fuzz::read_tiers(in);
  for (int c = 0; c <= 13; ++c) {
    int want = 0;
    for (const auto& t : tiers)
      if (t.first <= c) want = t.second;
    FUZZ_CHECK(tier_multiplier(c, tiers) == want);
  }
  const int players = in.range(2, 4);
  const int winner = in.range(0, players - 1);
  std::vector<int> left(static_cast<std::size_t>(players));
  for (int s = 0; s < players; ++s) left[static_cast<std::size_t>(s)] = s == winner ? 0 : in.range(1, 13);
  const std::vector<int> pts = score(left, tiers);
  FUZZ_CHECK(pts.size() == left.size());
  long long total = 0;
  for (int s = 0; s < players; ++s) {
    const auto i = static_cast<std::size_t>(s);
    total += pts[i];
    if (s != winner) FUZZ_CHECK(pts[i] == -left[i] * tier_multiplier(left[i], tiers));
  }
  FUZZ_CHECK(total == 0);
  FUZZ_CHECK(pts[static_cast<std::size_t>(winner)] >= 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  const Rules rules = fuzz::read_rules(in);

  // The hand: mostly a dealt hand's size or less, sometimes up to the whole deck.
  const std::uint8_t hs = in.byte();
  const int hand_size = hs < 224 ? 1 + hs % 13 : in.range(14, 52);
  const CardMask hand = fuzz::read_cards(in, hand_size, 0);
  const std::vector<int> hand_ids = fuzz::ids_of(hand);

  // lowest_card is the minimum in Big Two order.
  const int lowest = lowest_card(hand, rules);
  FUZZ_CHECK(holds(hand, lowest));
  for (const int c : hand_ids) FUZZ_CHECK(single_order(lowest, rules) <= single_order(c, rules));

  // The table: a combo an opponent holding other cards could lead, or none.
  const std::uint8_t situation = in.byte();
  Combo table_combo;
  bool has_table = false;
  if (situation & 1 && hand_size < kDeckSize) {
    const int opp_size = in.range(1, std::min(13, kDeckSize - hand_size));
    const CardMask opp = fuzz::read_cards(in, opp_size, hand);
    const std::vector<Combo> leads = legal_plays(opp, nullptr, rules, -1);
    FUZZ_CHECK(!leads.empty());  // every single is a lead
    table_combo = leads[in.u16() % leads.size()];
    has_table = true;
  }
  const Combo* table = has_table ? &table_combo : nullptr;
  // First play (must hold the lowest card), any must-contain card, or none.
  const bool first_play = (situation >> 1 & 3) == 1;
  int must = -1;
  if (first_play) must = lowest;
  else if ((situation >> 1 & 3) == 2) must = hand_ids[in.byte() % hand_ids.size()];
  else if ((situation >> 1 & 3) == 3) must = in.card();
  const bool passed = (situation & 8) != 0;

  // The three ways to list legal plays agree.
  const std::vector<Combo> plays = legal_plays(hand, table, rules, must, passed);
  int seen = 0;
  const int counted = for_each_legal_play(hand, table, rules, must, [&](const Combo&) { ++seen; }, passed);
  FUZZ_CHECK(counted == seen);
  FUZZ_CHECK(static_cast<std::size_t>(counted) == plays.size());
  FUZZ_CHECK(count_legal_plays(hand, table, rules, must, passed) == counted);

  // Each is a distinct combo from the hand that validates against the same table.
  std::vector<CardMask> masks;
  for (const Combo& p : plays) {
    int cs[5];
    for (int i = 0; i < p.size; ++i) cs[i] = p.cards[static_cast<std::size_t>(i)];
    const Combo again = checked_classify(cs, p.size, rules);
    FUZZ_CHECK(p.kind != Kind::kNone && again.kind == p.kind && again.strength == p.strength);
    const CardMask m = p.mask();
    FUZZ_CHECK((m & ~hand) == 0);
    FUZZ_CHECK(__builtin_popcountll(m) == p.size);
    if (must >= 0) FUZZ_CHECK(holds(m, must));
    const Verdict v = validate(hand, cs, p.size, false, table, rules, first_play, passed);
    FUZZ_CHECK(v.code == Code::kOk);
    FUZZ_CHECK(v.combo.strength == p.strength && v.combo.kind == p.kind);
    masks.push_back(m);
  }
  std::sort(masks.begin(), masks.end());
  FUZZ_CHECK(std::adjacent_find(masks.begin(), masks.end()) == masks.end());

  // Up to 13 cards: the legal plays are exactly the subsets the reference accepts.
  if (hand_size <= 13) {
    std::vector<CardMask> want;
    const int n = hand_size;
    for (unsigned sub = 1; sub < (1u << n); ++sub) {
      const int k = __builtin_popcount(sub);
      if (k == 4 || k > 5) continue;
      int cs[5];
      int j = 0;
      for (int i = 0; i < n; ++i)
        if (sub >> i & 1) cs[j++] = hand_ids[static_cast<std::size_t>(i)];
      const CardMask m = mask_of(cs, k);
      if (must >= 0 && !holds(m, must)) continue;
      if (reference_validate(hand, cs, k, false, table, rules, first_play, passed) == Code::kOk) want.push_back(m);
    }
    std::sort(want.begin(), want.end());
    FUZZ_CHECK(want == masks);
  }

  // Random plays and passes: validate gives the reference's code. Ids outside the deck
  // and repeated cards are never in the hand.
  for (int t = in.range(0, 4); t > 0; --t) {
    const std::uint8_t kind = in.byte();
    const bool is_pass = kind < 32;
    const std::vector<int> play = is_pass ? std::vector<int>{} : read_play(in, hand_ids, kind >= 224);
    const int n = static_cast<int>(play.size());
    const Verdict v = validate(hand, play.data(), n, is_pass, table, rules, first_play, passed);
    if (!distinct_cards(play)) {
      const bool locked = is_pass || (table && passed && rules.pass_locks);
      if (!locked) FUZZ_CHECK(v.code == Code::kNotInHand);
      continue;
    }
    FUZZ_CHECK(v.code == reference_validate(hand, play.data(), n, is_pass, table, rules, first_play, passed));
    if (v.code == Code::kOk && !is_pass) {
      FUZZ_CHECK(std::find(masks.begin(), masks.end(), mask_of(play.data(), n)) != masks.end() ||
                 (must >= 0 && !first_play));  // a must-contain card is the caller's filter
    }
    if (v.code == Code::kMustIncludeLowest) FUZZ_CHECK(v.lowest == lowest);
    if (v.code == Code::kOk && !is_pass) FUZZ_CHECK(v.combo.mask() == mask_of(play.data(), n));
  }

  // Combos to compare: the table, some legal plays, some classified card sets.
  std::vector<Combo> combos;
  if (table) combos.push_back(*table);
  for (int t = in.range(0, 4); t > 0 && !plays.empty(); --t) combos.push_back(plays[in.u16() % plays.size()]);
  for (int t = in.range(0, 4); t > 0; --t) {
    std::vector<int> cs = read_play(in, hand_ids);
    if (cs.size() > 5) cs.pop_back();  // classify takes 0..5 cards
    const Combo c = checked_classify(cs.data(), static_cast<int>(cs.size()), rules);
    if (c.kind != Kind::kNone) combos.push_back(c);
  }
  for (const Combo& a : combos) {
    FUZZ_CHECK(compare(a, a, rules) == 0 && !beats(a, a, rules));
    FUZZ_CHECK(kind_name(a.kind)[0] != '\0');
    for (const Combo& b : combos) check_pair(a, b, rules);
  }
  FUZZ_CHECK(code_name(static_cast<Code>(situation % 9))[0] != '\0');  // every code has a name

  check_scoring(in);
  return 0;
}
