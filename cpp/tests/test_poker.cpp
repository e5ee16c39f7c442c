// Poker-order evaluator: exhaustive category counts for every 5- and 7-card hand, the
// shared 3/5-card scale, labels, best five and the batch entry points.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "capsa_fast/cards.hpp"
#include "capsa_fast/poker.hpp"
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

int main() {
  const bool sanitized = std::getenv("CAPSA_FAST_SHORT") != nullptr;
  exhaustive_five();
  exhaustive_seven(!sanitized);
  best_of_subsets();
  three_card_scale();
  labels_and_order();
  best_five_reads();
  batch();
  return capsa_fast::testing::finish("test_poker");
}
