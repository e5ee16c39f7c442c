// Fuzz target: the poker-order evaluator (poker.hpp).
//
// Two hands per input (3, 5, 6 or 7 cards, sometimes another count or raw ids) go through
// the checked entry points and are judged against a slow reference written from the rules
// alone: a 3- or 5-card hand's worth is (category, deciding ranks high to low, a missing
// kicker lowest), a 6- or 7-card hand's is its best five. The evaluator must order the two
// hands as the reference does, describe() must give the reference's category and ranks,
// evaluate7 must equal the best of its 21 five-card subsets, and best_five must pick five
// cards worth the whole hand, in reading order; Hand (poker_hand.hpp), built card by card
// and as two parts, gives the same strength. Then one batch of any integer type, strided
// or contiguous, up to 40 rows (so the 16-hand steps of the vector loop and its scalar
// tail both run), with arbitrary ids, on every batch path this CPU runs: no access outside
// the rows (ASan watches an exactly-sized buffer), valid rows as evaluate() has them,
// invalid rows found by check and find_invalid_row.
// Finally describe/label/category_of on an arbitrary strength.
#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "capsa_fast/cards.hpp"
#include "capsa_fast/poker.hpp"
#include "capsa_fast/poker_hand.hpp"
#include "fuzz_input.hpp"

using namespace capsa_fast;
using namespace capsa_fast::poker;
using capsa_fast::fuzz::Input;

namespace {

// The reference worth of a 3- or 5-card hand: category, then deciding ranks high to low,
// -1 for a missing kicker (so a 3-card row compares with a 5-card one as the rules say).
struct Worth {
  int category = 0;
  std::array<int, 5> ranks{-1, -1, -1, -1, -1};
  int n_ranks = 0;
  bool operator<(const Worth& o) const {
    return category != o.category ? category < o.category : ranks < o.ranks;
  }
  bool operator==(const Worth& o) const { return category == o.category && ranks == o.ranks; }
};

Worth reference_worth(const int* c, int n) {
  int count[13] = {};
  for (int i = 0; i < n; ++i) ++count[rank_of(c[i])];
  // Ranks by group size, then rank, both high first.
  std::vector<int> order;
  for (int r = 12; r >= 0; --r)
    if (count[r]) order.push_back(r);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return count[a] > count[b]; });
  Worth w;
  const int top_group = count[order[0]];
  bool flush = n == 5, straight = false;
  int straight_top = -1;
  for (int i = 1; i < n; ++i) flush = flush && suit_of(c[i]) == suit_of(c[0]);
  if (n == 5 && order.size() == 5) {
    if (order[0] - order[4] == 4) {
      straight = true;
      straight_top = order[0];
    } else if (order[0] == 12 && order[1] == 3) {  // A-2-3-4-5, five high
      straight = true;
      straight_top = 3;
    }
  }
  using C = Category;
  C cat = C::kHighCard;
  if (straight && flush) cat = C::kStraightFlush;
  else if (top_group == 4) cat = C::kFourOfAKind;
  else if (top_group == 3 && order.size() == 2) cat = C::kFullHouse;
  else if (flush) cat = C::kFlush;
  else if (straight) cat = C::kStraight;
  else if (top_group == 3) cat = C::kThreeOfAKind;
  else if (top_group == 2 && count[order[1]] == 2) cat = C::kTwoPair;
  else if (top_group == 2) cat = C::kPair;
  w.category = static_cast<int>(cat);
  if (straight) {
    w.ranks[0] = straight_top;
    w.n_ranks = 1;
  } else {
    for (const int r : order) w.ranks[static_cast<std::size_t>(w.n_ranks++)] = r;
  }
  return w;
}

// The reference worth of 3..7 cards: the hand itself, or its best five.
Worth reference_best(const int* c, int n) {
  if (n <= 5) return reference_worth(c, n);
  Worth best;
  best.category = -1;
  int sub[5];
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b)
      for (int d = b + 1; d < n; ++d)
        for (int e = d + 1; e < n; ++e)
          for (int f = e + 1; f < n; ++f) {
            sub[0] = c[a], sub[1] = c[b], sub[2] = c[d], sub[3] = c[e], sub[4] = c[f];
            const Worth w = reference_worth(sub, 5);
            if (best < w) best = w;
          }
  return best;
}

// Invariants of any strength in range.
void check_strength_info(Strength s) {
  FUZZ_CHECK(s >= 1 && s <= kMaxStrength);
  const Description d = describe(s);
  const int cat = static_cast<int>(d.category);
  FUZZ_CHECK(cat >= 0 && cat < kNumCategories);
  FUZZ_CHECK(category_of(s) == d.category);
  FUZZ_CHECK(category_start(cat) <= s && s < category_start(cat + 1));
  FUZZ_CHECK(d.n_ranks >= 1 && d.n_ranks <= 5);
  for (int i = 0; i < d.n_ranks; ++i) FUZZ_CHECK(d.ranks[static_cast<std::size_t>(i)] >= 0 && d.ranks[static_cast<std::size_t>(i)] <= 12);
  const std::string text = label(s);
  FUZZ_CHECK(!text.empty() && text[0] >= 'A' && text[0] <= 'Z');
  FUZZ_CHECK(category_name(d.category)[0] != '\0');
}

// Distinct cards from the input: each byte names a card, a repeat moves to the next free one.
std::vector<int> distinct_cards(Input& in, int n) {
  std::vector<int> out;
  std::uint64_t used = 0;
  for (int i = 0; i < n && i < kDeckSize; ++i) {
    int c = in.card();
    while (used >> c & 1) c = (c + 1) % kDeckSize;
    used |= std::uint64_t{1} << c;
    out.push_back(c);
  }
  return out;
}

struct DrawnHand {
  std::vector<int> cards;
  bool valid = false;
  Strength strength = 0;
};

// Reads a hand: usually 3, 5, 6 or 7 distinct cards; sometimes any count 0..9 or raw ids.
DrawnHand read_hand(Input& in, bool small_only) {
  const std::uint8_t how = in.byte();
  static constexpr int kCounts[8] = {3, 5, 6, 7, 3, 5, 7, -1};
  int n = kCounts[how & 7];
  if (small_only) n = how & 1 ? 3 : 5;
  if (n < 0) n = in.range(0, 9);
  DrawnHand h;
  if (!small_only && (how & 0x18) == 0x18) {
    for (int i = 0; i < n; ++i) h.cards.push_back(static_cast<int>(in.byte()) - 4);
  } else {
    h.cards = distinct_cards(in, n);
  }
  std::uint64_t seen = 0;
  h.valid = n == 3 || n == 5 || n == 6 || n == 7;
  for (const int c : h.cards) {
    h.valid = h.valid && c >= 0 && c < kDeckSize && !(seen >> c & 1);
    if (c >= 0 && c < kDeckSize) seen |= std::uint64_t{1} << c;
  }
  return h;
}

void check_hand(Input& in, DrawnHand& h) {
  const int n = static_cast<int>(h.cards.size());
  const int* c = h.cards.data();
  bool threw = false;
  try {
    h.strength = evaluate(c, n);
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  FUZZ_CHECK(threw == !h.valid);
  std::array<int, 5> idx{};
  threw = false;
  int m = 0;
  try {
    m = best_five(c, n, idx);
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  FUZZ_CHECK(threw == !h.valid);
  if (!h.valid) return;

  const Strength s = h.strength;
  check_strength_info(s);
  // describe() is the reference's reading of the best five.
  const Worth ref = reference_best(c, n);
  const Description d = describe(s);
  FUZZ_CHECK(static_cast<int>(d.category) == ref.category);
  FUZZ_CHECK(d.n_ranks == ref.n_ranks);
  for (int i = 0; i < d.n_ranks; ++i) FUZZ_CHECK(d.ranks[static_cast<std::size_t>(i)] == ref.ranks[static_cast<std::size_t>(i)]);

  // The fast evaluators agree, in any card order.
  std::vector<int> p(h.cards);
  for (std::size_t i = p.size(); i > 1; --i) std::swap(p[i - 1], p[in.byte() % i]);
  switch (n) {
    case 3: FUZZ_CHECK(evaluate3(p[0], p[1], p[2]) == s); break;
    case 5: FUZZ_CHECK(evaluate5(p[0], p[1], p[2], p[3], p[4]) == s); break;
    case 6: FUZZ_CHECK(evaluate6(p.data()) == s); break;
    default: FUZZ_CHECK(evaluate7(p.data()) == s); break;
  }
  // Hand: card by card in the shuffled order, and as two parts (a board and the rest).
  poker::Hand whole, first, second;
  const int split = in.range(0, n);
  for (int i = 0; i < n; ++i) {
    whole += p[static_cast<std::size_t>(i)];
    (i < split ? first : second) += p[static_cast<std::size_t>(i)];
  }
  FUZZ_CHECK(whole.size() == n && whole.evaluate() == s);
  FUZZ_CHECK(first + second == whole && (first + second).evaluate() == s);
  for (int i = 0; i < n; ++i) FUZZ_CHECK(whole.contains(c[i]));
  if (n >= 6) {
    Strength best = 0;
    for (int a = 0; a < n; ++a)
      for (int b = a + 1; b < n; ++b)
        for (int x = b + 1; x < n; ++x)
          for (int y = x + 1; y < n; ++y)
            for (int z = y + 1; z < n; ++z)
              best = std::max(best, evaluate5(c[a], c[b], c[x], c[y], c[z]));
    FUZZ_CHECK(best == s);
  }

  // best_five: distinct indices, worth the whole hand, larger groups then higher ranks.
  FUZZ_CHECK(m == (n == 3 ? 3 : 5));
  int sub[5];
  std::uint32_t picked = 0;
  for (int i = 0; i < m; ++i) {
    const int k = idx[static_cast<std::size_t>(i)];
    FUZZ_CHECK(k >= 0 && k < n && !(picked >> k & 1));
    picked |= 1u << k;
    sub[i] = c[k];
  }
  FUZZ_CHECK(evaluate(sub, m) == s);
  int count[13] = {};
  for (int i = 0; i < m; ++i) ++count[rank_of(sub[i])];
  const bool wheel = (d.category == Category::kStraight || d.category == Category::kStraightFlush) &&
                     d.ranks[0] == 3;
  auto reading = [&](int card) {
    const int r = wheel && rank_of(card) == 12 ? -1 : rank_of(card);
    return std::array<int, 3>{count[rank_of(card)], r, suit_of(card)};
  };
  for (int i = 1; i < m; ++i) FUZZ_CHECK(reading(sub[i]) < reading(sub[i - 1]));
}

template <class T>
void batch_of(Input& in) {
  static constexpr int kSizes[4] = {3, 5, 6, 7};
  const int k = kSizes[in.byte() & 3];
  const auto n = static_cast<std::size_t>(in.range(0, 40));
  const std::uint8_t shape = in.byte();
  static constexpr std::ptrdiff_t kCols[4] = {1, 1, 2, -1};
  const std::ptrdiff_t cs = kCols[shape & 3];
  // Contiguous rows (read directly when uint8), rows apart by their width plus a gap,
  // overlapping rows, or rows walking backwards.
  std::ptrdiff_t rs = k * (cs < 0 ? -cs : cs) + (shape >> 2 & 3);
  if (shape & 0x10) rs = in.range(-8, 8);
  // Offsets of every element read, and a buffer exactly that wide.
  const auto last_row = static_cast<std::ptrdiff_t>(n == 0 ? 0 : n - 1);
  const std::ptrdiff_t lo = std::min<std::ptrdiff_t>(0, last_row * rs) + std::min<std::ptrdiff_t>(0, (k - 1) * cs);
  const std::ptrdiff_t hi = std::max<std::ptrdiff_t>(0, last_row * rs) + std::max<std::ptrdiff_t>(0, (k - 1) * cs);
  std::vector<T> buf(static_cast<std::size_t>(hi - lo + 1));
  for (T& v : buf) {
    const std::uint8_t b = in.byte();
    // Mostly card ids; a few edge values of the type.
    if (b < 208) v = static_cast<T>(b % 52);
    else if (b < 232) v = static_cast<T>(static_cast<int>(b) - 232);  // -24..-1 (wraps if unsigned)
    else v = static_cast<T>(static_cast<std::uint64_t>(in.u64()));
  }
  const T* base = buf.data() - lo;
  std::vector<Strength> out(n);
  std::size_t first_bad = n;
  std::vector<Strength> want(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    int row[7];
    bool ok = true;
    std::uint64_t seen = 0;
    for (int j = 0; j < k; ++j) {
      const auto id = static_cast<long long>(base[static_cast<std::ptrdiff_t>(i) * rs + j * cs]);
      const bool in_deck = id >= 0 && id < kDeckSize;
      ok = ok && in_deck && !(seen >> id & 1);
      if (in_deck) seen |= std::uint64_t{1} << id;
      row[j] = static_cast<int>(id);
    }
    if (ok) want[i] = evaluate(row, k);
    else if (first_bad == n) first_bad = i;
  }
  const bool check = in.flag();
  FUZZ_CHECK(find_invalid_row(base, n, k, rs, cs) == first_bad);
  const BatchPath saved = batch_path();
  for (int p = 0; p < kNumBatchPaths; ++p) {
    if (!batch_path_supported(static_cast<BatchPath>(p))) continue;
    set_batch_path(static_cast<BatchPath>(p));
    const bool result = evaluate_batch(base, n, k, rs, cs, out.data(), check);
    FUZZ_CHECK(result == (!check || first_bad == n));
    std::vector<std::int32_t> out32(n);
    FUZZ_CHECK(evaluate_batch(base, n, k, rs, cs, out32.data(), check) == result);
    for (std::size_t i = 0; i < n; ++i) {
      if (want[i] != 0) FUZZ_CHECK(out[i] == want[i]);
      FUZZ_CHECK(out32[i] == out[i]);
    }
  }
  set_batch_path(saved);
}

void batch(Input& in) {
  switch (in.byte() & 7) {
    case 0: batch_of<std::int8_t>(in); break;
    case 1: batch_of<std::uint8_t>(in); break;
    case 2: batch_of<std::int16_t>(in); break;
    case 3: batch_of<std::uint16_t>(in); break;
    case 4: batch_of<std::int32_t>(in); break;
    case 5: batch_of<std::uint32_t>(in); break;
    case 6: batch_of<std::int64_t>(in); break;
    default: batch_of<std::uint64_t>(in); break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  DrawnHand a = read_hand(in, false);
  DrawnHand b = read_hand(in, true);
  check_hand(in, a);
  check_hand(in, b);
  if (a.valid && b.valid) {
    // Strength order is the reference's order, across hand sizes.
    const Worth wa = reference_best(a.cards.data(), static_cast<int>(a.cards.size()));
    const Worth wb = reference_best(b.cards.data(), static_cast<int>(b.cards.size()));
    FUZZ_CHECK((a.strength < b.strength) == (wa < wb));
    FUZZ_CHECK((a.strength == b.strength) == (wa == wb));
  }
  batch(in);
  check_strength_info(static_cast<Strength>(in.u16() % kMaxStrength + 1));
  return 0;
}
