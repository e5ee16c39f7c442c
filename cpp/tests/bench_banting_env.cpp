// C++-only speed of the vector environment: agent steps per second (median of several
// timed batches) with random actions from the mask, all four seats learners, and one
// learner against three bots inside C++; one thread and two.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "capsa_fast/banting_env.hpp"

using namespace capsa_fast::banting;
using namespace capsa_fast::banting::env;

int main() {
  const GameRules rules;  // capsa-banting
  struct Case {
    const char* name;
    std::vector<int> seats;
    int steps;
  };
  const int std_ = static_cast<int>(BotLevel::kStandard);
  const int beg = static_cast<int>(BotLevel::kBeginner);
  const std::vector<Case> cases = {
      {"4 learners (self-play)", {kLearnerSeat, kLearnerSeat, kLearnerSeat, kLearnerSeat}, 200},
      {"1 learner + 3 beginner", {kLearnerSeat, beg, beg, beg}, 200},
      {"1 learner + 3 standard", {kLearnerSeat, std_, std_, std_}, 100},
  };
  const int n = 2048;
  for (const Case& c : cases) {
    for (int threads : {1, 2}) {
      VecEnv venv(rules, 4, n, c.seats, threads);
      std::vector<std::int8_t> obs(static_cast<std::size_t>(n) * kObsSize), seat(n);
      std::vector<std::uint8_t> mask(static_cast<std::size_t>(n) * kNumActions), done(n);
      std::vector<float> rewards(static_cast<std::size_t>(n) * 4);
      std::vector<std::int64_t> actions(n);
      venv.reset(1, obs.data(), mask.data(), seat.data());
      std::vector<double> rates;
      for (int rep = 0; rep < 5; ++rep) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int t = 0; t < c.steps; ++t) {
          venv.sample_actions(actions.data());
          venv.step(actions.data(), obs.data(), mask.data(), rewards.data(), done.data(), seat.data());
        }
        const auto t1 = std::chrono::steady_clock::now();
        rates.push_back(static_cast<double>(n) * c.steps / std::chrono::duration<double>(t1 - t0).count());
      }
      std::sort(rates.begin(), rates.end());
      std::printf("%-24s threads=%d  median %10.0f agent steps/s (min %.0f, max %.0f)\n", c.name,
                  threads, rates[2], rates[0], rates[4]);
    }
  }
}
