// The Banting bots and the simulation loop.
//
// beginner: leads its lowest card as a single and answers with the weakest play of the
//   table's size; simple, legal, easy to beat.
// standard: splits its hand into few combos (plan_hand), leads the weakest part of the
//   plan and answers with plan combos, keeps aces and 2s to win back the lead, leads
//   anything but a single when the next player holds one card (and blocks a single with
//   its highest), sheds cards with ten or more in hand, and passes when every answer
//   would spoil its plan.
#include <algorithm>
#include <limits>
#include <optional>

#include "capsa_fast/banting_game.hpp"

namespace capsa_fast::banting {
namespace {

constexpr CardMask kDeck = (CardMask{1} << kDeckSize) - 1;

int top_rank(const Combo& c) noexcept { return big_two_rank(c.cards[c.size - 1u]); }

// How hard a combo is to beat, 0 (a lone 3) .. 1 (a straight flush). Reads the five-card
// strength layout of banting.cpp: category << 24 | detail, where a straight's detail is
// its position in the straights list << 2 | suit and a full house's is the triple's rank.
double height(const Combo& c, const Rules& rules) noexcept {
  switch (c.kind) {
    case Kind::kSingle:  // its strength is rank * 4 + suit, with demoted 2s lowest
      return static_cast<double>(c.strength >> 2) / 12.0;
    case Kind::kPair:
    case Kind::kTriple:
      return top_rank(c) / 12.0;
    case Kind::kStraight: {
      const double n = std::max<double>(1.0, static_cast<double>(rules.straights.size()) - 1);
      return 0.30 + 0.25 * static_cast<double>((c.strength & 0xFFFFFFu) >> 2) / n;
    }
    case Kind::kFlush:
      return 0.55 + 0.15 * top_rank(c) / 12.0;
    case Kind::kFullHouse:
      return 0.70 + 0.20 * static_cast<double>(c.strength & 0xFFu) / 12.0;
    case Kind::kFourOfAKind:
      return 0.95;
    case Kind::kStraightFlush:
      return 1.0;
    case Kind::kNone:
      break;
  }
  return 0;
}

// A combo's share of the plan cost: a low combo needs a lead of its own, a high one wins its
// trick (and, with PlanStyle::kStandard's slope, the lead after it: a negative share).
double slope_of(PlanStyle style) noexcept { return style == PlanStyle::kV1 ? 0.7 : 1.2; }
double weight(double h, double slope) noexcept { return 1.0 - slope * h; }

// Cards of each rank, lowest in Big Two order first.
struct Ranks {
  std::array<std::array<std::uint8_t, 4>, kNumRanks> cards{};
  std::array<std::uint8_t, kNumRanks> n{};
  // Each rank's cards low to high in single_order: the suits taken in the rules' order.
  Ranks(CardMask hand, const Rules& rules) noexcept {
    std::array<int, kNumSuits> suit_at{};
    for (int s = 0; s < kNumSuits; ++s) suit_at[rules.suit_rank[static_cast<std::size_t>(s)]] = s;
    for (int r = 0; r < kNumRanks; ++r) {
      const unsigned held = static_cast<unsigned>(hand >> (r * 4) & 0xF);
      if (!held) continue;
      auto& row = cards[static_cast<std::size_t>(r)];
      auto& k = n[static_cast<std::size_t>(r)];
      for (const int s : suit_at)
        if (held >> s & 1) row[k++] = static_cast<std::uint8_t>(make_card(r, s));
    }
  }
};

// Cost of the cards left after the five-card combos: grouped by rank into triples (when
// allowed), pairs and singles (a lone 2 is a low single while the 2s are demoted).
double rest_cost(CardMask rest, const Rules& rules, double slope) noexcept {
  // Cards held of a rank from its 4 bits (a table: without -mpopcnt the builtin is a call).
  static constexpr std::uint8_t kCount[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
  double cost = 0;
  for (int r = 0; r < kNumRanks; ++r) {
    const int k = kCount[rest >> (r * 4) & 0xF];
    if (!k) continue;
    const int rank = k == 1 ? single_strength(r * 4, rules) >> 2 : big_two_rank(r * 4);
    const double w = weight(rank / 12.0, slope);
    if (k == 1 || k == 2) cost += w;
    else if (k == 3) cost += rules.triples ? w : 2 * w;
    else cost += 2 * w;
  }
  return cost;
}

void add_group(std::vector<Combo>& out, const int* cs, int n, const Rules& rules) {
  const Combo c = classify(cs, n, rules);
  if (c.kind != Kind::kNone) out.push_back(c);
}

void rest_combos(CardMask rest, const Rules& rules, std::vector<Combo>& out) {
  const Ranks by(rest, rules);
  for (int r = 0; r < kNumRanks; ++r) {
    const auto& row = by.cards[static_cast<std::size_t>(r)];
    const int k = by.n[static_cast<std::size_t>(r)];
    int cs[3] = {row[0], row[1], row[2]};
    if (k == 1 || k == 2 || (k == 3 && rules.triples)) {
      add_group(out, cs, k, rules);
    } else if (k == 3) {
      add_group(out, cs, 1, rules);
      add_group(out, cs + 1, 2, rules);
    } else if (k == 4) {
      add_group(out, cs, 2, rules);
      int hi[2] = {row[2], row[3]};
      add_group(out, hi, 2, rules);
    }
  }
}

struct Five {
  CardMask mask;
  Combo combo;
  double w;
};

void add_five(std::vector<Five>& out, const int* cs, const Rules& rules, double slope) {
  const Combo c = classify(cs, 5, rules);
  if (c.kind == Kind::kNone) return;
  const CardMask m = c.mask();
  for (const Five& f : out)
    if (f.mask == m) return;
  out.push_back(Five{m, c, weight(height(c, rules), slope)});
}

// A few good five-card combos of the hand: every listed straight (lowest suits, which
// keeps the high cards for pairs), straight flushes, flushes built from the lowest cards or
// from cards not in pairs, full houses from the lowest triple cards and pairs, and fours
// with the loneliest low kicker.
void five_card_options(CardMask hand, const Rules& rules, double slope, std::vector<Five>& out) {
  out.clear();
  const Ranks by(hand, rules);
  const auto n = [&](int r) { return static_cast<int>(by.n[static_cast<std::size_t>(r)]); };
  const auto card = [&](int r, int i) { return static_cast<int>(by.cards[static_cast<std::size_t>(r)][static_cast<std::size_t>(i)]); };
  int cs[5];
  for (const std::uint8_t start : rules.straights) {
    bool all = true;
    for (int i = 0; i < 5; ++i) all = all && n((start + i) % 13) > 0;
    if (!all) continue;
    for (int i = 0; i < 5; ++i) cs[i] = card((start + i) % 13, 0);
    add_five(out, cs, rules, slope);
    for (int s = 0; s < kNumSuits; ++s) {
      bool suited = true;
      for (int i = 0; i < 5; ++i) {
        cs[i] = make_card((start + i) % 13, s);
        suited = suited && (hand >> cs[i] & 1);
      }
      if (suited) add_five(out, cs, rules, slope);
    }
  }
  if (rules.flush_compare != FlushCompare::kNone) {
    for (int s = 0; s < kNumSuits; ++s) {
      int suited[kNumRanks];
      int m = 0;
      for (int b = 0; b < kNumRanks; ++b) {  // Big Two rank order, low to high
        const int c = make_card((b + 1) % 13, s);
        if (hand >> c & 1) suited[m++] = c;
      }
      if (m < 5) continue;
      add_five(out, suited, rules, slope);
      int k = 0;
      for (int i = 0; i < m && k < 5; ++i)
        if (n(rank_of(suited[i])) == 1) cs[k++] = suited[i];
      for (int i = 0; i < m && k < 5; ++i)
        if (n(rank_of(suited[i])) != 1) cs[k++] = suited[i];
      add_five(out, cs, rules, slope);
    }
  }
  for (int t = 0; t < kNumRanks; ++t) {
    if (n(t) < 3) continue;
    for (int p = 0; p < kNumRanks; ++p) {
      if (p == t || n(p) < 2) continue;
      const int fh[5] = {card(t, 0), card(t, 1), card(t, 2), card(p, 0), card(p, 1)};
      add_five(out, fh, rules, slope);
    }
    if (n(t) == 4 && __builtin_popcountll(hand) >= 5) {
      int kicker = -1;
      for (int pass = 0; pass < 2 && kicker < 0; ++pass) {
        for (int b = 0; b < kNumRanks && kicker < 0; ++b) {
          const int r = (b + 1) % 13;
          if (r != t && n(r) > 0 && (pass == 1 || n(r) == 1)) kicker = card(r, 0);
        }
      }
      const int four[5] = {card(t, 0), card(t, 1), card(t, 2), card(t, 3), kicker};
      add_five(out, four, rules, slope);
    }
  }
}

// The cheapest split of the hand: none, one or two disjoint five-card options (indices
// into fives, -1 for none) and the rest grouped by rank; returns its cost.
double best_split(CardMask hand, const Rules& rules, double slope, std::vector<Five>& fives,
                  int* best_i, int* best_j) {
  CardMask fifth = hand;  // its fifth-lowest card and above: none with fewer than five cards
  for (int k = 0; k < 4 && fifth; ++k) fifth &= fifth - 1;
  if (fifth) five_card_options(hand, rules, slope, fives);
  else fives.clear();
  double best = rest_cost(hand, rules, slope);
  int bi = -1, bj = -1;
  for (std::size_t i = 0; i < fives.size(); ++i) {
    const Five& f = fives[i];
    const double one = f.w + rest_cost(hand & ~f.mask, rules, slope);
    if (one < best - 1e-9) {
      best = one;
      bi = static_cast<int>(i);
      bj = -1;
    }
    for (std::size_t j = i + 1; j < fives.size(); ++j) {
      const Five& g = fives[j];
      if (f.mask & g.mask) continue;
      const double two = f.w + g.w + rest_cost(hand & ~f.mask & ~g.mask, rules, slope);
      if (two < best - 1e-9) {
        best = two;
        bi = static_cast<int>(i);
        bj = static_cast<int>(j);
      }
    }
  }
  *best_i = bi;
  *best_j = bj;
  return best;
}

// The five-card options of the hand being planned (one list per thread, reused).
std::vector<Five>& fives_buffer() {
  thread_local std::vector<Five> buf;
  return buf;
}

// Plans already made during one search (PlanCacheScope): its rollouts plan the same hands
// again and again (a seat that passes, the same opponents' hands for every option). The
// rules are those of one round throughout, apart from the 2s' demotion, which is part of
// the key.
struct PlanCache {
  struct Entry {
    std::uint64_t key = 0;
    std::uint32_t generation = 0;
    std::uint8_t n = 0;
    bool has_combos = false;
    bool has_cost = false;
    double cost = 0;
    std::array<Combo, kHandSize> combos{};
  };
  static constexpr std::size_t kSize = 1024;
  std::array<Entry, kSize> entries{};
  std::uint32_t generation = 0;
  int depth = 0;

  Entry* find(CardMask hand, const Rules& rules, PlanStyle style, std::uint64_t* key) {
    if (depth == 0) return nullptr;
    *key = hand | std::uint64_t{rules.twos_demoted} << 63 |
           std::uint64_t{style == PlanStyle::kV1} << 62;
    Entry& e = entries[(*key * 0x9E3779B97F4A7C15ull) >> 54];
    if (e.generation != generation || e.key != *key) {
      e.key = *key;
      e.generation = generation;
      e.has_combos = false;
      e.has_cost = false;
    }
    return &e;
  }
};

PlanCache& plan_cache() {
  thread_local PlanCache cache;
  return cache;
}

}  // namespace

PlanCacheScope::PlanCacheScope() {
  PlanCache& c = plan_cache();
  if (c.depth++ == 0 && ++c.generation == 0) {  // a wrapped generation: forget everything
    for (auto& e : c.entries) e.generation = 0;
    c.generation = 1;
  }
}
PlanCacheScope::~PlanCacheScope() { --plan_cache().depth; }

double plan_cost(CardMask hand, const Rules& rules, PlanStyle style) {
  std::uint64_t key = 0;
  PlanCache::Entry* e = plan_cache().find(hand, rules, style, &key);
  if (e && e->has_cost) return e->cost;
  int bi = -1, bj = -1;
  const double cost = best_split(hand, rules, slope_of(style), fives_buffer(), &bi, &bj);
  if (e) {
    e->cost = cost;
    e->has_cost = true;
  }
  return cost;
}

Plan plan_hand(CardMask hand, const Rules& rules, PlanStyle style) {
  std::uint64_t key = 0;
  PlanCache::Entry* e = plan_cache().find(hand, rules, style, &key);
  Plan plan;
  if (e && e->has_combos) {
    plan.cost = e->cost;
    plan.combos.assign(e->combos.begin(), e->combos.begin() + e->n);
    return plan;
  }
  std::vector<Five>& fives = fives_buffer();
  int bi = -1, bj = -1;
  plan.cost = best_split(hand, rules, slope_of(style), fives, &bi, &bj);
  plan.combos.reserve(kHandSize);
  CardMask rest = hand;
  for (int k : {bi, bj}) {
    if (k < 0) continue;
    plan.combos.push_back(fives[static_cast<std::size_t>(k)].combo);
    rest &= ~fives[static_cast<std::size_t>(k)].mask;
  }
  rest_combos(rest, rules, plan.combos);
  if (e) {
    e->cost = plan.cost;
    e->has_cost = true;
    e->n = static_cast<std::uint8_t>(plan.combos.size());
    std::copy(plan.combos.begin(), plan.combos.end(), e->combos.begin());
    e->has_combos = true;
  }
  return plan;
}

namespace {

// Whether no combo of the same size made of cards we cannot see could beat a combo
// (singles, pairs and triples exactly; five-card combos only when they are fours or
// straight flushes). Made once per decision: per size, the strongest single, pair or
// triple the unseen cards could make (its top card's order).
struct Threats {
  std::array<long long, 4> top{-1, -1, -1, -1};
  Threats(CardMask unseen, const Rules& rules) noexcept {
    const Ranks by(unseen, rules);
    for (int r = 0; r < kNumRanks; ++r) {
      const int k = by.n[static_cast<std::size_t>(r)];
      if (k == 0) continue;
      const int best = by.cards[static_cast<std::size_t>(r)][static_cast<std::size_t>(k - 1)];
      top[1] = std::max<long long>(top[1], single_strength(best, rules));
      for (int size = 2; size <= std::min(k, 3); ++size)
        top[static_cast<std::size_t>(size)] =
            std::max<long long>(top[static_cast<std::size_t>(size)], single_order(best, rules));
    }
  }
  bool boss(const Combo& c) const noexcept {
    if (c.size == 5) return c.kind == Kind::kFourOfAKind || c.kind == Kind::kStraightFlush;
    return top[c.size] <= static_cast<long long>(c.strength);
  }
};

// Some of a plan's combos (at most kHandSize), without the heap: the bots' leads pick
// among them on every move of a search's rollouts.
struct ComboRefs {
  std::array<const Combo*, kHandSize> at{};
  std::size_t n = 0;
  void push_back(const Combo* c) noexcept { at[n++] = c; }
  const Combo* const* begin() const noexcept { return at.data(); }
  const Combo* const* end() const noexcept { return at.data() + n; }
  std::size_t size() const noexcept { return n; }
  bool empty() const noexcept { return n == 0; }
  const Combo* operator[](std::size_t i) const noexcept { return at[i]; }
};

Move pass_move(int seat) { return Move{seat, true, Combo{}}; }
Move play_move(int seat, const Combo& c) { return Move{seat, false, c}; }

std::vector<Combo>& legal_buffer() {
  thread_local std::vector<Combo> buf;
  buf.clear();
  return buf;
}

Move random_move(const Round& r, SplitMix64& rng) {
  auto& legal = legal_buffer();
  r.for_each_legal([&](const Combo& c) { legal.push_back(c); });
  const int options = static_cast<int>(legal.size()) + (r.can_pass() ? 1 : 0);
  const int pick = rng.below(options);
  if (pick == static_cast<int>(legal.size())) return pass_move(r.turn());
  return play_move(r.turn(), legal[static_cast<std::size_t>(pick)]);
}

Move beginner_move(const Round& r) {
  const int seat = r.turn();
  const Rules& rules = r.combo_rules();
  const Combo* table = r.table();
  if (!table) {
    const int must = r.must_contain();
    int low = must;
    if (low < 0) {  // the lowest single, which is a 2 while the 2s are demoted
      for (CardMask h = r.hand(seat); h; h &= h - 1) {
        const int c = __builtin_ctzll(h);
        if (low < 0 || single_strength(c, rules) < single_strength(low, rules)) low = c;
      }
    }
    return play_move(seat, classify(&low, 1, rules));
  }
  bool found = false;
  Combo best;
  r.for_each_legal([&](const Combo& c) {
    if (c.size == table->size && (!found || c.strength < best.strength)) {
      best = c;
      found = true;
    }
  });
  return found ? play_move(seat, best) : pass_move(seat);
}

struct StandardV1 {
  const Round& r;
  const Rules& rules;
  int seat;
  CardMask hand;
  int held;
  int opp_min;  // fewest cards held by an opponent still in the round
  Plan plan;
  CardMask unseen;

  explicit StandardV1(const Round& round)
      : r(round), rules(round.combo_rules()), seat(round.turn()), hand(round.hand(seat)),
        held(__builtin_popcountll(hand)), opp_min(kHandSize + 1),
        plan(plan_hand(hand, rules, PlanStyle::kV1)), unseen(kDeck & ~hand & ~round.played()) {
    for (int s = 0; s < r.players(); ++s)
      if (s != seat && r.count(s) > 0) opp_min = std::min(opp_min, r.count(s));
  }

  Move lead() const {
    const int must = r.must_contain();
    if (must >= 0) {
      for (const Combo& c : plan.combos)
        if (c.mask() >> must & 1) return play_move(seat, c);
    }
    if (plan.combos.size() == 1) return play_move(seat, plan.combos[0]);
    ComboRefs weak, strong;
    const Threats threats(unseen, rules);
    for (const Combo& c : plan.combos) (threats.boss(c) ? strong : weak).push_back(&c);
    // One weak combo left: win tricks with the strong ones first, then lead it last.
    if (weak.size() <= 1 && !strong.empty()) {
      const Combo* pick = strong[0];
      for (const Combo* c : strong)
        if (c->size > pick->size) pick = c;
      return play_move(seat, *pick);
    }
    ComboRefs& pool = weak.empty() ? strong : weak;
    if (opp_min == 1) {
      ComboRefs multi;
      for (const Combo& c : plan.combos)
        if (c.size > 1) multi.push_back(&c);
      if (!multi.empty()) {
        pool = multi;
      } else {  // only singles: lead the highest, the one least likely to be beaten
        const Combo* top = &plan.combos[0];
        for (const Combo& c : plan.combos)
          if (c.strength > top->strength) top = &c;
        return play_move(seat, *top);
      }
    }
    const Combo* pick = nullptr;
    double pick_key = std::numeric_limits<double>::infinity();
    for (const Combo* c : pool) {
      // Low first; bigger combos first, more so with ten or more cards to shed.
      double key = height(*c, rules) - (held >= 10 ? 0.7 : 0.5) * (c->size - 1) / 4.0;
      if (c->size == 5) key -= 0.8;
      if (key < pick_key) {
        pick_key = key;
        pick = c;
      }
    }
    return play_move(seat, *pick);
  }

  Move follow(const std::vector<Combo>& legal) const {
    const Combo& table = *r.table();
    const bool danger = opp_min <= 4;  // someone is close to going out
    // An opponent about to go out on a single: block with the highest single.
    if (table.size == 1 && opp_min == 1) {
      const Combo* top = nullptr;
      for (const Combo& c : legal)
        if (c.size == 1 && (!top || c.strength > top->strength)) top = &c;
      if (top) return play_move(seat, *top);
    }
    const Combo* from_plan = nullptr;
    for (const Combo& c : plan.combos) {
      if (c.size != table.size || !beats(c, table, rules)) continue;
      if (!from_plan || c.strength < from_plan->strength) from_plan = &c;
    }
    if (from_plan) {
      // A or 2 (the ace alone as a single while the 2s are demoted)
      const bool control = from_plan->size <= 3 && height(*from_plan, rules) >= 11 / 12.0;
      const bool spare = plan.combos.size() <= 2 || held <= 4;
      if (control && !danger && !spare && height(table, rules) < 0.7) return pass_move(seat);
      return play_move(seat, *from_plan);
    }
    // No plan combo answers: break the plan only when it helps enough.
    const double threshold =
        danger ? -std::numeric_limits<double>::infinity() : (held >= 10 ? 0.2 : 0.35);
    const Combo* best = nullptr;
    double best_gain = -std::numeric_limits<double>::infinity();
    int tried = 0;
    for (const Combo& c : legal) {
      if (c.size != table.size && !danger) continue;  // bombs only when it matters
      if (++tried > 12) break;
      const double gain = plan.cost - plan_cost(hand & ~c.mask(), rules, PlanStyle::kV1);
      if (gain > best_gain + 1e-9 || (gain > best_gain - 1e-9 && best && c.strength < best->strength)) {
        best_gain = gain;
        best = &c;
      }
    }
    if (best && best_gain >= threshold) return play_move(seat, *best);
    return pass_move(seat);
  }

  // The play it likes best when it would rather pass (for a hint, which never passes while
  // a play exists): its weakest plan combo that answers, else the answer of the table's
  // size (any size when none) that spoils its plan least, the weakest among equals.
  // Contract: legal is not empty, sorted weakest first.
  Move best_play(const std::vector<Combo>& legal) const {
    const Combo& table = *r.table();
    for (const Combo& c : plan.combos)
      if (c.size == table.size && beats(c, table, rules))
        for (const Combo& l : legal)
          if (l.mask() == c.mask()) return play_move(seat, l);
    bool same_size = false;
    for (const Combo& c : legal) same_size |= c.size == table.size;
    const Combo* best = nullptr;
    double best_cost = std::numeric_limits<double>::infinity();
    for (const Combo& c : legal) {
      if (same_size && c.size != table.size) continue;
      const double cost = plan_cost(hand & ~c.mask(), rules, PlanStyle::kV1);
      if (cost < best_cost - 1e-9) {
        best_cost = cost;
        best = &c;
      }
    }
    return play_move(seat, *best);
  }
};

// The standard bot's legal plays, weakest first (shared by its move and its hint).
std::vector<Combo>& sorted_legal(const Round& r) {
  auto& legal = legal_buffer();
  r.for_each_legal([&](const Combo& c) { legal.push_back(c); });
  std::sort(legal.begin(), legal.end(), [](const Combo& a, const Combo& b) {
    return a.size != b.size ? a.size < b.size : a.strength < b.strength;
  });
  return legal;
}

Move standard_v1_move(const Round& r) {
  // Weakest first, so ties in the searches below go to the cheaper play.
  const auto& legal = sorted_legal(r);
  const int seat = r.turn();
  if (legal.empty()) return pass_move(seat);
  const CardMask hand = r.hand(seat);
  for (const Combo& c : legal)
    if (c.mask() == hand) return play_move(seat, c);  // going out
  const StandardV1 s(r);
  return r.table() ? s.follow(legal) : s.lead();
}

struct Standard {
  // Breaking the plan to answer: worth it unless it costs more than this many plan units
  // (about half a trick) while no opponent is within kSafeCount - 1 cards of going out.
  static constexpr double kBreakCost = 0.5;
  static constexpr int kSafeCount = 4;

  const Round& r;
  const Rules& rules;
  int seat;
  CardMask hand;
  int opp_min;  // fewest cards held by an opponent still in the round
  Plan plan;
  CardMask unseen;

  explicit Standard(const Round& round)
      : r(round), rules(round.combo_rules()), seat(round.turn()), hand(round.hand(seat)),
        opp_min(kHandSize + 1), plan(plan_hand(hand, rules)),
        unseen(kDeck & ~hand & ~round.played()) {
    for (int s = 0; s < r.players(); ++s)
      if (s != seat && r.count(s) > 0) opp_min = std::min(opp_min, r.count(s));
  }

  // Cards held by the next player still in the round. Blocking or leading around a player
  // on one card pays only against the next one: doing it for any opponent on one card (as
  // standard-v1 does) scored about 0.2 points a round less against three standard-v1 in
  // duplicate deals; the others are often stopped before their turn, and the high single
  // spent to block is gone.
  int next_count() const {
    for (int k = 1; k < r.players(); ++k) {
      const int n = r.count((seat + k) % r.players());
      if (n > 0) return n;
    }
    return 0;
  }

  Move lead() const {
    const int must = r.must_contain();
    if (must >= 0) {
      for (const Combo& c : plan.combos)
        if (c.mask() >> must & 1) return play_move(seat, c);
    }
    if (plan.combos.size() == 1) return play_move(seat, plan.combos[0]);
    ComboRefs weak, strong;
    const Threats threats(unseen, rules);
    for (const Combo& c : plan.combos) (threats.boss(c) ? strong : weak).push_back(&c);
    // One weak combo left: win tricks with the strong ones first, then lead it last.
    if (weak.size() <= 1 && !strong.empty()) {
      const Combo* pick = strong[0];
      for (const Combo* c : strong)
        if (c->size > pick->size) pick = c;
      return play_move(seat, *pick);
    }
    ComboRefs& pool = weak.empty() ? strong : weak;
    // The next player can go out on a lone single: lead anything else, or the highest single.
    if (next_count() == 1) {
      ComboRefs multi;
      for (const Combo& c : plan.combos)
        if (c.size > 1) multi.push_back(&c);
      if (!multi.empty()) {
        pool = multi;
      } else {  // only singles: lead the highest, the one least likely to be beaten
        const Combo* top = &plan.combos[0];
        for (const Combo& c : plan.combos)
          if (c.strength > top->strength) top = &c;
        return play_move(seat, *top);
      }
    }
    const Combo* pick = nullptr;
    double pick_key = std::numeric_limits<double>::infinity();
    for (const Combo* c : pool) {
      // Low first; bigger combos first (standard-v1 weighed size less below ten cards:
      // weighing it as above scored about 0.02 a round more against three standard-v2).
      double key = height(*c, rules) - 0.7 * (c->size - 1) / 4.0;
      if (c->size == 5) key -= 0.8;
      if (key < pick_key) {
        pick_key = key;
        pick = c;
      }
    }
    return play_move(seat, *pick);
  }

  // It answers whenever a plan combo does (standard-v1 held back its aces and 2s unless
  // someone was close to going out; answering wins more against it): the weakest plan
  // combo that beats the table. Else the answer (bombs included) that spoils the plan
  // least, unless that answer costs the plan more than kBreakCost while every opponent
  // still holds kSafeCount cards or more: then it passes and keeps its hand whole.
  Move follow(const std::vector<Combo>& legal) const {
    const Combo& table = *r.table();
    // The next player about to go out on a single: block with the highest single.
    if (table.size == 1 && next_count() == 1) {
      const Combo* top = nullptr;
      for (const Combo& c : legal)
        if (c.size == 1 && (!top || c.strength > top->strength)) top = &c;
      if (top) return play_move(seat, *top);
    }
    const Combo* from_plan = nullptr;
    for (const Combo& c : plan.combos) {
      if (c.size != table.size || !beats(c, table, rules)) continue;
      if (!from_plan || c.strength < from_plan->strength) from_plan = &c;
    }
    if (from_plan) return play_move(seat, *from_plan);
    const Combo* best = nullptr;
    double best_gain = -std::numeric_limits<double>::infinity();
    int tried = 0;
    for (const Combo& c : legal) {
      if (++tried > 12) break;
      const double gain = plan.cost - plan_cost(hand & ~c.mask(), rules);
      if (gain > best_gain + 1e-9 || (gain > best_gain - 1e-9 && best && c.strength < best->strength)) {
        best_gain = gain;
        best = &c;
      }
    }
    if (!best || (opp_min >= kSafeCount && best_gain < -kBreakCost)) return pass_move(seat);
    return play_move(seat, *best);
  }

  // The play it likes best when it would rather pass (for a hint, which never passes while
  // a play exists): its weakest plan combo that answers, else the answer of the table's
  // size (any size when none) that spoils its plan least, the weakest among equals.
  // Contract: legal is not empty, sorted weakest first.
  Move best_play(const std::vector<Combo>& legal) const {
    const Combo& table = *r.table();
    for (const Combo& c : plan.combos)
      if (c.size == table.size && beats(c, table, rules))
        for (const Combo& l : legal)
          if (l.mask() == c.mask()) return play_move(seat, l);
    bool same_size = false;
    for (const Combo& c : legal) same_size |= c.size == table.size;
    const Combo* best = nullptr;
    double best_cost = std::numeric_limits<double>::infinity();
    for (const Combo& c : legal) {
      if (same_size && c.size != table.size) continue;
      const double cost = plan_cost(hand & ~c.mask(), rules);
      if (cost < best_cost - 1e-9) {
        best_cost = cost;
        best = &c;
      }
    }
    return play_move(seat, *best);
  }
};

// The rule-based standard bot (the level standard-v2, and the rollouts of the searches).
Move standard_plain_move(const Round& r) {
  // Without the legal list where it would not change the move (it is most of the cost):
  // a lead or an answer by a plan combo, with too many cards to go out at once.
  std::optional<Standard> s;
  if (!r.over() && r.count(r.turn()) > 5) {
    const Combo* table = r.table();
    if (!table) return Standard(r).lead();
    if (!(r.has_passed(r.turn()) && r.combo_rules().pass_locks)) {
      s.emplace(r);
      if (!(table->size == 1 && s->next_count() == 1)) {
        const Combo* from_plan = nullptr;
        for (const Combo& c : s->plan.combos) {
          if (c.size != table->size || !beats(c, *table, s->rules)) continue;
          if (!from_plan || c.strength < from_plan->strength) from_plan = &c;
        }
        if (from_plan) return play_move(r.turn(), *from_plan);
      }
    }
  }
  const auto& legal = sorted_legal(r);
  const int seat = r.turn();
  if (legal.empty()) return pass_move(seat);
  const CardMask hand = r.hand(seat);
  for (const Combo& c : legal)
    if (c.mask() == hand) return play_move(seat, c);  // going out
  if (!s) s.emplace(r);
  return r.table() ? s->follow(legal) : s->lead();
}

// Deals of the cards a seat cannot see (all but its hand and the cards played) to the
// other seats in their counts, for the searches: one shuffle per deal, by the caller's
// random source.
struct WorldDealer {
  const Round& r;
  int seat;
  std::array<CardMask, kMaxPlayers> hands{};
  std::array<int, kDeckSize> unseen{};
  int n_unseen = 0;

  explicit WorldDealer(const Round& round) : r(round), seat(round.turn()) {
    for (int s = 0; s < r.players(); ++s) hands[static_cast<std::size_t>(s)] = r.hand(s);
    for (CardMask m = kDeck & ~r.hand(seat) & ~r.played(); m; m &= m - 1)
      unseen[static_cast<std::size_t>(n_unseen++)] = __builtin_ctzll(m);
  }

  // The next deal: `base` (the position, or a copy of it) with the other seats' hands dealt.
  Round deal(const Round& base, SplitMix64& rng) {
    for (int i = n_unseen - 1; i > 0; --i)
      std::swap(unseen[static_cast<std::size_t>(i)], unseen[static_cast<std::size_t>(rng.below(i + 1))]);
    int next = 0;
    for (int s = 0; s < r.players(); ++s) {
      if (s == seat) continue;
      CardMask h = 0;
      for (int k = 0; k < r.count(s); ++k) h |= CardMask{1} << unseen[static_cast<std::size_t>(next++)];
      hands[static_cast<std::size_t>(s)] = h;
    }
    return base.with_hands(hands);
  }
};

// The standard bot near the end of a round (issue 15): when a seat holds kEndgameCards
// cards or fewer, its rule-based move is checked against a few others (passing; the
// weakest and strongest answer; on a lead, the weakest and strongest single and pair), each
// played out by rule-based bots on kEndgameFirstWorlds deals of the cards it cannot see.
// If the rule-based move does as well as any there, it is played (about three searched
// moves in four end here); else the best two are played out on kEndgameMoreWorlds
// more deals, and the best total over all its deals wins (the rule-based move on ties). The
// deals come from a source seeded by the position, so a position always gets the same
// move. Against three standard-v1, 20,000 duplicate deals: +1.075 (seed 1) and +1.073
// (seed 2) per round, against +0.83 without it; it costs about 12 times the rule-based
// bot's time a move on average (most moves are not searched): see
// build/cpp/bench_banting_game.
constexpr int kEndgameCards = 3;
constexpr int kEndgameFirstWorlds = 2;
constexpr int kEndgameMoreWorlds = 4;

Move standard_move(const Round& r) {
  const Move plain = standard_plain_move(r);
  const int seat = r.turn();
  int closest = kHandSize;
  for (int s = 0; s < r.players(); ++s) closest = std::min(closest, r.count(s));
  if (closest > kEndgameCards) return plain;
  std::vector<Combo> legal = sorted_legal(r);  // a copy: the rollouts reuse the buffer
  if (legal.empty()) return plain;
  const CardMask hand = r.hand(seat);
  for (const Combo& c : legal)
    if (c.mask() == hand) return plain;
  std::vector<Move> options{plain};
  auto add = [&](const Move& m) {
    for (const Move& o : options)
      if (o.is_pass == m.is_pass && (m.is_pass || o.combo.mask() == m.combo.mask())) return;
    options.push_back(m);
  };
  if (r.can_pass()) add(pass_move(seat));
  for (int size : {1, 2, 3, 5}) {
    if (!r.table() && size > 2) continue;  // leads: singles and pairs (more cost, no gain)
    const Combo* lo = nullptr;
    const Combo* hi = nullptr;
    for (const Combo& c : legal) {
      if (c.size != size) continue;
      if (!lo) lo = &c;
      hi = &c;
    }
    if (lo) add(play_move(seat, *lo));
    if (hi) add(play_move(seat, *hi));
  }
  if (options.size() == 1) return plain;
  const PlanCacheScope plans;
  SplitMix64 rng{hand * 0x9E3779B97F4A7C15ull ^ r.played() * 0xD6E8FEB86659FD93ull ^
                 static_cast<std::uint64_t>(seat + 1)};
  WorldDealer dealer(r);
  std::vector<int> total(options.size(), 0);
  std::vector<std::size_t> active(options.size());
  for (std::size_t i = 0; i < active.size(); ++i) active[i] = i;
  auto play = [&](int worlds) {  // more deals for the options still active
    for (int sample = 0; sample < worlds; ++sample) {
      const Round world = dealer.deal(r, rng);
      for (const std::size_t i : active) {
        Round w = world;
        w.apply_legal(seat, options[i].is_pass ? nullptr : &options[i].combo);
        while (!w.over()) {
          const Move m = standard_plain_move(w);
          w.apply_legal(m.seat, m.is_pass ? nullptr : &m.combo);
        }
        total[i] += w.scores()[static_cast<std::size_t>(seat)];
      }
    }
  };
  play(kEndgameFirstWorlds);
  // The rule-based move (option 0) does as well as any on the first deals: keep it. Most
  // searched moves end here; the rest play the best two on more deals.
  if (*std::max_element(total.begin(), total.end()) == total[0]) return plain;
  if (active.size() > 2) {
    std::stable_sort(active.begin(), active.end(),
                     [&](std::size_t x, std::size_t y) { return total[x] > total[y]; });
    active.resize(2);
    std::sort(active.begin(), active.end());
  }
  play(kEndgameMoreWorlds);
  std::size_t best = active[0];
  for (const std::size_t i : active)
    if (total[i] > total[best]) best = i;
  return options[best];
}

// expert: a few candidate moves (the standard move, passing, the plan's combos, the weakest
// and strongest play of each size), each tried on the same sampled worlds: the cards this
// seat cannot see are dealt at random to the other seats (in their counts), the round is
// played out by standard bots, and the move with the best total score is chosen.
constexpr int kExpertSamples = 24;

Move expert_move(const Round& r, SplitMix64& rng) {
  const int seat = r.turn();
  const CardMask hand = r.hand(seat);
  const Rules& rules = r.combo_rules();
  std::vector<Combo> legal;  // its own list: the rollouts reuse the shared buffer
  r.for_each_legal([&](const Combo& c) { legal.push_back(c); });
  if (legal.empty()) return pass_move(seat);
  for (const Combo& c : legal)
    if (c.mask() == hand) return play_move(seat, c);  // going out
  std::vector<Move> options;
  auto add = [&](const Move& m) {
    for (const Move& o : options)
      if (o.is_pass == m.is_pass && (m.is_pass || o.combo.mask() == m.combo.mask())) return;
    options.push_back(m);
  };
  add(standard_v1_move(r));
  if (r.can_pass()) add(pass_move(seat));
  for (const Combo& c : plan_hand(hand, rules, PlanStyle::kV1).combos)
    for (const Combo& l : legal)
      if (l.mask() == c.mask()) add(play_move(seat, l));
  for (int size : {1, 2, 3, 5}) {
    const Combo* lo = nullptr;
    const Combo* hi = nullptr;
    for (const Combo& c : legal) {
      if (c.size != size) continue;
      if (!lo || c.strength < lo->strength) lo = &c;
      if (!hi || c.strength > hi->strength) hi = &c;
    }
    if (lo) add(play_move(seat, *lo));
    if (hi) add(play_move(seat, *hi));
  }
  if (options.size() == 1) return options[0];

  WorldDealer dealer(r);
  const Round base = r.with_hands(dealer.hands);  // without the history
  std::vector<double> total(options.size(), 0.0);
  for (int sample = 0; sample < kExpertSamples; ++sample) {
    const Round world = dealer.deal(base, rng);
    for (std::size_t i = 0; i < options.size(); ++i) {
      Round w = world;
      w.apply_legal(seat, options[i].is_pass ? nullptr : &options[i].combo);
      while (!w.over()) {
        const Move m = standard_v1_move(w);
        w.apply_legal(m.seat, m.is_pass ? nullptr : &m.combo);
      }
      total[i] += w.scores()[static_cast<std::size_t>(seat)];
    }
  }
  std::size_t best = 0;
  for (std::size_t i = 1; i < options.size(); ++i)
    if (total[i] > total[best]) best = i;
  return options[best];
}

}  // namespace

Move bot_move(const Round& round, BotLevel level, SplitMix64& rng, const SearchBudget& budget) {
  switch (level) {
    case BotLevel::kStandardV1:
      return standard_v1_move(round);
    case BotLevel::kStandardV2:
      return standard_plain_move(round);
    case BotLevel::kMaster:
      return master_move(round, rng, budget);
    case BotLevel::kRandom:
      return random_move(round, rng);
    case BotLevel::kBeginner:
      return beginner_move(round);
    case BotLevel::kExpert:
      return expert_move(round, rng);
    case BotLevel::kStandard:
      break;
  }
  return standard_move(round);
}

Hint hint_move(const Round& round, BotLevel level, SplitMix64& rng, const SearchBudget& budget) {
  Hint h{bot_move(round, level, rng, budget), false};
  if (!h.move.is_pass) return h;
  const auto& legal = sorted_legal(round);
  if (legal.empty()) return h;
  h.move = Standard(round).best_play(legal);
  h.pass_reasonable = true;
  return h;
}

int bot_give_back(const Round& round, int seat, BotLevel level, SplitMix64& rng) {
  const CardMask hand = round.hand(seat);
  const Rules& rules = round.combo_rules();
  if (level == BotLevel::kRandom) {
    int k = rng.below(__builtin_popcountll(hand));
    CardMask h = hand;
    while (k-- > 0) h &= h - 1;
    return __builtin_ctzll(h);
  }
  if (level == BotLevel::kBeginner) return lowest_card(hand, rules);
  const PlanStyle style = level == BotLevel::kStandardV1 || level == BotLevel::kExpert
                              ? PlanStyle::kV1
                              : PlanStyle::kStandard;
  int best = -1;
  double best_cost = 0;
  for (CardMask h = hand; h; h &= h - 1) {
    const int c = __builtin_ctzll(h);
    const double cost = plan_cost(hand & ~(CardMask{1} << c), rules, style);
    if (best < 0 || cost < best_cost ||
        (cost == best_cost && single_order(c, rules) < single_order(best, rules))) {
      best = c;
      best_cost = cost;
    }
  }
  return best;
}

void bots_give_back(Round& round, const std::vector<BotLevel>& levels, SplitMix64& rng) {
  for (int seat = 0; seat < round.players(); ++seat) {
    if (!round.owes(seat)) continue;
    round.give_back(seat, bot_give_back(round, seat, levels[static_cast<std::size_t>(seat)], rng));
  }
}

std::uint64_t sim_round_seed(std::uint64_t seed, std::uint64_t g) noexcept {
  SplitMix64 mix{seed ^ (g * 0xD1B54A32D192ED03ull)};
  return mix.next() >> 19;  // 45 bits
}

namespace {
// Whether a simulated round must record its moves: the master reads them (mismatches()).
bool needs_history(const std::vector<BotLevel>& levels) {
  return std::find(levels.begin(), levels.end(), BotLevel::kMaster) != levels.end();
}
}  // namespace

void simulate(const GameRules& rules, int players, const std::vector<BotLevel>& levels,
              std::uint64_t seed, std::uint64_t first, int count, int* scores, int* winners,
              const SearchBudget& budget) {
  int previous = -1;
  std::vector<int> places;  // of the previous round, when an exchange follows it
  for (int g = 0; g < count; ++g) {
    // The bots' dice per round, from (seed, round) alone: a run's rounds are the same
    // whatever its chunks (they were seeded once per chunk, so --chunk changed results).
    SplitMix64 rng{sim_round_seed(seed ^ 0xA0761D6478BD642Full, first + static_cast<std::uint64_t>(g))};
    Round round(rules, players, sim_round_seed(seed, first + static_cast<std::uint64_t>(g)),
                rules.previous_winner ? previous : -1, needs_history(levels));
    if (!places.empty() && !round.over()) {
      round.begin_exchange(places);
      bots_give_back(round, levels, rng);
    }
    while (!round.over()) {
      const Move m = bot_move(round, levels[static_cast<std::size_t>(round.turn())], rng, budget);
      round.apply_legal(m.seat, m.is_pass ? nullptr : &m.combo);
    }
    const std::vector<int> s = round.scores();
    for (int p = 0; p < players; ++p) scores[g * players + p] = s[static_cast<std::size_t>(p)];
    winners[g] = round.winner();
    previous = round.winner();
    places = rules.exchange && !round.dragon() ? round.places() : std::vector<int>{};
  }
}

void simulate_duplicate(const GameRules& rules, int players, const std::vector<BotLevel>& lineup,
                        std::uint64_t seed, std::uint64_t first, int count, int* points,
                        const SearchBudget& budget) {
  for (int g = 0; g < count; ++g) {
    const std::uint64_t deal = first + static_cast<std::uint64_t>(g);
    int* out = points + g * players;
    std::fill(out, out + players, 0);
    for (int k = 0; k < players; ++k) {
      // Each rotation's bots roll their own dice, so a rotation replays the same way
      // whatever else is run.
      SplitMix64 rng{sim_round_seed(seed ^ 0x243F6A8885A308D3ull, deal * kMaxPlayers + static_cast<std::uint64_t>(k))};
      Round round(rules, players, sim_round_seed(seed, deal), -1, needs_history(lineup));
      auto entry = [&](int seat) { return (seat + players - k) % players; };
      while (!round.over()) {
        const Move m = bot_move(round, lineup[static_cast<std::size_t>(entry(round.turn()))], rng, budget);
        round.apply_legal(m.seat, m.is_pass ? nullptr : &m.combo);
      }
      const std::vector<int> s = round.scores();
      for (int seat = 0; seat < players; ++seat) out[entry(seat)] += s[static_cast<std::size_t>(seat)];
    }
  }
}

}  // namespace capsa_fast::banting
