// Banting rule sets and hands read from fuzz input, shared by fuzz_banting and
// fuzz_banting_game. Every value is one the rules allow (python/capsa_fast/banting/rules.py
// validates the same ranges before anything reaches the core).
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "capsa_fast/banting.hpp"
#include "fuzz_input.hpp"

namespace capsa_fast::fuzz {

// The named straight orders, as run start ranks from lowest to highest: two-high, two-low,
// taiwan, ace-top-jqka2, no-two.
inline const std::vector<std::uint8_t> kStraightOrders[5] = {
    {1, 2, 3, 4, 5, 6, 7, 8, 0, 12},
    {12, 0, 1, 2, 3, 4, 5, 6, 7, 8},
    {12, 1, 2, 3, 4, 5, 6, 7, 8, 0},
    {1, 2, 3, 4, 5, 6, 7, 8, 9},
    {1, 2, 3, 4, 5, 6, 7, 8},
};

// Every field of banting::Rules: any suit order, a named or custom list of distinct runs
// (possibly empty), each tiebreak and flush comparison, and the three switches.
inline banting::Rules read_rules(Input& in) {
  banting::Rules r;
  // Suit order: one of the 24 permutations, lowest suit first.
  int perm = in.byte() % 24;
  std::vector<int> suits = {0, 1, 2, 3};
  for (int pos = 0; pos < 4; ++pos) {
    const int left = 4 - pos;
    const auto at = static_cast<std::size_t>(perm % left);
    perm /= left;
    r.suit_rank[static_cast<std::size_t>(suits[at])] = static_cast<std::uint8_t>(pos);
    suits.erase(suits.begin() + static_cast<std::ptrdiff_t>(at));
  }
  const std::uint8_t s = in.byte();
  if (s < 160) {
    r.straights = kStraightOrders[s % 5];
  } else {
    // A custom order: the first n of the 13 runs shuffled.
    std::vector<std::uint8_t> runs(banting::kNumRuns);
    for (int i = 0; i < banting::kNumRuns; ++i) runs[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(i);
    for (std::size_t i = runs.size(); i > 1; --i) std::swap(runs[i - 1], runs[in.byte() % i]);
    runs.resize(static_cast<std::size_t>(in.range(0, banting::kNumRuns)));
    r.straights = runs;
  }
  const std::uint8_t f = in.byte();
  r.straight_tiebreak = f & 1 ? banting::StraightTiebreak::kSequenceTop
                              : banting::StraightTiebreak::kHighestCard;
  r.flush_compare = static_cast<banting::FlushCompare>(f >> 1 & 3);  // all four
  r.triples = !(f & 8);  // on by default, as in every preset
  r.bombs = (f & 16) != 0;
  r.pass_locks = (f & 32) != 0;
  r.two_demotion = (f & 64) != 0;
  r.twos_demoted = r.two_demotion && (f & 128) != 0;  // the state, for stateless calls
  return r;
}

// Scoring tiers: 1..4 of them, thresholds strictly increasing in 1..13, multipliers
// 0..1000 (mostly small).
inline std::vector<std::pair<int, int>> read_tiers(Input& in) {
  std::vector<std::pair<int, int>> tiers;
  const int n = in.range(1, 4);
  int threshold = 0;
  for (int i = 0; i < n && threshold < 13; ++i) {
    threshold += in.range(1, 13 - threshold);
    const std::uint8_t m = in.byte();
    tiers.emplace_back(threshold, m < 240 ? m % 5 : in.range(0, 1000));
  }
  return tiers;
}

// n distinct cards outside `avoid` (n <= 52 - popcount(avoid)), as a mask.
inline banting::CardMask read_cards(Input& in, int n, banting::CardMask avoid) {
  banting::CardMask m = 0;
  for (int i = 0; i < n; ++i) {
    int c = in.card();
    while ((m | avoid) >> c & 1) c = (c + 1) % kDeckSize;
    m |= banting::CardMask{1} << c;
  }
  return m;
}

// Card ids of a mask, lowest id first.
inline std::vector<int> ids_of(banting::CardMask m) {
  std::vector<int> out;
  for (; m; m &= m - 1) out.push_back(__builtin_ctzll(m));
  return out;
}

}  // namespace capsa_fast::fuzz
