#include "capsa_fast/susun.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "capsa_fast/isa.hpp"
#include "capsa_fast/poker_hand.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

// Percentile units per row key (cpp/tools/gen_susun.cpp).
#include "susun_tables.inc"

namespace capsa_fast::susun {
namespace {

constexpr unsigned kAll13 = (1u << 13) - 1;
constexpr int kNumThrees = 286;   // C(13, 3)
constexpr int kNumFives = 1287;   // C(13, 5)
constexpr int kPairsPerTop = 126; // unordered splits of 10 positions into two fives

// The shape of every arrangement, the same for all hands. Subsets of the 13 positions are
// numbered in the order of nested loops a < b < c (< d < e); for each of the 286 top rows,
// the 126 ways to split the other 10 positions into two unordered 5-sets, by number. With
// a top row fixed, each split is one arrangement: the stronger five is the bottom row and
// the weaker one the middle row. The per-hand tables below are indexed by these numbers,
// so the whole search works on a few KB that stay in L1.
struct Splits {
  std::array<std::uint16_t, kNumThrees> three_mask{};
  std::array<std::uint16_t, kNumFives> five_mask{};
  std::array<std::array<std::array<std::uint16_t, 2>, kPairsPerTop>, kNumThrees> fives{};
  // The same pairs packed as x | y << 16 and padded to 128 with the sentinel five number
  // kNumFives (whose per-hand entries make a split invalid), for the vector kernels.
  std::array<std::array<std::uint32_t, 128>, kNumThrees> packed{};
  Splits() {
    std::array<std::uint16_t, 8192> five_number{};
    int n3 = 0, n5 = 0;
    for (int a = 0; a < 13; ++a)
      for (int b = a + 1; b < 13; ++b)
        for (int c = b + 1; c < 13; ++c) {
          const unsigned m3 = 1u << a | 1u << b | 1u << c;
          three_mask[static_cast<std::size_t>(n3++)] = static_cast<std::uint16_t>(m3);
          for (int d = c + 1; d < 13; ++d)
            for (int e = d + 1; e < 13; ++e) {
              const unsigned m5 = m3 | 1u << d | 1u << e;
              five_number[m5] = static_cast<std::uint16_t>(n5);
              five_mask[static_cast<std::size_t>(n5++)] = static_cast<std::uint16_t>(m5);
            }
        }
    for (std::size_t i = 0; i < kNumThrees; ++i) {
      const unsigned rest = kAll13 ^ three_mask[i];
      const unsigned first = rest & (~rest + 1);
      std::size_t m = 0;
      for (unsigned x = rest; x; x = (x - 1) & rest) {  // every subset of rest
        if (!(x & first) || popcount(x) != 5) continue;
        fives[i][m++] = {five_number[x], five_number[rest ^ x]};
      }
      for (std::size_t j = 0; j < 128; ++j) {
        packed[i][j] = j < kPairsPerTop
                           ? fives[i][j][0] | static_cast<std::uint32_t>(fives[i][j][1]) << 16
                           : kNumFives | static_cast<std::uint32_t>(kNumFives) << 16;
      }
    }
  }
  static int popcount(unsigned x) {
    int n = 0;
    for (; x; x &= x - 1) ++n;
    return n;
  }
};
const Splits& splits() {
  static const Splits s;
  return s;
}

// Everything the search reads about one hand, by subset number.
// The AVX-512 kernels read a key as the 32-bit word at its address and drop the upper
// half, so each key array is followed by more of this struct (the last key5's word ends in
// the padding before units3), never by the end of the object.
struct SubsetTables {
  std::array<RowKey, kNumThrees> key3;
  std::array<RowKey, kNumFives> key5;
  std::array<std::uint32_t, kNumThrees> units3;  // percentile units
  std::array<std::uint32_t, kNumFives> units5;
  std::array<poker::Strength, kNumThrees> strength3;
  std::array<poker::Strength, kNumFives> strength5;
};

// Per strength: the rank whose highest suit breaks ties, the key before that suit
// (group_strength * 4), and whether it is a flush; the three together in `key`, so that
// building a hand's tables reads one word per subset.
struct TiebreakInfo {
  struct Key {
    RowKey base;
    std::int8_t rank;
    bool flush;
  };
  std::array<Key, poker::kMaxStrength + 1> key{};
  std::array<std::uint8_t, poker::kMaxStrength + 1> category{};
  int flush_first = 0, flush_span = 0;
  TiebreakInfo() {
    for (int st = 1; st <= poker::kMaxStrength; ++st) {
      const auto s = static_cast<poker::Strength>(st);
      const poker::Description d = poker::describe(s);
      key[static_cast<std::size_t>(st)] = {static_cast<RowKey>(group_strength(s) * 4),
                                           static_cast<std::int8_t>(d.ranks[0]),
                                           d.category == poker::Category::kFlush};
      category[static_cast<std::size_t>(st)] = static_cast<std::uint8_t>(d.category);
    }
    flush_first = poker::category_start(static_cast<int>(poker::Category::kFlush));
    flush_span = poker::category_start(static_cast<int>(poker::Category::kFlush) + 1) - flush_first;
  }
};
const TiebreakInfo kTiebreak;
constexpr int kSuitPosition[4] = {1, 0, 2, 3};  // d < c < h < s, by suit id

// The same key as row_key(), from a strength and the subset's positions in the hand.
// Contract: the hand is in order_for_tiebreak() order, so the highest set position among a
// rank's positions is that rank's highest suit.
inline RowKey tiebreak_key(poker::Strength st, unsigned subset, const int* suit_position,
                           const unsigned* rank_positions) {
  const TiebreakInfo::Key info = kTiebreak.key[st];
  if (info.flush) {
    const int suit = suit_position[__builtin_ctz(subset)];
    return static_cast<RowKey>(kTiebreak.flush_first * 4 + suit * kTiebreak.flush_span +
                               (st - kTiebreak.flush_first));
  }
  const unsigned group = subset & rank_positions[info.rank];
  return static_cast<RowKey>(info.base + suit_position[31 - __builtin_clz(group)]);
}

// The hand sorted by rank, then Susun suit order (the search's working order), and where
// each sorted card came from.
struct SortedHand {
  std::array<int, 13> cards;
  std::array<std::uint8_t, 13> from;
  explicit SortedHand(const int* cards13) {
    std::array<std::uint8_t, 13> idx;
    for (std::uint8_t i = 0; i < 13; ++i) idx[i] = i;
    auto order = [&](std::uint8_t i) { return rank_of(cards13[i]) * 4 + kSuitPosition[suit_of(cards13[i])]; };
    std::sort(idx.begin(), idx.end(), [&](std::uint8_t a, std::uint8_t b) { return order(a) < order(b); });
    for (std::size_t i = 0; i < 13; ++i) {
      from[i] = idx[i];
      cards[i] = cards13[idx[i]];
    }
  }
};

// Contract: cards13 in SortedHand order. The reference for build_tables_avx512().
void build_tables_scalar(const int* cards13, const Rules& rules, bool with_units, SubsetTables& t) {
  const bool tb = rules.suit_tiebreak;
  const std::uint32_t* u3 = tb ? tables::kUnits3Tiebreak : tables::kUnits3Plain;
  const std::uint32_t* u5 = tb ? tables::kUnits5Tiebreak : tables::kUnits5Plain;
  unsigned rank_positions[13] = {};
  int suit_position[13];
  for (int i = 0; i < 13; ++i) {
    rank_positions[rank_of(cards13[i])] |= 1u << i;
    suit_position[i] = kSuitPosition[suit_of(cards13[i])];
  }
  auto key_of = [&](poker::Strength st, unsigned subset) {
    return tb ? tiebreak_key(st, subset, suit_position, rank_positions) : static_cast<RowKey>(st * 4);
  };
  // The cards are summed as the loops nest (poker::Hand), so each five costs one card
  // added and one evaluation, inline.
  std::size_t n3 = 0, n5 = 0;
  for (int a = 0; a < 13; ++a) {
    const poker::Hand ha = poker::Hand() + cards13[a];
    for (int b = a + 1; b < 13; ++b) {
      const poker::Hand hab = ha + cards13[b];
      for (int c = b + 1; c < 13; ++c) {
        const poker::Hand habc = hab + cards13[c];
        const unsigned m3 = 1u << a | 1u << b | 1u << c;
        const poker::Strength s3 = habc.evaluate();
        t.key3[n3] = key_of(s3, m3);
        t.strength3[n3] = s3;
        if (with_units) t.units3[n3] = u3[t.key3[n3]];
        ++n3;
        for (int d = c + 1; d < 13; ++d) {
          const poker::Hand habcd = habc + cards13[d];
          for (int e = d + 1; e < 13; ++e) {
            const poker::Strength s5 = (habcd + cards13[e]).evaluate();
            t.key5[n5] = key_of(s5, m3 | 1u << d | 1u << e);
            t.strength5[n5] = s5;
            if (with_units) t.units5[n5] = u5[t.key5[n5]];
            ++n5;
          }
        }
      }
    }
  }
}

Split split_of(unsigned top, unsigned middle, unsigned bottom) {
  Split s;
  int i = 0;
  for (unsigned m = top; m; m &= m - 1) s.top[static_cast<std::size_t>(i++)] = static_cast<std::uint8_t>(__builtin_ctz(m));
  i = 0;
  for (unsigned m = middle; m; m &= m - 1) s.middle[static_cast<std::size_t>(i++)] = static_cast<std::uint8_t>(__builtin_ctz(m));
  i = 0;
  for (unsigned m = bottom; m; m &= m - 1) s.bottom[static_cast<std::size_t>(i++)] = static_cast<std::uint8_t>(__builtin_ctz(m));
  return s;
}

// An arrangement by subset numbers: top (of the 3-subsets), middle and bottom (5-subsets).
struct Candidate {
  double score;
  std::uint16_t top, middle, bottom;
};

// Keeps the k best candidates, best first (k is small: a linear insertion suffices).
class TopK {
 public:
  explicit TopK(int k) : k_(static_cast<std::size_t>(std::max(k, 1))) {}
  double threshold() const {
    return items_.size() < k_ ? -HUGE_VAL : items_.back().score;
  }
  void offer(const Candidate& c) {
    if (items_.size() == k_ && !(c.score > items_.back().score)) return;
    auto at = std::upper_bound(items_.begin(), items_.end(), c,
                               [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
    items_.insert(at, c);
    if (items_.size() > k_) items_.pop_back();
  }
  const std::vector<Candidate>& items() const { return items_; }

 private:
  std::size_t k_;
  std::vector<Candidate> items_;
};

// How many of a top row's splits are valid, counting a split whose fives tie twice (both
// ways round are valid then). Same layout as SplitScan, keys only.
int count_scalar(const std::uint32_t* pairs, const std::int32_t* key5, std::int32_t kt) {
  int n = 0;
  for (std::size_t j = 0; j < 128; ++j) {
    const std::int32_t kx = key5[pairs[j] & 0xFFFF], ky = key5[pairs[j] >> 16];
    n += static_cast<int>(std::min(kx, ky) >= kt) * (1 + static_cast<int>(kx == ky));
  }
  return n;
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx2"))) int count_avx2(const std::uint32_t* pairs,
                                                const std::int32_t* key5, std::int32_t kt) {
  const __m256i low16 = _mm256_set1_epi32(0xFFFF);
  const __m256i below_kt = _mm256_set1_epi32(kt - 1);
  int n = 0;
  for (std::size_t b = 0; b < 16; ++b) {
    const __m256i p = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(pairs + 8 * b));
    const __m256i kx = _mm256_i32gather_epi32(key5, _mm256_and_si256(p, low16), 4);
    const __m256i ky = _mm256_i32gather_epi32(key5, _mm256_srli_epi32(p, 16), 4);
    const __m256i valid = _mm256_cmpgt_epi32(_mm256_min_epi32(kx, ky), below_kt);
    const __m256i tie = _mm256_and_si256(valid, _mm256_cmpeq_epi32(kx, ky));
    n += __builtin_popcount(static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(valid))));
    n += __builtin_popcount(static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(tie))));
  }
  return n;
}
#endif

// The best path the CPU has, ignoring CAPSA_FAST_ISA.
ScanPath cpu_scan_path() noexcept {
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")) return ScanPath::kAvx512;
  if (__builtin_cpu_supports("avx2")) return ScanPath::kAvx2;
#endif
  return ScanPath::kPortable;
}

// The best path the CPU has and CAPSA_FAST_ISA allows (isa.hpp).
ScanPath best_scan_path() noexcept {
  const ScanPath cpu = cpu_scan_path();
  if (cpu == ScanPath::kAvx512 && isa_allowed(Isa::kAvx512)) return ScanPath::kAvx512;
  if (cpu != ScanPath::kPortable && isa_allowed(Isa::kAvx2)) return ScanPath::kAvx2;
  return ScanPath::kPortable;
}

ScanPath& current_scan_path() noexcept {
  static ScanPath path = best_scan_path();
  return path;
}

// The ev search's splits by bottom row: for each five, the 56 ways to divide the other
// eight positions into a top row and a middle row, as top | middle << 9 | flag << 20, where
// the flag says the middle row holds the lowest position of the two fives (the split's
// first five: on equal keys, the first five is the middle row). Padded to 64 (the padding
// is never read as a split).
struct BottomSplits {
  std::vector<std::array<std::uint32_t, 64>> rows;
  BottomSplits() : rows(kNumFives) {
    const Splits& s = splits();
    std::vector<std::uint16_t> three_number(8192), five_number(8192);
    for (std::size_t i = 0; i < kNumThrees; ++i) three_number[s.three_mask[i]] = static_cast<std::uint16_t>(i);
    for (std::size_t i = 0; i < kNumFives; ++i) five_number[s.five_mask[i]] = static_cast<std::uint16_t>(i);
    for (std::size_t b = 0; b < kNumFives; ++b) {
      const unsigned bottom = s.five_mask[b], rest = kAll13 ^ bottom;
      std::size_t j = 0;
      for (unsigned x = rest; x; x = (x - 1) & rest) {
        if (__builtin_popcount(x) != 3) continue;
        const unsigned middle = rest ^ x, both = middle | bottom;
        const std::uint32_t first = (both & (~both + 1)) & middle ? 1u : 0u;
        rows[b][j++] = three_number[x] | static_cast<std::uint32_t>(five_number[middle]) << 9 | first << 20;
      }
      for (; j < 64; ++j) rows[b][j] = 0;
    }
  }
};
const BottomSplits& bottom_splits() {
  static const BottomSplits b;
  return b;
}

constexpr std::size_t kNumFivesPadded = 1296;  // whole steps of 16
// The ev search's bound groups row keys in buckets of 2^kBucketShift.
constexpr int kBucketShift = 8;
constexpr std::size_t kBuckets = (kNumRowKeys >> kBucketShift) + 1;
constexpr std::size_t kSplitsPerBottom = 56;   // C(8, 3)
constexpr float kBandWidth = 0.5f;  // points: the ev search's bands of bottom rows

#if defined(__x86_64__) && defined(__GNUC__)
// build_tables() sixteen subsets a step (the AVX-512 scan path). Per hand, five 16-entry
// registers hold, by position in the sorted hand: the card's rank key for the 5-card and
// for the 7-card hash (the same keys as poker::Hand and the batch loops), its bits (rank
// bit 0..12, suit bit 13..16, position bit 17..29), its suit's tiebreak position; and, by
// rank, the positions holding that rank. A subset's cards are its 4-bit positions (one
// word per subset), looked up in those registers with vpermd, which reads only the low 4
// bits of each index. Then, as in the scalar code: the strength from the perfect hash (or
// the flush table when the OR of the suit bits is one bit), and the row key from the
// strength's tiebreak word, the highest position among the tiebreak rank's cards (found
// from the float exponent of that 13-bit mask) and that card's suit.
struct SubsetPositions {
  alignas(64) std::array<std::uint32_t, 288> three{};   // 286 padded to whole steps
  alignas(64) std::array<std::uint32_t, 1296> five{};   // 1287 padded
  SubsetPositions() {
    const Splits& s = splits();
    auto pack = [](unsigned mask) {
      std::uint32_t w = 0;
      int j = 0;
      for (unsigned m = mask; m; m &= m - 1) w |= static_cast<std::uint32_t>(__builtin_ctz(m)) << (4 * j++);
      return w;
    };
    for (std::size_t i = 0; i < kNumThrees; ++i) three[i] = pack(s.three_mask[i]);
    for (std::size_t i = 0; i < kNumFives; ++i) five[i] = pack(s.five_mask[i]);
  }
};
const SubsetPositions& subset_positions() {
  static const SubsetPositions p;
  return p;
}

// Per strength: base | tiebreak rank << 16 | flush << 20 (kTiebreak.key in one word).
struct TiebreakWords {
  std::array<std::uint32_t, poker::kMaxStrength + 1> w{};
  TiebreakWords() {
    for (std::size_t st = 0; st < w.size(); ++st) {
      const TiebreakInfo::Key k = kTiebreak.key[st];
      w[st] = static_cast<std::uint32_t>(k.base) | static_cast<std::uint32_t>(k.rank & 15) << 16 |
              static_cast<std::uint32_t>(k.flush) << 20;
    }
  }
};
const TiebreakWords kTiebreakWords;

struct HandRegisters {
  alignas(64) std::uint32_t key5[16];
  alignas(64) std::uint32_t key7[16];
  alignas(64) std::uint32_t bits[16];
  alignas(64) std::uint32_t suit_position[16];
  alignas(64) std::uint32_t rank_positions[16];
};

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
template <int K>
__attribute__((target("avx512f,avx512bw"))) void subsets_avx512(
    const HandRegisters& h, const std::uint32_t* positions, std::size_t n, bool tiebreak,
    const std::uint32_t* units, RowKey* key_out, poker::Strength* strength_out,
    std::uint32_t* units_out) {
  constexpr int kShift = K == 5 ? poker::tables::kHash5Shift : poker::tables::kHash7Shift;
  const auto* offsets = reinterpret_cast<const int*>(K == 5 ? poker::tables::kHash5Offsets : poker::tables::kHash7Offsets);
  const auto* values = reinterpret_cast<const int*>(K == 5 ? poker::tables::kHash5Values : poker::tables::kHash7Values);
  const __m512i rank_key = _mm512_load_si512(K == 5 ? h.key5 : h.key7);
  const __m512i bits = _mm512_load_si512(h.bits);
  const __m512i suit_position = _mm512_load_si512(h.suit_position);
  const __m512i rank_positions = _mm512_load_si512(h.rank_positions);
  const __m512i low_bits = _mm512_set1_epi32((1 << kShift) - 1);
  const __m512i low16 = _mm512_set1_epi32(0xFFFF);
  const __m512i one = _mm512_set1_epi32(1);
  const __m512i flush_base = _mm512_set1_epi32(kTiebreak.flush_first * 4 - kTiebreak.flush_first);
  const __m512i flush_span = _mm512_set1_epi32(kTiebreak.flush_span);
  for (std::size_t i = 0; i < n; i += 16) {
    const auto lanes = static_cast<__mmask16>(n - i >= 16 ? 0xFFFF : (1u << (n - i)) - 1);
    const __m512i w = _mm512_load_si512(positions + i);
    __m512i key = _mm512_permutexvar_epi32(w, rank_key);
    __m512i cards = _mm512_permutexvar_epi32(w, bits);
    for (int j = 1; j < K; ++j) {
      const __m512i at = _mm512_srli_epi32(w, 4 * j);
      key = _mm512_add_epi32(key, _mm512_permutexvar_epi32(at, rank_key));
      cards = _mm512_or_si512(cards, _mm512_permutexvar_epi32(at, bits));
    }
    const __m512i row = _mm512_i32gather_epi32(_mm512_srli_epi32(key, kShift), offsets, 4);
    __m512i st = _mm512_and_si512(
        _mm512_i32gather_epi32(_mm512_add_epi32(row, _mm512_and_si512(key, low_bits)), values, 2), low16);
    if constexpr (K == 5) {
      const __m512i suits = _mm512_and_si512(_mm512_srli_epi32(cards, 13), _mm512_set1_epi32(15));
      const __mmask16 flush = _mm512_testn_epi32_mask(suits, _mm512_sub_epi32(suits, one));
      if (flush) {
        st = _mm512_and_si512(
            _mm512_mask_i32gather_epi32(st, flush, _mm512_and_si512(cards, _mm512_set1_epi32(0x1FFF)),
                                        reinterpret_cast<const int*>(poker::tables::kFlush), 2),
            low16);
      }
    }
    __m512i row_key;
    if (tiebreak) {
      const __m512i info = _mm512_i32gather_epi32(st, reinterpret_cast<const int*>(kTiebreakWords.w.data()), 4);
      const __m512i group = _mm512_and_si512(
          _mm512_permutexvar_epi32(_mm512_srli_epi32(info, 16), rank_positions), _mm512_srli_epi32(cards, 17));
      const __m512i highest = _mm512_sub_epi32(
          _mm512_srli_epi32(_mm512_castps_si512(_mm512_cvtepi32_ps(group)), 23), _mm512_set1_epi32(127));
      row_key = _mm512_add_epi32(_mm512_and_si512(info, low16), _mm512_permutexvar_epi32(highest, suit_position));
      if constexpr (K == 5) {
        const __mmask16 flush = _mm512_test_epi32_mask(info, _mm512_set1_epi32(1 << 20));
        if (flush) {
          // The flush's suit is its lowest card's (position in the word's low 4 bits).
          const __m512i suit = _mm512_permutexvar_epi32(w, suit_position);
          row_key = _mm512_mask_add_epi32(row_key, flush, _mm512_mullo_epi32(suit, flush_span),
                                          _mm512_add_epi32(st, flush_base));
        }
      }
    } else {
      row_key = _mm512_slli_epi32(st, 2);
    }
    _mm512_mask_cvtepi32_storeu_epi16(key_out + i, lanes, row_key);
    _mm512_mask_cvtepi32_storeu_epi16(strength_out + i, lanes, st);
    if (units) {
      _mm512_mask_storeu_epi32(units_out + i, lanes,
                               _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), lanes, row_key,
                                                           reinterpret_cast<const int*>(units), 4));
    }
  }
}
#pragma GCC diagnostic pop

// Contract: cards13 in SortedHand order.
HandRegisters hand_registers(const int* cards13) {
  HandRegisters h{};
  for (int i = 0; i < 13; ++i) {
    const int c = cards13[i];
    const auto at = static_cast<std::size_t>(i);
    h.key5[at] = static_cast<std::uint32_t>(poker::tables::kCardKey5[c]);
    h.key7[at] = static_cast<std::uint32_t>(poker::tables::kCardKey7[c]);
    h.bits[at] = 1u << rank_of(c) | 1u << (13 + suit_of(c)) | 1u << (17 + i);
    h.suit_position[at] = static_cast<std::uint32_t>(kSuitPosition[suit_of(c)]);
    h.rank_positions[rank_of(c)] |= 1u << i;
  }
  return h;
}

// Contract: cards13 in SortedHand order.
void build_tables_avx512(const int* cards13, const Rules& rules, bool with_units, SubsetTables& t) {
  const HandRegisters h = hand_registers(cards13);
  const bool tb = rules.suit_tiebreak;
  const SubsetPositions& p = subset_positions();
  subsets_avx512<3>(h, p.three.data(), kNumThrees, tb,
                    with_units ? (tb ? tables::kUnits3Tiebreak : tables::kUnits3Plain) : nullptr,
                    t.key3.data(), t.strength3.data(), t.units3.data());
  subsets_avx512<5>(h, p.five.data(), kNumFives, tb,
                    with_units ? (tb ? tables::kUnits5Tiebreak : tables::kUnits5Plain) : nullptr,
                    t.key5.data(), t.strength5.data(), t.units5.data());
}

// A 16-entry table of HandRegisters looked up by 4-bit positions in eight lanes: vpermd
// reads 3 bits, so both halves are permuted and the lane's bit 3 (moved to the sign bit by
// `sign_shift`) picks one.
struct Table16 {
  __m256i lo, hi;
};
__attribute__((target("avx2"))) inline Table16 load_table16(const std::uint32_t* t) {
  return {_mm256_load_si256(reinterpret_cast<const __m256i*>(t)),
          _mm256_load_si256(reinterpret_cast<const __m256i*>(t + 8))};
}
__attribute__((target("avx2"))) inline __m256i lookup16(const Table16& t, __m256i index, __m256i sign) {
  return _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(_mm256_permutevar8x32_epi32(t.lo, index)),
                                              _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(t.hi, index)),
                                              _mm256_castsi256_ps(sign)));
}

// subsets_avx512() eight subsets a step, for the AVX2 path: the same registers (two halves
// each), the same perfect hash and tiebreak words; the last step's padding lanes are masked
// out of every gather and store.
template <int K>
__attribute__((target("avx2"))) void subsets_avx2(const HandRegisters& h, const std::uint32_t* positions,
                                                  std::size_t n, bool tiebreak, const std::uint32_t* units,
                                                  RowKey* key_out, poker::Strength* strength_out,
                                                  std::uint32_t* units_out) {
  constexpr int kShift = K == 5 ? poker::tables::kHash5Shift : poker::tables::kHash7Shift;
  const auto* offsets = reinterpret_cast<const int*>(K == 5 ? poker::tables::kHash5Offsets : poker::tables::kHash7Offsets);
  const auto* values = reinterpret_cast<const int*>(K == 5 ? poker::tables::kHash5Values : poker::tables::kHash7Values);
  const Table16 rank_key = load_table16(K == 5 ? h.key5 : h.key7);
  const Table16 bits = load_table16(h.bits);
  const Table16 suit_position = load_table16(h.suit_position);
  const Table16 rank_positions = load_table16(h.rank_positions);
  const __m256i low_bits = _mm256_set1_epi32((1 << kShift) - 1);
  const __m256i low16 = _mm256_set1_epi32(0xFFFF);
  const __m256i one = _mm256_set1_epi32(1);
  const __m256i flush_base = _mm256_set1_epi32(kTiebreak.flush_first * 4 - kTiebreak.flush_first);
  const __m256i flush_span = _mm256_set1_epi32(kTiebreak.flush_span);
  const __m256i lane_index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  for (std::size_t i = 0; i < n; i += 8) {
    const __m256i lanes = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n - i)), lane_index);
    const __m256i w = _mm256_load_si256(reinterpret_cast<const __m256i*>(positions + i));
    __m256i key = lookup16(rank_key, w, _mm256_slli_epi32(w, 28));
    __m256i cards = lookup16(bits, w, _mm256_slli_epi32(w, 28));
    for (int j = 1; j < K; ++j) {
      const __m256i at = _mm256_srli_epi32(w, 4 * j), sign = _mm256_slli_epi32(w, 28 - 4 * j);
      key = _mm256_add_epi32(key, lookup16(rank_key, at, sign));
      cards = _mm256_or_si256(cards, lookup16(bits, at, sign));
    }
    const __m256i row = _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), offsets, _mm256_srli_epi32(key, kShift), lanes, 4);
    __m256i st = _mm256_and_si256(
        _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), values, _mm256_add_epi32(row, _mm256_and_si256(key, low_bits)), lanes, 2),
        low16);
    if constexpr (K == 5) {
      const __m256i suits = _mm256_and_si256(_mm256_srli_epi32(cards, 13), _mm256_set1_epi32(15));
      const __m256i flush = _mm256_and_si256(
          lanes, _mm256_cmpeq_epi32(_mm256_and_si256(suits, _mm256_sub_epi32(suits, one)), _mm256_setzero_si256()));
      if (!_mm256_testz_si256(flush, flush)) {
        st = _mm256_and_si256(
            _mm256_mask_i32gather_epi32(st, reinterpret_cast<const int*>(poker::tables::kFlush),
                                        _mm256_and_si256(cards, _mm256_set1_epi32(0x1FFF)), flush, 2),
            low16);
      }
    }
    __m256i row_key;
    if (tiebreak) {
      const __m256i info = _mm256_mask_i32gather_epi32(
          _mm256_setzero_si256(), reinterpret_cast<const int*>(kTiebreakWords.w.data()), st, lanes, 4);
      const __m256i group = _mm256_and_si256(
          lookup16(rank_positions, _mm256_srli_epi32(info, 16), _mm256_slli_epi32(info, 12)),
          _mm256_srli_epi32(cards, 17));
      const __m256i highest = _mm256_sub_epi32(
          _mm256_srli_epi32(_mm256_castps_si256(_mm256_cvtepi32_ps(group)), 23), _mm256_set1_epi32(127));
      row_key = _mm256_add_epi32(_mm256_and_si256(info, low16),
                                 lookup16(suit_position, highest, _mm256_slli_epi32(highest, 28)));
      if constexpr (K == 5) {
        const __m256i flag = _mm256_set1_epi32(1 << 20);
        const __m256i flush = _mm256_cmpeq_epi32(_mm256_and_si256(info, flag), flag);
        if (!_mm256_testz_si256(flush, flush)) {
          // The flush's suit is its lowest card's (position in the word's low 4 bits).
          const __m256i suit = lookup16(suit_position, w, _mm256_slli_epi32(w, 28));
          const __m256i flush_key = _mm256_add_epi32(_mm256_mullo_epi32(suit, flush_span),
                                                     _mm256_add_epi32(st, flush_base));
          row_key = _mm256_blendv_epi8(row_key, flush_key, flush);
        }
      }
    } else {
      row_key = _mm256_slli_epi32(st, 2);
    }
    // Keys and strengths fit 16 bits: packed in order, stored whole but for the last step.
    const __m128i key16 = _mm_packus_epi32(_mm256_castsi256_si128(row_key), _mm256_extracti128_si256(row_key, 1));
    const __m128i st16 = _mm_packus_epi32(_mm256_castsi256_si128(st), _mm256_extracti128_si256(st, 1));
    if (n - i >= 8) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(key_out + i), key16);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(strength_out + i), st16);
    } else {
      alignas(16) std::uint16_t k[8], s[8];
      _mm_store_si128(reinterpret_cast<__m128i*>(k), key16);
      _mm_store_si128(reinterpret_cast<__m128i*>(s), st16);
      std::copy(k, k + (n - i), key_out + i);
      std::copy(s, s + (n - i), strength_out + i);
    }
    if (units) {
      _mm256_maskstore_epi32(reinterpret_cast<int*>(units_out + i), lanes,
                             _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), reinterpret_cast<const int*>(units),
                                                         row_key, lanes, 4));
    }
  }
}

// Contract: cards13 in SortedHand order.
void build_tables_avx2(const int* cards13, const Rules& rules, bool with_units, SubsetTables& t) {
  const HandRegisters h = hand_registers(cards13);
  const bool tb = rules.suit_tiebreak;
  const SubsetPositions& p = subset_positions();
  subsets_avx2<3>(h, p.three.data(), kNumThrees, tb,
                  with_units ? (tb ? tables::kUnits3Tiebreak : tables::kUnits3Plain) : nullptr,
                  t.key3.data(), t.strength3.data(), t.units3.data());
  subsets_avx2<5>(h, p.five.data(), kNumFives, tb,
                  with_units ? (tb ? tables::kUnits5Tiebreak : tables::kUnits5Plain) : nullptr,
                  t.key5.data(), t.strength5.data(), t.units5.data());
}
// The ev search's per-five values from a prepared model, sixteen fives a step (the
// AVX-512 path): each five's value as the middle and as the bottom row. The same loads as
// five_values()' scalar loop, so the same numbers.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
__attribute__((target("avx512f,avx512bw"))) void five_values_avx512(const RowKey* key5, const float* prepared,
                                                                     float* lin_mid, float* lin_bot) {
  for (std::size_t i = 0; i < kNumFives; i += 16) {
    const auto lanes = static_cast<__mmask16>(kNumFives - i >= 16 ? 0xFFFF : (1u << (kNumFives - i)) - 1);
    const __m512i key = _mm512_cvtepu16_epi32(
        _mm512_castsi512_si256(_mm512_maskz_loadu_epi16(static_cast<__mmask32>(lanes), key5 + i)));
    const __m512i at = _mm512_add_epi32(_mm512_slli_epi32(key, 1), key);  // key * 3
    _mm512_mask_storeu_ps(lin_mid + i, lanes,
                          _mm512_mask_i32gather_ps(_mm512_setzero_ps(), lanes,
                                                   _mm512_add_epi32(at, _mm512_set1_epi32(kMiddle)), prepared, 4));
    _mm512_mask_storeu_ps(lin_bot + i, lanes,
                          _mm512_mask_i32gather_ps(_mm512_setzero_ps(), lanes,
                                                   _mm512_add_epi32(at, _mm512_set1_epi32(kBottom)), prepared, 4));
  }
}

// One bottom row's splits (see BottomSplits) worth at least `floor`, into `found` (top |
// middle << 16) and `value`, in row order; their number. Sixteen splits a step: the
// middle's and the top's keys gathered first (16-bit keys read as 32-bit words, the upper
// half dropped), their values only for the valid lanes.
__attribute__((target("avx512f,avx512bw"))) int bottom_scan_avx512(
    const std::uint32_t* row, const RowKey* key3, const RowKey* key5, const float* lin_top,
    const float* lin_mid, RowKey bottom_key, float bottom_value, float floor, std::uint32_t* found,
    float* value) {
  const __m512i kb = _mm512_set1_epi32(bottom_key);
  const __m512 lb = _mm512_set1_ps(bottom_value), fl = _mm512_set1_ps(floor);
  const __m512i three_bits = _mm512_set1_epi32(0x1FF), five_bits = _mm512_set1_epi32(0x7FF);
  const __m512i low16 = _mm512_set1_epi32(0xFFFF), flag = _mm512_set1_epi32(1 << 20);
  int n = 0;
  for (std::size_t j = 0; j < 64; j += 16) {
    const auto lanes = static_cast<__mmask16>(j + 16 <= kSplitsPerBottom ? 0xFFFF : (1u << (kSplitsPerBottom - j)) - 1);
    const __m512i w = _mm512_loadu_si512(row + j);
    const __m512i top = _mm512_and_si512(w, three_bits);
    const __m512i middle = _mm512_and_si512(_mm512_srli_epi32(w, 9), five_bits);
    const __m512i km = _mm512_and_si512(
        _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), lanes, middle, key5, 2), low16);
    const __m512i kt = _mm512_and_si512(
        _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), lanes, top, key3, 2), low16);
    const __mmask16 below = _mm512_mask_cmplt_epi32_mask(lanes, km, kb);
    const __mmask16 tied = _mm512_mask_cmpeq_epi32_mask(_mm512_mask_test_epi32_mask(lanes, w, flag), km, kb);
    const __mmask16 valid = _mm512_mask_cmpge_epi32_mask(static_cast<__mmask16>(below | tied), km, kt);
    if (!valid) continue;
    const __m512 lt = _mm512_mask_i32gather_ps(_mm512_setzero_ps(), valid, top, lin_top, 4);
    const __m512 lm = _mm512_mask_i32gather_ps(_mm512_setzero_ps(), valid, middle, lin_mid, 4);
    const __m512 lin = _mm512_add_ps(_mm512_add_ps(lt, lm), lb);
    const __mmask16 hit = _mm512_mask_cmp_ps_mask(valid, lin, fl, _CMP_GE_OQ);
    if (!hit) continue;
    _mm512_mask_compressstoreu_epi32(found + n, hit, _mm512_or_si512(top, _mm512_slli_epi32(middle, 16)));
    _mm512_mask_compressstoreu_ps(value + n, hit, lin);
    n += __builtin_popcount(hit);
  }
  return n;
}

// Each bottom's bound: upto[its key's bucket] + its bottom value (see arrange()); the
// padding past the last five gets -inf. Returns the largest.
__attribute__((target("avx512f,avx512bw"))) float bottom_bounds_avx512(const RowKey* key5,
                                                                      const float* lin_bot,
                                                                      const float* upto, float* bound) {
  __m512 best = _mm512_set1_ps(-HUGE_VALF);
  for (std::size_t i = 0; i < kNumFivesPadded; i += 16) {
    const auto lanes = static_cast<__mmask16>(kNumFives - i >= 16 ? 0xFFFF : (1u << (kNumFives - i)) - 1);
    const __m512i key = _mm512_cvtepu16_epi32(
        _mm512_castsi512_si256(_mm512_maskz_loadu_epi16(static_cast<__mmask32>(lanes), key5 + i)));
    const __m512 u = _mm512_mask_i32gather_ps(_mm512_set1_ps(-HUGE_VALF), lanes, _mm512_srli_epi32(key, kBucketShift), upto, 4);
    const __m512 v = _mm512_mask_add_ps(_mm512_set1_ps(-HUGE_VALF), lanes, u, _mm512_maskz_loadu_ps(lanes, lin_bot + i));
    _mm512_store_ps(bound + i, v);
    best = _mm512_max_ps(best, v);
  }
  return _mm512_reduce_max_ps(best);
}

// The bottoms whose bounds are in [lower, upper), in order, into `out`; their number.
__attribute__((target("avx512f,avx512bw"))) int bottoms_between_avx512(const float* bound, float lower,
                                                                        float upper, std::uint32_t* out) {
  const __m512 lo = _mm512_set1_ps(lower), hi = _mm512_set1_ps(upper);
  __m512i index = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const __m512i step = _mm512_set1_epi32(16);
  int n = 0;
  for (std::size_t i = 0; i < kNumFivesPadded; i += 16, index = _mm512_add_epi32(index, step)) {
    const __m512 v = _mm512_load_ps(bound + i);
    const __mmask16 in = _mm512_mask_cmp_ps_mask(_mm512_cmp_ps_mask(v, lo, _CMP_GE_OQ), v, hi, _CMP_LT_OQ);
    if (!in) continue;
    _mm512_mask_compressstoreu_epi32(out + n, in, index);
    n += __builtin_popcount(in);
  }
  return n;
}
#pragma GCC diagnostic pop

// The AVX2 path: eight lanes of 32 bits. Zen 2 and 3 run gathers slowly, so these kernels
// gather only where the AVX-512 ones do and a scalar loop would cost more.

// Each row's key (low half) and value (high half) in one word, for the AVX2 scan: one
// 64-bit gather element brings both, half the elements of gathering them apart.
struct KeyValues {
  alignas(32) std::array<std::uint64_t, kNumThrees> three;
  alignas(32) std::array<std::uint64_t, kNumFives> five;
};

// Interleaves n keys and values into `out`, eight a step (the tail one by one).
__attribute__((target("avx2"))) void interleave_avx2(const RowKey* key, const float* value, std::size_t n,
                                                     std::uint64_t* out) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i k = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(key + i)));
    const __m256i v = _mm256_castps_si256(_mm256_loadu_ps(value + i));
    const __m256i lo = _mm256_unpacklo_epi32(k, v), hi = _mm256_unpackhi_epi32(k, v);  // 0 1 4 5, 2 3 6 7
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), _mm256_permute2x128_si256(lo, hi, 0x20));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i + 4), _mm256_permute2x128_si256(lo, hi, 0x31));
  }
  for (; i < n; ++i) {
    std::uint32_t bits;
    std::memcpy(&bits, value + i, sizeof bits);
    out[i] = key[i] | static_cast<std::uint64_t>(bits) << 32;
  }
}

// bottom_scan() eight splits a step (56 = 7 steps, no padding lanes), from KeyValues:
// the splits' words are loaded in the order 0 1 4 5 2 3 6 7, so that after four 64-bit
// gathers (the middles' and the tops' keys with their values) one in-lane shuffle each
// puts the keys of splits 0..7 in order, and the values. No masked gathers: an invalid
// lane's value is read and dropped. The rare hits are written one by one.
__attribute__((target("avx2"))) int bottom_scan_avx2(const std::uint32_t* row, const KeyValues& kv,
                                                     RowKey bottom_key, float bottom_value, float floor,
                                                     std::uint32_t* found, float* value) {
  const __m256i kb = _mm256_set1_epi32(bottom_key);
  const __m256 lb = _mm256_set1_ps(bottom_value), fl = _mm256_set1_ps(floor);
  const __m256i three_bits = _mm256_set1_epi32(0x1FF), five_bits = _mm256_set1_epi32(0x7FF);
  const __m256i flag = _mm256_set1_epi32(1 << 20);
  const __m256i order = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7);
  const auto* k3 = reinterpret_cast<const long long*>(kv.three.data());
  const auto* k5 = reinterpret_cast<const long long*>(kv.five.data());
  int n = 0;
  for (std::size_t j = 0; j < kSplitsPerBottom; j += 8) {
    const __m256i w = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row + j));
    const __m256i shuffled = _mm256_permutevar8x32_epi32(w, order);
    const __m256i top = _mm256_and_si256(shuffled, three_bits);
    const __m256i middle = _mm256_and_si256(_mm256_srli_epi32(shuffled, 9), five_bits);
    const __m256 m_a = _mm256_castsi256_ps(_mm256_i32gather_epi64(k5, _mm256_castsi256_si128(middle), 8));
    const __m256 m_b = _mm256_castsi256_ps(_mm256_i32gather_epi64(k5, _mm256_extracti128_si256(middle, 1), 8));
    const __m256 t_a = _mm256_castsi256_ps(_mm256_i32gather_epi64(k3, _mm256_castsi256_si128(top), 8));
    const __m256 t_b = _mm256_castsi256_ps(_mm256_i32gather_epi64(k3, _mm256_extracti128_si256(top, 1), 8));
    const __m256i km = _mm256_castps_si256(_mm256_shuffle_ps(m_a, m_b, 0x88));
    const __m256i kt = _mm256_castps_si256(_mm256_shuffle_ps(t_a, t_b, 0x88));
    // Valid: the middle below the bottom, or tied with it and the split's first five; and
    // the top no stronger than the middle.
    const __m256i tied = _mm256_and_si256(_mm256_cmpeq_epi32(km, kb),
                                          _mm256_cmpeq_epi32(_mm256_and_si256(w, flag), flag));
    const __m256i valid = _mm256_andnot_si256(_mm256_cmpgt_epi32(kt, km),
                                              _mm256_or_si256(_mm256_cmpgt_epi32(kb, km), tied));
    const __m256 lin = _mm256_add_ps(_mm256_add_ps(_mm256_shuffle_ps(t_a, t_b, 0xDD), _mm256_shuffle_ps(m_a, m_b, 0xDD)), lb);
    auto hit = static_cast<unsigned>(_mm256_movemask_ps(
        _mm256_and_ps(_mm256_cmp_ps(lin, fl, _CMP_GE_OQ), _mm256_castsi256_ps(valid))));
    if (!hit) continue;
    alignas(32) float lanes[8];
    _mm256_store_ps(lanes, lin);
    for (; hit; hit &= hit - 1) {
      const auto at = static_cast<std::size_t>(__builtin_ctz(hit));
      const std::uint32_t split = row[j + at];
      found[n] = (split & 0x1FF) | ((split >> 9) & 0x7FF) << 16;
      value[n++] = lanes[at];
    }
  }
  return n;
}

// bottoms_between() sixteen bounds a step: two compares of eight, one 16-bit mask, and
// the few bottoms in the band written one by one.
__attribute__((target("avx2"))) int bottoms_between_avx2(const float* bound, float lower, float upper,
                                                         std::uint32_t* out) {
  const __m256 lo = _mm256_set1_ps(lower), hi = _mm256_set1_ps(upper);
  int n = 0;
  for (std::size_t i = 0; i < kNumFivesPadded; i += 16) {
    const __m256 a = _mm256_loadu_ps(bound + i), b = _mm256_loadu_ps(bound + i + 8);
    const auto in_a = static_cast<unsigned>(
        _mm256_movemask_ps(_mm256_and_ps(_mm256_cmp_ps(a, lo, _CMP_GE_OQ), _mm256_cmp_ps(a, hi, _CMP_LT_OQ))));
    const auto in_b = static_cast<unsigned>(
        _mm256_movemask_ps(_mm256_and_ps(_mm256_cmp_ps(b, lo, _CMP_GE_OQ), _mm256_cmp_ps(b, hi, _CMP_LT_OQ))));
    for (unsigned in = in_a | in_b << 8; in; in &= in - 1)
      out[n++] = static_cast<std::uint32_t>(i) + static_cast<std::uint32_t>(__builtin_ctz(in));
  }
  return n;
}
#endif

// A hand's tables, on the scan path in use (AVX-512, or the scalar reference).
void build_tables(const int* cards13, const Rules& rules, bool with_units, SubsetTables& t) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (current_scan_path() == ScanPath::kAvx512) return build_tables_avx512(cards13, rules, with_units, t);
  if (current_scan_path() == ScanPath::kAvx2) return build_tables_avx2(cards13, rules, with_units, t);
#endif
  build_tables_scalar(cards13, rules, with_units, t);
}

// AVX-512 brings nothing to this short count: it takes the AVX2 kernel.
int count_splits(const std::uint32_t* pairs, const std::int32_t* key5, std::int32_t kt) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (current_scan_path() != ScanPath::kPortable) return count_avx2(pairs, key5, kt);
#endif
  return count_scalar(pairs, key5, kt);
}


int bottom_scan_scalar(const std::uint32_t* row, const RowKey* key3, const RowKey* key5,
                       const float* lin_top, const float* lin_mid, RowKey bottom_key,
                       float bottom_value, float floor, std::uint32_t* found, float* value) {
  int n = 0;
  for (std::size_t j = 0; j < kSplitsPerBottom; ++j) {
    const std::uint32_t w = row[j];
    const std::uint32_t top = w & 0x1FF, middle = (w >> 9) & 0x7FF;
    const RowKey km = key5[middle];
    if (km > bottom_key || (km == bottom_key && !(w >> 20 & 1)) || km < key3[top]) continue;
    const float lin = lin_top[top] + lin_mid[middle] + bottom_value;
    if (!(lin >= floor)) continue;
    found[n] = top | middle << 16;
    value[n++] = lin;
  }
  return n;
}

// On the AVX2 path, the keys and values interleaved for bottom_scan() (true); elsewhere
// nothing (false).
bool interleave_rows(const RowKey* key3, const RowKey* key5, const float* lin_top, const float* lin_mid,
                     KeyValues& kv) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (current_scan_path() == ScanPath::kAvx2) {
    interleave_avx2(key3, lin_top, kNumThrees, kv.three.data());
    interleave_avx2(key5, lin_mid, kNumFives, kv.five.data());
    return true;
  }
#endif
  return false;
}

// `kv`: filled by interleave_rows() on the AVX2 path.
int bottom_scan(const std::uint32_t* row, const RowKey* key3, const RowKey* key5,
                const float* lin_top, const float* lin_mid, const KeyValues& kv, RowKey bottom_key,
                float bottom_value, float floor, std::uint32_t* found, float* value) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (current_scan_path() == ScanPath::kAvx512)
    return bottom_scan_avx512(row, key3, key5, lin_top, lin_mid, bottom_key, bottom_value, floor, found, value);
  if (current_scan_path() == ScanPath::kAvx2)
    return bottom_scan_avx2(row, kv, bottom_key, bottom_value, floor, found, value);
#endif
  return bottom_scan_scalar(row, key3, key5, lin_top, lin_mid, bottom_key, bottom_value, floor, found, value);
}

void five_values(const RowKey* key5, const float* prepared, float* lin_mid, float* lin_bot) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (current_scan_path() == ScanPath::kAvx512) return five_values_avx512(key5, prepared, lin_mid, lin_bot);
#endif
  for (std::size_t i = 0; i < kNumFives; ++i) {
    const float* row = prepared + static_cast<std::size_t>(key5[i]) * 3;
    lin_mid[i] = row[kMiddle];
    lin_bot[i] = row[kBottom];
  }
}

float bottom_bounds(const RowKey* key5, const float* lin_bot, const float* upto, float* bound) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (current_scan_path() == ScanPath::kAvx512) return bottom_bounds_avx512(key5, lin_bot, upto, bound);
#endif
  float best = -HUGE_VALF;
  for (std::size_t i = 0; i < kNumFivesPadded; ++i) {
    bound[i] = i < kNumFives ? upto[key5[i] >> kBucketShift] + lin_bot[i] : -HUGE_VALF;
    best = std::max(best, bound[i]);
  }
  return best;
}

int bottoms_between(const float* bound, float lower, float upper, std::uint32_t* out) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (current_scan_path() == ScanPath::kAvx512) return bottoms_between_avx512(bound, lower, upper, out);
  if (current_scan_path() == ScanPath::kAvx2) return bottoms_between_avx2(bound, lower, upper, out);
#endif
  int n = 0;
  for (std::size_t i = 0; i < kNumFivesPadded; ++i)
    if (bound[i] >= lower && bound[i] < upper) out[n++] = static_cast<std::uint32_t>(i);
  return n;
}

// The candidates' order: higher value first, then by subset numbers (so that which of
// several equal values is kept does not depend on the order they were found in).
bool candidate_before(const Candidate& a, const Candidate& b) {
  if (a.score != b.score) return a.score > b.score;
  if (a.top != b.top) return a.top < b.top;
  if (a.middle != b.middle) return a.middle < b.middle;
  return a.bottom < b.bottom;
}

// Moves the first `keep` of n candidates (candidate_before) to the front.
void keep_best(Candidate* c, std::size_t n, std::size_t keep) {
  std::nth_element(c, c + keep - 1, c + n, candidate_before);
}

}  // namespace

bool scan_path_supported(ScanPath p) noexcept {
  switch (p) {
    case ScanPath::kAuto:
    case ScanPath::kPortable: return true;
    case ScanPath::kAvx2: return best_scan_path() != ScanPath::kPortable;
    case ScanPath::kAvx512: return best_scan_path() == ScanPath::kAvx512;
  }
  return false;
}

bool force_scan_path(ScanPath p) noexcept {
  if (!scan_path_supported(p)) return false;
  current_scan_path() = p == ScanPath::kAuto ? best_scan_path() : p;
  return true;
}

ScanPath scan_path() noexcept { return current_scan_path(); }

const char* scan_path_name(ScanPath p) noexcept {
  switch (p) {
    case ScanPath::kAuto: return "auto";
    case ScanPath::kPortable: return "portable";
    case ScanPath::kAvx2: return "avx2";
    case ScanPath::kAvx512: return "avx512";
  }
  return "?";
}

std::vector<std::uint32_t> subset_tables(const int* cards13, const Rules& rules) {
  SubsetTables t;
  const SortedHand hand(cards13);
  build_tables(hand.cards.data(), rules, true, t);
  std::vector<std::uint32_t> out;
  out.reserve(3 * (kNumThrees + kNumFives));
  for (const RowKey k : t.key3) out.push_back(k);
  for (const RowKey k : t.key5) out.push_back(k);
  for (const poker::Strength st : t.strength3) out.push_back(st);
  for (const poker::Strength st : t.strength5) out.push_back(st);
  for (const std::uint32_t u : t.units3) out.push_back(u);
  for (const std::uint32_t u : t.units5) out.push_back(u);
  return out;
}

std::uint32_t percentile_units(RowKey key, int n, bool suit_tiebreak) noexcept {
  if (n == 3) return (suit_tiebreak ? tables::kUnits3Tiebreak : tables::kUnits3Plain)[key];
  return (suit_tiebreak ? tables::kUnits5Tiebreak : tables::kUnits5Plain)[key];
}

int count_valid(const int* cards13, const Rules& rules) noexcept {
  SubsetTables t;
  const SortedHand hand(cards13);
  build_tables(hand.cards.data(), rules, false, t);
  const Splits& s = splits();
  const RowKey weakest_five = *std::min_element(t.key5.begin(), t.key5.end());
  std::array<std::int32_t, kNumFives + 1> key5;  // + the sentinel, never valid
  std::copy(t.key5.begin(), t.key5.end(), key5.begin());
  key5[kNumFives] = 0;
  int count = 0;
  for (std::size_t i = 0; i < kNumThrees; ++i) {
    const RowKey kt = t.key3[i];
    if (rules.suit_tiebreak && kt <= weakest_five) {
      count += kPairsPerTop;  // every five beats this top row and no two fives tie
      continue;
    }
    count += count_splits(s.packed[i].data(), key5.data(), kt);
  }
  return count;
}

PlayerRows player_rows(const int* top3, const int* middle5, const int* bottom5,
                       const Rules& rules) noexcept {
  PlayerRows p;
  const bool tb = rules.suit_tiebreak;
  p.key = {row_key(top3, 3, tb), row_key(middle5, 5, tb), row_key(bottom5, 5, tb)};
  p.fouled = p.key[0] > p.key[1] || p.key[1] > p.key[2];
  const poker::Strength st[3] = {poker::evaluate3(top3[0], top3[1], top3[2]),
                                 poker::evaluate5(middle5[0], middle5[1], middle5[2], middle5[3], middle5[4]),
                                 poker::evaluate5(bottom5[0], bottom5[1], bottom5[2], bottom5[3], bottom5[4])};
  for (int r = 0; r < 3; ++r) p.bonus[static_cast<std::size_t>(r)] = bonus_value(st[r], static_cast<Position>(r), rules);
  return p;
}


std::vector<Arrangement> arrange(const int* cards13, const Rules& rules, Strategy strategy,
                                 int k, const EvModel* model) {
  SubsetTables t;
  const SortedHand hand(cards13);
  const bool use_ev = strategy == Strategy::kEv && model != nullptr && model->loaded();
  // The ev search reads the model, not the percentile units: skip their table lookups.
  build_tables(hand.cards.data(), rules, !use_ev, t);
  const Splits& s = splits();
  TopK best(k);
  if (strategy == Strategy::kNaive) {
    // The strongest bottom row, then the strongest middle row from the other eight cards.
    const auto bottom = static_cast<std::uint16_t>(
        std::max_element(t.key5.begin(), t.key5.end()) - t.key5.begin());
    const unsigned bottom_mask = s.five_mask[bottom];
    int top = -1, middle = -1;
    for (std::size_t i = 0; i < kNumThrees; ++i) {
      if (s.three_mask[i] & bottom_mask) continue;
      for (const auto& xy : s.fives[i]) {
        if (xy[0] != bottom && xy[1] != bottom) continue;
        const std::uint16_t mid = xy[0] == bottom ? xy[1] : xy[0];
        if (middle < 0 || t.key5[mid] > t.key5[static_cast<std::size_t>(middle)]) {
          middle = mid;
          top = static_cast<int>(i);
        }
      }
    }
    const auto ti = static_cast<std::size_t>(top), mi = static_cast<std::size_t>(middle);
    best.offer({static_cast<double>(t.units3[ti] + t.units5[mi] + t.units5[bottom]) /
                    kPercentileDenominator,
                static_cast<std::uint16_t>(top), static_cast<std::uint16_t>(middle), bottom});
  } else if (!use_ev) {
    // Exact integer scores: no rounding can reorder two splits. Top rows are visited from
    // the best percentile down; once even the two best fives cannot lift a top row above
    // the k-th best total found, no later top row can either.
    std::array<std::uint16_t, kNumThrees> order;
    for (std::size_t i = 0; i < kNumThrees; ++i) order[i] = static_cast<std::uint16_t>(i);
    std::sort(order.begin(), order.end(),
              [&](std::uint16_t a, std::uint16_t b) { return t.units3[a] > t.units3[b]; });
    std::uint32_t best5[2] = {0, 0};
    for (const std::uint32_t u : t.units5) {
      if (u > best5[0]) {
        best5[1] = best5[0];
        best5[0] = u;
      } else if (u > best5[1]) {
        best5[1] = u;
      }
    }
    std::uint32_t floor_units = 0;
    for (const std::uint16_t i : order) {
      const std::uint32_t ut = t.units3[i];
      if (ut + best5[0] + best5[1] < floor_units) break;
      const RowKey kt = t.key3[i];
      for (const auto& xy : s.fives[i]) {
        const std::uint32_t total = ut + t.units5[xy[0]] + t.units5[xy[1]];
        if (total < floor_units) continue;
        const bool x_low = t.key5[xy[0]] <= t.key5[xy[1]];
        const std::uint16_t middle = x_low ? xy[0] : xy[1], bottom = x_low ? xy[1] : xy[0];
        if (t.key5[middle] < kt) continue;
        best.offer({static_cast<double>(total), i, middle, bottom});
        if (t.key5[middle] == t.key5[bottom]) best.offer({static_cast<double>(total), i, bottom, middle});
        if (best.threshold() > 0) floor_units = static_cast<std::uint32_t>(best.threshold());
      }
    }
  } else {
    // Phase 1: a linear score per split (each row's expected points on its own) keeps
    // the best candidates; phase 2 ranks those by the full expected points. Phase 1 goes
    // through the splits by bottom row, best bound first, and stops at the first bottom
    // row whose bound is below the floor (about 115 of the 1,287 in a typical hand).
    // At least 32 candidates, more when more arrangements are asked for (deep's).
    const auto candidates = static_cast<std::size_t>(std::clamp(k, 32, kMaxEvCandidates));
    std::array<float, kNumThrees> lin_top;
    std::array<float, kNumFives> lin_mid, lin_bot;
    // The opponents' curves given this hand's cards (card removal), or the model's own.
    thread_local HandRemoval hand_removal;
    const bool removal = model->card_removal && model->removal && model->prepared_for(rules);
    if (removal) hand_removal.condition(*model->removal, cards13);
    auto curve = [&](RowKey key, int pos, float* f) {
      if (removal) {
        hand_removal.at(key, pos, f);
      } else {
        const float* m = model->at(key, pos);
        std::copy(m, m + 3, f);
      }
    };
    auto row_value = [&](RowKey key, poker::Strength st, int pos) {
      // bonus_value(), inline: the royal flush column first, then the category's.
      const auto& row = rules.bonus[static_cast<std::size_t>(pos)];
      const int b = st == poker::kMaxStrength && row[kRoyalFlush] != 0
                        ? row[kRoyalFlush]
                        : row[kTiebreak.category[st]];
      float f[3];  // win, tie, loss
      curve(key, pos, f);
      return f[0] * static_cast<float>(b > 0 ? b : 1) - (1.0f - f[0] - f[1]) * f[2];
    };
    if (removal) {
      for (std::size_t i = 0; i < kNumThrees; ++i) lin_top[i] = hand_removal.linear3(t.key3[i]);
      for (std::size_t i = 0; i < kNumFives; ++i) hand_removal.linear5(t.key5[i], lin_mid[i], lin_bot[i]);
    } else if (model->prepared_for(rules)) {
      // Without card removal the prepared per-key values serve every hand.
      const float* prepared = model->linear.data();
      for (std::size_t i = 0; i < kNumThrees; ++i) lin_top[i] = prepared[static_cast<std::size_t>(t.key3[i]) * 3];
      five_values(t.key5.data(), prepared, lin_mid.data(), lin_bot.data());
    } else {
      for (std::size_t i = 0; i < kNumThrees; ++i) lin_top[i] = row_value(t.key3[i], t.strength3[i], kTop);
      for (std::size_t i = 0; i < kNumFives; ++i) {
        lin_mid[i] = row_value(t.key5[i], t.strength5[i], kMiddle);
        lin_bot[i] = row_value(t.key5[i], t.strength5[i], kBottom);
      }
    }
    // Bottom rows, best bound first. A split's middle and top rows are no stronger than its
    // bottom row, so its value is at most the bottom's value plus the best middle value and
    // the best top value among this hand's rows with keys up to the bottom's (taken over
    // key buckets of 256: a little more, never less). Summed in the order the splits' own
    // values are, so float rounding cannot put a split above its bottom's bound.
    // Four copies, filled in turn, so that updates of one bucket do not wait on each other.
    std::array<std::array<float, kBuckets>, 4> mid_upto, top_upto;
    for (auto& a : mid_upto) a.fill(-HUGE_VALF);
    for (auto& a : top_upto) a.fill(-HUGE_VALF);
    for (std::size_t i = 0; i < kNumFives; ++i) {
      float& m = mid_upto[i & 3][t.key5[i] >> kBucketShift];
      m = std::max(m, lin_mid[i]);
    }
    for (std::size_t i = 0; i < kNumThrees; ++i) {
      float& m = top_upto[i & 3][t.key3[i] >> kBucketShift];
      m = std::max(m, lin_top[i]);
    }
    alignas(64) std::array<float, kBuckets> upto;  // best top value + best middle value
    float best_mid = -HUGE_VALF, best_top = -HUGE_VALF;
    for (std::size_t q = 0; q < kBuckets; ++q) {
      best_mid = std::max({best_mid, mid_upto[0][q], mid_upto[1][q], mid_upto[2][q], mid_upto[3][q]});
      best_top = std::max({best_top, top_upto[0][q], top_upto[1][q], top_upto[2][q], top_upto[3][q]});
      upto[q] = best_top + best_mid;
    }
    alignas(64) std::array<float, kNumFivesPadded> bound;
    const float top_bound = bottom_bounds(t.key5.data(), lin_bot.data(), upto.data(), bound.data());
    // Splits worth at least the floor (the `candidates`-th best value found so far, kept in
    // a min-heap) gather in a buffer; when it fills, the best `candidates` are kept.
    std::array<Candidate, 2 * kMaxEvCandidates> pool;
    std::size_t pooled = 0;
    std::array<float, kMaxEvCandidates> heap;
    std::size_t heaped = 0;
    float floor_score = -HUGE_VALF;
    const BottomSplits& bs = bottom_splits();
    KeyValues kv;
    interleave_rows(t.key3.data(), t.key5.data(), lin_top.data(), lin_mid.data(), kv);
    // Each split of one bottom row worth at least the floor goes to the pool, and raises
    // the floor once `candidates` values are known.
    auto search_bottom = [&](std::uint16_t b) {
      std::uint32_t found[64];
      float value[64];
      const int n_found = bottom_scan(bs.rows[b].data(), t.key3.data(), t.key5.data(), lin_top.data(),
                                      lin_mid.data(), kv, t.key5[b], lin_bot[b], floor_score, found, value);
      for (int fi = 0; fi < n_found; ++fi) {
        const float lin = value[fi];
        if (lin < floor_score) continue;  // the floor has risen since the scan
        pool[pooled++] = {lin, static_cast<std::uint16_t>(found[fi] & 0xFFFF),
                          static_cast<std::uint16_t>(found[fi] >> 16), b};
        if (pooled == pool.size()) {
          keep_best(pool.data(), pooled, candidates);
          pooled = candidates;
        }
        if (heaped < candidates) {
          heap[heaped++] = lin;
          std::push_heap(heap.begin(), heap.begin() + static_cast<std::ptrdiff_t>(heaped), std::greater<float>());
        } else if (lin > heap[0]) {
          // The smallest replaced and sifted down: one pass, where pop_heap and push_heap
          // take two.
          std::size_t at = 0;
          for (std::size_t child = 1; child < heaped; child = 2 * at + 1) {
            if (child + 1 < heaped && heap[child + 1] < heap[child]) ++child;
            if (!(heap[child] < lin)) break;
            heap[at] = heap[child];
            at = child;
          }
          heap[at] = lin;
        }
        if (heaped == candidates) floor_score = heap[0];
      }
    };
    // Bottoms in bands of kBandWidth points below the best bound, band by band, until a
    // band's upper edge is at or below the floor (every later bound is lower still); the
    // last band takes what is more than 8 points below.
    alignas(64) std::array<std::uint32_t, kNumFivesPadded> in_band;
    float upper = HUGE_VALF;
    for (int band = 1; upper > floor_score; ++band) {
      const float lower = static_cast<float>(band) * kBandWidth <= 8.0f ? top_bound - static_cast<float>(band) * kBandWidth : -HUGE_VALF;
      const int n = bottoms_between(bound.data(), std::max(lower, floor_score), upper, in_band.data());
      for (int at = 0; at < n; ++at) {
        const auto b = static_cast<std::uint16_t>(in_band[static_cast<std::size_t>(at)]);
        // The padding slots (bound -inf) pass a band from -inf while the floor is -inf
        // too: they are no bottoms.
        if (b < kNumFives && bound[b] >= floor_score) search_bottom(b);
      }
      if (lower == -HUGE_VALF) break;
      upper = lower;
    }
    if (pooled > candidates) {
      keep_best(pool.data(), pooled, candidates);
      pooled = candidates;
    }
    // Ranked in the candidates' own order (value, then subset numbers), so that ties are
    // broken the same way whatever order the search found them in.
    std::sort(pool.begin(), pool.begin() + static_cast<std::ptrdiff_t>(pooled), candidate_before);
    for (std::size_t ci = 0; ci < pooled; ++ci) {
      const Candidate& c = pool[ci];
      float p[3], tie[3], lv[3];
      int bonus[3];
      const RowKey keys[3] = {t.key3[c.top], t.key5[c.middle], t.key5[c.bottom]};
      const poker::Strength st[3] = {t.strength3[c.top], t.strength5[c.middle], t.strength5[c.bottom]};
      for (std::size_t r = 0; r < 3; ++r) {
        float f[3];
        curve(keys[r], static_cast<int>(r), f);
        p[r] = f[0];
        tie[r] = f[1];
        lv[r] = f[2];
        bonus[r] = bonus_value(st[r], static_cast<Position>(r), rules);
      }
      best.offer({expected_points(p, tie, lv, bonus, rules, model->opponents), c.top, c.middle,
                  c.bottom});
    }
  }
  std::vector<Arrangement> out;
  for (const Candidate& c : best.items()) {
    Arrangement a;
    a.split = split_of(s.three_mask[c.top], s.five_mask[c.middle], s.five_mask[c.bottom]);
    for (auto& i : a.split.top) i = hand.from[i];
    for (auto& i : a.split.middle) i = hand.from[i];
    for (auto& i : a.split.bottom) i = hand.from[i];
    a.score = strategy == Strategy::kPercentile || (strategy == Strategy::kEv && !use_ev)
                  ? c.score / kPercentileDenominator
                  : c.score;
    a.fouled = t.key3[c.top] > t.key5[c.middle] || t.key5[c.middle] > t.key5[c.bottom];
    out.push_back(a);
  }
  return out;
}

void EvModel::prepare(const Rules& rules) {
  linear.assign(static_cast<std::size_t>(kNumRowKeys) * 3, 0.0f);
  prepared_tiebreak = rules.suit_tiebreak;
  prepared_bonus = rules.bonus;
  for (int key = 4; key < kNumRowKeys; ++key) {
    const poker::Strength st = key_strength(key, rules.suit_tiebreak);
    if (st == 0) continue;
    for (int pos = 0; pos < 3; ++pos) {
      const int b = bonus_value(st, static_cast<Position>(pos), rules);
      const float* f = at(key, pos);
      linear[static_cast<std::size_t>(key) * 3 + static_cast<std::size_t>(pos)] =
          f[0] * static_cast<float>(b > 0 ? b : 1) - (1.0f - f[0] - f[1]) * f[2];
    }
  }
  // Only a model that uses them pays for the tables (about 1 MB, a few ms at load).
  removal = card_removal ? build_removal_tables(*this, rules) : nullptr;
}

void EvModel::pack() {
  packed.assign(static_cast<std::size_t>(kNumRowKeys) * 9, 0.0f);
  for (std::size_t k = 0; k < static_cast<std::size_t>(kNumRowKeys); ++k)
    for (std::size_t p = 0; p < 3; ++p) {
      packed[(k * 3 + p) * 3 + 0] = win[p][k];
      packed[(k * 3 + p) * 3 + 1] = tie[p][k];
      packed[(k * 3 + p) * 3 + 2] = loss[p][k];
    }
}

double expected_points(const float* p, const float* t, const float* lossv, const int* bonus,
                       const Rules& rules, int opponents) noexcept {
  double l[3], plain = 0, linear = 0;
  for (int r = 0; r < 3; ++r) {
    l[r] = std::max(0.0, 1.0 - p[r] - t[r]);
    const double v = bonus[r] > 0 ? bonus[r] : 1;
    linear += p[r] * v - l[r] * lossv[r];
    plain += bonus[r] > 0 ? 0 : 1;
  }
  const double sweep = static_cast<double>(p[0]) * p[1] * p[2];
  const double swept = l[0] * l[1] * l[2];
  // A sweep multiplies our plain rows; being swept, theirs (taken as plain: bonus rows
  // are rare and their value is already in lossv).
  double extra = (rules.sweep_multiplier - 1) * (sweep * plain - swept * 3.0);
  if (super_applies(rules, opponents + 1)) {
    // Sweeping every opponent (taken as independent) lifts the sweep to the super multiplier.
    double all = 1;
    for (int o = 0; o < opponents; ++o) all *= sweep;
    extra += (rules.super_multiplier - rules.sweep_multiplier) * all * plain;
  }
  if (rules.majority_bonus != 0) {
    // P(more rows won than lost) - P(more lost than won), over the 27 row outcomes.
    double more = 0, fewer = 0;
    const double q[3][3] = {{p[0], t[0], l[0]}, {p[1], t[1], l[1]}, {p[2], t[2], l[2]}};
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b)
        for (int c = 0; c < 3; ++c) {
          const int w = (a == 0) + (b == 0) + (c == 0);
          const int lo = (a == 2) + (b == 2) + (c == 2);
          const double pr = q[0][a] * q[1][b] * q[2][c];
          if (w > lo) more += pr;
          if (lo > w) fewer += pr;
        }
    extra += rules.majority_bonus * (more - fewer);
  }
  return linear + extra;
}

int special_points(Special s, const Rules& rules) noexcept {
  if (s == Special::kDragon) return rules.dragon_points;
  if (s == Special::kNone) return 0;
  return rules.special_points[static_cast<std::size_t>(s)];
}

int special_rank(Special s, const Rules& rules) noexcept {
  const int points = special_points(s, rules);
  if (points <= 0) return 0;
  // The dragon outranks every other special whatever the points (RULES.md 4.4).
  return s == Special::kDragon ? 1 << 30 : points;
}

TableResult score_table(const std::vector<PlayerRows>& players, const Rules& rules) {
  const std::size_t n = players.size();
  TableResult res;
  res.points.assign(n, 0);
  res.between.assign(n, std::vector<int>(n, 0));
  res.row_winner.assign(n, std::vector<std::array<int, 3>>(n, {0, 0, 0}));
  res.multiplier.assign(n, std::vector<int>(n, 1));
  res.super_player.assign(n, false);
  // The special each player scores with: a dragon when dragons count, else a declared
  // special the rules count; its rank decides between two specials (RULES.md 4.4).
  auto special_of = [&](std::size_t i) {
    if (rules.dragon_points > 0 && players[i].dragon) return Special::kDragon;
    return special_rank(players[i].special, rules) > 0 ? players[i].special : Special::kNone;
  };
  auto dragon = [&](std::size_t i) { return special_of(i) != Special::kNone; };
  // Row results between two non-fouled players without specials.
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      for (int r = 0; r < 3; ++r) {
        const RowKey a = players[i].key[static_cast<std::size_t>(r)];
        const RowKey b = players[j].key[static_cast<std::size_t>(r)];
        res.row_winner[i][j][static_cast<std::size_t>(r)] = a > b ? 1 : (a < b ? -1 : 0);
      }
  auto sweeps = [&](std::size_t i, std::size_t j) {
    if (dragon(j)) return false;  // a dragon (or another special) cannot be swept
    if (players[j].fouled) return true;
    const auto& w = res.row_winner[i][j];
    return w[0] == 1 && w[1] == 1 && w[2] == 1;
  };
  const bool super_table = super_applies(rules, static_cast<int>(n));
  for (std::size_t i = 0; i < n && super_table; ++i) {
    if (players[i].fouled || dragon(i)) continue;
    bool all = true;
    for (std::size_t j = 0; j < n; ++j)
      if (j != i) all = all && sweeps(i, j);
    res.super_player[i] = all;
  }
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      int pts = 0;  // points i wins from j
      const PlayerRows& a = players[i];
      const PlayerRows& b = players[j];
      if (dragon(i) || dragon(j)) {
        // The higher-ranked special wins its points; equal ranks score nothing.
        const Special si = special_of(i), sj = special_of(j);
        const int ri = special_rank(si, rules), rj = special_rank(sj, rules);
        if (ri != rj) pts = ri > rj ? special_points(si, rules) : -special_points(sj, rules);
      } else if (a.fouled || b.fouled) {
        if (!(a.fouled && b.fouled)) {
          const PlayerRows& winner = a.fouled ? b : a;
          const int amount = rules.foul_points + winner.bonus[0] + winner.bonus[1] + winner.bonus[2];
          pts = a.fouled ? -amount : amount;
        }
      } else {
        const auto& w = res.row_winner[i][j];
        int wins_i = 0, wins_j = 0, plain_i = 0, plain_j = 0, bonus_i = 0, bonus_j = 0;
        for (std::size_t r = 0; r < 3; ++r) {
          if (w[r] > 0) {
            ++wins_i;
            if (a.bonus[r] > 0) bonus_i += a.bonus[r];
            else ++plain_i;
          } else if (w[r] < 0) {
            ++wins_j;
            if (b.bonus[r] > 0) bonus_j += b.bonus[r];
            else ++plain_j;
          }
        }
        int mult_i = 1, mult_j = 1;
        if (wins_i == 3) mult_i = res.super_player[i] ? rules.super_multiplier : rules.sweep_multiplier;
        if (wins_j == 3) mult_j = res.super_player[j] ? rules.super_multiplier : rules.sweep_multiplier;
        pts = plain_i * mult_i + bonus_i - plain_j * mult_j - bonus_j;
        if (wins_i > wins_j) pts += rules.majority_bonus;
        if (wins_j > wins_i) pts -= rules.majority_bonus;
        res.multiplier[i][j] = wins_i == 3 ? mult_i : 1;
        res.multiplier[j][i] = wins_j == 3 ? mult_j : 1;
      }
      res.between[i][j] = pts;
      res.between[j][i] = -pts;
      res.points[i] += pts;
      res.points[j] -= pts;
    }
  }
  return res;
}

}  // namespace capsa_fast::susun
