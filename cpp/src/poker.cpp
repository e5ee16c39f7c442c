#include "capsa_fast/poker.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <stdexcept>

// The generated tables (cpp/tools/gen_tables.cpp), shared with poker_batch.cpp (the batch
// loops) and poker_hand.hpp. Layout:
//   kCardKey5/7[card]  rank key in the low 32 bits plus a 1 in the card's 4-bit suit
//                      counter (bits 32..47); summed over a hand with kSuitBias added, a
//                      counter's bit 3 is set exactly when five or more cards share a suit.
//   kHash5/7           unsuited hands: strength = values[offsets[key >> shift] +
//                      (key & (2^shift - 1))] for the sum of rank keys (a perfect hash;
//                      Hash5 for 5 cards, Hash7 for 3, 5, 6 and 7; one spare slot at
//                      the end for the vector loops' 32-bit reads).
//   kFlush[mask]       best flush or straight flush within a 13-bit mask of suited ranks
//                      (plus a spare slot).
//   kThree[(a*13+b)*13+c]  3-card hands by ranks in any order.
//   kClassInfo[s]      category (low 4 bits) and five deciding ranks (4 bits each).
#include "poker_tables.inc"

namespace capsa_fast::poker {
namespace {

using namespace tables;

constexpr std::uint64_t kSuitBias = std::uint64_t{0x3333} << 32;
constexpr std::uint64_t kFlushBits = std::uint64_t{0x8888} << 32;
constexpr std::uint32_t kMask5 = (1u << kHash5Shift) - 1;
constexpr std::uint32_t kMask7 = (1u << kHash7Shift) - 1;

inline Strength unsuited5(std::uint64_t key) noexcept {
  const auto k = static_cast<std::uint32_t>(key);
  return kHash5Values[kHash5Offsets[k >> kHash5Shift] + (k & kMask5)];
}

inline Strength unsuited7(std::uint64_t key) noexcept {
  const auto k = static_cast<std::uint32_t>(key);
  return kHash7Values[kHash7Offsets[k >> kHash7Shift] + (k & kMask7)];
}

inline unsigned rank_bit(int card) noexcept { return 1u << (card >> 2); }

// With at most seven cards, five of one suit leave no room for quads or a full house, so
// a flush found here is always the best hand.
template <int N>
inline Strength evaluate_n(const int* c) noexcept {
  std::uint64_t key = kSuitBias;
  for (int i = 0; i < N; ++i) key += kCardKey7[c[i]];
  const std::uint64_t flush = key & kFlushBits;
  if (__builtin_expect(flush != 0, 0)) {
    const int suit = (__builtin_ctzll(flush) - 35) >> 2;
    unsigned mask = 0;
    for (int i = 0; i < N; ++i) mask |= (c[i] & 3) == suit ? rank_bit(c[i]) : 0u;
    return kFlush[mask];
  }
  return unsuited7(key);
}

const char* const kRankSingular[13] = {"two", "three", "four", "five", "six", "seven",
                                       "eight", "nine", "ten", "jack", "queen", "king", "ace"};
const char* const kRankPlural[13] = {"twos", "threes", "fours", "fives", "sixes", "sevens",
                                     "eights", "nines", "tens", "jacks", "queens", "kings",
                                     "aces"};

}  // namespace

const char* category_name(Category c) noexcept {
  static const char* const kNames[kNumCategories] = {
      "high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush",
      "full_house", "four_of_a_kind", "straight_flush"};
  return kNames[static_cast<int>(c)];
}

Strength evaluate3(int a, int b, int c) noexcept {
  assert(a >= 0 && a < 52 && b >= 0 && b < 52 && c >= 0 && c < 52);
  return kThree[((a >> 2) * 13 + (b >> 2)) * 13 + (c >> 2)];
}

Strength evaluate5(int a, int b, int c, int d, int e) noexcept {
  assert(a >= 0 && a < 52 && b >= 0 && b < 52 && c >= 0 && c < 52 && d >= 0 && d < 52 &&
         e >= 0 && e < 52);
  const std::uint64_t key =
      kSuitBias + kCardKey5[a] + kCardKey5[b] + kCardKey5[c] + kCardKey5[d] + kCardKey5[e];
  if (__builtin_expect((key & kFlushBits) != 0, 0)) {
    return kFlush[rank_bit(a) | rank_bit(b) | rank_bit(c) | rank_bit(d) | rank_bit(e)];
  }
  return unsuited5(key);
}

Strength evaluate6(const int* cards) noexcept { return evaluate_n<6>(cards); }
Strength evaluate7(const int* cards) noexcept { return evaluate_n<7>(cards); }

Strength evaluate(const int* cards, int n) {
  if (n != 3 && n != 5 && n != 6 && n != 7) {
    throw std::invalid_argument("a poker hand has 3, 5, 6 or 7 cards, got " +
                                std::to_string(n));
  }
  check_distinct(cards, n);
  switch (n) {
    case 3: return evaluate3(cards[0], cards[1], cards[2]);
    case 5: return evaluate5(cards[0], cards[1], cards[2], cards[3], cards[4]);
    case 6: return evaluate6(cards);
    default: return evaluate7(cards);
  }
}

Description describe(Strength s) noexcept {
  assert(s >= 1 && s <= kMaxStrength);
  const std::uint32_t info = kClassInfo[s];
  Description d{static_cast<Category>(info & 15), 0, {0, 0, 0, 0, 0}};
  for (int j = 0; j < 5; ++j) {
    const int r = static_cast<int>((info >> (4 * (5 - j))) & 15);
    if (r == 15) break;
    d.ranks[d.n_ranks++] = r;
  }
  return d;
}

Category category_of(Strength s) noexcept {
  return static_cast<Category>(kClassInfo[s] & 15);
}

Strength category_start(int c) noexcept { return kCategoryStart[c]; }

std::string label(Strength s) {
  const Description d = describe(s);
  const int* r = d.ranks.data();
  auto cap = [](std::string text) {
    text[0] = static_cast<char>(text[0] - 'a' + 'A');
    return text;
  };
  switch (d.category) {
    case Category::kHighCard:
      return "High card, " + std::string(kRankSingular[r[0]]) + " high";
    case Category::kPair:
      return "Pair of " + std::string(kRankPlural[r[0]]);
    case Category::kTwoPair:
      return "Two pair, " + std::string(kRankPlural[r[0]]) + " and " + kRankPlural[r[1]];
    case Category::kThreeOfAKind:
      return "Three of a kind, " + std::string(kRankPlural[r[0]]);
    case Category::kStraight:
      return "Straight, " + std::string(kRankSingular[r[0]]) + " high";
    case Category::kFlush:
      return "Flush, " + std::string(kRankSingular[r[0]]) + " high";
    case Category::kFullHouse:
      return "Full house, " + std::string(kRankPlural[r[0]]) + " over " + kRankPlural[r[1]];
    case Category::kFourOfAKind:
      return "Four of a kind, " + std::string(kRankPlural[r[0]]);
    case Category::kStraightFlush:
      if (r[0] == 12) return "Royal flush";
      return cap("straight flush, " + std::string(kRankSingular[r[0]]) + " high");
  }
  return "";
}

int best_five(const int* cards, int n, std::array<int, 5>& out_index) {
  const Strength total = evaluate(cards, n);  // checks count and cards
  if (n == 3) {
    out_index = {0, 1, 2, 0, 0};
  } else {
    // The first five-card subset (in index order) worth the whole hand.
    bool found = false;
    for (int a = 0; a < n && !found; ++a)
      for (int b = a + 1; b < n && !found; ++b)
        for (int c = b + 1; c < n && !found; ++c)
          for (int d = c + 1; d < n && !found; ++d)
            for (int e = d + 1; e < n && !found; ++e)
              if (evaluate5(cards[a], cards[b], cards[c], cards[d], cards[e]) == total) {
                out_index = {a, b, c, d, e};
                found = true;
              }
  }
  const int m = n == 3 ? 3 : 5;
  int count[13] = {};
  for (int i = 0; i < m; ++i) ++count[rank_of(cards[out_index[i]])];
  const Category cat = category_of(total);
  const bool wheel = (cat == Category::kStraight || cat == Category::kStraightFlush) &&
                     describe(total).ranks[0] == 3;
  auto reading_rank = [&](int idx) {
    const int r = rank_of(cards[idx]);
    return wheel && r == 12 ? -1 : r;  // the wheel's ace reads last
  };
  std::sort(out_index.begin(), out_index.begin() + m, [&](int x, int y) {
    const int cx = count[rank_of(cards[x])], cy = count[rank_of(cards[y])];
    if (cx != cy) return cx > cy;
    const int rx = reading_rank(x), ry = reading_rank(y);
    if (rx != ry) return rx > ry;
    return suit_of(cards[x]) > suit_of(cards[y]);
  });
  return m;
}

}  // namespace capsa_fast::poker
