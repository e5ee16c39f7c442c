#include "capsa_fast/banting_game.hpp"

#include <algorithm>

namespace capsa_fast::banting {

namespace {

constexpr std::uint16_t kAllRanks = (1u << kNumRanks) - 1;

bool is_dragon(CardMask hand) noexcept {
  std::uint16_t ranks = 0;
  for (CardMask h = hand; h; h &= h - 1)
    ranks = static_cast<std::uint16_t>(ranks | (1u << rank_of(__builtin_ctzll(h))));
  return ranks == kAllRanks;
}

int highest_card(CardMask hand, const Rules& rules) noexcept {
  int best = -1;
  for (CardMask h = hand; h; h &= h - 1) {
    const int c = __builtin_ctzll(h);
    if (best < 0 || single_order(c, rules) > single_order(best, rules)) best = c;
  }
  return best;
}

}  // namespace

Round::Round(const GameRules& rules, int players, std::uint64_t seed, int opener,
             bool record_history)
    : rules_(&rules), combo_rules_(rules.rules), players_(players),
      opener_(opener >= 0 && opener < players ? opener : -1), record_(record_history) {
  combo_rules_.twos_demoted = false;
  const auto deck = shuffled_deck(seed);
  CardMask dealt = 0;
  for (int s = 0; s < players_; ++s) {
    CardMask h = 0;
    for (int i = 0; i < kHandSize; ++i) h |= CardMask{1} << deck[static_cast<std::size_t>(s * kHandSize + i)];
    hands_[static_cast<std::size_t>(s)] = h;
    dealt |= h;
  }
  if (record_) history_.reserve(64);
  if (rules.dragon) {
    int best = -1;
    int best_card = -1;
    for (int s = 0; s < players_; ++s) {
      if (!is_dragon(hand(s))) continue;
      const int top = highest_card(hand(s), rules.rules);
      if (best < 0 || single_order(top, rules.rules) > single_order(best_card, rules.rules)) {
        best = s;
        best_card = top;
      }
    }
    if (best >= 0) {
      dragon_ = true;
      winner_ = best;
      finishing_.push_back(best);
      for (int s = 0; s < players_; ++s) cards_left_[static_cast<std::size_t>(s)] = s == best ? 0 : kHandSize;
      turn_ = -1;
      leader_ = best;
      return;
    }
  }
  if (opener_ < 0) lowest_ = lowest_card(dealt, rules.rules);
  start_play();
}

void Round::start_play() {
  if (opener_ >= 0) {
    turn_ = opener_;
  } else {
    for (int s = 0; s < players_; ++s)
      if (hand(s) >> lowest_ & 1) turn_ = s;
    first_play_ = true;
  }
  leader_ = turn_;
}

std::vector<int> Round::places() const {
  if (!over()) return {};
  if (static_cast<int>(finishing_.size()) == players_) return finishing_;
  std::vector<int> order;
  for (int i = 0; i < players_; ++i) order.push_back((winner_ + i) % players_);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return cards_left_[static_cast<std::size_t>(a)] < cards_left_[static_cast<std::size_t>(b)];
  });
  return order;
}

void Round::begin_exchange(const std::vector<int>& places) {
  exchanges_.clear();
  auto pass_up = [&](int giver, int receiver) {
    const int card = highest_card(hand(giver), rules_->rules);
    const CardMask bit = CardMask{1} << card;
    hands_[static_cast<std::size_t>(giver)] &= ~bit;
    hands_[static_cast<std::size_t>(receiver)] |= bit;
    exchanges_.push_back(Exchange{giver, receiver, card, -1});
  };
  pass_up(places[static_cast<std::size_t>(players_ - 1)], places[0]);
  if (players_ == 4) pass_up(places[2], places[1]);
  exchanging_ = true;
  turn_ = -1;
  leader_ = -1;
  first_play_ = false;
}

bool Round::owes(int seat) const noexcept {
  if (!exchanging_) return false;
  for (const Exchange& x : exchanges_)
    if (x.receiver == seat && x.back < 0) return true;
  return false;
}

ExchangeCode Round::give_back(int seat, int card) {
  if (!owes(seat)) return ExchangeCode::kClosed;
  if (card < 0 || card >= kDeckSize || !(hand(seat) >> card & 1)) return ExchangeCode::kNotInHand;
  bool open = false;
  for (Exchange& x : exchanges_) {
    if (x.receiver == seat && x.back < 0) {
      const CardMask bit = CardMask{1} << card;
      hands_[static_cast<std::size_t>(seat)] &= ~bit;
      hands_[static_cast<std::size_t>(x.giver)] |= bit;
      x.back = card;
    }
    open = open || x.back < 0;
  }
  if (!open) {
    exchanging_ = false;
    start_play();
  }
  return ExchangeCode::kOk;
}

Round Round::with_hands(const std::array<CardMask, kMaxPlayers>& hands) const {
  Round copy = *this;
  copy.hands_ = hands;
  copy.record_ = false;
  copy.history_.clear();
  copy.history_.shrink_to_fit();
  return copy;
}

Round Round::at_start(const std::array<CardMask, kMaxPlayers>& hands) const {
  Round c = *this;
  c.hands_ = hands;
  c.combo_rules_.twos_demoted = false;
  c.turn_ = history_.empty() ? turn_ : history_.front().seat;
  c.leader_ = c.turn_;
  c.has_table_ = false;
  c.table_ = Combo{};
  c.table_seat_ = -1;
  c.passed_ = 0;
  c.passed_since_play_ = 0;
  c.first_play_ = lowest_ >= 0;
  c.played_ = 0;
  c.played_by_ = {};
  c.record_ = false;
  c.history_.clear();
  c.winner_ = -1;
  c.dragon_ = false;
  c.cards_left_ = {};
  c.finishing_.clear();
  return c;
}

int Round::must_contain() const noexcept { return first_play_ ? lowest_ : -1; }

int Round::next_holder(int seat) const noexcept {
  for (int i = 1; i <= players_; ++i) {
    const int s = (seat + i) % players_;
    if (hands_[static_cast<std::size_t>(s)]) return s;
  }
  return -1;
}

std::vector<int> Round::scores() const {
  if (!over()) return {};
  return score(std::vector<int>(cards_left_.begin(), cards_left_.begin() + players_), rules_->tiers);
}

RoundCode Round::check(int seat, const int* cards, int n, bool is_pass, Verdict* verdict) const {
  if (over()) return RoundCode::kRoundOver;
  if (seat != turn_) return RoundCode::kNotYourTurn;
  *verdict = validate(hand(seat), cards, n, is_pass, table(), combo_rules_, first_play_,
                      has_passed(seat));
  return verdict->code == Code::kOk ? RoundCode::kOk : RoundCode::kRules;
}

RoundCode Round::apply(int seat, const int* cards, int n, bool is_pass, Verdict* verdict) {
  const RoundCode code = check(seat, cards, n, is_pass, verdict);
  if (code == RoundCode::kOk) apply_legal(seat, is_pass ? nullptr : &verdict->combo);
  return code;
}

void Round::finish_out(int seat, bool bomb) {
  if (winner_ < 0) {
    winner_ = seat;
    for (int s = 0; s < players_; ++s) cards_left_[static_cast<std::size_t>(s)] = count(s);
  }
  finishing_.push_back(seat);
  if (bomb && rules_->bomb_ends && rules_->last_standing) {
    // The round ends for every seat still holding cards: each is scored by the cards it
    // holds now and placed by them (fewer first, ties in turn order after the bomb).
    std::vector<int> rest;
    for (int i = 1; i < players_; ++i) {
      const int s = (seat + i) % players_;
      if (hand(s)) rest.push_back(s);
    }
    std::stable_sort(rest.begin(), rest.end(), [&](int a, int b) { return count(a) < count(b); });
    for (const int s : rest) {
      cards_left_[static_cast<std::size_t>(s)] = count(s);
      finishing_.push_back(s);
    }
    turn_ = -1;
    return;
  }
  int holders = 0;
  int last = -1;
  for (int s = 0; s < players_; ++s) {
    if (hand(s)) {
      ++holders;
      last = s;
    }
  }
  if (!rules_->last_standing || holders <= 1) {
    if (rules_->last_standing && last >= 0) finishing_.push_back(last);
    turn_ = -1;
  }
}

void Round::apply_legal(int seat, const Combo* play) {
  const unsigned bit = 1u << seat;
  if (record_) history_.push_back(Move{seat, play == nullptr, play ? *play : Combo{}});
  if (play) {
    const CardMask m = play->mask();
    hands_[static_cast<std::size_t>(seat)] &= ~m;
    played_ |= m;
    played_by_[static_cast<std::size_t>(seat)] |= m;
    table_ = *play;
    has_table_ = true;
    table_seat_ = seat;
    passed_since_play_ = 0;
    first_play_ = false;
    // Each four of a kind turns the demotion of the 2s on, the next one off again.
    if (play->kind == Kind::kFourOfAKind && combo_rules_.two_demotion)
      combo_rules_.twos_demoted = !combo_rules_.twos_demoted;
    if (!hand(seat)) {
      finish_out(seat, play->is_bomb());
      if (over()) return;
    }
    turn_ = next_holder(seat);
    return;
  }
  passed_ |= bit;
  passed_since_play_ |= bit;
  unsigned waiting = 0;  // holders other than the table's owner who have not passed since
  for (int s = 0; s < players_; ++s)
    if (s != table_seat_ && hand(s) && !(passed_since_play_ >> s & 1)) waiting |= 1u << s;
  if (waiting) {
    turn_ = next_holder(seat);
    return;
  }
  has_table_ = false;
  passed_ = 0;
  passed_since_play_ = 0;
  leader_ = hand(table_seat_) ? table_seat_ : next_holder(table_seat_);
  turn_ = leader_;
  table_seat_ = -1;
}

}  // namespace capsa_fast::banting
