// Combos, starting-hand classes and the PokerStove range parser (capsa_fast/equity.hpp).
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "capsa_fast/cards.hpp"
#include "capsa_fast/equity.hpp"

namespace capsa_fast::equity {
namespace {

struct ComboTable {
  std::uint8_t lo[kNumCombos];
  std::uint8_t hi[kNumCombos];
};
constexpr ComboTable make_combo_table() noexcept {
  ComboTable t{};
  for (int hi = 1; hi < kDeckSize; ++hi) {
    for (int lo = 0; lo < hi; ++lo) {
      const int i = combo_index(lo, hi);
      t.lo[i] = static_cast<std::uint8_t>(lo);
      t.hi[i] = static_cast<std::uint8_t>(hi);
    }
  }
  return t;
}
constexpr ComboTable kComboTable = make_combo_table();

constexpr std::string_view kExpected =
    "expected a hand like AhKh, a class like AKs, AKo, AK or QQ, a run like QQ+, ATs+, 22-99 "
    "or A5s-A2s, or random; optionally :weight with a weight from 0 to 1";

[[noreturn]] void bad_token(std::string_view token, std::string_view why = {}) {
  std::string message = "not a range token: '" + printable_token(token) + "'";
  message += why.empty() ? " (" + std::string(kExpected) + ")" : " (" + std::string(why) + ")";
  throw std::invalid_argument(message);
}

int rank_index(char c) noexcept {
  const char u = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  const std::size_t i = kRankChars.find(u);
  return i == std::string_view::npos ? -1 : static_cast<int>(i);
}

// Assigns weight w to every combo of ranks (r1, r2) of the kind: 's' suited, 'o' offsuit,
// 'b' both (pairs: r1 == r2, kind ignored).
template <class Set>
void add_ranks(int r1, int r2, char kind, Set&& set) {
  for (int s1 = 0; s1 < kNumSuits; ++s1) {
    for (int s2 = 0; s2 < kNumSuits; ++s2) {
      const int a = make_card(r1, s1), b = make_card(r2, s2);
      if (r1 == r2) {
        if (s1 < s2) set(combo_index(a, b));
        continue;
      }
      if (kind == 's' && s1 != s2) continue;
      if (kind == 'o' && s1 == s2) continue;
      set(combo_index(a, b));
    }
  }
}

// A class body: two ranks and an optional s/o. Returns false when it is not one.
bool parse_class(std::string_view body, int& hi, int& lo, char& kind) {
  if (body.size() != 2 && body.size() != 3) return false;
  const int a = rank_index(body[0]), b = rank_index(body[1]);
  if (a < 0 || b < 0) return false;
  kind = 'b';
  if (body.size() == 3) {
    const char k = static_cast<char>(std::tolower(static_cast<unsigned char>(body[2])));
    if (k != 's' && k != 'o') return false;
    if (a == b) return false;  // "QQs" is no hand
    kind = k;
  }
  hi = a > b ? a : b;
  lo = a > b ? b : a;
  return true;
}

double parse_weight(std::string_view token, std::string_view text) {
  if (text.empty()) bad_token(token, "the weight after ':' is missing");
  const std::string s(text);
  char* end = nullptr;
  const double w = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !std::isfinite(w) || w < 0 || w > 1) {
    bad_token(token, "a weight is a number from 0 to 1");
  }
  return w;
}

}  // namespace

void combo_cards(int index, int& lo, int& hi) noexcept {
  lo = kComboTable.lo[index];
  hi = kComboTable.hi[index];
}

std::string combo_text(int index) {
  return format_card(kComboTable.hi[index]) + format_card(kComboTable.lo[index]);
}

int class_of_combo(int index) noexcept {
  const int hi = kComboTable.hi[index], lo = kComboTable.lo[index];
  const int rh = 12 - rank_of(hi), rl = 12 - rank_of(lo);  // 0 = ace
  if (rh == rl) return rh * 13 + rh;
  const int top = rh < rl ? rh : rl, low = rh < rl ? rl : rh;
  return suit_of(hi) == suit_of(lo) ? top * 13 + low : low * 13 + top;
}

std::string class_name(int cls) {
  if (cls < 0 || cls >= kNumClasses) throw std::invalid_argument("not a class index: " + std::to_string(cls));
  const int row = cls / 13, col = cls % 13;
  std::string name;
  name += kRankChars[static_cast<std::size_t>(12 - (row < col ? row : col))];
  name += kRankChars[static_cast<std::size_t>(12 - (row < col ? col : row))];
  if (row < col) name += 's';
  if (row > col) name += 'o';
  return name;
}

Range full_range() {
  Range r;
  r.combos.resize(kNumCombos);
  r.weights.assign(kNumCombos, 1.0);
  for (int i = 0; i < kNumCombos; ++i) r.combos[static_cast<std::size_t>(i)] = static_cast<std::uint16_t>(i);
  return r;
}

Range remove_cards(const Range& range, std::uint64_t dead_mask) {
  Range out;
  for (std::size_t i = 0; i < range.size(); ++i) {
    const int c = range.combos[i];
    const std::uint64_t m = (std::uint64_t{1} << kComboTable.lo[c]) | (std::uint64_t{1} << kComboTable.hi[c]);
    if (m & dead_mask) continue;
    out.combos.push_back(range.combos[i]);
    out.weights.push_back(range.weights[i]);
  }
  return out;
}

Range parse_range(std::string_view text) {
  // -1: not in the range; otherwise the weight.
  std::array<double, kNumCombos> weight;
  weight.fill(-1);

  // A text of exactly two cards, however spaced, is one combo.
  bool two_cards = false;
  try {
    const std::vector<int> cards = parse_cards(text);
    if (cards.size() == 2) {
      weight[static_cast<std::size_t>(combo_index(cards[0], cards[1]))] = 1;
      two_cards = true;
    }
  } catch (const std::invalid_argument&) {
  }

  std::size_t pos = 0;
  int tokens = 0;
  while (!two_cards && pos < text.size()) {
    const auto is_sep = [](char c) { return c == ',' || c == ';' || std::isspace(static_cast<unsigned char>(c)); };
    while (pos < text.size() && is_sep(text[pos])) ++pos;
    std::size_t end = pos;
    while (end < text.size() && !is_sep(text[end])) ++end;
    if (end == pos) break;
    const std::string_view token = text.substr(pos, end - pos);
    pos = end;
    ++tokens;

    std::string_view body = token;
    double w = 1;
    if (const std::size_t colon = token.find(':'); colon != std::string_view::npos) {
      body = token.substr(0, colon);
      w = parse_weight(token, token.substr(colon + 1));
    }
    const auto set = [&](int c) { weight[static_cast<std::size_t>(c)] = w; };

    std::string lower;
    for (char c : body) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "random" || lower == "any") {
      for (int c = 0; c < kNumCombos; ++c) set(c);
      continue;
    }
    // One combo: two cards written together.
    if (body.size() == 4) {
      const int a = parse_card(body.substr(0, 2)), b = parse_card(body.substr(2, 2));
      if (a >= 0 && b >= 0) {
        if (a == b) bad_token(token, "the same card twice");
        set(combo_index(a, b));
        continue;
      }
    }
    int hi = 0, lo = 0;
    char kind = 'b';
    // A run: "22-99", "A5s-A2s".
    if (const std::size_t dash = body.find('-'); dash != std::string_view::npos) {
      int hi2 = 0, lo2 = 0;
      char kind2 = 'b';
      if (!parse_class(body.substr(0, dash), hi, lo, kind) ||
          !parse_class(body.substr(dash + 1), hi2, lo2, kind2)) {
        bad_token(token);
      }
      if (hi == lo && hi2 == lo2) {
        for (int r = std::min(hi, hi2); r <= std::max(hi, hi2); ++r) add_ranks(r, r, 'b', set);
        continue;
      }
      if (hi == lo || hi2 == lo2 || hi != hi2 || kind != kind2) {
        bad_token(token, "a run is of pairs (22-99) or of kickers under one top card (A5s-A2s)");
      }
      for (int r = std::min(lo, lo2); r <= std::max(lo, lo2); ++r) add_ranks(hi, r, kind, set);
      continue;
    }
    // "QQ+", "ATs+".
    if (!body.empty() && body.back() == '+') {
      if (!parse_class(body.substr(0, body.size() - 1), hi, lo, kind)) bad_token(token);
      if (hi == lo) {
        for (int r = hi; r < kNumRanks; ++r) add_ranks(r, r, 'b', set);
      } else {
        for (int r = lo; r < hi; ++r) add_ranks(hi, r, kind, set);
      }
      continue;
    }
    if (!parse_class(body, hi, lo, kind)) bad_token(token);
    add_ranks(hi, lo, kind, set);
  }
  if (!two_cards && tokens == 0) throw std::invalid_argument("the range is empty");

  Range r;
  for (int c = 0; c < kNumCombos; ++c) {
    const double w = weight[static_cast<std::size_t>(c)];
    if (w > 0) {
      r.combos.push_back(static_cast<std::uint16_t>(c));
      r.weights.push_back(w);
    }
  }
  if (r.combos.empty()) throw std::invalid_argument("the range has no combination of weight above 0");
  return r;
}

}  // namespace capsa_fast::equity
