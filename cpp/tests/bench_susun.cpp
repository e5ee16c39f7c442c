// C++-only timing of the Susun search on random 13-card hands: the median time per hand
// (each hand timed on its own) of count_valid and of arrange with each strategy. The ev
// strategy needs an opponent model; this builds one the way capsa_fast.susun.ev does,
// from the row keys of hands arranged with the percentile strategy.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <time.h>

#include "capsa_fast/susun.hpp"
#include "capsa_fast/susun_table.hpp"

using namespace capsa_fast;
using namespace capsa_fast::susun;

namespace {

std::vector<std::vector<int>> random_hands(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<int> deck(52);
  std::iota(deck.begin(), deck.end(), 0);
  std::vector<std::vector<int>> out;
  for (int i = 0; i < n; ++i) {
    std::shuffle(deck.begin(), deck.end(), rng);
    out.emplace_back(deck.begin(), deck.begin() + 13);
  }
  return out;
}

EvModel simulated_model(const Rules& rules) {
  std::vector<double> counts[3];
  for (auto& c : counts) c.assign(kNumRowKeys, 0);
  for (const auto& hand : random_hands(20000, 99)) {
    const Arrangement a = arrange(hand.data(), rules, Strategy::kPercentile, 1, nullptr).front();
    int rows[3][5];
    for (int j = 0; j < 3; ++j) rows[0][j] = hand[a.split.top[static_cast<std::size_t>(j)]];
    for (int j = 0; j < 5; ++j) rows[1][j] = hand[a.split.middle[static_cast<std::size_t>(j)]];
    for (int j = 0; j < 5; ++j) rows[2][j] = hand[a.split.bottom[static_cast<std::size_t>(j)]];
    counts[0][row_key(rows[0], 3, rules.suit_tiebreak)] += 1;
    counts[1][row_key(rows[1], 5, rules.suit_tiebreak)] += 1;
    counts[2][row_key(rows[2], 5, rules.suit_tiebreak)] += 1;
  }
  EvModel m;
  for (std::size_t p = 0; p < 3; ++p) {
    double total = 0;
    for (double c : counts[p]) total += c;
    double below = 0;
    m.win[p].resize(kNumRowKeys);
    m.tie[p].resize(kNumRowKeys);
    m.loss[p].assign(kNumRowKeys, 1.0f);
    for (int k = 0; k < kNumRowKeys; ++k) {
      m.win[p][static_cast<std::size_t>(k)] = static_cast<float>(below / total);
      m.tie[p][static_cast<std::size_t>(k)] = static_cast<float>(counts[p][static_cast<std::size_t>(k)] / total);
      below += counts[p][static_cast<std::size_t>(k)];
    }
  }
  m.pack();
  return m;
}

// This thread's CPU time in seconds.
double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

template <class F>
double median_us(const std::vector<std::vector<int>>& hands, F&& f) {
  std::vector<double> t;
  long long sink = 0;
  for (const auto& h : hands) {
    const auto t0 = std::chrono::steady_clock::now();
    sink += f(h.data());
    t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  if (sink == 42) std::printf(" ");
  const double mean = std::accumulate(t.begin(), t.end(), 0.0) / static_cast<double>(t.size());
  std::nth_element(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(t.size() / 2), t.end());
  std::printf("[mean %6.1f] ", mean);
  return t[t.size() / 2];
}

}  // namespace

// Optional argument: the scan path to force (portable, avx2, avx512); default the best.
int main(int argc, char** argv) {
  if (argc > 1) {
    const std::string want = argv[1];
    const ScanPath p = want == "portable" ? ScanPath::kPortable
                       : want == "avx2"   ? ScanPath::kAvx2
                       : want == "avx512" ? ScanPath::kAvx512
                                          : ScanPath::kAuto;
    if (!force_scan_path(p)) {
      std::fprintf(stderr, "scan path %s: not supported by this CPU\n", argv[1]);
      return 2;
    }
  }
  std::printf("scan path: %s\n", scan_path_name(scan_path()));
  const auto hands = random_hands(5000, 7);
  for (const bool tiebreak : {true, false}) {
    Rules rules;
    rules.suit_tiebreak = tiebreak;
    rules.bonus[kMiddle][static_cast<std::size_t>(poker::Category::kFullHouse)] = 3;
    EvModel model = simulated_model(rules);
    model.prepare(rules);
    EvModel removal = model;  // the same model with card removal
    removal.card_removal = true;
    removal.prepare(rules);
    std::printf("suit_tiebreak=%s\n", tiebreak ? "true" : "false");
    std::printf("  count_valid          median %6.1f us per hand\n",
                median_us(hands, [&](const int* h) { return count_valid(h, rules); }));
    for (const auto& [name, st] : {std::pair{"percentile", Strategy::kPercentile},
                                   std::pair{"ev", Strategy::kEv},
                                   std::pair{"naive", Strategy::kNaive}}) {
      std::printf("  arrange %-12s median %6.1f us per hand\n", name,
                  median_us(hands, [&](const int* h) {
                    return static_cast<long long>(arrange(h, rules, st, 1, &model).front().score);
                  }));
    }
    std::printf("  arrange %-12s median %6.1f us per hand\n", "ev, card removal",
                median_us(hands, [&](const int* h) {
                  return static_cast<long long>(arrange(h, rules, Strategy::kEv, 1, &removal).front().score);
                }));
    // Whole 4-player tables: dealt from seeds, four ev (expert) bots, scored; without card
    // removal (the default) and with it, alternating.
    // By the clock and by this thread's CPU time (steadier on a shared machine).
    std::vector<int> points(4 * 1000), kinds(4 * 1000);
    std::vector<double> runs[2], cpu[2];
    for (int rep = 0; rep < 5; ++rep) {
      for (int with = 0; with < 2; ++with) {
        const std::vector<SeatBot> experts{SeatBot{Strategy::kEv, with ? &removal : &model, false, DeepBudget{}}};
        const auto t0 = std::chrono::steady_clock::now();
        const double c0 = thread_cpu_seconds();
        simulate_tables(rules, 4, experts, 11, static_cast<std::uint64_t>(rep) * 1000, 1000,
                        points.data(), kinds.data());
        cpu[with].push_back(thread_cpu_seconds() - c0);
        runs[with].push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      }
    }
    for (int with = 0; with < 2; ++with) {
      std::sort(runs[with].begin(), runs[with].end());
      std::sort(cpu[with].begin(), cpu[with].end());
      std::printf("  whole 4-player tables, expert bots%s: median %7.0f tables/s (%.0f us per table), "
                  "%7.0f per CPU second\n",
                  with ? " with card removal" : "", 1000 / runs[with][2], runs[with][2] * 1e6 / 1000,
                  1000 / cpu[with][2]);
    }
  }
}
