// Dealing from a round code's seed, shared by both games (RULES.md 3.3 and 4.5).
//
// SplitMix64 drives a Fisher-Yates shuffle of the ids 0..51 from the top
// (j = next() % (i + 1) for i = 51..1); seat s receives positions 13*s .. 13*s+12. The
// recipe is part of the round-code format, so it never changes: a code deals the same
// hands on every machine and in every version.
#pragma once

#include <array>
#include <cstdint>
#include <utility>

#include "capsa_fast/cards.hpp"

namespace capsa_fast {

struct SplitMix64 {
  std::uint64_t state = 0;
  std::uint64_t next() noexcept {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) (n small: the bias of the modulo is below 2^-57).
  int below(int n) noexcept { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
};

namespace detail {
// The shuffle's steps i = I .. 1, unrolled: with i + 1 a constant the compiler divides by
// multiplying, about four times faster than a division per step (deep's banks deal 262,144
// hands). The same numbers as rng.below(i + 1).
template <int I>
inline void shuffle_from(std::array<std::uint8_t, kDeckSize>& deck, SplitMix64& rng) noexcept {
  const auto j = static_cast<std::size_t>(rng.next() % static_cast<std::uint64_t>(I + 1));
  std::swap(deck[static_cast<std::size_t>(I)], deck[j]);
  if constexpr (I > 1) shuffle_from<I - 1>(deck, rng);
}
}  // namespace detail

// The card ids in dealing order for a seed.
inline std::array<std::uint8_t, kDeckSize> shuffled_deck(std::uint64_t seed) noexcept {
  std::array<std::uint8_t, kDeckSize> deck{};
  for (int i = 0; i < kDeckSize; ++i) deck[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(i);
  SplitMix64 rng{seed};
  detail::shuffle_from<kDeckSize - 1>(deck, rng);
  return deck;
}

inline constexpr int kHandSize = 13;

}  // namespace capsa_fast
