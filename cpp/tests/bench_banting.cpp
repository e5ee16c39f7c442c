// C++-only timing of Banting legal-play generation on random 13-card hands: the median
// time per hand (each hand timed on its own), for leading and for answering a table.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

#include "capsa_fast/banting.hpp"

using namespace capsa_fast;
using namespace capsa_fast::banting;

int main() {
  const Rules rules;  // capsa-banting
  std::mt19937 rng(11);
  std::vector<int> deck(52);
  std::iota(deck.begin(), deck.end(), 0);
  const int n_hands = 100000;
  std::vector<CardMask> hands(n_hands);
  for (auto& h : hands) {
    std::shuffle(deck.begin(), deck.end(), rng);
    h = 0;
    for (int i = 0; i < 13; ++i) h |= CardMask{1} << deck[i];
  }
  auto median_ns = [&](auto&& per_hand) {
    std::vector<double> t(n_hands);
    long long sink = 0;
    for (int i = 0; i < n_hands; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      sink += per_hand(hands[i]);
      const auto t1 = std::chrono::steady_clock::now();
      t[i] = std::chrono::duration<double, std::nano>(t1 - t0).count();
    }
    std::nth_element(t.begin(), t.begin() + n_hands / 2, t.end());
    return std::make_pair(t[n_hands / 2], sink);
  };
  const int three_d = make_card(1, 1), nine_s = make_card(7, 3), nine_h = make_card(7, 2);
  const int pair_cards[2] = {nine_s, nine_h};
  const int single_card[1] = {three_d};
  const Combo pair = classify(pair_cards, 2, rules);
  const Combo single = classify(single_card, 1, rules);
  auto lead = median_ns([&](CardMask h) { return legal_plays(h, nullptr, rules, -1).size(); });
  auto count = median_ns([&](CardMask h) { return count_legal_plays(h, nullptr, rules, -1); });
  auto on_single = median_ns([&](CardMask h) {
    return count_legal_plays(h & ~(CardMask{1} << three_d), &single, rules, -1);
  });
  auto on_pair = median_ns([&](CardMask h) {
    return count_legal_plays(h & ~(CardMask{1} << nine_s | CardMask{1} << nine_h), &pair, rules, -1);
  });
  std::printf("all legal plays, leading (list): median %.0f ns per hand\n", lead.first);
  std::printf("all legal plays, leading (count): median %.0f ns per hand\n", count.first);
  std::printf("answering a single 3d (count): median %.0f ns per hand\n", on_single.first);
  std::printf("answering a pair of 9s (count): median %.0f ns per hand\n", on_pair.first);
  std::printf("(checksum %lld)\n", static_cast<long long>(lead.second + count.second +
                                                         on_single.second + on_pair.second));
}
