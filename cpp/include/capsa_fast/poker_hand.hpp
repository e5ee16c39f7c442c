// A partial poker hand that grows one card at a time (RULES.md section 2), for enumeration:
// Hold'em equity and Susun deal the same board to several players, so the board's cards
// are summed once and each player's hole cards added to it.
//
//   const Hand board = Hand() + 12 + 30 + 45 + 7 + 22;        // ids 0..51, as everywhere
//   const Hand hero = Hand() + 51 + 47, villain = Hand() + 3 + 0;
//   if ((board + hero).evaluate() > (board + villain).evaluate()) ...
//
// Adding a card is two integer operations; evaluate() is one flush test and two table
// loads (one for a flush). Strengths are exactly those of poker::evaluate: one scale for 3,
// 5, 6 and 7 cards, larger stronger.
//
// Contract (checked only in debug builds): every card added is an id 0..51 not already in
// the hand, hands combined with + hold no card in common, a hand holds at most 7 cards,
// and evaluate() is called on 3, 5, 6 or 7 cards.
#pragma once

#include <cassert>
#include <cstdint>

#include "capsa_fast/poker.hpp"
// The generated lookup tables (cpp/tools/gen_tables.cpp; see cpp/src/poker.cpp for the
// layout). Included here so that adding a card and evaluating inline into the caller.
#include "poker_tables.inc"

namespace capsa_fast::poker {
namespace detail {

// Per card: its rank key and suit counter (the generated kCardKey7) plus 1 in the count.
struct HandCardKeys {
  std::uint64_t v[kDeckSize];
};
constexpr HandCardKeys make_hand_card_keys() noexcept {
  HandCardKeys k{};
  for (int c = 0; c < kDeckSize; ++c) k.v[c] = tables::kCardKey7[c] + (std::uint64_t{1} << 48);
  return k;
}
inline constexpr HandCardKeys kHandCardKeys = make_hand_card_keys();

}  // namespace detail

class Hand {
 public:
  // The empty hand.
  constexpr Hand() noexcept = default;

  // The hand with this card added.
  constexpr Hand operator+(int card) const noexcept { return Hand(*this) += card; }
  constexpr Hand& operator+=(int card) noexcept {
    assert(card >= 0 && card < kDeckSize && !contains(card) && size() < 7);
    key_ += kCardKey[card];
    mask_ |= suit_major_bit(card);
    return *this;
  }

  // Both hands' cards together (the hands must not share a card).
  constexpr Hand operator+(const Hand& other) const noexcept { return Hand(*this) += other; }
  constexpr Hand& operator+=(const Hand& other) noexcept {
    assert((mask_ & other.mask_) == 0 && size() + other.size() <= 7);
    key_ += other.key_ - kEmptyKey;
    mask_ |= other.mask_;
    return *this;
  }

  constexpr int size() const noexcept { return static_cast<int>((key_ >> kCountShift) & 15); }
  constexpr bool contains(int card) const noexcept { return (mask_ & suit_major_bit(card)) != 0; }

  // Strength of the hand's 3, 5, 6 or 7 cards; the same number as poker::evaluate.
  Strength evaluate() const noexcept {
    assert(size() == 3 || size() >= 5);
    const std::uint64_t flush = key_ & kFlushBits;
    if (__builtin_expect(flush != 0, 0)) {
      // With at most 7 cards only one suit can hold five; its 13 rank bits are the key.
      const int suit = (__builtin_ctzll(flush) - (kSuitShift + 3)) >> 2;
      return tables::kFlush[(mask_ >> (16 * suit)) & 0x1FFF];
    }
    const auto key = static_cast<std::uint32_t>(key_);
    return tables::kHash7Values[tables::kHash7Offsets[key >> tables::kHash7Shift] +
                                (key & ((1u << tables::kHash7Shift) - 1))];
  }

  friend constexpr bool operator==(const Hand& a, const Hand& b) noexcept {
    return a.mask_ == b.mask_;
  }
  friend constexpr bool operator!=(const Hand& a, const Hand& b) noexcept { return !(a == b); }

 private:
  // key_: the sum of the cards' rank keys (bits 0..31, unique per rank multiset), one
  // 4-bit counter per suit (bits 32..47, starting at 3 so that bit 3 of a counter is set
  // once the suit holds five cards) and the card count (bits 48..51).
  // mask_: one bit per card, suit-major (bit 16 * suit + rank), so a suit's ranks are
  // one shift away.
  static constexpr int kSuitShift = 32;
  static constexpr int kCountShift = 48;
  static constexpr std::uint64_t kEmptyKey = std::uint64_t{0x3333} << kSuitShift;
  static constexpr std::uint64_t kFlushBits = std::uint64_t{0x8888} << kSuitShift;

  static constexpr std::uint64_t suit_major_bit(int card) noexcept {
    return std::uint64_t{1} << (16 * (card & 3) + (card >> 2));
  }
  static constexpr const std::uint64_t* kCardKey = detail::kHandCardKeys.v;

  std::uint64_t key_ = kEmptyKey;
  std::uint64_t mask_ = 0;
};

}  // namespace capsa_fast::poker
