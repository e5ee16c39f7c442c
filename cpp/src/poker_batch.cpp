// The loops behind poker::evaluate_batch and the choice among them at run time.
//
// Every loop reads contiguous uint8 rows of K cards (any other input is narrowed to that
// first, block by block) and, per hand, sums two things over its cards:
//   * the rank key and suit counters (the generated kCardKey5/7): the same key as the
//     single-hand evaluators, looked up in the same perfect hash, one flush test;
//   * the card's bit in a 64-bit suit-major mask (bit 16 * suit + rank). In the AVX-512
//     loop the sum has K bits set exactly when the K ids are distinct cards (a repeat
//     carries, an id past 51 adds nothing there), so it validates with one popcount; and a
//     flush's 13 rank bits are one shift away, the flush table's index. (The AVX2 loop
//     sums the key and the suit counters byte-wise instead, and validates otherwise: see
//     rows_avx2.)
// Ids past 51 read table entries whose key is zero, so no input can index outside the
// tables. The scalar loop validates without a popcount (baseline x86-64 has none, and its
// libgcc call per hand doubled the time): the sum equals the OR of the cards' bits exactly
// when no two share a bit, and an id past 51 brings a bit no card has (kInvalidBit).
#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "capsa_fast/isa.hpp"
#include "capsa_fast/poker.hpp"
#include "poker_tables.inc"

#if defined(__x86_64__) && defined(__GNUC__)
// GCC 12 reports its own AVX-512 headers' _mm512_undefined_* idiom as maybe-uninitialized
// once they are inlined here; the warning is about the header, not this file's code.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#define CAPSA_FAST_X86 1
#else
#define CAPSA_FAST_X86 0
#endif

namespace capsa_fast::poker {
namespace {

using namespace tables;

constexpr std::uint64_t kSuitBias = std::uint64_t{0x3333} << 32;
constexpr std::uint64_t kFlushBits = std::uint64_t{0x8888} << 32;

constexpr int suit_major_bit(int card) { return 16 * (card & 3) + (card >> 2); }
// Bit 13 of the suit-0 group: above every rank, outside the flush table's 13-bit index.
constexpr std::uint64_t kInvalidBit = std::uint64_t{1} << 13;

// Per uint8 id: rank key + suit counter, and the suit-major card bit (past 51: key zero,
// mask kInvalidBit).
struct alignas(16) CardEntry {
  std::uint64_t key;
  std::uint64_t mask;
};
using CardTable = std::array<CardEntry, 256>;
constexpr CardTable make_card_table(const std::uint64_t (&keys)[kDeckSize]) {
  CardTable t{};
  for (auto& e : t) e = {0, kInvalidBit};
  for (int c = 0; c < kDeckSize; ++c)
    t[static_cast<std::size_t>(c)] = {keys[c], std::uint64_t{1} << suit_major_bit(c)};
  return t;
}
alignas(64) constexpr CardTable kCards5 = make_card_table(kCardKey5);
alignas(64) constexpr CardTable kCards7 = make_card_table(kCardKey7);

// 5-card rows use the 5-card hash (smaller); 3-, 6- and 7-card rows the 7-card one, which
// holds every size's entries.
template <int K>
inline Strength unsuited(std::uint64_t key) noexcept {
  const auto k = static_cast<std::uint32_t>(key);
  if constexpr (K == 5) {
    return kHash5Values[kHash5Offsets[k >> kHash5Shift] + (k & ((1u << kHash5Shift) - 1))];
  } else {
    return kHash7Values[kHash7Offsets[k >> kHash7Shift] + (k & ((1u << kHash7Shift) - 1))];
  }
}

// The scalar loop: the portable reference, also built for x86-64-v3 below. At most one
// suit can hold five of seven cards, and then the hand is a flush at least (no room for
// quads or a full house), so the flush table answers alone.
template <int K, bool Check, class Out>
__attribute__((always_inline)) inline bool rows_scalar(const std::uint8_t* p, std::size_t n,
                                                       Out* out) noexcept {
  const CardEntry* cards = (K == 5 ? kCards5 : kCards7).data();
#if CAPSA_FAST_X86
  // Key and mask side by side in one 128-bit register: one load and one add per card (and
  // one OR when validating); `clash` and `seen` gather the validation over the rows.
  __m128i clash = _mm_setzero_si128();
  __m128i seen = _mm_setzero_si128();
#else
  std::uint64_t clash = 0;
  std::uint64_t seen = 0;
#endif
  for (std::size_t i = 0; i < n; ++i, p += K) {
    std::uint64_t key, mask;
#if CAPSA_FAST_X86
    __m128i sum = _mm_set_epi64x(0, static_cast<long long>(kSuitBias));
    __m128i any = _mm_setzero_si128();
    for (int j = 0; j < K; ++j) {
      const __m128i e = _mm_load_si128(reinterpret_cast<const __m128i*>(cards + p[j]));
      sum = _mm_add_epi64(sum, e);
      if constexpr (Check) any = _mm_or_si128(any, e);
    }
    if constexpr (Check) {
      clash = _mm_or_si128(clash, _mm_xor_si128(sum, any));
      seen = _mm_or_si128(seen, any);
    }
    key = static_cast<std::uint64_t>(_mm_cvtsi128_si64(sum));
    mask = static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sum, sum)));
#else
    key = kSuitBias;
    mask = 0;
    std::uint64_t any = 0;
    for (int j = 0; j < K; ++j) {
      key += cards[p[j]].key;
      mask += cards[p[j]].mask;
      if constexpr (Check) any |= cards[p[j]].mask;
    }
    if constexpr (Check) {
      clash |= mask ^ any;
      seen |= any;
    }
#endif
    const std::uint64_t flush = key & kFlushBits;
    if (__builtin_expect(flush != 0, 0)) {
      const int suit = (__builtin_ctzll(flush) - 35) >> 2;
      out[i] = static_cast<Out>(kFlush[(mask >> (16 * suit)) & 0x1FFF]);
    } else {
      out[i] = static_cast<Out>(unsuited<K>(key));
    }
  }
  if constexpr (!Check) return true;
#if CAPSA_FAST_X86
  // The high halves hold the masks (the low halves' keys are not checked).
  const auto high = [](__m128i v) {
    return static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v)));
  };
  return high(clash) == 0 && (high(seen) & kInvalidBit) == 0;
#else
  return clash == 0 && (seen & kInvalidBit) == 0;
#endif
}

template <int K, bool Check, class Out>
bool rows_portable(const std::uint8_t* p, std::size_t n, Out* out) noexcept {
  return rows_scalar<K, Check, Out>(p, n, out);
}

#if CAPSA_FAST_X86

// AVX2 (x86-64-v3): 8 hands per step, each spread over 8 bytes, its cards' bytes in the
// order they came, and everything summed per hand with vpsadbw (the sum of each 8 bytes),
// so the cards never leave the bytes they were loaded in. No pext/pdep (microcode on Zen
// 1-2), and two gathers per 8 hands, as many loads as the scalar loop's hash makes.
//   1. Two hands per 16-byte load, four loads: hands 0,1 | 4,5 in one register and 2,3 |
//      6,7 in the other; vpshufb moves each hand to its own 8 bytes, the slots past K get
//      pad ids (distinct, past 51, bit 7 set, rank bits 13..15).
//   2. vpshufb looks each byte up in 16-entry tables: rank (id >> 2) to each byte of its
//      rank key (three tables: the key is 25 bits), and suit (the id's low bits; bit 7, a
//      pad, reads zero) to a one in the nibble of its suit (two tables, two suits each).
//      vpsadbw sums each table's bytes per hand: the key, shifted together, and the four
//      suit counters, +3 each so bit 3 says five or more: a flush.
//   3. Two gathers look the keys up in the same perfect hash. Flushes (3% of 7-card hands,
//      0.2% of 5-card ones) would mispredict a branch per step: their indices are appended
//      to a list (a table turns the step's flush lanes into indices), and the list is
//      settled every 512 hands, each one like the scalar loop's flush.
//   4. Validation: no byte of the step past 51 (before the pads), and no two cards of a
//      hand equal: each card against the (j + r) mod K-th for r = 1 .. K / 2, which meets
//      every pair (a regular tournament), one shuffle and one compare per round.
// Ids past 51 read rank keys of zero (13..15) or alias a rank (64 and up), so every key
// stays within the hash's bounds, and the flush index is masked to 13 bits. The input is
// prefetched 2 KB ahead and the output 1 KB ahead (the hardware prefetcher alone left a
// third of the time waiting on memory).
#define CAPSA_FAST_AVX2 __attribute__((target("avx2,bmi,bmi2,popcnt")))

struct alignas(32) Bytes32 {
  std::uint8_t v[32];
};
// A 16-byte table repeated in both 128-bit lanes (vpshufb stays within a lane).
constexpr Bytes32 both_lanes(const std::array<std::uint8_t, 16>& t) {
  Bytes32 b{};
  for (int i = 0; i < 32; ++i) b.v[i] = t[static_cast<std::size_t>(i % 16)];
  return b;
}
// Byte `byte` of each rank's key (ranks 13-15: zero).
constexpr Bytes32 rank_key_byte(const std::uint64_t (&keys)[kDeckSize], int byte) {
  std::array<std::uint8_t, 16> t{};
  for (int r = 0; r < 13; ++r)
    t[static_cast<std::size_t>(r)] = static_cast<std::uint8_t>(keys[4 * r] >> (8 * byte));
  return both_lanes(t);
}
// Per 16-byte lane: its two hands of K bytes moved to 8 bytes each, zero past the K-th.
template <int K>
constexpr Bytes32 spread() {
  std::array<std::uint8_t, 16> t{};
  for (int h = 0; h < 2; ++h)
    for (int j = 0; j < 8; ++j)
      t[static_cast<std::size_t>(8 * h + j)] = static_cast<std::uint8_t>(j < K ? K * h + j : 0x80);
  return both_lanes(t);
}
// The ids of the empty slots: distinct, past 51, bit 7 set and (id >> 2) & 15 in 13..15.
template <int K>
constexpr Bytes32 pads() {
  constexpr std::uint8_t kPad[5] = {0xB4, 0xB8, 0xBC, 0xF4, 0xF8};
  std::array<std::uint8_t, 16> t{};
  for (int h = 0; h < 2; ++h)
    for (int j = K; j < 8; ++j) t[static_cast<std::size_t>(8 * h + j)] = kPad[j - K];
  return both_lanes(t);
}
// Card j's slot gets card (j + r) mod K; the pad slots read zero, which no pad equals.
template <int K>
constexpr Bytes32 pair_round(int r) {
  std::array<std::uint8_t, 16> t{};
  for (int h = 0; h < 2; ++h)
    for (int j = 0; j < 8; ++j)
      t[static_cast<std::size_t>(8 * h + j)] =
          static_cast<std::uint8_t>(j < K ? 8 * h + (j + r) % K : 0x80);
  return both_lanes(t);
}
// One in the nibble of the id's suit: suits 0-1 (first = 0) or 2-3 (first = 2).
constexpr Bytes32 suit_units(int first) {
  std::array<std::uint8_t, 16> t{};
  for (int i = 0; i < 16; ++i) {
    const int s = (i & 3) - first;
    t[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(s == 0 ? 1 : s == 1 ? 16 : 0);
  }
  return both_lanes(t);
}
// For each set of flush lanes (lane order h0 h2 h1 h3 h4 h6 h5 h7, as packed below): the
// hands of its lanes, from byte 0.
struct alignas(8) Hands8 {
  std::uint8_t v[8];
};
constexpr std::array<Hands8, 256> make_flush_hands() {
  std::array<Hands8, 256> t{};
  constexpr std::uint8_t kHand[8] = {0, 2, 1, 3, 4, 6, 5, 7};
  for (int m = 0; m < 256; ++m) {
    int c = 0;
    for (int l = 0; l < 8; ++l)
      if ((m >> l & 1) != 0) t[static_cast<std::size_t>(m)].v[c++] = kHand[l];
  }
  return t;
}
template <int K>
inline constexpr Bytes32 kSpread = spread<K>();
template <int K>
inline constexpr Bytes32 kPads = pads<K>();
template <int K>
inline constexpr Bytes32 kPairRounds[3] = {pair_round<K>(1), pair_round<K>(2), pair_round<K>(3)};
constexpr Bytes32 kSuitsLow = suit_units(0), kSuitsHigh = suit_units(2);
constexpr Bytes32 kKeyBytes5[3] = {rank_key_byte(kCardKey5, 0), rank_key_byte(kCardKey5, 1),
                                   rank_key_byte(kCardKey5, 2)};
constexpr Bytes32 kKeyBytes7[3] = {rank_key_byte(kCardKey7, 0), rank_key_byte(kCardKey7, 1),
                                   rank_key_byte(kCardKey7, 2)};
constexpr std::array<Hands8, 256> kFlushHands = make_flush_hands();

CAPSA_FAST_AVX2 inline __m256i load32(const Bytes32& b) {
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(b.v));
}

template <int K, bool Check, class Out>
CAPSA_FAST_AVX2 bool rows_avx2(const std::uint8_t* p, std::size_t n, Out* out) noexcept {
  constexpr int kShift = K == 5 ? kHash5Shift : kHash7Shift;
  const std::uint32_t* offsets = K == 5 ? kHash5Offsets : kHash7Offsets;
  const std::uint16_t* values = K == 5 ? kHash5Values : kHash7Values;
  const CardEntry* cards = (K == 5 ? kCards5 : kCards7).data();
  const Bytes32* key_bytes = K == 5 ? kKeyBytes5 : kKeyBytes7;
  const __m256i spread_k = load32(kSpread<K>), pads_k = load32(kPads<K>);
  const __m256i key0 = load32(key_bytes[0]), key1 = load32(key_bytes[1]), key2 = load32(key_bytes[2]);
  const __m256i suits_low = load32(kSuitsLow), suits_high = load32(kSuitsHigh);
  const __m256i low4 = _mm256_set1_epi8(0x0F);
  const __m256i zero = _mm256_setzero_si256();
  const __m256i flush_bias = _mm256_set1_epi64x(0x3333), flush_bits = _mm256_set1_epi64x(0x8888);
  const __m256i low_bits = _mm256_set1_epi32((1 << kShift) - 1), low16 = _mm256_set1_epi32(0xFFFF);
  constexpr int kInputAhead = 2048, kOutputAhead = 1024;  // prefetch distances, bytes
  __m256i top = zero;   // byte-wise largest id of the step's cards
  __m256i same = zero;  // bytes where two cards of a hand were equal
  // A step reads 16 - 2K bytes past its own 8K: it runs while whole rows are there.
  constexpr std::size_t kRowsPast = (16 - 2 * K + K - 1) / K;
  constexpr std::size_t kBlock = 512;  // hands per flush list
  alignas(32) std::uint32_t flushes[kBlock + 8];  // hands since block_i (8 written a step)
  std::size_t n_flushes = 0, block_i = 0;
  const std::uint8_t* block_p = p;
  const auto settle = [&]() {
    for (std::size_t f = 0; f < n_flushes; ++f) {
      const std::size_t h = block_i + flushes[f];
      const std::uint8_t* row = block_p + K * (h - block_i);
      std::uint64_t key = kSuitBias, mask = 0;
      for (int j = 0; j < K; ++j) {
        key += cards[row[j]].key;
        mask += cards[row[j]].mask;
      }
      // A row the vector counted a flush in holds one (unless it is invalid: then any suit).
      const int suit = ((__builtin_ctzll((key & kFlushBits) | (std::uint64_t{1} << 63)) - 35) >> 2) & 3;
      out[h] = static_cast<Out>(kFlush[(mask >> (16 * suit)) & 0x1FFF]);
    }
    n_flushes = 0;
  };
  std::size_t i = 0;
  for (; i + 8 + kRowsPast <= n; i += 8, p += 8 * K) {
    if constexpr (K >= 5) {
      if (i - block_i == kBlock) {
        settle();
        block_p = p;
        block_i = i;
      }
    }
    _mm_prefetch(reinterpret_cast<const char*>(p) + kInputAhead, _MM_HINT_T0);
    _mm_prefetch(reinterpret_cast<const char*>(out + i) + kOutputAhead, _MM_HINT_T0);
    const __m256i loaded[2] = {
        _mm256_loadu2_m128i(reinterpret_cast<const __m128i*>(p + 4 * K), reinterpret_cast<const __m128i*>(p)),
        _mm256_loadu2_m128i(reinterpret_cast<const __m128i*>(p + 6 * K),
                            reinterpret_cast<const __m128i*>(p + 2 * K))};
    __m256i key[2], flush[2];
    for (int h = 0; h < 2; ++h) {
      __m256i c = _mm256_shuffle_epi8(loaded[h], spread_k);
      if constexpr (Check) top = _mm256_max_epu8(top, c);
      c = _mm256_or_si256(c, pads_k);
      if constexpr (Check) {
        for (int r = 0; r < K / 2; ++r) {
          const __m256i other = _mm256_shuffle_epi8(c, load32(kPairRounds<K>[r]));
          same = _mm256_or_si256(same, _mm256_cmpeq_epi8(c, other));
        }
      }
      // The shift brings the next byte's low bits into bits 6-7: the mask drops them.
      const __m256i rank = _mm256_and_si256(_mm256_srli_epi16(c, 2), low4);
      const __m256i s0 = _mm256_sad_epu8(_mm256_shuffle_epi8(key0, rank), zero);
      const __m256i s1 = _mm256_sad_epu8(_mm256_shuffle_epi8(key1, rank), zero);
      const __m256i s2 = _mm256_sad_epu8(_mm256_shuffle_epi8(key2, rank), zero);
      key[h] = _mm256_add_epi64(_mm256_add_epi64(s0, _mm256_slli_epi64(s1, 8)), _mm256_slli_epi64(s2, 16));
      // vpshufb reads the id's low 4 bits (the suit is bits 0-1) and gives zero for bit 7.
      const __m256i low = _mm256_sad_epu8(_mm256_shuffle_epi8(suits_low, c), zero);
      const __m256i high = _mm256_sad_epu8(_mm256_shuffle_epi8(suits_high, c), zero);
      const __m256i counters = _mm256_or_si256(low, _mm256_slli_epi64(high, 8));
      flush[h] = _mm256_and_si256(_mm256_add_epi64(counters, flush_bias), flush_bits);
    }
    // 32-bit lanes h0 h2 h1 h3 | h4 h6 h5 h7, then in order.
    __m256i k32 = _mm256_blend_epi32(key[0], _mm256_slli_epi64(key[1], 32), 0xAA);
    k32 = _mm256_shuffle_epi32(k32, _MM_SHUFFLE(3, 1, 2, 0));
    const __m256i row_offset =
        _mm256_i32gather_epi32(reinterpret_cast<const int*>(offsets), _mm256_srli_epi32(k32, kShift), 4);
    const __m256i slot = _mm256_add_epi32(row_offset, _mm256_and_si256(k32, low_bits));
    const __m256i strength =
        _mm256_and_si256(_mm256_i32gather_epi32(reinterpret_cast<const int*>(values), slot, 2), low16);
    if constexpr (std::is_same_v<Out, std::int32_t>) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), strength);
    } else {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i),
                       _mm_packus_epi32(_mm256_castsi256_si128(strength), _mm256_extracti128_si256(strength, 1)));
    }
    if constexpr (K >= 5) {
      // The step's flush hands (lanes in the order of k32 before its shuffle) onto the list.
      const __m256i any = _mm256_or_si256(flush[0], _mm256_slli_epi64(flush[1], 32));
      const auto lanes = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(any, zero))));
      const __m256i hands = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(kFlushHands[lanes].v)));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(flushes + n_flushes),
                          _mm256_add_epi32(hands, _mm256_set1_epi32(static_cast<int>(i - block_i))));
      n_flushes += static_cast<std::size_t>(__builtin_popcount(lanes));
    }
  }
  if constexpr (K >= 5) settle();
  bool ok = true;
  if constexpr (Check) {
    const __m256i deck = _mm256_set1_epi8(kDeckSize);
    ok = _mm256_testz_si256(same, same) &&
         _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_min_epu8(top, deck), deck)) == 0;
  }
  const bool tail_ok = rows_scalar<K, Check, Out>(p, n - i, out + i);
  return ok && tail_ok;
}

// AVX-512: 16 hands per step, one 32-bit lane each.
//   1. The step's 16 * K bytes are loaded into two registers and each id is replaced by
//      16 * suit + rank (vpermb; 0xFF for ids 52..63, which then add no rank key and set
//      bit 31 of `hi`, a rank that does not exist: only unvalidated results of invalid
//      rows change, and no index leaves its table).
//   2. vpermt2b gathers bytes K * i .. K * i + 3 into lane i, and the step's other cards
//      into a second register (with more than 4 cards): card j is byte j % 4 of a lane,
//      brought down by a shift (vpermt2b is two operations, the shift one). Its rank key
//      comes from a 16-entry in-register table (vpermd reads the low 4 bits: the rank)
//      and its mask bit from a rotate, suits 0-1 in `lo` and 2-3 in `hi`.
//   3. Two gathers look the keys up in the perfect hash. A 16-bit word (one suit) with
//      five bits or more marks a flush, and the word itself is the flush table's index:
//      such a lane's second gather reads the flush table instead, so flushes cost no
//      branch (a third of the 7-card steps hold one) and no gather of their own.
//   4. Validation: the mask has K bits (popcount), and no byte of the input exceeds 51
//      (ids of 64 and more alias under vpermb, so their bytes are checked as loaded).
// vpermb, the 7-bit vpermt2b indices and the 13-bit flush index keep every table access
// in bounds for any input.
#define CAPSA_FAST_AVX512 \
  __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi,avx512vpopcntdq,avx512bitalg,bmi,bmi2,popcnt")))

struct alignas(64) Bytes64 {
  std::uint8_t v[64];
};
struct alignas(64) Words16 {
  std::uint32_t v[16];
};

constexpr Bytes64 make_remap() {
  Bytes64 t{};
  for (int c = 0; c < 64; ++c)
    t.v[c] = static_cast<std::uint8_t>(c < kDeckSize ? 16 * (c & 3) + (c >> 2) : 0xFF);
  return t;
}
constexpr Words16 make_rank_keys(const std::uint64_t (&keys)[kDeckSize]) {
  Words16 t{};
  for (int r = 0; r < 13; ++r) t.v[r] = static_cast<std::uint32_t>(keys[4 * r]);
  return t;
}
// Lane i of group g gets the bytes of cards 4g .. 4g + 3 of hand i (bytes past the K-th
// card are zeroed by column_mask and never read as cards).
constexpr int groups(int k) { return (k + 3) / 4; }
template <int K>
constexpr std::array<Bytes64, groups(K)> make_columns() {
  std::array<Bytes64, groups(K)> t{};
  for (int g = 0; g < groups(K); ++g)
    for (int i = 0; i < 16; ++i)
      for (int b = 0; b < 4; ++b) {
        const int j = 4 * g + b;
        t[static_cast<std::size_t>(g)].v[4 * i + b] = static_cast<std::uint8_t>(j < K ? K * i + j : 0);
      }
  return t;
}
template <int K>
constexpr __mmask64 column_mask(int g) {
  __mmask64 m = 0;
  for (int b = 0; b < 4; ++b)
    if (4 * g + b < K) m |= 0x1111111111111111ull << b;
  return m;
}
constexpr Bytes64 kRemap = make_remap();
constexpr Words16 kRankKeys5 = make_rank_keys(kCardKey5);
constexpr Words16 kRankKeys7 = make_rank_keys(kCardKey7);
template <int K>
constexpr std::array<Bytes64, groups(K)> kColumns = make_columns<K>();

template <int K, bool Check, class Out>
CAPSA_FAST_AVX512 bool rows_avx512(const std::uint8_t* p, std::size_t n, Out* out) noexcept {
  constexpr int kBytes = 16 * K;  // 48, 80, 96 or 112
  constexpr __mmask64 kLoadA = kBytes >= 64 ? ~__mmask64{0} : (__mmask64{1} << kBytes) - 1;
  constexpr __mmask64 kLoadB = kBytes > 64 ? (__mmask64{1} << (kBytes - 64)) - 1 : 0;
  constexpr int kShift = K == 5 ? kHash5Shift : kHash7Shift;
  constexpr int kPrefetch = 1024;  // bytes ahead
  const std::uint32_t* offsets = K == 5 ? kHash5Offsets : kHash7Offsets;
  const std::uint16_t* values = K == 5 ? kHash5Values : kHash7Values;

  const __m512i remap = _mm512_load_si512(kRemap.v);
  const __m512i rank_keys = _mm512_load_si512((K == 5 ? kRankKeys5 : kRankKeys7).v);
  constexpr int kGroups = groups(K);
  __m512i column[kGroups];
  for (int g = 0; g < kGroups; ++g) column[g] = _mm512_load_si512(kColumns<K>[static_cast<std::size_t>(g)].v);
  const __m512i one = _mm512_set1_epi32(1);
  const __m512i low16 = _mm512_set1_epi32(0xFFFF);
  const __m512i low_bits = _mm512_set1_epi32((1 << kShift) - 1);
  const __m512i five = _mm512_set1_epi16(5);
  const __m512i low13 = _mm512_set1_epi32(0x1FFF);
  const __m512i count = _mm512_set1_epi32(K);
  // kFlush as slots of `values`: both are uint16 tables in the same binary, so a flush
  // lane's strength is read by the gather that reads the others'.
  const __m512i flush_slot = _mm512_set1_epi32(static_cast<int>(
      (reinterpret_cast<std::intptr_t>(kFlush) - reinterpret_cast<std::intptr_t>(values)) /
      static_cast<std::intptr_t>(sizeof(std::uint16_t))));

  __m512i top = _mm512_setzero_si512();  // byte-wise largest id loaded
  __mmask16 bad = 0;
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16, p += kBytes) {
    // The hardware prefetcher alone leaves the loop waiting on its input (9% with 7 cards).
    _mm_prefetch(reinterpret_cast<const char*>(p) + kPrefetch, _MM_HINT_T0);
    _mm_prefetch(reinterpret_cast<const char*>(p) + kPrefetch + 64, _MM_HINT_T0);
    __m512i a = kBytes >= 64 ? _mm512_loadu_si512(p) : _mm512_maskz_loadu_epi8(kLoadA, p);
    __m512i b = kLoadB ? _mm512_maskz_loadu_epi8(kLoadB, p + 64) : _mm512_setzero_si512();
    if constexpr (Check) top = _mm512_max_epu8(top, _mm512_max_epu8(a, b));
    a = _mm512_permutexvar_epi8(a, remap);
    b = _mm512_permutexvar_epi8(b, remap);
    __m512i key = _mm512_setzero_si512();
    __m512i lo = _mm512_setzero_si512();
    __m512i hi = _mm512_setzero_si512();
    __m512i group[kGroups];
    for (int g = 0; g < kGroups; ++g)
      group[g] = _mm512_maskz_permutex2var_epi8(column_mask<K>(g), a, column[g], b);
    for (int j = 0; j < K; ++j) {
      // Card j is byte j % 4 of its group's lanes; vpermd reads only the low 4 bits of a
      // lane and the rotate the low 5, so a shift brings it down, and bit 5 (suits 2-3)
      // is tested where it is.
      const __m512i x = j % 4 == 0 ? group[j / 4] : _mm512_srli_epi32(group[j / 4], 8 * (j % 4));
      key = _mm512_add_epi32(key, _mm512_permutexvar_epi32(x, rank_keys));
      // The card's bit, rotated into 32 bits: added to `lo` always and to `hi` for suits
      // 2-3; `lo` minus `hi` is then the bits of suits 0-1 (modulo 2^32, which a carry
      // between the halves cannot escape). A repeated card carries, so the popcounts
      // still see it. A rotate, a test and two adds a card, no mask inverted.
      const __m512i bit = _mm512_rolv_epi32(one, x);
      lo = _mm512_add_epi32(lo, bit);
      const __m512i suit_bit = _mm512_set1_epi32(32 << (8 * (j % 4)));
      hi = _mm512_mask_add_epi32(hi, _mm512_test_epi32_mask(group[j / 4], suit_bit), hi, bit);
    }
    lo = _mm512_sub_epi32(lo, hi);
    const __m512i row_offset =
        _mm512_i32gather_epi32(_mm512_srli_epi32(key, kShift), reinterpret_cast<const int*>(offsets), 4);
    __m512i slot = _mm512_add_epi32(row_offset, _mm512_and_si512(key, low_bits));
    // Cards per suit (one 16-bit word each): the flush test, and their sum per lane
    // (vpmaddwd) for the validation.
    const __m512i count_lo = _mm512_popcnt_epi16(lo), count_hi = _mm512_popcnt_epi16(hi);
    if constexpr (K >= 5) {
      // Flushes without a branch or a gather of their own. Only the words of suits with
      // five cards or more are kept; a lane has at most one (seven cards), so folding its
      // two words together leaves that suit's 13 rank bits, the flush table's index. A
      // flush lane's slot is moved into the flush table, read by the same gather.
      const __m512i lo5 = _mm512_maskz_mov_epi16(_mm512_cmpge_epu16_mask(count_lo, five), lo);
      const __m512i hi5 = _mm512_maskz_mov_epi16(_mm512_cmpge_epu16_mask(count_hi, five), hi);
      const __m512i both = _mm512_or_si512(lo5, hi5);
      const __m512i suited = _mm512_and_si512(_mm512_or_si512(both, _mm512_srli_epi32(both, 16)), low13);
      slot = _mm512_mask_add_epi32(slot, _mm512_test_epi32_mask(suited, suited), suited, flush_slot);
    }
    const __m512i strength =
        _mm512_and_si512(_mm512_i32gather_epi32(slot, reinterpret_cast<const int*>(values), 2), low16);
    if constexpr (Check) {
      const __m512i cards = _mm512_madd_epi16(_mm512_add_epi16(count_lo, count_hi), _mm512_set1_epi16(1));
      bad = static_cast<__mmask16>(bad | _mm512_cmpneq_epi32_mask(cards, count));
    }
    if constexpr (std::is_same_v<Out, std::int32_t>) {
      _mm512_storeu_si512(out + i, strength);
    } else {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), _mm512_cvtepi32_epi16(strength));
    }
  }
  if constexpr (Check) {
    if (_mm512_cmpge_epu8_mask(top, _mm512_set1_epi8(kDeckSize)) != 0) bad = 1;
  }
  const bool tail_ok = rows_scalar<K, Check, Out>(p, n - i, out + i);
  return bad == 0 && tail_ok;
}

#endif  // CAPSA_FAST_X86

template <class Out, bool Check>
bool run_rows(BatchPath path, const std::uint8_t* p, std::size_t n, int k, Out* out) noexcept {
#if CAPSA_FAST_X86
  if (path == BatchPath::kAvx512) {
    switch (k) {
      case 3: return rows_avx512<3, Check, Out>(p, n, out);
      case 5: return rows_avx512<5, Check, Out>(p, n, out);
      case 6: return rows_avx512<6, Check, Out>(p, n, out);
      default: return rows_avx512<7, Check, Out>(p, n, out);
    }
  }
  if (path == BatchPath::kX86_64_V3) {
    switch (k) {
      case 3: return rows_avx2<3, Check, Out>(p, n, out);
      case 5: return rows_avx2<5, Check, Out>(p, n, out);
      case 6: return rows_avx2<6, Check, Out>(p, n, out);
      default: return rows_avx2<7, Check, Out>(p, n, out);
    }
  }
#else
  (void)path;
#endif
  switch (k) {
    case 3: return rows_portable<3, Check, Out>(p, n, out);
    case 5: return rows_portable<5, Check, Out>(p, n, out);
    case 6: return rows_portable<6, Check, Out>(p, n, out);
    default: return rows_portable<7, Check, Out>(p, n, out);
  }
}

bool cpu_supports(BatchPath p) noexcept {
  if (p == BatchPath::kPortable) return true;
#if CAPSA_FAST_X86
  __builtin_cpu_init();
  const bool v3 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
                  __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
  if (p == BatchPath::kX86_64_V3) return v3;
  if (p == BatchPath::kAvx512) {
    return v3 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vbmi") &&
           __builtin_cpu_supports("avx512vpopcntdq") && __builtin_cpu_supports("avx512bitalg");
  }
#endif
  return false;
}

// The instruction-set level a loop needs (isa.hpp caps it).
Isa level_of(BatchPath p) noexcept {
  switch (p) {
    case BatchPath::kPortable: return Isa::kPortable;
    case BatchPath::kX86_64_V3: return Isa::kAvx2;
    case BatchPath::kAvx512: return Isa::kAvx512;
  }
  return Isa::kAvx512;
}

bool runnable(BatchPath p) noexcept { return isa_allowed(level_of(p)) && cpu_supports(p); }

BatchPath best_path() noexcept {
  for (int p = kNumBatchPaths - 1; p > 0; --p)
    if (runnable(static_cast<BatchPath>(p))) return static_cast<BatchPath>(p);
  return BatchPath::kPortable;
}

// -1 until first use; then the path every call takes.
std::atomic<int> g_path{-1};

// Ids of any integer type as uint8: anything outside 0..255 becomes 255, an invalid id.
template <class T>
inline std::uint8_t narrow_id(T v) noexcept {
  if constexpr (std::is_same_v<T, std::uint8_t>) {
    return v;
  } else if constexpr (std::is_same_v<T, std::int8_t>) {
    return v < 0 ? std::uint8_t{255} : static_cast<std::uint8_t>(v);
  } else {
    // One unsigned test covers both ends (a negative id is a huge unsigned one), which the
    // flat loop below vectorises well.
    using U = std::make_unsigned_t<T>;
    return static_cast<U>(v) >> 8 != 0 ? std::uint8_t{255} : static_cast<std::uint8_t>(v);
  }
}

template <class T, class Out>
bool batch_any(const T* cards, std::size_t n, int k, std::ptrdiff_t rs, std::ptrdiff_t cs,
               Out* out, bool check) noexcept {
  if (k != 3 && k != 5 && k != 6 && k != 7) return false;
  const BatchPath path = batch_path();
  if constexpr (std::is_same_v<T, std::uint8_t>) {
    if (cs == 1 && rs == k) {
      return check ? run_rows<Out, true>(path, cards, n, k, out)
                   : run_rows<Out, false>(path, cards, n, k, out);
    }
  }
  // Other types and layouts: narrowed into contiguous rows a block at a time.
  constexpr std::size_t kBlock = 1024;
  alignas(64) std::uint8_t buf[kBlock * 7];
  bool ok = true;
  for (std::size_t i = 0; i < n; i += kBlock) {
    const std::size_t m = std::min(kBlock, n - i);
    const T* row = cards + static_cast<std::ptrdiff_t>(i) * rs;
    if (cs == 1 && rs == k && sizeof(T) <= 4) {
      // Contiguous rows of ids up to 32 bits: one flat loop, which the compiler vectorises
      // (1.3-1.7x the nested loop below; 64-bit ids are bound by memory either way, and
      // measured 3-7% slower this way).
      const std::size_t count = m * static_cast<std::size_t>(k);
      for (std::size_t e = 0; e < count; ++e) buf[e] = narrow_id(row[e]);
    } else {
      std::uint8_t* dst = buf;
      for (std::size_t r = 0; r < m; ++r, row += rs)
        for (int j = 0; j < k; ++j) *dst++ = narrow_id(row[j * cs]);
    }
    ok &= check ? run_rows<Out, true>(path, buf, m, k, out + i)
                : run_rows<Out, false>(path, buf, m, k, out + i);
  }
  return ok;
}

}  // namespace

const char* batch_path_name(BatchPath p) noexcept {
  switch (p) {
    case BatchPath::kPortable: return "portable";
    case BatchPath::kX86_64_V3: return "x86-64-v3";
    case BatchPath::kAvx512: return "avx512";
  }
  return "?";
}

bool batch_path_supported(BatchPath p) noexcept {
  return static_cast<int>(p) < kNumBatchPaths && runnable(p);
}

BatchPath batch_path() noexcept {
  int p = g_path.load(std::memory_order_relaxed);
  if (p < 0) {
    p = static_cast<int>(best_path());
    g_path.store(p, std::memory_order_relaxed);
  }
  return static_cast<BatchPath>(p);
}

void set_batch_path(BatchPath p) {
  if (static_cast<int>(p) >= kNumBatchPaths) {
    throw std::invalid_argument("not a batch path: " + std::to_string(static_cast<int>(p)));
  }
  if (!cpu_supports(p)) {
    throw std::invalid_argument(std::string("this CPU cannot run the ") + batch_path_name(p) +
                                " batch loop");
  }
  if (!isa_allowed(level_of(p))) {
    throw std::invalid_argument(std::string("the ") + batch_path_name(p) +
                                " batch loop is above CAPSA_FAST_ISA=" + isa_name(isa_cap()));
  }
  g_path.store(static_cast<int>(p), std::memory_order_relaxed);
}

template <class T>
bool evaluate_batch(const T* cards, std::size_t n_hands, int k, std::ptrdiff_t row_stride,
                    std::ptrdiff_t col_stride, Strength* out, bool check) noexcept {
  return batch_any(cards, n_hands, k, row_stride, col_stride, out, check);
}

template <class T>
bool evaluate_batch(const T* cards, std::size_t n_hands, int k, std::ptrdiff_t row_stride,
                    std::ptrdiff_t col_stride, std::int32_t* out, bool check) noexcept {
  return batch_any(cards, n_hands, k, row_stride, col_stride, out, check);
}

template <class T>
std::size_t find_invalid_row(const T* cards, std::size_t n_hands, int k,
                             std::ptrdiff_t row_stride, std::ptrdiff_t col_stride) noexcept {
  const T* p = cards;
  for (std::size_t i = 0; i < n_hands; ++i, p += row_stride) {
    std::uint64_t seen = 0;
    bool bad = false;
    for (int j = 0; j < k; ++j) {
      const T v = p[j * col_stride];
      // Ids are compared as signed 64-bit values so negative ids of any type are caught.
      const auto id = static_cast<long long>(v);
      const bool out_of_range = id < 0 || id >= kDeckSize;
      const std::uint64_t bit = out_of_range ? 0 : std::uint64_t{1} << id;
      bad |= out_of_range || (seen & bit) != 0;
      seen |= bit;
    }
    if (bad) return i;
  }
  return n_hands;
}

#define CAPSA_FAST_INSTANTIATE(T)                                                           \
  template bool evaluate_batch<T>(const T*, std::size_t, int, std::ptrdiff_t,              \
                                  std::ptrdiff_t, Strength*, bool) noexcept;               \
  template bool evaluate_batch<T>(const T*, std::size_t, int, std::ptrdiff_t,              \
                                  std::ptrdiff_t, std::int32_t*, bool) noexcept;           \
  template std::size_t find_invalid_row<T>(const T*, std::size_t, int, std::ptrdiff_t,     \
                                           std::ptrdiff_t) noexcept;
CAPSA_FAST_INSTANTIATE(std::int8_t)
CAPSA_FAST_INSTANTIATE(std::uint8_t)
CAPSA_FAST_INSTANTIATE(std::int16_t)
CAPSA_FAST_INSTANTIATE(std::uint16_t)
CAPSA_FAST_INSTANTIATE(std::int32_t)
CAPSA_FAST_INSTANTIATE(std::uint32_t)
CAPSA_FAST_INSTANTIATE(std::int64_t)
CAPSA_FAST_INSTANTIATE(std::uint64_t)
#undef CAPSA_FAST_INSTANTIATE

}  // namespace capsa_fast::poker
