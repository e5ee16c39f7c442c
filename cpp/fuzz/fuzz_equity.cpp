// Fuzz target: Hold'em equity (equity.hpp).
//
// The first byte picks a mode:
//   range text   parse_range on the rest of the input: either std::invalid_argument with a
//                message, or a range whose combos ascend, each
//                once, with weights in (0, 1]; the range written back as "AhKh:w,..."
//                parses to the same combos and weights.
//   showdown     2 or 3 players, each a few weighted combos from the bytes, a turn or river
//                board and up to two dead cards: the exact equity must equal the slow
//                reference (every deal and board through poker::evaluate7), or both must
//                refuse the case with std::invalid_argument; the equities sum to 1.
// std::invalid_argument is the only exception the API documents; anything else escapes
// and crashes.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "capsa_fast/equity.hpp"
#include "fuzz_input.hpp"

using namespace capsa_fast;
using capsa_fast::fuzz::Input;

#define CHECK(cond)                                              \
  do {                                                           \
    if (!(cond)) capsa_fast::fuzz::fail(__FILE__, __LINE__, #cond); \
  } while (0)

namespace {

void check_range(const equity::Range& r) {
  CHECK(r.size() >= 1 && r.combos.size() == r.weights.size());
  for (std::size_t i = 0; i < r.size(); ++i) {
    CHECK(r.combos[i] < equity::kNumCombos);
    CHECK(i == 0 || r.combos[i - 1] < r.combos[i]);
    CHECK(r.weights[i] > 0 && r.weights[i] <= 1);
  }
}

void range_text(Input& in) {
  std::size_t n = 0;
  const std::uint8_t* bytes = in.rest(&n);
  const std::string_view text(reinterpret_cast<const char*>(bytes), n);
  equity::Range r;
  try {
    r = equity::parse_range(text);
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    CHECK(!what.empty());
    return;
  }
  check_range(r);
  std::string again;
  for (std::size_t i = 0; i < r.size(); ++i) {
    char weight[40];
    std::snprintf(weight, sizeof weight, ":%.17g", r.weights[i]);
    again += (i ? "," : "") + equity::combo_text(r.combos[i]) + weight;
  }
  const equity::Range back = equity::parse_range(again);
  CHECK(back.combos == r.combos);
  for (std::size_t i = 0; i < r.size(); ++i) CHECK(std::fabs(back.weights[i] - r.weights[i]) <= 1e-15);
}

void showdown(Input& in) {
  const int players = in.range(2, 3);
  std::vector<equity::Range> ranges;
  for (int p = 0; p < players; ++p) {
    std::map<int, double> combos;  // ascending, each once
    const int k = in.range(1, 4);
    for (int i = 0; i < k; ++i) combos[in.range(0, equity::kNumCombos - 1)] = (in.range(0, 3) + 1) / 4.0;
    equity::Range r;
    for (const auto& [c, w] : combos) {
      r.combos.push_back(static_cast<std::uint16_t>(c));
      r.weights.push_back(w);
    }
    ranges.push_back(r);
  }
  std::uint64_t used = 0;
  const auto distinct = [&](int count) {
    std::vector<int> cards;
    while (static_cast<int>(cards.size()) < count) {
      int c = in.card();
      while (used & (std::uint64_t{1} << c)) c = (c + 1) % 52;
      used |= std::uint64_t{1} << c;
      cards.push_back(c);
    }
    return cards;
  };
  const std::vector<int> board = distinct(in.range(4, 5));
  const std::vector<int> dead = distinct(in.range(0, 2));
  equity::Options opt;
  opt.method = equity::Method::kExact;
  equity::Result got, want;
  bool got_ok = true, want_ok = true;
  try {
    got = equity::equity(ranges, board, dead, opt);
  } catch (const std::invalid_argument&) {
    got_ok = false;
  }
  try {
    want = equity::equity_reference(ranges, board, dead);
  } catch (const std::invalid_argument&) {
    want_ok = false;
  }
  CHECK(got_ok == want_ok);
  if (!got_ok) return;
  CHECK(got.exact && got.showdowns == want.showdowns);
  double total = 0;
  for (int p = 0; p < players; ++p) {
    const auto q = static_cast<std::size_t>(p);
    CHECK(std::fabs(got.equity[q] - want.equity[q]) <= 1e-9);
    CHECK(std::fabs(got.win[q] - want.win[q]) <= 1e-9);
    CHECK(std::fabs(got.tie[q] - want.tie[q]) <= 1e-9);
    total += got.equity[q];
  }
  CHECK(std::fabs(total - 1) <= 1e-9);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  if (in.byte() & 1) {
    showdown(in);
  } else {
    range_text(in);
  }
  return 0;
}
