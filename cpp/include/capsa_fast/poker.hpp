// Poker-order hand evaluation (RULES.md section 2).
//
// A hand's strength is one integer in 1..kMaxStrength; larger is stronger and equal
// strengths tie. 3-, 5-, 6- and 7-card hands share one scale: a 3-card hand (a Susun top
// row) compares with a 5-card hand category first, then ranks in order, a missing kicker
// counting lower than any card; 6 and 7 cards are worth their best five.
//
// For enumeration (equity, Susun deals) capsa_fast/poker_hand.hpp has poker::Hand, a
// partial hand that grows a card at a time and evaluates inline on the same scale.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "capsa_fast/cards.hpp"

namespace capsa_fast::poker {

enum class Category : std::uint8_t {
  kHighCard = 0, kPair, kTwoPair, kThreeOfAKind, kStraight, kFlush, kFullHouse,
  kFourOfAKind, kStraightFlush,
};
inline constexpr int kNumCategories = 9;

using Strength = std::uint16_t;
// 7,462 classes of 5-card hands plus 455 classes of 3-card hands.
inline constexpr Strength kMaxStrength = 7917;

// snake_case name of a category ("two_pair").
const char* category_name(Category c) noexcept;

// Fast evaluators. Contract: cards are distinct ids 0..51 (checked only in debug builds).
Strength evaluate3(int a, int b, int c) noexcept;
Strength evaluate5(int a, int b, int c, int d, int e) noexcept;
Strength evaluate6(const int* cards) noexcept;
Strength evaluate7(const int* cards) noexcept;

// Checked entry point: n must be 3, 5, 6 or 7 and the cards distinct ids, otherwise
// std::invalid_argument with a message naming the count or the card.
Strength evaluate(const int* cards, int n);

// Evaluates n_hands rows of k cards (k in 3, 5, 6, 7), rows `row_stride` elements apart
// and cards `col_stride` elements apart, into out[0..n_hands). T is any integer type.
// Any input is safe to read: an id outside 0..51 or a repeated card gives a meaningless
// strength, never an out-of-bounds access. With `check`, returns false if any row held
// such a card (find_invalid_row then locates it); without, always returns true. The check
// runs in the same pass (a 64-bit card mask per hand: a popcount in the vector loop, the
// sum against the OR in the scalar ones). Contiguous uint8 rows are read directly; any
// other type or layout is narrowed block by block first (ids outside 0..255 become 255).
template <class T>
bool evaluate_batch(const T* cards, std::size_t n_hands, int k, std::ptrdiff_t row_stride,
                    std::ptrdiff_t col_stride, Strength* out, bool check) noexcept;
// The same, writing 32-bit strengths (what numpy callers receive).
template <class T>
bool evaluate_batch(const T* cards, std::size_t n_hands, int k, std::ptrdiff_t row_stride,
                    std::ptrdiff_t col_stride, std::int32_t* out, bool check) noexcept;

// First row holding an id outside 0..51 or a repeated card, or n_hands when all are valid.
template <class T>
std::size_t find_invalid_row(const T* cards, std::size_t n_hands, int k,
                             std::ptrdiff_t row_stride, std::ptrdiff_t col_stride) noexcept;

// The loop evaluate_batch runs. kPortable is plain C++ built for the baseline target and
// the reference; the others are chosen at run time and compiled for their instruction sets
// whatever the build flags: kX86_64_V3 a vector loop doing 8 hands at a time (AVX2, BMI
// and POPCNT, no pext/pdep: Haswell, Zen and later), kAvx512 one doing 16 (AVX-512 F, BW,
// VL, VBMI, VPOPCNTDQ and BITALG: Ice Lake, Sapphire Rapids, Zen 4 and later). All give
// identical results.
enum class BatchPath : std::uint8_t { kPortable = 0, kX86_64_V3, kAvx512 };
inline constexpr int kNumBatchPaths = 3;
// "portable", "x86-64-v3", "avx512".
const char* batch_path_name(BatchPath p) noexcept;
// Whether the loop may run here: this CPU (and this build) can run it and CAPSA_FAST_ISA
// (capsa_fast/isa.hpp) allows its level (x86-64-v3: avx2; avx512: avx512).
bool batch_path_supported(BatchPath p) noexcept;
// The loop in use: the fastest supported one unless set_batch_path chose another.
BatchPath batch_path() noexcept;
// Selects the loop for every later call, in all threads (tests run each one); throws
// std::invalid_argument naming the path when this CPU cannot run it or CAPSA_FAST_ISA is
// below its level (the loop in use is then left as it was).
void set_batch_path(BatchPath p);

// What a strength means: its category and the ranks (0 = 2 .. 12 = A) that decide it,
// high to low; straights list only their top card (3 for A-2-3-4-5).
struct Description {
  Category category;
  int n_ranks;
  std::array<int, 5> ranks;
};
// Contract: 1 <= s <= kMaxStrength.
Description describe(Strength s) noexcept;
Category category_of(Strength s) noexcept;
// First strength of category c (c = 9 gives kMaxStrength + 1).
Strength category_start(int c) noexcept;

// A readable name: "Straight, ace high", "Two pair, kings and fives", "Royal flush".
std::string label(Strength s);

// Indices (into cards) of the best five cards, ordered for reading: larger groups first,
// then higher ranks (a wheel ends with its ace). For a 3-card hand, its three cards.
// Same checks as evaluate(); returns the count written (3 or 5).
int best_five(const int* cards, int n, std::array<int, 5>& out_index);

}  // namespace capsa_fast::poker
