// C++-only throughput of the poker evaluator, one thread.
//
//   build/cpp/bench_poker [--json] [--hands N] [--repeats R] [--path NAME] [--int32]
//                         [--external LIB]
//
// * evaluate_batch on the same N random uint8 hands (default 4,000,000, seed 1) for k = 3, 5,
//   6, 7, with and without validation, on every batch path this CPU supports (or only
//   --path portable|x86-64-v3|avx512); caches are flushed (a 64 MB buffer is read) before
//   every timed run; the variants of one k are timed in turn, round after round, and
//   the median of R rounds (default 9) is reported; strengths are written as uint16
//   (Strength), or with --int32 as int32, what numpy callers receive and what --external
//   writes (a like-for-like store stream beside it);
// * Hand (capsa_fast/poker_hand.hpp) in an equity-style enumeration: every 5-card board
//   from the 48 cards left after two players' hole cards, both players evaluated by adding
//   their hole cards to the board's partial hand.
// * --external LIB: a shared library built outside this repository exporting
//     int capsa_external_batch(const uint8_t* cards, size_t n, int k, int32_t* out);
//   (bench/compare.py describes it) is timed on the same hands, in the same rounds, as a
//   row of its own, so a C++ evaluator such as OMPEval is compared in the same run.
// --json prints one JSON object instead of the table.
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "capsa_fast/poker.hpp"
#include "capsa_fast/poker_hand.hpp"

namespace {

using namespace capsa_fast::poker;

struct Row {
  std::string path;
  int k;
  bool check;
  double ns_per_hand;
  unsigned checksum;
};

std::vector<std::uint8_t> random_hands(std::size_t n, int k) {
  std::mt19937 rng(1);
  std::vector<std::uint8_t> cards(n * static_cast<std::size_t>(k));
  std::vector<int> deck(52);
  std::iota(deck.begin(), deck.end(), 0);
  for (std::size_t h = 0; h < n; ++h) {
    for (int j = 0; j < k; ++j) std::swap(deck[j], deck[j + rng() % (52 - j)]);
    for (int j = 0; j < k; ++j) cards[h * k + j] = static_cast<std::uint8_t>(deck[j]);
  }
  return cards;
}

// Reads a 64 MB buffer: evicts the last run's hands, tables and output. Read, not written,
// so that it leaves no dirty lines to be written back during the next timed run.
void flush_caches(const std::vector<char>& buffer) {
  unsigned long long sum = 0;
  for (std::size_t i = 0; i < buffer.size(); i += 64) sum += static_cast<unsigned char>(buffer[i]);
  volatile unsigned long long sink = sum;
  (void)sink;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int usage() {
  std::fprintf(stderr,
               "usage: bench_poker [--json] [--hands N] [--repeats R] [--path NAME] [--int32] "
               "[--external LIB]\n");
  return 2;
}

using ExternalBatch = int (*)(const std::uint8_t*, std::size_t, int, std::int32_t*);

}  // namespace

int main(int argc, char** argv) {
  bool json = false;
  bool int32 = false;
  std::size_t n = 4'000'000;
  int repeats = 9;
  std::vector<BatchPath> paths;
  ExternalBatch external = nullptr;
  std::string external_name;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--json") {
      json = true;
    } else if (arg == "--int32") {
      int32 = true;
    } else if (arg == "--external" && i + 1 < argc) {
      void* lib = dlopen(argv[++i], RTLD_NOW);
      void* fn = lib ? dlsym(lib, "capsa_external_batch") : nullptr;
      if (fn == nullptr) {
        std::fprintf(stderr, "bench_poker: cannot use %s: %s\n", argv[i], dlerror());
        return 1;
      }
      external = reinterpret_cast<ExternalBatch>(fn);
      auto* name = reinterpret_cast<const char* (*)()>(dlsym(lib, "capsa_external_name"));
      external_name = name ? name() : argv[i];
    } else if (arg == "--hands" && i + 1 < argc) {
      n = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--repeats" && i + 1 < argc) {
      repeats = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--path" && i + 1 < argc) {
      const std::string name = argv[++i];
      bool found = false;
      for (int p = 0; p < kNumBatchPaths; ++p) {
        if (name == batch_path_name(static_cast<BatchPath>(p))) {
          paths.push_back(static_cast<BatchPath>(p));
          found = true;
        }
      }
      if (!found) {
        std::fprintf(stderr, "bench_poker: unknown path %s\n", name.c_str());
        return usage();
      }
    } else {
      return usage();
    }
  }
  if (n == 0) return usage();
  if (paths.empty()) {
    for (int p = 0; p < kNumBatchPaths; ++p)
      if (batch_path_supported(static_cast<BatchPath>(p))) paths.push_back(static_cast<BatchPath>(p));
  }
  for (BatchPath p : paths) {
    if (!batch_path_supported(p)) {
      std::fprintf(stderr, "bench_poker: this CPU cannot run the %s path\n", batch_path_name(p));
      return 1;
    }
  }
  const BatchPath default_path = batch_path();

  const std::vector<char> flush(64 << 20, 1);
  std::vector<Row> rows;
  for (int k : {3, 5, 6, 7}) {
    const std::vector<std::uint8_t> cards = random_hands(n, k);
    std::vector<Strength> out(int32 ? 0 : n);
    std::vector<std::int32_t> out32(int32 ? n : 0);
    // Every (path, validate) of this k timed in turn, round after round, so that a change
    // of load on the machine falls on all of them and their ratios hold.
    struct Variant {
      BatchPath path;
      bool check;
      std::vector<double> times;
      unsigned checksum = 0;
    };
    std::vector<Variant> variants;
    for (BatchPath p : paths)
      for (bool check : {true, false}) variants.push_back({p, check, {}, 0});
    std::vector<std::int32_t> external_out(external ? n : 0);
    std::vector<double> external_times;
    for (int rep = 0; rep <= repeats; ++rep) {  // round 0 warms up, not counted
      if (external) {
        flush_caches(flush);
        const auto t0 = std::chrono::steady_clock::now();
        external(cards.data(), n, k, external_out.data());
        const auto t1 = std::chrono::steady_clock::now();
        if (rep > 0) external_times.push_back(std::chrono::duration<double>(t1 - t0).count());
      }
      for (Variant& v : variants) {
        set_batch_path(v.path);
        flush_caches(flush);
        const auto t0 = std::chrono::steady_clock::now();
        if (int32) {
          evaluate_batch(cards.data(), n, k, k, 1, out32.data(), v.check);
        } else {
          evaluate_batch(cards.data(), n, k, k, 1, out.data(), v.check);
        }
        const auto t1 = std::chrono::steady_clock::now();
        if (rep > 0) v.times.push_back(std::chrono::duration<double>(t1 - t0).count());
        unsigned sum = 0;
        for (Strength s : out) sum += s;
        for (std::int32_t s : out32) sum += static_cast<unsigned>(s);
        v.checksum = sum;
      }
    }
    if (external) {
      // Its values are its own scale: the checksum only tells runs apart.
      unsigned sum = 0;
      for (std::int32_t s : external_out) sum += static_cast<unsigned>(s);
      rows.push_back({"external", k, false, median(external_times) / static_cast<double>(n) * 1e9, sum});
    }
    for (const Variant& v : variants) {
      rows.push_back({batch_path_name(v.path), k, v.check,
                      median(v.times) / static_cast<double>(n) * 1e9, v.checksum});
    }
  }
  set_batch_path(default_path);

  // Equity-style enumeration with Hand: AsKs against QdQc (ids 51, 47 and 42, 40 after
  // dealing), every board of five from the other 48 cards.
  const int hero[2] = {51, 47}, villain[2] = {42, 40};
  std::vector<int> rest;
  for (int c = 0; c < 52; ++c)
    if (c != hero[0] && c != hero[1] && c != villain[0] && c != villain[1]) rest.push_back(c);
  const Hand hero_hand = Hand() + hero[0] + hero[1];
  const Hand villain_hand = Hand() + villain[0] + villain[1];
  std::vector<double> enum_times;
  long long wins = 0, ties = 0, boards = 0;
  for (int rep = 0; rep < std::max(3, repeats / 3); ++rep) {
    wins = ties = boards = 0;
    const auto t0 = std::chrono::steady_clock::now();
    const int m = static_cast<int>(rest.size());
    for (int a = 0; a < m; ++a) {
      const Hand ha = Hand() + rest[a];
      for (int b = a + 1; b < m; ++b) {
        const Hand hb = ha + rest[b];
        for (int c = b + 1; c < m; ++c) {
          const Hand hc = hb + rest[c];
          for (int d = c + 1; d < m; ++d) {
            const Hand hd = hc + rest[d];
            for (int e = d + 1; e < m; ++e) {
              const Hand board = hd + rest[e];
              const Strength x = (board + hero_hand).evaluate();
              const Strength y = (board + villain_hand).evaluate();
              wins += x > y;
              ties += x == y;
              ++boards;
            }
          }
        }
      }
    }
    const auto t1 = std::chrono::steady_clock::now();
    enum_times.push_back(std::chrono::duration<double>(t1 - t0).count());
  }
  const double enum_s = median(enum_times);
  const double n_boards = static_cast<double>(boards);

  if (json) {
    std::printf("{\"hands\": %zu, \"repeats\": %d, \"default_path\": \"%s\", \"external\": \"%s\", "
                "\"output\": \"%s\", \"batch\": [",
                n, repeats, batch_path_name(default_path), external_name.c_str(), int32 ? "int32" : "uint16");
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const Row& r = rows[i];
      std::printf("%s{\"path\": \"%s\", \"k\": %d, \"validate\": %s, \"ns_per_hand\": %.4f, "
                  "\"m_hands_per_s\": %.2f, \"checksum\": %u}",
                  i ? ", " : "", r.path.c_str(), r.k, r.check ? "true" : "false", r.ns_per_hand,
                  1e3 / r.ns_per_hand, r.checksum);
    }
    std::printf("], \"hand_enumeration\": {\"boards\": %lld, \"hero_wins\": %lld, \"ties\": %lld, "
                "\"seconds\": %.5f, \"m_boards_per_s\": %.2f, \"m_evaluations_per_s\": %.2f}}\n",
                boards, wins, ties, enum_s, n_boards / enum_s / 1e6, 2 * n_boards / enum_s / 1e6);
    return 0;
  }
  std::printf("evaluate_batch, %zu random uint8 hands, %s strengths, one thread, median of %d "
              "(caches flushed); default path here: %s\n",
              n, int32 ? "int32" : "uint16", repeats, batch_path_name(default_path));
  if (external) std::printf("external: %s\n", external_name.c_str());
  std::printf("%-10s %2s %-9s %10s %14s  %s\n", "path", "k", "validate", "ns/hand", "M hands/s",
              "checksum");
  for (const Row& r : rows) {
    std::printf("%-10s %2d %-9s %10.3f %14.1f  %u\n", r.path.c_str(), r.k, r.check ? "yes" : "no",
                r.ns_per_hand, 1e3 / r.ns_per_hand, r.checksum);
  }
  std::printf("Hand enumeration (AsKs vs QdQc, all %lld boards): %.1f ms, %.1f M boards/s, "
              "%.1f M evaluations/s; AsKs wins %lld, ties %lld\n",
              boards, enum_s * 1e3, n_boards / enum_s / 1e6, 2 * n_boards / enum_s / 1e6, wins, ties);
  return 0;
}
