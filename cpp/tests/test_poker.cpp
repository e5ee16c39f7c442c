// Poker-order evaluator: exhaustive category counts for every 5- and 7-card hand, the
// shared 3/5-card scale, labels, best five, the batch entry points on every batch path this
// CPU runs (each against the single-hand evaluators, over every 3-, 5-, 6- and 7-card
// hand), and the Hand type.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "capsa_fast/cards.hpp"
#include "capsa_fast/isa.hpp"
#include "capsa_fast/poker.hpp"
#include "capsa_fast/poker_hand.hpp"
#include "check.hpp"

using namespace capsa_fast;
using namespace capsa_fast::poker;

static Strength ev(const char* text) {
  const std::vector<int> c = parse_cards(text);
  return evaluate(c.data(), static_cast<int>(c.size()));
}

static void exhaustive_five() {
  std::array<long long, kNumCategories> counts{};
  std::set<Strength> distinct;
  for (int a = 0; a < 52; ++a)
    for (int b = a + 1; b < 52; ++b)
      for (int c = b + 1; c < 52; ++c)
        for (int d = c + 1; d < 52; ++d)
          for (int e = d + 1; e < 52; ++e) {
            const Strength s = evaluate5(a, b, c, d, e);
            ++counts[static_cast<int>(category_of(s))];
            distinct.insert(s);
          }
  const std::array<long long, kNumCategories> expected = {
      1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 40};
  for (int i = 0; i < kNumCategories; ++i) CHECK_EQ(counts[i], expected[i]);
  CHECK_EQ(distinct.size(), 7462u);
}

// Every 7-card hand (133,784,560); with sanitizers only those whose first card is 2c.
static void exhaustive_seven(bool full) {
  std::array<long long, kNumCategories> counts{};
  int c[7];
  const int first_limit = full ? 52 : 1;
  for (c[0] = 0; c[0] < first_limit; ++c[0])
    for (c[1] = c[0] + 1; c[1] < 52; ++c[1])
      for (c[2] = c[1] + 1; c[2] < 52; ++c[2])
        for (c[3] = c[2] + 1; c[3] < 52; ++c[3])
          for (c[4] = c[3] + 1; c[4] < 52; ++c[4])
            for (c[5] = c[4] + 1; c[5] < 52; ++c[5])
              for (c[6] = c[5] + 1; c[6] < 52; ++c[6])
                ++counts[static_cast<int>(category_of(evaluate7(c)))];
  if (full) {
    const std::array<long long, kNumCategories> expected = {
        23294460, 58627800, 31433400, 6461620, 6180020, 4047644, 3473184, 224848, 41584};
    for (int i = 0; i < kNumCategories; ++i) CHECK_EQ(counts[i], expected[i]);
  } else {
    long long total = 0;
    for (long long n : counts) total += n;
    CHECK_EQ(total, 18009460LL);  // C(51, 6)
  }
}

// 6 and 7 cards agree with the best of their 5-card subsets, on random hands.
static void best_of_subsets() {
  std::mt19937 rng(12345);
  std::array<int, 52> deck;
  for (int i = 0; i < 52; ++i) deck[i] = i;
  for (int iter = 0; iter < 20000; ++iter) {
    std::shuffle(deck.begin(), deck.end(), rng);
    for (int n : {6, 7}) {
      Strength best = 0;
      for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b)
          for (int c = b + 1; c < n; ++c)
            for (int d = c + 1; d < n; ++d)
              for (int e = d + 1; e < n; ++e)
                best = std::max(best, evaluate5(deck[a], deck[b], deck[c], deck[d], deck[e]));
      CHECK_EQ(evaluate(deck.data(), n), best);
    }
  }
}

static void three_card_scale() {
  CHECK(ev("Ah Kd Qc") < ev("Ah Kd Qc 3s 2d"));
  CHECK(ev("Ah Kd Qc") > ev("Ah Kd Jc 9s 8d"));
  CHECK(ev("Ah Ad Kc") < ev("Ah Ad Kc 3s 2d"));
  CHECK(ev("Ah Ad Kc") > ev("Ah Ad Qc Js Td"));
  CHECK(ev("Ah Ad Ac") < ev("Ah Ad Ac 3s 2d"));
  CHECK(ev("Ah Ad Ac") > ev("Kh Kd Kc As Qd"));
  CHECK(ev("2h 2d 2c") > ev("As Ad Kc Kh Qd"));  // trips beat two pair
  CHECK(ev("Ah Kd Qc") < ev("2h 2d 3c"));
  CHECK_EQ(ev("Ah Kd Qc"), ev("As Kh Qd"));
  CHECK_EQ(category_of(ev("7h 7d 7c")), Category::kThreeOfAKind);
  CHECK_EQ(category_of(ev("7h 8h 9h")), Category::kHighCard);  // no 3-card flush or straight
}

static void labels_and_order() {
  CHECK(label(ev("Ah Kh Qh Jh Th")) == "Royal flush");
  CHECK(label(ev("9h Kh Qh Jh Th")) == "Straight flush, king high");
  CHECK(label(ev("As 2d 3c 4h 5s")) == "Straight, five high");
  CHECK(label(ev("As Kd Qc Jh Ts")) == "Straight, ace high");
  CHECK(label(ev("Ks Kd 5c 5h 2s")) == "Two pair, kings and fives");
  CHECK(label(ev("Ks Kd Kc 5h 5s")) == "Full house, kings over fives");
  CHECK(label(ev("9s 9d 9c 9h 5s")) == "Four of a kind, nines");
  CHECK(label(ev("Ks 9s 7s 5s 2s")) == "Flush, king high");
  CHECK(label(ev("7s 7d 7c Ah 5s")) == "Three of a kind, sevens");
  CHECK(label(ev("Qs Qd 7c Ah 5s")) == "Pair of queens");
  CHECK(label(ev("Qs Td 7c 4h 2s")) == "High card, queen high");
  CHECK(ev("As 2d 3c 4h 5s") < ev("2s 3d 4c 5h 6s"));
  CHECK(ev("As 2s 3s 4s 5s") < ev("2h 3h 4h 5h 6h"));
  CHECK(ev("As 2s 3s 4s 5s") > ev("Kh Kd Kc Ks Ad"));
  CHECK(ev("Ks Kd 5c 5h As") > ev("Ks Kd 5c 5h Qs"));
  CHECK_EQ(ev("Ks Kd 5c 5h As"), ev("Kc Kh 5d 5s Ad"));
  CHECK_EQ(category_start(0), 1);
  CHECK_EQ(category_start(kNumCategories), kMaxStrength + 1);
  CHECK_THROWS(ev("As Kd Qc Jh"));
  CHECK_THROWS(ev("As Kd Qc Jh Ts 9s 8s 7s"));
}

static void best_five_reads() {
  const std::vector<int> c = parse_cards("2c As 5d 3h Kd 4s Ks");
  std::array<int, 5> idx{};
  CHECK_EQ(best_five(c.data(), 7, idx), 5);
  std::string text;
  for (int i : idx) text += format_card(c[i]) + " ";
  CHECK(text == "5d 4s 3h 2c As ");
  const std::vector<int> fh = parse_cards("Kd 5c Ks 9h 5s Kc 2d");
  best_five(fh.data(), 7, idx);
  text.clear();
  for (int i : idx) text += format_card(fh[i]) + " ";
  CHECK(text == "Ks Kd Kc 5s 5c ");
}

static void batch() {
  std::mt19937 rng(7);
  for (int k : {3, 5, 6, 7}) {
    const std::size_t n = 5000;
    std::vector<std::uint8_t> cards(n * k);
    std::vector<int> deck(52);
    for (int i = 0; i < 52; ++i) deck[i] = i;
    for (std::size_t h = 0; h < n; ++h) {
      std::shuffle(deck.begin(), deck.end(), rng);
      for (int j = 0; j < k; ++j) cards[h * k + j] = static_cast<std::uint8_t>(deck[j]);
    }
    std::vector<Strength> out(n);
    CHECK(evaluate_batch(cards.data(), n, k, k, 1, out.data(), true));
    CHECK_EQ(find_invalid_row(cards.data(), n, k, k, 1), n);
    for (std::size_t h = 0; h < n; ++h) {
      int c[7];
      for (int j = 0; j < k; ++j) c[j] = cards[h * k + j];
      CHECK_EQ(out[h], evaluate(c, k));
    }
    // Strided reading (every other row) gives the same strengths.
    std::vector<Strength> half(n / 2);
    CHECK(evaluate_batch(cards.data(), n / 2, k, 2 * k, 1, half.data(), true));
    for (std::size_t h = 0; h < n / 2; ++h) CHECK_EQ(half[h], out[2 * h]);
    cards[17 * k + 1] = cards[17 * k];
    CHECK(!evaluate_batch(cards.data(), n, k, k, 1, out.data(), true));
    CHECK(evaluate_batch(cards.data(), n, k, k, 1, out.data(), false));
    CHECK_EQ(find_invalid_row(cards.data(), n, k, k, 1), 17u);
    cards[17 * k + 1] = 200;  // out of range: read safely, reported
    CHECK(!evaluate_batch(cards.data(), n, k, k, 1, out.data(), true));
  }
  const std::int64_t neg[5] = {1, 2, 3, 4, -1};
  Strength s = 0;
  CHECK(!evaluate_batch(neg, 1, 5, 5, 1, &s, true));
  CHECK_EQ(find_invalid_row(neg, 1, 5, 5, 1), 0u);
  const std::int8_t same[7] = {9, 9, 9, 9, 9, 9, 9};  // one card seven times: safe
  CHECK(!evaluate_batch(same, 1, 7, 7, 1, &s, true));
}

static std::vector<BatchPath> supported_paths() {
  std::vector<BatchPath> paths;
  for (int p = 0; p < kNumBatchPaths; ++p)
    if (batch_path_supported(static_cast<BatchPath>(p))) paths.push_back(static_cast<BatchPath>(p));
  return paths;
}

static Strength single(const std::uint8_t* row, int k) {
  int c[7];
  for (int j = 0; j < k; ++j) c[j] = row[j];
  switch (k) {
    case 3: return evaluate3(c[0], c[1], c[2]);
    case 5: return evaluate5(c[0], c[1], c[2], c[3], c[4]);
    case 6: return evaluate6(c);
    default: return evaluate7(c);
  }
}

// Every k-card hand whose first `fixed` cards are 0, 1, ... (fixed = 0: every hand), fed
// to f(rows, count) in blocks, in increasing id order.
template <class F>
static void for_each_hand_block(int k, int fixed, F&& f) {
  constexpr std::size_t kBlock = 1 << 20;
  std::vector<std::uint8_t> rows;
  rows.reserve(kBlock * k);
  int c[7];
  auto rec = [&](auto&& self, int pos, int from) -> void {
    if (pos == k) {
      for (int j = 0; j < k; ++j) rows.push_back(static_cast<std::uint8_t>(c[j]));
      if (rows.size() == kBlock * k) {
        f(rows.data(), kBlock);
        rows.clear();
      }
      return;
    }
    const int limit = pos < fixed ? pos + 1 : 52;
    for (c[pos] = std::max(from, pos < fixed ? pos : 0); c[pos] < limit; ++c[pos]) self(self, pos + 1, c[pos] + 1);
  };
  rec(rec, 0, 0);
  if (!rows.empty()) f(rows.data(), rows.size() / k);
}

// Every hand of every size through every batch path (checked and unchecked, 16- and 32-bit
// output) and through Hand, against the single-hand evaluators. With sanitizers, the 6-
// and 7-card hands are those starting 2c (and 2d for 7).
static void batch_paths_exhaustive(bool full) {
  const std::vector<BatchPath> paths = supported_paths();
  CHECK(!paths.empty() && paths[0] == BatchPath::kPortable);
  const BatchPath saved = batch_path();
  for (int k : {3, 5, 6, 7}) {
    const int fixed = full || k <= 5 ? 0 : k - 5;
    long long hands = 0, mismatches = 0;
    std::vector<Strength> expect, out16;
    std::vector<std::int32_t> out32;
    for_each_hand_block(k, fixed, [&](const std::uint8_t* rows, std::size_t n) {
      hands += static_cast<long long>(n);
      expect.resize(n);
      out16.resize(n);
      out32.resize(n);
      for (std::size_t h = 0; h < n; ++h) {
        expect[h] = single(rows + h * k, k);
        Hand hand;
        for (int j = 0; j < k; ++j) hand += rows[h * k + j];
        mismatches += hand.evaluate() != expect[h];
      }
      for (BatchPath p : paths) {
        set_batch_path(p);
        for (bool check : {true, false}) {
          CHECK(evaluate_batch(rows, n, k, k, 1, out16.data(), check));
          CHECK(evaluate_batch(rows, n, k, k, 1, out32.data(), check));
          for (std::size_t h = 0; h < n; ++h)
            mismatches += (out16[h] != expect[h]) + (out32[h] != expect[h]);
        }
      }
    });
    const long long expected_hands[8] = {0, 0, 0, 22100, 0, 2598960, full ? 20358520 : 2349060,
                                         full ? 133784560 : 2118760};
    CHECK_EQ(hands, expected_hands[k]);
    CHECK_EQ(mismatches, 0LL);
  }
  set_batch_path(saved);
}

// Bad rows anywhere (each position of a 16-hand step and the scalar tail), every kind of
// bad id, every type: refused with check, read safely without, found by find_invalid_row.
static void batch_paths_reject_bad_rows() {
  const BatchPath saved = batch_path();
  std::mt19937 rng(99);
  for (BatchPath p : supported_paths()) {
    set_batch_path(p);
    for (int k : {3, 5, 6, 7}) {
      const std::size_t n = 45;  // two full steps and a tail of 13
      std::vector<std::uint8_t> good(n * k);
      std::vector<int> deck(52);
      for (int i = 0; i < 52; ++i) deck[i] = i;
      for (std::size_t h = 0; h < n; ++h) {
        std::shuffle(deck.begin(), deck.end(), rng);
        for (int j = 0; j < k; ++j) good[h * k + j] = static_cast<std::uint8_t>(deck[j]);
      }
      std::vector<Strength> out(n);
      CHECK(evaluate_batch(good.data(), n, k, k, 1, out.data(), true));
      for (std::size_t bad_row = 0; bad_row < n; ++bad_row) {
        for (int kind = 0; kind < 6; ++kind) {
          std::vector<std::uint8_t> cards = good;
          const int col = static_cast<int>(bad_row % static_cast<std::size_t>(k));
          std::uint8_t& id = cards[bad_row * k + col];
          std::uint8_t& other = cards[bad_row * k + (col + 1) % k];
          switch (kind) {
            case 0: id = 52; break;                          // just past the deck
            case 1: id = 63; break;                          // still inside a 64-bit mask
            case 2: id = static_cast<std::uint8_t>(64 + other); break;  // aliases a card
            case 3: id = other; break;                       // a repeat
            // Two ids past 51, equal (their bits carry in the scalar loops' sum), and an id
            // past 51 beside a card that is there twice.
            case 4: id = 52; other = 52; break;
            default: id = 255; cards[bad_row * k + (col + 2) % k] = other; break;
          }
          const bool ok = evaluate_batch(cards.data(), n, k, k, 1, out.data(), true);
          CHECK(!ok);
          CHECK(evaluate_batch(cards.data(), n, k, k, 1, out.data(), false));
          CHECK_EQ(find_invalid_row(cards.data(), n, k, k, 1), bad_row);
          for (std::size_t h = 0; h < n; ++h) {
            if (h != bad_row) CHECK_EQ(out[h], single(cards.data() + h * k, k));
          }
          // Wider types: values beyond uint8 (and negative ones) are refused too.
          std::vector<std::int64_t> wide(cards.begin(), cards.end());
          wide[bad_row * k + col] = kind == 0 ? -1 : (kind == 1 ? 256 + cards[bad_row * k + (col + 1) % k] : wide[bad_row * k + col]);
          CHECK(!evaluate_batch(wide.data(), n, k, k, 1, out.data(), true));
          CHECK_EQ(find_invalid_row(wide.data(), n, k, k, 1), bad_row);
        }
      }
    }
  }
  set_batch_path(saved);
  bool threw = false;
  for (int p = 0; p < kNumBatchPaths; ++p) {
    if (batch_path_supported(static_cast<BatchPath>(p))) continue;
    try {
      set_batch_path(static_cast<BatchPath>(p));
    } catch (const std::invalid_argument&) {
      threw = true;
    }
    CHECK(threw);
  }
  CHECK(batch_path() == saved);
}

// Hand: incremental building, combining a board with hole cards, size and contains.
static void hand_type() {
  CHECK_EQ(Hand().size(), 0);
  const std::vector<int> board_cards = parse_cards("Ah Kh 7d 7c 2s");
  Hand board;
  for (int c : board_cards) board += c;
  CHECK_EQ(board.size(), 5);
  CHECK(board.contains(parse_cards("7d")[0]));
  CHECK(!board.contains(parse_cards("7h")[0]));
  std::mt19937 rng(2024);
  std::vector<int> deck(52);
  for (int i = 0; i < 52; ++i) deck[i] = i;
  long long mismatches = 0;
  for (int iter = 0; iter < 200000; ++iter) {
    std::shuffle(deck.begin(), deck.end(), rng);
    // A board of 3, 4 or 5 cards plus two hole cards, added in either grouping.
    const int board_size = 3 + iter % 3;
    Hand b, hole;
    for (int i = 0; i < board_size; ++i) b += deck[i];
    hole = Hand() + deck[board_size] + deck[board_size + 1];
    const Hand together = b + hole;
    Hand one_by_one;
    for (int i = 0; i < board_size + 2; ++i) one_by_one = one_by_one + deck[i];
    mismatches += !(together == one_by_one) || together.size() != board_size + 2;
    mismatches += together.evaluate() != evaluate(deck.data(), board_size + 2);
    mismatches += (b + deck[board_size]).size() != board_size + 1;
    if (board_size == 3) mismatches += b.evaluate() != evaluate3(deck[0], deck[1], deck[2]);
  }
  CHECK_EQ(mismatches, 0LL);
}

// CAPSA_FAST_ISA caps the loops (isa.hpp): a loop above the cap is not supported, and
// choosing it (like choosing one the CPU lacks) throws and leaves the loop in use as it was.
static void batch_paths_follow_the_cap() {
  const Isa levels[kNumBatchPaths] = {Isa::kPortable, Isa::kAvx2, Isa::kAvx512};
  const BatchPath saved = batch_path();
  CHECK(batch_path_supported(saved));
  CHECK(batch_path_supported(BatchPath::kPortable));
  std::string exercised;
  for (int i = 0; i < kNumBatchPaths; ++i) {
    const auto p = static_cast<BatchPath>(i);
    if (batch_path_supported(p)) {
      CHECK(isa_allowed(levels[i]));
      exercised += std::string(exercised.empty() ? "" : ", ") + batch_path_name(p);
      continue;
    }
    CHECK(p != BatchPath::kPortable);
    CHECK(p != saved);
    CHECK_THROWS(set_batch_path(p));
    CHECK(batch_path() == saved);
  }
  // The default is the best loop allowed: the last supported one.
  for (int i = kNumBatchPaths - 1; i >= 0; --i) {
    if (batch_path_supported(static_cast<BatchPath>(i))) {
      CHECK(saved == static_cast<BatchPath>(i));
      break;
    }
  }
  if (isa_cap() == Isa::kPortable) CHECK(exercised == "portable");
  std::printf("paths exercised: batch loops %s (default %s, CAPSA_FAST_ISA cap %s)\n",
              exercised.c_str(), batch_path_name(saved), isa_name(isa_cap()));
}

int main() {
  const bool sanitized = std::getenv("CAPSA_FAST_SHORT") != nullptr;
  batch_paths_follow_the_cap();
  exhaustive_five();
  exhaustive_seven(!sanitized);
  best_of_subsets();
  three_card_scale();
  labels_and_order();
  best_five_reads();
  batch();
  batch_paths_exhaustive(!sanitized);
  batch_paths_reject_bad_rows();
  hand_type();
  return capsa_fast::testing::finish("test_poker");
}
