// Capsa Banting (Big Two) combos, comparison and legal plays (RULES.md section 3).
//
// Cards use the shared ids of cards.hpp. Big Two order is applied on top: ranks
// 3 < 4 < ... < K < A < 2, suits per Rules::suit_order. A table rule set is plain data
// (Rules); nothing here branches on a preset name.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "capsa_fast/cards.hpp"

namespace capsa_fast::banting {

enum class Kind : std::uint8_t {
  kNone = 0, kSingle, kPair, kTriple, kStraight, kFlush, kFullHouse, kFourOfAKind,
  kStraightFlush,
};
const char* kind_name(Kind k) noexcept;

enum class StraightTiebreak : std::uint8_t { kHighestCard, kSequenceTop };
// kTopCard (seed 000): the rank of the highest card, then that card's suit, nothing else.
enum class FlushCompare : std::uint8_t { kSuitFirst, kRankFirst, kNone, kTopCard };

// Why a set of cards is not a playable combo, or why a play is refused. The order of the
// play codes is the precedence of API.md: when several apply, the first one is reported.
enum class Code : std::uint8_t {
  kOk = 0,
  kCannotPassWhenLeading,
  kPassedThisTrick,
  kNotInHand,
  kWrongCardCount,
  kNotACombo,
  kRuleForbids,
  kMustIncludeLowest,
  kDoesNotBeat,
};
const char* code_name(Code c) noexcept;

// A five-rank run, named by the poker rank index (0 = 2 .. 12 = A) it starts from when
// read upward: 0 is 23456, 12 is A2345, 9 is JQKA2. There are 13 such runs.
inline constexpr int kNumRuns = 13;
// Bit r set for each rank index r in the run of five ranks from `start` (0..12, wrapping).
inline std::uint16_t run_mask(int start) noexcept {
  const unsigned m = 0x1Fu << start;
  return static_cast<std::uint16_t>((m | m >> 13) & 0x1FFFu);
}

struct Rules {
  // suit_rank[suit id] = position of that suit, 0 = lowest (default d < c < h < s).
  std::array<std::uint8_t, 4> suit_rank{1, 0, 2, 3};
  // The runs that are straights, from lowest to highest (start ranks, see run_mask).
  std::vector<std::uint8_t> straights{1, 2, 3, 4, 5, 6, 7, 8, 0, 12};
  StraightTiebreak straight_tiebreak = StraightTiebreak::kHighestCard;
  FlushCompare flush_compare = FlushCompare::kSuitFirst;
  bool triples = true;
  bool bombs = false;  // four of a kind and straight flushes beat any single, pair, triple
  bool pass_locks = false;
  // two_demotion (seed 000): a four of a kind played in a round makes the 2s the lowest
  // singles until another four of a kind restores them. The setting lives here so a round
  // knows to track it; `twos_demoted` is that round state, read by classify for singles
  // (stateless callers set it on a copy).
  bool two_demotion = false;
  bool twos_demoted = false;

  // Position of run `start` in `straights`, or -1 when that run is not a straight.
  int straight_position(int start) const noexcept;
};

// Big Two rank of a card: 0 for a 3 up to 12 for a 2.
constexpr int big_two_rank(int card) { return (rank_of(card) + 12) % 13; }
// Total order of single cards: big_two_rank * 4 + suit position, 0..51.
inline int single_order(int card, const Rules& r) noexcept {
  return big_two_rank(card) * 4 + r.suit_rank[static_cast<std::size_t>(suit_of(card))];
}

// Order of a card played as a single: single_order, except that while the 2s are demoted
// they come below the 3s (the ace is then the highest rank). Pairs, triples and five-card
// combos always use single_order.
inline int single_strength(int card, const Rules& r) noexcept {
  const int rank = r.twos_demoted ? (big_two_rank(card) + 1) % 13 : big_two_rank(card);
  return rank * 4 + r.suit_rank[static_cast<std::size_t>(suit_of(card))];
}

// A card set as a 52-bit mask (bit = card id).
using CardMask = std::uint64_t;

// A classified combo. `strength` orders combos of the same kind group under one rule set:
// for equal sizes a larger strength beats a smaller one and equal strengths tie. Cards are
// sorted low to high in Big Two order.
struct Combo {
  Kind kind = Kind::kNone;
  std::uint8_t size = 0;
  std::array<std::uint8_t, 5> cards{};
  std::uint32_t strength = 0;

  bool is_bomb() const noexcept {
    return kind == Kind::kFourOfAKind || kind == Kind::kStraightFlush;
  }
  CardMask mask() const noexcept {
    CardMask m = 0;
    for (std::size_t i = 0; i < size; ++i) m |= CardMask{1} << cards[i];
    return m;
  }
};

// Classifies 0..5 cards (contract: distinct ids 0..51). On failure returns a combo with
// kind kNone and sets *why to kNotACombo or kRuleForbids (a combo the rules exclude).
Combo classify(const int* cards, int n, const Rules& rules, Code* why = nullptr) noexcept;

// Whether `play` beats `table` (both real combos). Same size: higher strength; with bombs,
// a four of a kind or straight flush also beats any single, pair or triple.
bool beats(const Combo& play, const Combo& table, const Rules& rules) noexcept;

// Whether two combos may be compared at all (same size, or bomb vs 1-3 cards with bombs).
bool comparable(const Combo& a, const Combo& b, const Rules& rules) noexcept;

// 1, 0 or -1. Contract: comparable(a, b).
int compare(const Combo& a, const Combo& b, const Rules& rules) noexcept;

// The lowest card of a non-empty set in Big Two order.
int lowest_card(CardMask hand, const Rules& rules) noexcept;

// Every distinct legal play from `hand` (1..52 cards): all combos when leading (table
// null), or those beating *table; with must_contain >= 0, only plays holding that card;
// none when the player has `passed` this trick and the rules have pass_locks.
// Calls f(const Combo&) for each; returns the count.
template <class F>
int for_each_legal_play(CardMask hand, const Combo* table, const Rules& rules,
                        int must_contain, F&& f, bool passed = false);

std::vector<Combo> legal_plays(CardMask hand, const Combo* table, const Rules& rules,
                               int must_contain, bool passed = false);
int count_legal_plays(CardMask hand, const Combo* table, const Rules& rules,
                      int must_contain, bool passed = false);

// Judges a play. `play` holds n cards (n = 0 with is_pass for a pass); any ids are safe:
// one outside 0..51 or a card named twice is kNotInHand. Returns the first applicable code
// in API order; on kOk or kDoesNotBeat, *combo is the play's combo.
struct Verdict {
  Code code = Code::kOk;
  Combo combo;
  int lowest = -1;  // the card a first play must hold, when that is the problem
};
Verdict validate(CardMask hand, const int* play, int n, bool is_pass, const Combo* table,
                 const Rules& rules, bool first_play, bool passed) noexcept;

// Points per player: each loser pays cards_left x the multiplier of the highest tier whose
// threshold <= cards_left; the one player with 0 cards receives the sum. `tiers` are
// (threshold, multiplier) sorted by threshold. Contract: exactly one zero, counts 0..13.
std::vector<int> score(const std::vector<int>& cards_left,
                       const std::vector<std::pair<int, int>>& tiers);
int tier_multiplier(int cards_left, const std::vector<std::pair<int, int>>& tiers) noexcept;

}  // namespace capsa_fast::banting

#include "capsa_fast/banting_impl.hpp"
