// Fuzz target: card text and ids (cards.hpp).
//
// The first byte picks a mode:
//   raw text     parse_card and parse_cards on the rest of the input, judged by an oracle
//                that knows every way a card may be written (a table of spellings, not the
//                parser's code): a token is accepted exactly when it is a run of spellings,
//                the first bad token or first duplicate is the one named in the error;
//   spelled      card ids from the bytes, each written in a random spelling (case, "10",
//                suit symbols) with random separators, which must parse back to the ids;
//   raw ids      check_distinct on arbitrary ints, against a plain set-based check.
// Every input also round-trips format_card for one id. std::invalid_argument is the only
// exception the API documents; anything else escapes and crashes.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "capsa_fast/cards.hpp"
#include "fuzz_input.hpp"

using namespace capsa_fast;
using capsa_fast::fuzz::Input;

namespace {

constexpr std::string_view kSeparators = " ,\t\n\v\f\r";

// The two UTF-8 symbols of each suit (c d h s): the black and the white one, U+2660..67.
const char* const kSymbols[4][2] = {
    {"\xE2\x99\xA3", "\xE2\x99\xA7"},  // club, white club
    {"\xE2\x99\xA6", "\xE2\x99\xA2"},  // diamond, white diamond
    {"\xE2\x99\xA5", "\xE2\x99\xA1"},  // heart, white heart
    {"\xE2\x99\xA0", "\xE2\x99\xA4"},  // spade, white spade
};

// Every accepted spelling of every card: rank (upper, lower, "10" for the ten) then suit
// (upper, lower, two symbols). Built from the card model, not from the parser.
struct Spellings {
  std::vector<std::string> text;
  std::vector<int> card;
  Spellings() {
    for (int c = 0; c < kDeckSize; ++c) {
      const char r = kRankChars[static_cast<std::size_t>(rank_of(c))];
      const char s = kSuitChars[static_cast<std::size_t>(suit_of(c))];
      std::vector<std::string> ranks = {std::string(1, r), std::string(1, static_cast<char>(r | 0x20))};
      if (r == 'T') ranks.push_back("10");
      const std::string suits[4] = {std::string(1, s), std::string(1, static_cast<char>(s & ~0x20)),
                                    kSymbols[suit_of(c)][0], kSymbols[suit_of(c)][1]};
      for (const std::string& rk : ranks)
        for (const std::string& st : suits) {
          text.push_back(rk + st);
          card.push_back(c);
        }
    }
  }
  // The card spelled exactly by `t`, or -1.
  int exact(std::string_view t) const {
    for (std::size_t i = 0; i < text.size(); ++i)
      if (text[i] == t) return card[i];
    return -1;
  }
  // The card whose spelling starts `t`, and its length; -1 when none does.
  int prefix(std::string_view t, std::size_t* len) const {
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (t.substr(0, text[i].size()) == text[i]) {
        *len = text[i].size();
        return card[i];
      }
    }
    return -1;
  }
};
const Spellings kSpellings;

// What parse_cards(text) must do: the ids, or the message prefix of its error.
struct Expected {
  std::vector<int> ids;
  std::string error;  // empty when the text parses
};

Expected expected_parse(std::string_view text) {
  Expected out;
  std::size_t i = 0;
  while (i < text.size()) {
    if (kSeparators.find(text[i]) != std::string_view::npos) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && kSeparators.find(text[end]) == std::string_view::npos) ++end;
    const std::string_view token = text.substr(i, end - i);
    for (std::size_t pos = 0; pos < token.size();) {
      std::size_t len = 0;
      const int c = kSpellings.prefix(token.substr(pos), &len);
      if (c < 0) {
        out.error = "not a card: '" + printable_token(token) + "'";
        return out;
      }
      out.ids.push_back(c);
      pos += len;
    }
    i = end;
  }
  std::uint64_t seen = 0;
  for (const int c : out.ids) {
    if (seen >> c & 1) {
      out.error = "duplicate card: " + format_card(c);
      return out;
    }
    seen |= std::uint64_t{1} << c;
  }
  return out;
}

void check_parse_cards(std::string_view text) {
  const Expected want = expected_parse(text);
  std::vector<int> got;
  std::string error;
  try {
    got = parse_cards(text);
  } catch (const std::invalid_argument& e) {
    error = e.what();
  }
  if (want.error.empty()) {
    FUZZ_CHECK(error.empty());
    FUZZ_CHECK(got == want.ids);
    // Written back canonically, the cards read the same.
    std::string canonical;
    for (const int c : got) canonical += format_card(c) + " ";
    FUZZ_CHECK(parse_cards(canonical) == got);
  } else {
    FUZZ_CHECK(!error.empty() && error.compare(0, want.error.size(), want.error) == 0);
    // Messages pass through C strings (what(), PyErr_SetString) and are shown to people:
    // no control characters, and a bounded echo of the input.
    for (const char ch : error) FUZZ_CHECK(static_cast<unsigned char>(ch) >= 0x20 && ch != 0x7F);
    FUZZ_CHECK(error.size() < 200);
  }
}

void raw_text(Input& in) {
  std::size_t n = 0;
  const auto* p = in.rest(&n);
  const std::string_view text(reinterpret_cast<const char*>(p), n);
  const int c = parse_card(text);
  FUZZ_CHECK(c >= -1 && c < kDeckSize);
  FUZZ_CHECK(c == kSpellings.exact(text));
  check_parse_cards(text);
}

void spelled(Input& in) {
  const int n = in.range(0, 60);
  std::vector<int> ids;
  std::string text;
  for (int i = 0; i < n; ++i) {
    const int c = in.card();
    ids.push_back(c);
    const std::uint8_t how = in.byte();
    // Separators before the card; none at all joins it to the previous one.
    for (int k = how & 3; k > 0; --k) text += kSeparators[in.byte() % kSeparators.size()];
    const char r = kRankChars[static_cast<std::size_t>(rank_of(c))];
    if (r == 'T' && (how & 4)) text += "10";
    else text += (how & 8) ? static_cast<char>(r | 0x20) : r;
    const char s = kSuitChars[static_cast<std::size_t>(suit_of(c))];
    switch (how >> 4 & 3) {
      case 0: text += s; break;
      case 1: text += static_cast<char>(s & ~0x20); break;
      default: text += kSymbols[suit_of(c)][(how >> 4 & 3) - 2]; break;
    }
  }
  for (int k = in.byte() & 3; k > 0; --k) text += kSeparators[in.byte() % kSeparators.size()];
  check_parse_cards(text);
  // The oracle agrees with the ids the text was built from.
  const Expected want = expected_parse(text);
  std::uint64_t seen = 0;
  bool distinct = true;
  for (const int c : ids) {
    distinct = distinct && !(seen >> c & 1);
    seen |= std::uint64_t{1} << c;
  }
  FUZZ_CHECK(want.error.empty() == distinct);
  if (distinct) FUZZ_CHECK(want.ids == ids);
}

void raw_ids(Input& in) {
  const int n = in.range(0, 60);
  std::vector<int> ids;
  for (int i = 0; i < n; ++i) {
    // Mostly near the deck (-8..247), sometimes any 32-bit value.
    const std::uint8_t kind = in.byte();
    ids.push_back(kind & 1 ? static_cast<int>(in.u32()) : static_cast<int>(in.byte()) - 8);
  }
  std::string want;
  std::uint64_t seen = 0;
  for (const int c : ids) {
    if (c < 0 || c >= kDeckSize) {
      want = "not a card id: " + std::to_string(c);
      break;
    }
    if (seen >> c & 1) {
      want = "duplicate card: " + format_card(c);
      break;
    }
    seen |= std::uint64_t{1} << c;
  }
  std::string error;
  try {
    check_distinct(ids.data(), static_cast<int>(ids.size()));
  } catch (const std::invalid_argument& e) {
    error = e.what();
  }
  FUZZ_CHECK(error.compare(0, want.size(), want) == 0);
  FUZZ_CHECK(error.empty() == want.empty());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  const std::uint8_t mode = in.byte();
  const int c = mode % kDeckSize;
  FUZZ_CHECK(parse_card(format_card(c)) == c);
  switch (mode % 3) {
    case 0: raw_text(in); break;
    case 1: spelled(in); break;
    default: raw_ids(in); break;
  }
  return 0;
}
