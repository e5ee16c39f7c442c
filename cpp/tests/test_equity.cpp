// Hold'em equity: the range parser, and every method against a slow reference (each deal,
// each board, each hand through poker::evaluate7).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "capsa_fast/cards.hpp"
#include "capsa_fast/equity.hpp"
#include "check.hpp"

using namespace capsa_fast;
using namespace capsa_fast::equity;

namespace {

bool short_run() { return std::getenv("CAPSA_FAST_SHORT") != nullptr; }

std::string error_of(const std::string& text) {
  try {
    parse_range(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

void test_parser() {
  CHECK_EQ(parse_range("AKs").size(), 4u);
  CHECK_EQ(parse_range("AKo").size(), 12u);
  CHECK_EQ(parse_range("AK").size(), 16u);
  CHECK_EQ(parse_range("KA").size(), 16u);
  CHECK_EQ(parse_range("QQ").size(), 6u);
  CHECK_EQ(parse_range("QQ+").size(), 18u);
  CHECK_EQ(parse_range("22-99").size(), 48u);
  CHECK_EQ(parse_range("99-22").size(), 48u);
  CHECK_EQ(parse_range("A5s-A2s").size(), 16u);
  CHECK_EQ(parse_range("ATs+").size(), 16u);
  CHECK_EQ(parse_range("KQo").size(), 12u);
  CHECK_EQ(parse_range("random").size(), 1326u);
  CHECK_EQ(parse_range("any").size(), 1326u);
  CHECK_EQ(parse_range("AhKh").size(), 1u);
  CHECK_EQ(parse_range("Ah Kh").size(), 1u);
  CHECK_EQ(parse_range("QQ+, AKs").size(), 22u);
  CHECK_EQ(parse_range("QQ+,AKs,QQ").size(), 22u);  // named twice, counted once
  const Range w = parse_range("AKs:0.5,AhKh");
  CHECK_EQ(w.size(), 4u);
  int halves = 0, ones = 0;
  for (double x : w.weights) (x == 0.5 ? halves : ones) += 1;
  CHECK_EQ(halves, 3);
  CHECK_EQ(ones, 1);
  // Errors name the token.
  CHECK(contains(error_of("QQ+,AKx"), "'AKx'"));
  CHECK(contains(error_of("QQs"), "'QQs'"));
  CHECK(contains(error_of("AKs:2"), "'AKs:2'"));
  CHECK(contains(error_of("AKs:"), "'AKs:'"));
  CHECK(contains(error_of("A5s-K2s"), "'A5s-K2s'"));
  CHECK(contains(error_of("22-A5s"), "'22-A5s'"));
  CHECK(contains(error_of("AhAh"), "'AhAh'"));
  CHECK(contains(error_of("Z"), "'Z'"));
  CHECK(!error_of("").empty());
  CHECK(!error_of("AKs:0").empty());
  // Classes.
  int per_class[kNumClasses] = {};
  for (int c = 0; c < kNumCombos; ++c) ++per_class[class_of_combo(c)];
  bool sizes_ok = true;
  for (int k = 0; k < kNumClasses; ++k) {
    const int row = k / 13, col = k % 13;
    sizes_ok &= per_class[k] == (row == col ? 6 : row < col ? 4 : 12);
    sizes_ok &= parse_range(class_name(k)).size() == static_cast<std::size_t>(per_class[k]);
    for (std::uint16_t c : parse_range(class_name(k)).combos) sizes_ok &= class_of_combo(c) == k;
  }
  CHECK(sizes_ok);
  CHECK(class_name(0) == "AA");
  CHECK(class_name(1) == "AKs");
  CHECK(class_name(13) == "AKo");
  CHECK(class_name(168) == "22");
  for (int c = 0; c < kNumCombos; ++c) {
    int lo = 0, hi = 0;
    combo_cards(c, lo, hi);
    if (!(lo < hi && combo_index(lo, hi) == c && combo_index(hi, lo) == c)) CHECK(false);
  }
  CHECK(combo_text(combo_index(parse_card("Ah"), parse_card("Kh"))) == "AhKh");
}

std::vector<Range> ranges(const std::vector<std::string>& texts) {
  std::vector<Range> out;
  for (const auto& t : texts) out.push_back(parse_range(t));
  return out;
}

bool near(const Result& a, const Result& b, double tol) {
  if (a.equity.size() != b.equity.size()) return false;
  for (std::size_t p = 0; p < a.equity.size(); ++p) {
    if (std::fabs(a.equity[p] - b.equity[p]) > tol || std::fabs(a.win[p] - b.win[p]) > tol ||
        std::fabs(a.tie[p] - b.tie[p]) > tol) {
      std::printf("  player %zu: %.9f/%.9f/%.9f vs %.9f/%.9f/%.9f\n", p, a.equity[p], a.win[p], a.tie[p],
                  b.equity[p], b.win[p], b.tie[p]);
      return false;
    }
  }
  return true;
}

void check_case(const std::vector<std::string>& players, const std::string& board_text,
                const std::string& dead_text) {
  const std::vector<Range> rs = ranges(players);
  const std::vector<int> board = parse_cards(board_text), dead = parse_cards(dead_text);
  const Result ref = equity_reference(rs, board, dead);
  Options exact;
  exact.method = Method::kExact;
  const Result fast = equity::equity(rs, board, dead, exact);
  const bool ok = near(fast, ref, 1e-9) && fast.showdowns == ref.showdowns;
  if (!ok) {
    std::printf("mismatch (%s) for", fast.method.c_str());
    for (const auto& p : players) std::printf(" [%s]", p.c_str());
    std::printf(" board [%s] dead [%s]: showdowns %llu vs %llu\n", board_text.c_str(), dead_text.c_str(),
                static_cast<unsigned long long>(fast.showdowns), static_cast<unsigned long long>(ref.showdowns));
  }
  CHECK(ok);
  // Heads-up: the board-by-board method agrees too, on two threads.
  if (players.size() == 2) {
    Options mc;
    mc.method = Method::kMonteCarlo;
    mc.samples = 20000;
    mc.seed = 7;
    const Result m = equity::equity(rs, board, dead, mc);
    CHECK(!m.exact && m.samples == 20000);
    const bool within = std::fabs(m.equity[0] - ref.equity[0]) <= 5 * m.stderr_max + 1e-12;
    if (!within) std::printf("monte carlo %.6f +- %.6f vs exact %.6f\n", m.equity[0], m.stderr_max, ref.equity[0]);
    CHECK(within);
  }
}

std::string random_hand(std::mt19937_64& rng, std::uint64_t& used) {
  std::string out;
  for (int k = 0; k < 2;) {
    const int c = static_cast<int>(rng() % 52);
    if (used & (std::uint64_t{1} << c)) continue;
    used |= std::uint64_t{1} << c;
    out += format_card(c);
    ++k;
  }
  return out;
}

void test_against_reference() {
  std::mt19937_64 rng(2026);
  const int preflop_cases = short_run() ? 2 : 6;
  for (int i = 0; i < preflop_cases; ++i) {
    std::uint64_t used = 0;
    const std::string a = random_hand(rng, used), b = random_hand(rng, used);
    check_case({a, b}, "", "");
  }
  // Suited against suited of the same suit, pairs, dominated hands, dead cards.
  check_case({"AhKh", "QhJh"}, "", "");
  check_case({"7c7d", "7h7s"}, "", "");
  if (!short_run()) {
    check_case({"AsAd", "KcKh", "8s9s"}, "", "");
    check_case({"AsKs", "2c2d"}, "", "Qs Js 3h");
    check_case({"AhKh,AsKs", "QQ,JhTh"}, "", "");
  }
  // Flop and turn, hands and ranges, multiway.
  for (int i = 0; i < 4; ++i) {
    std::uint64_t used = 0;
    const std::string a = random_hand(rng, used), b = random_hand(rng, used), c = random_hand(rng, used);
    std::string flop;
    for (int k = 0; k < 2; ++k) flop += random_hand(rng, used);
    check_case({a, b}, flop.substr(0, 6), "");
    check_case({a, b, c}, flop.substr(0, 6), "");
    check_case({a, b}, flop.substr(0, 8), "");
    check_case({a, b, c}, flop.substr(0, 8), flop.substr(8, 2));
  }
  check_case({"QQ+,AKs", "JJ-99,AQs:0.5,KQo"}, "Qc 7d 2h", "");
  check_case({"random", "AA"}, "Ac 7d 2h 9s", "");
  check_case({"TT+", "AKs,AQs", "random"}, "Ac Kd 2h", "");
  check_case({"AA", "KK"}, "Ac Kd 2h 9s 9h", "");
}

void test_methods_agree() {
  // Heads-up range against range: the matchups and the boards methods, and the threads.
  const std::vector<Range> rs = ranges({"QQ+,AKs,A5s-A2s", "JJ-99,KQo:0.3,AhKh"});
  const std::vector<int> flop = parse_cards("Kh 8d 3s");
  Options exact;
  exact.method = Method::kExact;
  const Result a = equity::equity(rs, flop, {}, exact);
  exact.threads = 2;
  const Result b = equity::equity(rs, flop, {}, exact);
  CHECK(near(a, b, 1e-12));
  CHECK(a.exact && b.exact);
  // Monte Carlo: same seed, same answer, on any number of threads.
  Options mc;
  mc.method = Method::kMonteCarlo;
  mc.seed = 42;
  mc.samples = 5000;
  const Result m1 = equity::equity(rs, {}, {}, mc);
  mc.threads = 2;
  const Result m2 = equity::equity(rs, {}, {}, mc);
  CHECK(m1.equity == m2.equity && m1.showdowns == m2.showdowns);
  mc.seed = 43;
  const Result m3 = equity::equity(rs, {}, {}, mc);
  CHECK(m1.equity != m3.equity);
  // Multiway Monte Carlo within its interval of the exact value, and repeatable.
  const std::vector<Range> three = ranges({"AsKs", "QdQc", "7h8h"});
  Options mw;
  mw.method = Method::kMonteCarlo;
  mw.samples = 200000;
  mw.seed = 5;
  const Result e = equity::equity(three, {}, {}, exact);
  const Result r1 = equity::equity(three, {}, {}, mw);
  mw.threads = 2;
  const Result r2 = equity::equity(three, {}, {}, mw);
  CHECK(r1.equity == r2.equity);
  for (int p = 0; p < 3; ++p) CHECK(std::fabs(r1.equity[static_cast<std::size_t>(p)] - e.equity[static_cast<std::size_t>(p)]) <= 5 * r1.stderr_each[static_cast<std::size_t>(p)]);
  // Target standard error: stops once reached.
  Options target;
  target.method = Method::kMonteCarlo;
  target.target_stderr = 2e-3;
  const Result t = equity::equity(three, {}, {}, target);
  CHECK(t.stderr_max <= 2e-3 && t.samples > 0);
}

// Ranges that rarely fit together: drawn from the listed deals that fit (about 1 random
// draw in 2,000 fits here), on one thread or two, within the interval of the exact value;
// and an error raised on a worker thread reaches the caller.
void test_rarely_fitting_ranges() {
  const std::vector<Range> rs = ranges({"AA,KK,QQ", "AA,KK,QQ", "AA,KK,QQ", "AA,KK,QQ", "AA,KK", "KK,QQ,AQs:0.5"});
  Options exact;
  exact.method = Method::kExact;
  const Result e = equity::equity(rs, {}, {}, exact);
  Options mc;
  mc.method = Method::kMonteCarlo;
  mc.samples = short_run() ? 20000 : 100000;
  mc.seed = 9;
  for (int threads : {1, 2}) {
    mc.threads = threads;
    const Result r = equity::equity(rs, {}, {}, mc);
    CHECK(r.samples == mc.samples);
    for (std::size_t p = 0; p < rs.size(); ++p) CHECK(std::fabs(r.equity[p] - e.equity[p]) <= 5 * r.stderr_each[p]);
  }
  // Ten players of five pairs: twenty cards for twenty places, too many deals to list.
  mc.threads = 2;
  std::string message;
  try {
    equity::equity(ranges(std::vector<std::string>(10, "AA,KK,QQ,JJ,TT")), {}, {}, mc);
  } catch (const std::invalid_argument& err) {
    message = err.what();
  }
  CHECK(contains(message, "rarely fit together"));
}

void test_table() {
  const Range villain = parse_range("QQ+,AKs");
  const std::vector<int> flop = parse_cards("Jh 7d 2c");
  Options exact;
  exact.method = Method::kExact;
  const TableResult t = equity_table(villain, flop, {}, exact);
  CHECK(t.exact);
  // A few combos against the direct computation.
  for (const char* hand : {"AhAs", "JcJs", "8h9h", "2d3d"}) {
    const Result r = equity::equity({parse_range(hand), villain}, flop, {}, exact);
    const int c = parse_range(hand).combos[0];
    CHECK(std::fabs(t.equity[static_cast<std::size_t>(c)] - r.equity[0]) < 1e-9);
    CHECK(std::fabs(t.win[static_cast<std::size_t>(c)] - r.win[0]) < 1e-9);
  }
  // Combos touching the board have no weight.
  CHECK(t.weight[static_cast<std::size_t>(parse_range("JhTc").combos[0])] == 0);
}

void test_errors() {
  Options o;
  CHECK_THROWS(equity::equity(ranges({"AhKh"}), {}, {}, o));
  CHECK_THROWS(equity::equity(ranges({"AhKh", "AhKh"}), {}, {}, o));
  CHECK_THROWS(equity::equity(ranges({"AhKh", "QQ"}), parse_cards("Ah 2c 3d"), {}, o));
  CHECK_THROWS(equity::equity(ranges({"AhKh", "QQ"}), parse_cards("2c 3d"), {}, o));
  CHECK_THROWS(equity::equity(ranges({"AhKh", "QQ"}), parse_cards("2c 3d 4h"), parse_cards("2c"), o));
  Options mc;
  mc.method = Method::kMonteCarlo;
  CHECK_THROWS(equity::equity(ranges({"AhKh", "AhKh"}), {}, {}, mc));
  std::string message;
  try {
    equity::equity(ranges({"AhKh", "QQ", "Ah2c"}), {}, {}, o);
  } catch (const std::invalid_argument& e) {
    message = e.what();
  }
  CHECK(contains(message, "never be dealt"));
}

}  // namespace

int main() {
  test_parser();
  test_against_reference();
  test_methods_agree();
  test_rarely_fitting_ranges();
  test_table();
  test_errors();
  return capsa_fast::testing::finish("test_equity");
}
