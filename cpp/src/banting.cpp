#include "capsa_fast/banting.hpp"

#include <algorithm>

namespace capsa_fast::banting {
namespace {

// Five-card categories, low to high, as the top bits of a five-card strength.
enum Five : std::uint32_t { kStraight5 = 0, kFlush5, kFullHouse5, kFour5, kStraightFlush5 };

constexpr std::uint32_t five(Five cat, std::uint32_t detail) { return (cat << 24) | detail; }

// Start rank of the run formed by a 5-rank mask, or -1.
int run_start(std::uint16_t ranks) noexcept {
  for (int s = 0; s < kNumRuns; ++s)
    if (run_mask(s) == ranks) return s;
  return -1;
}

}  // namespace

const char* kind_name(Kind k) noexcept {
  static const char* const kNames[] = {"none",     "single",   "pair",
                                       "triple",   "straight", "flush",
                                       "full_house", "four_of_a_kind", "straight_flush"};
  return kNames[static_cast<int>(k)];
}

const char* code_name(Code c) noexcept {
  static const char* const kNames[] = {
      "OK",          "CANNOT_PASS_WHEN_LEADING", "PASSED_THIS_TRICK",   "NOT_IN_HAND",
      "WRONG_CARD_COUNT", "NOT_A_COMBO",        "RULE_FORBIDS",        "MUST_INCLUDE_LOWEST",
      "DOES_NOT_BEAT"};
  return kNames[static_cast<int>(c)];
}

int Rules::straight_position(int start) const noexcept {
  for (std::size_t i = 0; i < straights.size(); ++i)
    if (straights[i] == start) return static_cast<int>(i);
  return -1;
}

Combo classify(const int* cards, int n, const Rules& rules, Code* why) noexcept {
  Combo out;
  auto fail = [&](Code code) {
    if (why) *why = code;
    out.kind = Kind::kNone;
    return out;
  };
  if (n < 1 || n == 4 || n > 5) return fail(Code::kNotACombo);
  out.size = static_cast<std::uint8_t>(n);
  // Sorted by single_order: each card's order computed once, in the key's high bits.
  int key[5];
  for (int i = 0; i < n; ++i) {
    const int k = single_order(cards[i], rules) << 6 | cards[i];
    int j = i;
    for (; j > 0 && key[j - 1] > k; --j) key[j] = key[j - 1];
    key[j] = k;
  }
  for (int i = 0; i < n; ++i) out.cards[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(key[i] & 63);
  const auto& c = out.cards;
  const int top = c[static_cast<std::size_t>(n - 1)];  // highest card in Big Two order
  if (why) *why = Code::kOk;
  if (n == 1) {
    out.kind = Kind::kSingle;
    out.strength = static_cast<std::uint32_t>(single_strength(top, rules));
    return out;
  }
  if (n <= 3) {
    for (int i = 1; i < n; ++i)
      if (rank_of(c[static_cast<std::size_t>(i)]) != rank_of(c[0])) return fail(Code::kNotACombo);
    if (n == 3 && !rules.triples) return fail(Code::kRuleForbids);
    out.kind = n == 2 ? Kind::kPair : Kind::kTriple;
    // Rank, then the highest suit in it: exactly the order of its top card.
    out.strength = static_cast<std::uint32_t>(single_order(top, rules));
    return out;
  }
  int count[13] = {};
  std::uint16_t ranks = 0;
  bool suited = true;
  for (int i = 0; i < 5; ++i) {
    ++count[rank_of(c[static_cast<std::size_t>(i)])];
    ranks = static_cast<std::uint16_t>(ranks | (1u << rank_of(c[static_cast<std::size_t>(i)])));
    suited = suited && suit_of(c[static_cast<std::size_t>(i)]) == suit_of(c[0]);
  }
  const int distinct = __builtin_popcount(ranks);
  if (distinct == 2) {
    for (int r = 0; r < 13; ++r) {
      const auto bt = static_cast<std::uint32_t>(big_two_rank(r * 4));
      if (count[r] == 4) {
        out.kind = Kind::kFourOfAKind;
        out.strength = five(kFour5, bt);
        return out;
      }
      if (count[r] == 3) {
        out.kind = Kind::kFullHouse;
        out.strength = five(kFullHouse5, bt);
        return out;
      }
    }
  }
  if (distinct != 5) return fail(Code::kNotACombo);
  const int start = run_start(ranks);
  const int position = start >= 0 ? rules.straight_position(start) : -1;
  if (position >= 0) {
    int tiebreak = top;
    if (rules.straight_tiebreak == StraightTiebreak::kSequenceTop) {
      const int top_rank = (start + 4) % 13;
      for (int i = 0; i < 5; ++i)
        if (rank_of(c[static_cast<std::size_t>(i)]) == top_rank) tiebreak = c[static_cast<std::size_t>(i)];
    }
    const std::uint32_t detail = static_cast<std::uint32_t>(position) << 2 |
                                 rules.suit_rank[static_cast<std::size_t>(suit_of(tiebreak))];
    out.kind = suited ? Kind::kStraightFlush : Kind::kStraight;
    out.strength = five(suited ? kStraightFlush5 : kStraight5, detail);
    return out;
  }
  if (!suited) return fail(start >= 0 ? Code::kRuleForbids : Code::kNotACombo);
  if (rules.flush_compare == FlushCompare::kNone) return fail(Code::kRuleForbids);
  // Ranks card by card from the highest, in Big Two order, 4 bits each.
  std::uint32_t by_rank = 0;
  for (int i = 4; i >= 0; --i)
    by_rank = by_rank << 4 | static_cast<std::uint32_t>(big_two_rank(c[static_cast<std::size_t>(i)]));
  const std::uint32_t suit = rules.suit_rank[static_cast<std::size_t>(suit_of(c[0]))];
  out.kind = Kind::kFlush;
  switch (rules.flush_compare) {
    case FlushCompare::kSuitFirst:
      out.strength = five(kFlush5, suit << 20 | by_rank);
      break;
    case FlushCompare::kTopCard:  // the highest card alone: its rank, then its suit
      out.strength = five(kFlush5, static_cast<std::uint32_t>(big_two_rank(top)) << 2 | suit);
      break;
    default:
      out.strength = five(kFlush5, by_rank << 2 | suit);
      break;
  }
  return out;
}

bool comparable(const Combo& a, const Combo& b, const Rules& rules) noexcept {
  if (a.kind == Kind::kNone || b.kind == Kind::kNone) return false;
  if (a.size == b.size) return true;
  return rules.bombs && ((a.is_bomb() && b.size <= 3) || (b.is_bomb() && a.size <= 3));
}

int compare(const Combo& a, const Combo& b, const Rules& rules) noexcept {
  (void)rules;
  if (a.size != b.size) return a.size > b.size ? 1 : -1;  // only a bomb over 1-3 cards
  return a.strength > b.strength ? 1 : (a.strength < b.strength ? -1 : 0);
}

bool beats(const Combo& play, const Combo& table, const Rules& rules) noexcept {
  return comparable(play, table, rules) && compare(play, table, rules) > 0;
}

int lowest_card(CardMask hand, const Rules& rules) noexcept {
  int best = -1;
  for (CardMask h = hand; h; h &= h - 1) {
    const int c = __builtin_ctzll(h);
    if (best < 0 || single_order(c, rules) < single_order(best, rules)) best = c;
  }
  return best;
}

std::vector<Combo> legal_plays(CardMask hand, const Combo* table, const Rules& rules,
                               int must_contain, bool passed) {
  std::vector<Combo> out;
  for_each_legal_play(
      hand, table, rules, must_contain, [&](const Combo& c) { out.push_back(c); }, passed);
  return out;
}

int count_legal_plays(CardMask hand, const Combo* table, const Rules& rules,
                      int must_contain, bool passed) {
  return for_each_legal_play(
      hand, table, rules, must_contain, [](const Combo&) {}, passed);
}

Verdict validate(CardMask hand, const int* play, int n, bool is_pass, const Combo* table,
                 const Rules& rules, bool first_play, bool passed) noexcept {
  Verdict v;
  if (is_pass) {
    v.code = table ? Code::kOk : Code::kCannotPassWhenLeading;
    return v;
  }
  if (table && passed && rules.pass_locks) {
    v.code = Code::kPassedThisTrick;
    return v;
  }
  // An id outside the deck is not in the hand, and neither is a second copy of a card:
  // without this a card named twice would pass as a pair.
  CardMask seen = 0;
  for (int i = 0; i < n; ++i) {
    const int c = play[i];
    if (c < 0 || c >= kDeckSize || !(hand >> c & 1) || (seen >> c & 1)) {
      v.code = Code::kNotInHand;
      return v;
    }
    seen |= CardMask{1} << c;
  }
  Code why = Code::kOk;
  v.combo = classify(play, n, rules, &why);
  if (table && n != table->size) {
    // A different size is only allowed for a bomb over a single, pair or triple.
    const bool bomb_over_small = rules.bombs && table->size <= 3 && v.combo.is_bomb();
    if (!bomb_over_small) {
      v.code = Code::kWrongCardCount;
      return v;
    }
  }
  if (v.combo.kind == Kind::kNone) {
    v.code = why;
    return v;
  }
  if (first_play) {
    const int lowest = lowest_card(hand, rules);
    bool has = false;
    for (int i = 0; i < n; ++i) has |= play[i] == lowest;
    if (!has) {
      v.code = Code::kMustIncludeLowest;
      v.lowest = lowest;
      return v;
    }
  }
  if (table && !beats(v.combo, *table, rules)) v.code = Code::kDoesNotBeat;
  return v;
}

int tier_multiplier(int cards_left, const std::vector<std::pair<int, int>>& tiers) noexcept {
  int m = 0;
  for (const auto& t : tiers)
    if (t.first <= cards_left) m = t.second;
  return m;
}

std::vector<int> score(const std::vector<int>& cards_left,
                       const std::vector<std::pair<int, int>>& tiers) {
  std::vector<int> out(cards_left.size(), 0);
  int pot = 0;
  std::size_t winner = 0;
  for (std::size_t i = 0; i < cards_left.size(); ++i) {
    if (cards_left[i] == 0) {
      winner = i;
      continue;
    }
    out[i] = -cards_left[i] * tier_multiplier(cards_left[i], tiers);
    pot -= out[i];
  }
  out[winner] += pot;
  return out;
}

}  // namespace capsa_fast::banting
