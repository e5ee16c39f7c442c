// C++-only speed of whole Banting rounds played by bots: rounds per second on one core
// (median of several timed batches) for random, beginner and standard seats; then the
// time a move of each standard level takes in rounds of four such bots (issue 15 asks at
// most 20 us for standard).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <utility>
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
      {"4 standard-v2", {BotLevel::kStandardV2, BotLevel::kStandardV2, BotLevel::kStandardV2, BotLevel::kStandardV2}, 5000},
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
  for (const auto& [name, level] : {std::pair{"standard", BotLevel::kStandard},
                                    std::pair{"standard-v2", BotLevel::kStandardV2},
                                    std::pair{"standard-v1", BotLevel::kStandardV1}}) {
    std::vector<double> per_move;
    long moves = 0;
    double slowest = 0;
    for (int rep = 0; rep < 5; ++rep) {
      SplitMix64 rng{7};
      double total = 0;
      long n = 0;
      for (int g = 0; g < 2000; ++g) {
        Round round(rules, 4, static_cast<std::uint64_t>(rep * 2000 + g) * 0x9E3779B97F4A7C15ull, -1, false);
        while (!round.over()) {
          const auto t0 = std::chrono::steady_clock::now();
          const Move m = bot_move(round, level, rng);
          const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
          total += us;
          slowest = std::max(slowest, us);
          ++n;
          round.apply_legal(m.seat, m.is_pass ? nullptr : &m.combo);
        }
      }
      per_move.push_back(total / static_cast<double>(n));
      moves = n;
    }
    std::sort(per_move.begin(), per_move.end());
    std::printf("%-12s median %6.2f us a move (min %.2f, max %.2f over 5 x 2,000 rounds, %.1f moves a round); slowest move %.0f us\n",
                name, per_move[2], per_move[0], per_move[4], static_cast<double>(moves) / 2000.0, slowest);
  }
}
