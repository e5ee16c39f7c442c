// C++-only speed of whole Banting rounds played by bots: rounds per second on one core
// (median of several timed batches) for random, beginner and standard seats.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "capsa_fast/banting_game.hpp"

using namespace capsa_fast::banting;

int main() {
  const GameRules rules;  // capsa-banting
  struct Case {
    const char* name;
    std::vector<BotLevel> seats;
    int rounds;
  };
  const std::vector<Case> cases = {
      {"4 random", {BotLevel::kRandom, BotLevel::kRandom, BotLevel::kRandom, BotLevel::kRandom}, 20000},
      {"4 beginner", {BotLevel::kBeginner, BotLevel::kBeginner, BotLevel::kBeginner, BotLevel::kBeginner}, 20000},
      {"4 standard", {BotLevel::kStandard, BotLevel::kStandard, BotLevel::kStandard, BotLevel::kStandard}, 5000},
      {"standard + 3 beginner", {BotLevel::kStandard, BotLevel::kBeginner, BotLevel::kBeginner, BotLevel::kBeginner}, 10000},
      {"expert + 3 standard", {BotLevel::kExpert, BotLevel::kStandard, BotLevel::kStandard, BotLevel::kStandard}, 400},
  };
  for (const Case& c : cases) {
    std::vector<int> scores(static_cast<std::size_t>(c.rounds) * 4), winners(static_cast<std::size_t>(c.rounds));
    std::vector<double> rates;
    for (int rep = 0; rep < 5; ++rep) {
      const auto t0 = std::chrono::steady_clock::now();
      simulate(rules, 4, c.seats, 2026, static_cast<std::uint64_t>(rep) * static_cast<std::uint64_t>(c.rounds),
               c.rounds, scores.data(), winners.data());
      const auto t1 = std::chrono::steady_clock::now();
      rates.push_back(c.rounds / std::chrono::duration<double>(t1 - t0).count());
    }
    std::sort(rates.begin(), rates.end());
    long wins = 0, points = 0;  // seat 0, last batch
    for (int g = 0; g < c.rounds; ++g) {
      wins += winners[static_cast<std::size_t>(g)] == 0;
      points += scores[static_cast<std::size_t>(g) * 4];
    }
    std::printf("%-22s median %9.0f rounds/s (min %.0f, max %.0f); seat 0 wins %.1f%%, mean %+.2f\n",
                c.name, rates[2], rates[0], rates[4], 100.0 * static_cast<double>(wins) / c.rounds,
                static_cast<double>(points) / c.rounds);
  }
}
