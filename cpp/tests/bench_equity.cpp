// Equity figures (docs/performance.md): bench_equity [--json] [--repeat N]
//   hand vs hand preflop, exact (1,712,304 boards), one thread
//   hand vs a range of 100 combinations preflop, exact, one thread (AhKh vs 22+,ATs+,KQs,JTs,KQo)
//   Monte Carlo range vs range, showdowns per second on 1 and 2 threads
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "capsa_fast/cards.hpp"
#include "capsa_fast/equity.hpp"

using namespace capsa_fast;
using namespace capsa_fast::equity;

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

template <class F>
double best_of(int repeat, F&& f) {
  double best = 1e300;
  for (int i = 0; i < repeat; ++i) {
    const double t0 = now();
    f();
    best = std::min(best, now() - t0);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  bool json = false;
  int repeat = 5;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--json")) json = true;
    else if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
  }
  Options exact;
  exact.method = Method::kExact;
  const std::vector<Range> hvh = {parse_range("AhKh"), parse_range("QsQc")};
  Result r;
  const double t_hvh = best_of(repeat, [&] { r = equity::equity(hvh, {}, {}, exact); });
  const double eq_hvh = r.equity[0];
  const std::uint64_t boards = r.showdowns;

  // "22+,ATs+,KQs,JTs,KQo" holds 114 combos, 100 of them without AhKh's cards (the pairs
  // less AA and KK holding Ah or Kh, and so on): AhKh faces exactly 100.
  const std::vector<Range> hvr = {parse_range("AhKh"), parse_range("22+,ATs+,KQs,JTs,KQo")};
  const double t_hvr = best_of(repeat, [&] { r = equity::equity(hvr, {}, {}, exact); });
  const double eq_hvr = r.equity[0];

  Options mc;
  mc.method = Method::kMonteCarlo;
  mc.samples = 200000;
  mc.seed = 1;
  const std::vector<Range> rvr = {parse_range("QQ+,ATs+,AJo+,KQs,55-22,98s"), parse_range("TT+,AQs+,AKo,KJs+")};
  double rates[2] = {};
  for (int t = 1; t <= 2; ++t) {
    mc.threads = t;
    std::uint64_t showdowns = 0;
    const double secs = best_of(std::max(1, repeat / 2), [&] { showdowns = equity::equity(rvr, {}, {}, mc).showdowns; });
    rates[t - 1] = static_cast<double>(showdowns) / secs;
  }
  if (json) {
    std::printf("{\"hand_vs_hand_exact_ms\": %.3f, \"hand_vs_hand_boards\": %llu, \"hand_vs_hand_equity\": %.6f, "
                "\"hand_vs_range100_exact_ms\": %.3f, \"hand_vs_range100_equity\": %.6f, "
                "\"mc_range_vs_range_showdowns_per_s_1t\": %.4g, \"mc_range_vs_range_showdowns_per_s_2t\": %.4g}\n",
                t_hvh * 1e3, static_cast<unsigned long long>(boards), eq_hvh, t_hvr * 1e3, eq_hvr, rates[0], rates[1]);
  } else {
    std::printf("hand vs hand preflop exact (%llu boards): %.3f ms, equity %.6f\n",
                static_cast<unsigned long long>(boards), t_hvh * 1e3, eq_hvh);
    std::printf("hand vs range of 100 preflop exact: %.3f ms, equity %.6f\n", t_hvr * 1e3, eq_hvr);
    std::printf("Monte Carlo range vs range: %.3g showdowns/s on 1 thread, %.3g on 2\n", rates[0], rates[1]);
  }
  return 0;
}
