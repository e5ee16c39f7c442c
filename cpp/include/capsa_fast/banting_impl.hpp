// Template part of banting.hpp: the legal-play enumeration, kept in the header so callers
// that only count or fill a mask pay for no vector.
#pragma once

#include <algorithm>

namespace capsa_fast::banting {

namespace detail {
// Cards of each rank in the set, by poker rank index; n[r] of them.
struct ByRank {
  std::array<std::array<std::uint8_t, 4>, 13> cards{};
  std::array<std::uint8_t, 13> n{};
  explicit ByRank(CardMask hand) noexcept {
    while (hand) {
      const int c = __builtin_ctzll(hand);
      hand &= hand - 1;
      const int r = rank_of(c);
      cards[static_cast<std::size_t>(r)][n[static_cast<std::size_t>(r)]++] =
          static_cast<std::uint8_t>(c);
    }
  }
};
}  // namespace detail

template <class F>
int for_each_legal_play(CardMask hand, const Combo* table, const Rules& rules,
                        int must_contain, F&& f, bool passed) {
  int count = 0;
  if (table && passed && rules.pass_locks) return 0;
  const CardMask must = must_contain >= 0 ? CardMask{1} << must_contain : 0;
  const int table_size = table ? table->size : 0;
  auto emit = [&](const int* cs, int n) {
    if (must) {
      bool has = false;
      for (int i = 0; i < n; ++i) has |= cs[i] == must_contain;
      if (!has) return;
    }
    const Combo combo = classify(cs, n, rules);
    if (combo.kind == Kind::kNone) return;
    if (table && !beats(combo, *table, rules)) return;
    ++count;
    f(combo);
  };
  const detail::ByRank by(hand);
  int cs[5];

  if (!table || table_size == 1) {
    for (CardMask h = hand; h; h &= h - 1) {
      cs[0] = __builtin_ctzll(h);
      emit(cs, 1);
    }
  }
  if (!table || table_size == 2) {
    for (int r = 0; r < 13; ++r)
      for (int i = 0; i < by.n[r]; ++i)
        for (int j = i + 1; j < by.n[r]; ++j) {
          cs[0] = by.cards[r][i];
          cs[1] = by.cards[r][j];
          emit(cs, 2);
        }
  }
  if (rules.triples && (!table || table_size == 3)) {
    for (int r = 0; r < 13; ++r)
      for (int i = 0; i < by.n[r]; ++i)
        for (int j = i + 1; j < by.n[r]; ++j)
          for (int k = j + 1; k < by.n[r]; ++k) {
            cs[0] = by.cards[r][i];
            cs[1] = by.cards[r][j];
            cs[2] = by.cards[r][k];
            emit(cs, 3);
          }
  }
  const bool bombs_only = table && table_size <= 3;
  if (table && table_size != 5 && !(rules.bombs && bombs_only)) return count;

  // Four of a kind with any fifth card.
  for (int r = 0; r < 13; ++r) {
    if (by.n[r] != 4) continue;
    for (CardMask h = hand; h; h &= h - 1) {
      const int kicker = __builtin_ctzll(h);
      if (rank_of(kicker) == r) continue;
      for (int i = 0; i < 4; ++i) cs[i] = by.cards[r][i];
      cs[4] = kicker;
      emit(cs, 5);
    }
  }
  // Straights and straight flushes: one card from each rank of every listed run.
  for (const std::uint8_t start : rules.straights) {
    int rk[5];
    bool possible = true;
    for (int i = 0; i < 5; ++i) {
      rk[i] = (start + i) % 13;
      possible = possible && by.n[rk[i]] > 0;
    }
    if (!possible) continue;
    for (int a = 0; a < by.n[rk[0]]; ++a)
      for (int b = 0; b < by.n[rk[1]]; ++b)
        for (int c = 0; c < by.n[rk[2]]; ++c)
          for (int d = 0; d < by.n[rk[3]]; ++d)
            for (int e = 0; e < by.n[rk[4]]; ++e) {
              cs[0] = by.cards[rk[0]][a];
              cs[1] = by.cards[rk[1]][b];
              cs[2] = by.cards[rk[2]][c];
              cs[3] = by.cards[rk[3]][d];
              cs[4] = by.cards[rk[4]][e];
              if (bombs_only && suit_of(cs[0]) != suit_of(cs[1])) continue;
              emit(cs, 5);
            }
  }
  if (bombs_only) return count;
  // Full houses: a triple and a pair of another rank.
  for (int t = 0; t < 13; ++t) {
    if (by.n[t] < 3) continue;
    for (int i = 0; i < by.n[t]; ++i)
      for (int j = i + 1; j < by.n[t]; ++j)
        for (int k = j + 1; k < by.n[t]; ++k)
          for (int p = 0; p < 13; ++p) {
            if (p == t) continue;
            for (int x = 0; x < by.n[p]; ++x)
              for (int y = x + 1; y < by.n[p]; ++y) {
                cs[0] = by.cards[t][i];
                cs[1] = by.cards[t][j];
                cs[2] = by.cards[t][k];
                cs[3] = by.cards[p][x];
                cs[4] = by.cards[p][y];
                emit(cs, 5);
              }
          }
  }
  // Flushes: five cards of one suit, except listed runs (those came as straight flushes).
  if (rules.flush_compare != FlushCompare::kNone) {
    for (int s = 0; s < 4; ++s) {
      int suited[13];
      int m = 0;
      for (int r = 0; r < 13; ++r)
        if (hand >> (r * 4 + s) & 1) suited[m++] = r * 4 + s;
      if (m < 5) continue;
      for (int a = 0; a < m; ++a)
        for (int b = a + 1; b < m; ++b)
          for (int c = b + 1; c < m; ++c)
            for (int d = c + 1; d < m; ++d)
              for (int e = d + 1; e < m; ++e) {
                cs[0] = suited[a];
                cs[1] = suited[b];
                cs[2] = suited[c];
                cs[3] = suited[d];
                cs[4] = suited[e];
                std::uint16_t ranks = 0;
                for (int i = 0; i < 5; ++i) ranks |= static_cast<std::uint16_t>(1u << rank_of(cs[i]));
                bool listed = false;
                for (const std::uint8_t start : rules.straights) listed |= run_mask(start) == ranks;
                if (!listed) emit(cs, 5);
              }
    }
  }
  return count;
}

}  // namespace capsa_fast::banting
