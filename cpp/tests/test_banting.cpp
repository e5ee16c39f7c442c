// Banting engine: perft-style counts of every play from a full deck, classification edge
// cases and validation precedence.
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

#include "capsa_fast/banting.hpp"
#include "capsa_fast/cards.hpp"
#include "check.hpp"

using namespace capsa_fast;
using namespace capsa_fast::banting;

static CardMask mask_of(const std::vector<int>& cards) {
  CardMask m = 0;
  for (int c : cards) m |= CardMask{1} << c;
  return m;
}

static Combo combo(const char* text, const Rules& r, Code* why = nullptr) {
  const std::vector<int> c = parse_cards(text);
  return classify(c.data(), static_cast<int>(c.size()), r, why);
}

static std::vector<std::uint8_t> runs(std::initializer_list<int> starts) {
  return std::vector<std::uint8_t>(starts.begin(), starts.end());
}

int main() {
  const CardMask deck = (CardMask{1} << 52) - 1;
  Rules two_high;  // defaults: capsa-banting
  CHECK_EQ(count_legal_plays(deck, nullptr, two_high, -1), 19898);
  Rules jqka2 = two_high;
  jqka2.straights = runs({1, 2, 3, 4, 5, 6, 7, 8, 9});
  CHECK_EQ(count_legal_plays(deck, nullptr, jqka2, -1), 18878);
  Rules no_two = two_high;
  no_two.straights = runs({1, 2, 3, 4, 5, 6, 7, 8});
  CHECK_EQ(count_legal_plays(deck, nullptr, no_two, -1), 17858);
  Rules taiwan = two_high;
  taiwan.suit_rank = {0, 1, 2, 3};
  taiwan.straights = runs({12, 1, 2, 3, 4, 5, 6, 7, 8, 0});
  taiwan.flush_compare = FlushCompare::kNone;
  taiwan.bombs = true;
  CHECK_EQ(count_legal_plays(deck, nullptr, taiwan, -1), 14790);

  // flush_compare top-card (seed 000): the highest card's rank, then its suit; the rest
  // never counts. Suit-first and top-card agree on this pair, rank-first does not.
  Rules top_card = two_high;
  top_card.flush_compare = FlushCompare::kTopCard;
  Rules rank_first = two_high;
  rank_first.flush_compare = FlushCompare::kRankFirst;
  const char* spades = "As Qs 9s 7s 3s";
  const char* diamonds = "Ad Kd 9d 7d 3d";
  CHECK_EQ(compare(combo(spades, top_card), combo(diamonds, top_card), top_card), 1);
  CHECK_EQ(compare(combo(spades, rank_first), combo(diamonds, rank_first), rank_first), -1);
  CHECK_EQ(compare(combo("Ks Qs 9s 7s 3s", top_card), combo(diamonds, top_card), top_card), -1);
  CHECK_EQ(compare(combo("2d 4d 5d 7d 9d", top_card), combo(spades, top_card), top_card), 1);
  CHECK_EQ(compare(combo("As Js 8s 6s 4s", top_card), combo(spades, top_card), top_card), 0);

  // two_demotion: with the 2s demoted, a 2 is the lowest single and the ace the highest;
  // pairs and bigger combos keep the usual order.
  Rules demoted = two_high;
  demoted.two_demotion = true;
  demoted.twos_demoted = true;
  CHECK_EQ(compare(combo("3d", demoted), combo("2s", demoted), demoted), 1);
  CHECK_EQ(compare(combo("As", demoted), combo("2s", demoted), demoted), 1);
  CHECK_EQ(compare(combo("2s", demoted), combo("2h", demoted), demoted), 1);
  CHECK_EQ(compare(combo("2d 2c", demoted), combo("As Ah", demoted), demoted), 1);
  CHECK_EQ(count_legal_plays(mask_of(parse_cards("2c 2s 3h Ah")), nullptr, demoted, -1), 5);
  const Combo two_on_table = combo("2s", demoted);
  CHECK_EQ(count_legal_plays(mask_of(parse_cards("2c 2d 3h Ah")), &two_on_table, demoted, -1), 2);
  CHECK_EQ(count_legal_plays(deck & ~mask_of(parse_cards("2s")), &two_on_table, demoted, -1), 48);

  Code why = Code::kOk;
  CHECK(combo("Jd Qd Kc As 2h", two_high, &why).kind == Kind::kNone);
  CHECK(why == Code::kRuleForbids);
  CHECK(combo("Jd Qd Kd Ad 2d", two_high).kind == Kind::kFlush);
  CHECK(combo("Jd Qd Kd Ad 2d", jqka2).kind == Kind::kStraightFlush);
  CHECK(combo("Jd Qd Kd Ad 2d", taiwan, &why).kind == Kind::kNone);
  CHECK(why == Code::kRuleForbids);
  CHECK(combo("3d 4d 5d 6d 7d", taiwan).kind == Kind::kStraightFlush);
  CHECK(combo("3d 3c 3h 3s", two_high, &why).kind == Kind::kNone);
  CHECK(why == Code::kNotACombo);
  CHECK(combo("3d 3c 4h 4s 9d", two_high, &why).kind == Kind::kNone);
  CHECK(why == Code::kNotACombo);
  // 23456 and A2345 are the top straights under two-high; the 2 breaks ties by suit.
  CHECK(compare(combo("2s 3d 4d 5d 6d", two_high), combo("Ad 2d 3c 4c 5c", two_high),
                two_high) < 0);
  CHECK(compare(combo("Ts Jd Qd Kd Ad", two_high), combo("2c 3d 4c 5c 6c", two_high),
                two_high) < 0);
  // Big Two rank order: 3 lowest, 2 highest; suits d < c < h < s by default.
  CHECK_EQ(big_two_rank(parse_card("3d")), 0);
  CHECK_EQ(big_two_rank(parse_card("As")), 11);
  CHECK_EQ(big_two_rank(parse_card("2c")), 12);
  CHECK(compare(combo("2d", two_high), combo("As", two_high), two_high) > 0);
  CHECK(compare(combo("3c", two_high), combo("3d", two_high), two_high) > 0);
  CHECK_EQ(lowest_card(mask_of(parse_cards("2d 3c 3h Kd")), two_high), parse_card("3c"));
  // Pair tie-break by the highest suit.
  CHECK(compare(combo("9s 9d", two_high), combo("9h 9c", two_high), two_high) > 0);
  // Bombs: four of a kind beats a single 2 in taiwan; a straight cannot beat a pair.
  const Combo two = combo("2s", taiwan);
  CHECK(beats(combo("9s 9d 9c 9h 3d", taiwan), two, taiwan));
  CHECK(!comparable(combo("3d 4d 5c 6d 7d", taiwan), combo("9s 9d", taiwan), taiwan));

  // Validation precedence.
  const std::vector<int> hand = parse_cards("3d 4c 5h 6s 7d 9s 9h Ks Kd");
  const CardMask hm = mask_of(hand);
  const Combo table = combo("Qs Qh", two_high);
  const std::vector<int> nines = parse_cards("9s 9h");
  const std::vector<int> kings = parse_cards("Ks Kd");
  CHECK(validate(hm, nullptr, 0, true, nullptr, two_high, false, false).code ==
        Code::kCannotPassWhenLeading);
  CHECK(validate(hm, nines.data(), 2, false, &table, two_high, false, false).code ==
        Code::kDoesNotBeat);
  CHECK(validate(hm, kings.data(), 2, false, &table, two_high, false, false).code == Code::kOk);
  CHECK(validate(hm, nines.data(), 2, false, nullptr, two_high, true, false).code ==
        Code::kMustIncludeLowest);
  Rules locks = two_high;
  locks.pass_locks = true;
  CHECK(validate(hm, kings.data(), 2, false, &table, locks, false, true).code ==
        Code::kPassedThisTrick);

  // Any ids are safe to judge: a card named twice is not a pair, and an id outside the
  // deck is not in the hand (found by fuzz_banting; both were once a pair or a bad shift).
  const int twice[2] = {hand[5], hand[5]};
  CHECK(validate(hm, twice, 2, false, nullptr, two_high, false, false).code == Code::kNotInHand);
  for (const int bad : {-1, 52, 70, 1 << 30}) {
    const int play[2] = {hand[5], bad};
    CHECK(validate(hm, play, 2, false, nullptr, two_high, false, false).code == Code::kNotInHand);
  }

  CHECK(score({0, 5, 10, 13}, {{1, 1}, {10, 2}, {13, 3}}) == (std::vector<int>{64, -5, -20, -39}));

  // Speed of all legal plays of a random 13-card hand when leading (printed, not asserted).
  std::mt19937 rng(3);
  std::vector<int> ids(52);
  for (int i = 0; i < 52; ++i) ids[i] = i;
  long long total = 0;
  const int n_hands = 20000;
  const auto t0 = std::chrono::steady_clock::now();
  for (int h = 0; h < n_hands; ++h) {
    std::shuffle(ids.begin(), ids.end(), rng);
    total += static_cast<long long>(legal_plays(mask_of({ids.begin(), ids.begin() + 13}), nullptr,
                                                two_high, -1).size());
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("legal plays when leading: %.2f us per 13-card hand (%.1f plays on average)\n",
              secs / n_hands * 1e6, static_cast<double>(total) / n_hands);
  return capsa_fast::testing::finish("test_banting");
}
