// Build-time generator of the poker-order lookup tables (RULES.md section 2).
//
// Run by CMake; writes a C++ header with every table the evaluator reads. Nothing here
// runs at import time and nothing is downloaded. The order of hands is defined once, in
// `class_key` below: category first, then the ranks that decide within the category,
// high to low, a missing kicker counting lower than any card. That single order covers
// 3-card and 5-card hands, so a Susun top row compares directly with a middle row.
//
// Usage: gen_tables OUTPUT.inc          write the tables
//        gen_tables --search-keys N     re-derive the rank keys for hands of up to N cards
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace {

enum Category { kHighCard, kPair, kTwoPair, kTrips, kStraight, kFlush, kFullHouse, kQuads,
                kStraightFlush };

// Rank keys: any multiset of at most 5 (resp. 7) ranks, each rank at most 4 times, has a
// distinct sum of keys. Found greedily (smallest valid key, rank by rank) by
// `gen_tables --search-keys 5` and `--search-keys 7`; verified again on every build.
constexpr std::array<std::uint32_t, 13> kRankKey5 = {
    1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415, 148432};
constexpr std::array<std::uint32_t, 13> kRankKey7 = {
    1, 5, 24, 112, 521, 2247, 9244, 30823, 103066, 250154, 667453, 1526359, 3453520};

using Counts = std::array<int, 13>;
// (category, deciding ranks high to low, -1 = missing), compared lexicographically.
using ClassKey = std::array<int, 6>;

// Top rank of the straight formed by exactly five distinct ranks, or -1.
int straight_top(const Counts& counts) {
  for (int top = 12; top >= 4; --top) {
    bool run = true;
    for (int r = top - 4; r <= top; ++r) run = run && counts[r] == 1;
    if (run) return top;
  }
  // The wheel A-2-3-4-5: the five is its top card.
  if (counts[12] == 1 && counts[0] == 1 && counts[1] == 1 && counts[2] == 1 && counts[3] == 1)
    return 3;
  return -1;
}

// The class of a 3- or 5-card hand given its rank counts and whether it is suited.
ClassKey class_key(const Counts& counts, bool flush) {
  // Groups ordered by size, then rank, both descending: the usual poker reading order.
  std::vector<std::pair<int, int>> groups;  // (count, rank)
  int n = 0;
  for (int r = 12; r >= 0; --r) {
    if (counts[r] > 0) groups.push_back({counts[r], r});
    n += counts[r];
  }
  std::stable_sort(groups.begin(), groups.end(),
                   [](auto a, auto b) { return a.first > b.first; });
  ClassKey key;
  key.fill(-1);
  int cat = kHighCard;
  const int top = n == 5 ? straight_top(counts) : -1;
  if (top >= 0) {
    key[0] = flush ? kStraightFlush : kStraight;
    key[1] = top;
    return key;
  }
  if (groups[0].first == 4) cat = kQuads;
  else if (groups[0].first == 3 && groups.size() > 1 && groups[1].first == 2) cat = kFullHouse;
  else if (flush) cat = kFlush;
  else if (groups[0].first == 3) cat = kTrips;
  else if (groups[0].first == 2 && groups.size() > 1 && groups[1].first == 2) cat = kTwoPair;
  else if (groups[0].first == 2) cat = kPair;
  key[0] = cat;
  for (std::size_t i = 0; i < groups.size(); ++i) key[i + 1] = groups[i].second;
  return key;
}

// Calls f(counts) for every multiset of exactly `size` ranks with each rank at most `cap` times.
template <class F>
void for_each_multiset(int size, int cap, F&& f) {
  Counts counts{};
  auto rec = [&](auto&& self, int rank, int left) -> void {
    if (rank == 13) {
      if (left == 0) f(counts);
      return;
    }
    for (int c = 0; c <= std::min(cap, left); ++c) {
      counts[rank] = c;
      self(self, rank + 1, left - c);
    }
    counts[rank] = 0;
  };
  rec(rec, 0, size);
}

// Calls f(sub) for every sub-multiset of `counts` holding exactly five ranks.
template <class F>
void for_each_five(const Counts& counts, F&& f) {
  Counts sub{};
  auto rec = [&](auto&& self, int rank, int left) -> void {
    if (rank == 13) {
      if (left == 0) f(sub);
      return;
    }
    for (int c = 0; c <= std::min(counts[rank], left); ++c) {
      sub[rank] = c;
      self(self, rank + 1, left - c);
    }
    sub[rank] = 0;
  };
  rec(rec, 0, 5);
}

std::uint32_t key_sum(const Counts& counts, const std::array<std::uint32_t, 13>& keys) {
  std::uint32_t s = 0;
  for (int r = 0; r < 13; ++r) s += static_cast<std::uint32_t>(counts[r]) * keys[r];
  return s;
}

// A perfect hash by row displacement: key -> offsets[key >> shift] + (key & mask).
struct RowHash {
  int shift = 0;
  std::vector<std::uint32_t> offsets;
  std::vector<std::uint16_t> values;
};

// Packs the rows of the sparse key space into one array, densest rows first, each row at
// the lowest offset where none of its keys lands on a used slot. `max_key` is the largest
// sum any input could produce (invalid input included), so every lookup stays in bounds.
RowHash build_row_hash(const std::map<std::uint32_t, std::uint16_t>& entries, int shift,
                       std::uint32_t max_key) {
  RowHash h;
  h.shift = shift;
  const std::uint32_t width = 1u << shift;
  const std::size_t n_rows = (max_key >> shift) + 1;
  std::vector<std::vector<std::uint32_t>> rows(n_rows);
  for (const auto& kv : entries) rows[kv.first >> shift].push_back(kv.first & (width - 1));
  std::vector<std::size_t> order(n_rows);
  for (std::size_t i = 0; i < n_rows; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return rows[a].size() > rows[b].size(); });
  std::vector<bool> used;
  h.offsets.assign(n_rows, 0);
  std::uint32_t high = 0;
  for (std::size_t row : order) {
    if (rows[row].empty()) break;
    for (std::uint32_t off = 0;; ++off) {
      if (used.size() < off + width) used.resize(off + width, false);
      bool fits = true;
      for (std::uint32_t col : rows[row]) {
        if (used[off + col]) { fits = false; break; }
      }
      if (!fits) continue;
      for (std::uint32_t col : rows[row]) used[off + col] = true;
      h.offsets[row] = off;
      high = std::max(high, off + width);
      break;
    }
  }
  // One spare slot at the end: the vector loops read each value as 32 bits.
  h.values.assign(high + 1, 0);
  for (const auto& kv : entries)
    h.values[h.offsets[kv.first >> shift] + (kv.first & (width - 1))] = kv.second;
  return h;
}

RowHash smallest_row_hash(const std::map<std::uint32_t, std::uint16_t>& entries,
                          std::uint32_t max_key) {
  RowHash best;
  std::size_t best_bytes = SIZE_MAX;
  for (int shift = 6; shift <= 14; ++shift) {
    RowHash h = build_row_hash(entries, shift, max_key);
    const std::size_t bytes = h.offsets.size() * 4 + h.values.size() * 2;
    if (bytes < best_bytes) {
      best_bytes = bytes;
      best = std::move(h);
    }
  }
  return best;
}

bool keys_unique(const std::array<std::uint32_t, 13>& keys, int max_cards) {
  std::vector<bool> seen;
  bool ok = true;
  for (int size = 0; size <= max_cards && ok; ++size) {
    for_each_multiset(size, 4, [&](const Counts& c) {
      const std::uint32_t s = key_sum(c, keys);
      if (seen.size() <= s) seen.resize(s + 1, false);
      if (seen[s]) ok = false;
      seen[s] = true;
    });
  }
  return ok;
}

int search_keys(int max_cards) {
  std::vector<std::pair<std::uint32_t, int>> sums{{0, 0}};  // (sum, cards) of each multiset
  std::vector<std::uint8_t> seen;
  std::uint32_t prev = 0;
  for (int rank = 0; rank < 13; ++rank) {
    for (std::uint32_t k = prev + 1;; ++k) {
      std::vector<std::uint32_t> touched;
      bool ok = true;
      for (const auto& p : sums) {
        for (int t = 0; t <= 4 && p.second + t <= max_cards && ok; ++t) {
          const std::uint32_t s = p.first + static_cast<std::uint32_t>(t) * k;
          if (seen.size() <= s) seen.resize(2 * static_cast<std::size_t>(s) + 1, 0);
          if (seen[s]) ok = false;
          else { seen[s] = 1; touched.push_back(s); }
        }
        if (!ok) break;
      }
      for (std::uint32_t s : touched) seen[s] = 0;
      if (!ok) continue;
      std::vector<std::pair<std::uint32_t, int>> next;
      for (const auto& p : sums)
        for (int t = 0; t <= 4 && p.second + t <= max_cards; ++t)
          next.push_back({p.first + static_cast<std::uint32_t>(t) * k, p.second + t});
      sums.swap(next);
      prev = k;
      std::printf("%u%s", k, rank == 12 ? "\n" : ", ");
      std::fflush(stdout);
      break;
    }
  }
  return 0;
}

template <class T>
void write_array(std::FILE* out, const char* type, const char* name, const std::vector<T>& v) {
  std::fprintf(out, "alignas(64) inline constexpr %s %s[%zu] = {", type, name, v.size());
  for (std::size_t i = 0; i < v.size(); ++i)
    std::fprintf(out, "%s%llu,", i % 16 == 0 ? "\n  " : "", static_cast<unsigned long long>(v[i]));
  std::fprintf(out, "\n};\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--search-keys") == 0) return search_keys(std::atoi(argv[2]));
  // An argument starting with '-' (--help) gets the usage, not a file of that name.
  if (argc != 2 || argv[1][0] == '-') {
    std::fprintf(stderr,
                 "usage: gen_tables OUTPUT.inc | --search-keys N\n"
                 "writes the poker lookup tables as a C++ header (run by the build)\n");
    return argc == 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) ? 0 : 2;
  }
  if (!keys_unique(kRankKey5, 5) || !keys_unique(kRankKey7, 7)) {
    std::fprintf(stderr, "gen_tables: rank keys are not unique\n");
    return 1;
  }

  // Every class of 5-card hands (7,462) and 3-card hands (455), sorted into one scale.
  std::vector<ClassKey> classes;
  for_each_multiset(5, 4, [&](const Counts& c) {
    classes.push_back(class_key(c, false));
    if (std::count(c.begin(), c.end(), 1) == 5) classes.push_back(class_key(c, true));
  });
  for_each_multiset(3, 3, [&](const Counts& c) { classes.push_back(class_key(c, false)); });
  std::sort(classes.begin(), classes.end());
  if (std::adjacent_find(classes.begin(), classes.end()) != classes.end() ||
      classes.size() != 7462 + 455) {
    std::fprintf(stderr, "gen_tables: unexpected class count %zu\n", classes.size());
    return 1;
  }
  auto strength_of = [&](const ClassKey& k) {
    return static_cast<std::uint16_t>(
        std::lower_bound(classes.begin(), classes.end(), k) - classes.begin() + 1);
  };

  // Decoding table: strength -> category (low 4 bits) and five deciding ranks, 4 bits
  // each (15 = missing), most significant first.
  std::vector<std::uint32_t> info(classes.size() + 1, 0);
  std::vector<std::uint16_t> category_start(10, 0);
  for (std::size_t i = 0; i < classes.size(); ++i) {
    const ClassKey& k = classes[i];
    std::uint32_t packed = static_cast<std::uint32_t>(k[0]);
    for (int j = 1; j <= 5; ++j)
      packed |= static_cast<std::uint32_t>(k[j] < 0 ? 15 : k[j]) << (4 * (6 - j));
    info[i + 1] = packed;
    if (category_start[k[0]] == 0) category_start[k[0]] = static_cast<std::uint16_t>(i + 1);
  }
  category_start[9] = static_cast<std::uint16_t>(classes.size() + 1);

  // Suited cards: best flush or straight flush among the five-card subsets of a rank mask.
  std::vector<std::uint16_t> flush(8192, 0);
  for (std::uint32_t mask = 0; mask < 8192; ++mask) {
    if (__builtin_popcount(mask) < 5) continue;
    Counts counts{};
    for (int r = 0; r < 13; ++r) counts[r] = (mask >> r) & 1;
    std::uint16_t best = 0;
    for_each_five(counts, [&](const Counts& sub) {
      best = std::max(best, strength_of(class_key(sub, true)));
    });
    flush[mask] = best;
  }

  // Unsuited 5-card hands by rank multiset; and 3-, 5-, 6-, 7-card multisets (a 3-card hand
  // is its own class, larger ones are worth their best five) for the Hand type and the
  // vector loops, which look every size up in the one table.
  std::map<std::uint32_t, std::uint16_t> by_key5, by_key7;
  for_each_multiset(5, 4, [&](const Counts& c) {
    by_key5[key_sum(c, kRankKey5)] = strength_of(class_key(c, false));
  });
  for_each_multiset(3, 3, [&](const Counts& c) {
    by_key7[key_sum(c, kRankKey7)] = strength_of(class_key(c, false));
  });
  for (int size = 5; size <= 7; ++size) {
    for_each_multiset(size, 4, [&](const Counts& c) {
      std::uint16_t best = 0;
      for_each_five(c, [&](const Counts& sub) {
        best = std::max(best, strength_of(class_key(sub, false)));
      });
      by_key7[key_sum(c, kRankKey7)] = best;
    });
  }
  const RowHash hash5 = smallest_row_hash(by_key5, 5 * kRankKey5[12]);
  const RowHash hash7 = smallest_row_hash(by_key7, 7 * kRankKey7[12]);

  // 3-card hands by their three ranks in any order.
  std::vector<std::uint16_t> three(13 * 13 * 13, 0);
  for (int a = 0; a < 13; ++a)
    for (int b = 0; b < 13; ++b)
      for (int c = 0; c < 13; ++c) {
        Counts counts{};
        ++counts[a]; ++counts[b]; ++counts[c];
        if (counts[a] > 3) continue;
        three[(a * 13 + b) * 13 + c] = strength_of(class_key(counts, false));
      }

  std::FILE* out = std::fopen(argv[1], "w");
  if (!out) {
    std::perror(argv[1]);
    return 1;
  }
  std::fprintf(out, "// Generated by cpp/tools/gen_tables.cpp at build time. Do not edit.\n");
  std::fprintf(out, "// Included by cpp/src/poker.cpp only; see the layout notes there.\n");
  std::fprintf(out, "#pragma once\n#include <cstdint>\n\nnamespace capsa_fast::poker::tables {\n\n");
  std::vector<std::uint64_t> card5(52), card7(52);
  for (int card = 0; card < 52; ++card) {
    const std::uint64_t suit_bit = std::uint64_t{1} << (32 + 4 * (card & 3));
    card5[card] = kRankKey5[card >> 2] | suit_bit;
    card7[card] = kRankKey7[card >> 2] | suit_bit;
  }
  write_array(out, "std::uint64_t", "kCardKey5", card5);
  write_array(out, "std::uint64_t", "kCardKey7", card7);
  std::fprintf(out, "inline constexpr int kHash5Shift = %d;\ninline constexpr int kHash7Shift = %d;\n", hash5.shift,
               hash7.shift);
  write_array(out, "std::uint32_t", "kHash5Offsets", hash5.offsets);
  write_array(out, "std::uint16_t", "kHash5Values", hash5.values);
  write_array(out, "std::uint32_t", "kHash7Offsets", hash7.offsets);
  write_array(out, "std::uint16_t", "kHash7Values", hash7.values);
  flush.push_back(0);  // a spare slot: the vector loops read each value as 32 bits
  write_array(out, "std::uint16_t", "kFlush", flush);
  write_array(out, "std::uint16_t", "kThree", three);
  write_array(out, "std::uint32_t", "kClassInfo", info);
  write_array(out, "std::uint16_t", "kCategoryStart", category_start);
  std::fprintf(out, "\n}  // namespace capsa_fast::poker::tables\n");
  std::fclose(out);
  std::fprintf(stderr, "gen_tables: hash5 shift %d (%zu offsets, %zu values), hash7 shift %d "
               "(%zu offsets, %zu values)\n", hash5.shift, hash5.offsets.size(),
               hash5.values.size(), hash7.shift, hash7.offsets.size(), hash7.values.size());
  return 0;
}
