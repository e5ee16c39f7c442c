#include "capsa_fast/cards.hpp"

#include <stdexcept>

namespace capsa_fast {
namespace {

// Maps a rank prefix of `token` to a rank index and reports how many bytes it used.
int parse_rank(std::string_view token, std::size_t& used) noexcept {
  if (token.size() >= 2 && token[0] == '1' && token[1] == '0') {
    used = 2;
    return 8;  // "10" is the ten
  }
  if (token.empty()) return -1;
  used = 1;
  switch (token[0]) {
    case 't': case 'T': return 8;
    case 'j': case 'J': return 9;
    case 'q': case 'Q': return 10;
    case 'k': case 'K': return 11;
    case 'a': case 'A': return 12;
    default: break;
  }
  if (token[0] >= '2' && token[0] <= '9') return token[0] - '2';
  return -1;
}

// Suit letters in any case, and the black and white suit symbols in UTF-8.
int parse_suit(std::string_view s) noexcept {
  if (s.size() == 1) {
    switch (s[0]) {
      case 'c': case 'C': return 0;
      case 'd': case 'D': return 1;
      case 'h': case 'H': return 2;
      case 's': case 'S': return 3;
      default: return -1;
    }
  }
  // U+2660..U+2667 are E2 99 A0..A7: spade, heart(white), diamond(white), club,
  // spade(white), heart, diamond, club(white).
  if (s.size() == 3 && static_cast<unsigned char>(s[0]) == 0xE2 &&
      static_cast<unsigned char>(s[1]) == 0x99) {
    static constexpr int kSymbolSuit[8] = {3, 2, 1, 0, 3, 2, 1, 0};
    const unsigned c = static_cast<unsigned char>(s[2]);
    if (c >= 0xA0 && c <= 0xA7) return kSymbolSuit[c - 0xA0];
  }
  return -1;
}

// Length in bytes of the suit that starts `s` (1 for a letter, 3 for a symbol), 0 if none.
std::size_t suit_length(std::string_view s) noexcept {
  if (s.empty()) return 0;
  if (parse_suit(s.substr(0, 1)) >= 0) return 1;
  if (s.size() >= 3 && parse_suit(s.substr(0, 3)) >= 0) return 3;
  return 0;
}

[[noreturn]] void bad_token(std::string_view token) {
  throw std::invalid_argument(bad_card_message(token));
}

}  // namespace

std::string printable_token(std::string_view token) {
  static constexpr std::size_t kMaxBytes = 40;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  std::size_t end = token.size();
  if (end > kMaxBytes) {
    end = kMaxBytes;
    // Back up to the start of a UTF-8 character, so the cut never splits one.
    while (end > 0 && (static_cast<unsigned char>(token[end]) & 0xC0) == 0x80) --end;
  }
  for (std::size_t i = 0; i < end; ++i) {
    const auto byte = static_cast<unsigned char>(token[i]);
    if (byte < 0x20 || byte == 0x7F) {
      // Control characters as \xNN: a NUL would otherwise end the message early.
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    } else {
      out += static_cast<char>(byte);
    }
  }
  if (end < token.size()) out += "...";
  return out;
}

std::string bad_card_message(std::string_view token) {
  return "not a card: '" + printable_token(token) +
         "' (expected a rank 2-9, T or 10, J, Q, K, A followed by a suit c, d, h, s or "
         "\u2663 \u2666 \u2665 \u2660)";
}

int parse_card(std::string_view token) noexcept {
  std::size_t used = 0;
  const int rank = parse_rank(token, used);
  if (rank < 0) return -1;
  const int suit = parse_suit(token.substr(used));
  if (suit < 0) return -1;
  return make_card(rank, suit);
}

std::string format_card(int card) {
  return std::string{kRankChars[rank_of(card)], kSuitChars[suit_of(card)]};
}

namespace {

// ASCII whitespace (as Python's str.split() sees it within ASCII) and commas.
constexpr bool is_separator(char ch) noexcept {
  return ch == ' ' || ch == ',' || ch == '\t' || ch == '\n' || ch == '\v' || ch == '\f' ||
         ch == '\r';
}

}  // namespace

std::vector<int> parse_cards(std::string_view text) {
  std::vector<int> out;
  std::size_t i = 0;
  while (i < text.size()) {
    const char ch = text[i];
    if (is_separator(ch)) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && !is_separator(text[end])) {
      ++end;
    }
    const std::string_view token = text.substr(i, end - i);
    // A token is one card or several written together: read rank+suit pairs until it ends.
    std::size_t pos = 0;
    while (pos < token.size()) {
      std::size_t used = 0;
      const int rank = parse_rank(token.substr(pos), used);
      const std::size_t slen = rank < 0 ? 0 : suit_length(token.substr(pos + used));
      if (rank < 0 || slen == 0) bad_token(token);
      out.push_back(make_card(rank, parse_suit(token.substr(pos + used, slen))));
      pos += used + slen;
    }
    i = end;
  }
  check_distinct(out.data(), static_cast<int>(out.size()));
  return out;
}

void check_distinct(const int* cards, int n) {
  std::uint64_t seen = 0;
  for (int i = 0; i < n; ++i) {
    const int c = cards[i];
    if (c < 0 || c >= kDeckSize) {
      throw std::invalid_argument("not a card id: " + std::to_string(c) +
                                  " (ids run from 0 = 2c to 51 = As)");
    }
    const std::uint64_t bit = std::uint64_t{1} << c;
    if (seen & bit) throw std::invalid_argument("duplicate card: " + format_card(c));
    seen |= bit;
  }
}

}  // namespace capsa_fast
