// C++-only throughput of the poker evaluator on random hands: median of several runs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

#include "capsa_fast/poker.hpp"

int main() {
  using namespace capsa_fast::poker;
  const std::size_t n = 4'000'000;
  std::mt19937 rng(1);
  for (int k : {3, 5, 6, 7}) {
    std::vector<std::uint8_t> cards(n * k);
    std::vector<int> deck(52);
    std::iota(deck.begin(), deck.end(), 0);
    for (std::size_t h = 0; h < n; ++h) {
      for (int j = 0; j < k; ++j) std::swap(deck[j], deck[j + rng() % (52 - j)]);
      for (int j = 0; j < k; ++j) cards[h * k + j] = static_cast<std::uint8_t>(deck[j]);
    }
    std::vector<Strength> out(n);
    for (bool check : {true, false}) {
      std::vector<double> times;
      for (int rep = 0; rep < 7; ++rep) {
        const auto t0 = std::chrono::steady_clock::now();
        evaluate_batch(cards.data(), n, k, k, 1, out.data(), check);
        const auto t1 = std::chrono::steady_clock::now();
        times.push_back(std::chrono::duration<double>(t1 - t0).count());
      }
      std::sort(times.begin(), times.end());
      const double med = times[times.size() / 2];
      unsigned sum = 0;
      for (Strength s : out) sum += s;
      std::printf("k=%d check=%d  %.2f ns/hand  %.1f M hands/s  (checksum %u)\n", k,
                  check ? 1 : 0, med / n * 1e9, n / med / 1e6, sum);
    }
  }
}
