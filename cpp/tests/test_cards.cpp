// Card parsing and formatting (RULES.md section 1).
#include <stdexcept>
#include <string>
#include <vector>

#include "capsa_fast/cards.hpp"
#include "check.hpp"

using namespace capsa_fast;

static std::string error_of(std::string_view text) {
  try {
    parse_cards(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

int main() {
  CHECK_EQ(parse_card("2c"), 0);
  CHECK_EQ(parse_card("2d"), 1);
  CHECK_EQ(parse_card("As"), 51);
  CHECK_EQ(parse_card("10h"), parse_card("Th"));
  CHECK_EQ(parse_card("tH"), parse_card("Th"));
  CHECK_EQ(parse_card("3\u2666"), parse_card("3d"));  // black diamond
  CHECK_EQ(parse_card("3\u2662"), parse_card("3d"));  // white diamond
  CHECK_EQ(parse_card("K\u2660"), parse_card("Ks"));
  CHECK_EQ(parse_card("K\u2663"), parse_card("Kc"));
  CHECK_EQ(parse_card("K\u2665"), parse_card("Kh"));
  CHECK_EQ(parse_card("1h"), -1);
  CHECK_EQ(parse_card("Xs"), -1);
  CHECK_EQ(parse_card("A"), -1);
  CHECK_EQ(parse_card("Asx"), -1);
  CHECK_EQ(parse_card(""), -1);
  for (int c = 0; c < 52; ++c) CHECK_EQ(parse_card(format_card(c)), c);
  CHECK(format_card(8 * 4 + 3) == "Ts");

  const std::vector<int> ids = parse_cards("As Kd 10h 3\u2666");
  CHECK_EQ(ids.size(), 4u);
  CHECK_EQ(ids[0], 51);
  CHECK_EQ(ids[2], parse_card("Th"));
  CHECK(parse_cards("AsKd,Qh  Jc") == (std::vector<int>{51, 45, 42, 36}));
  // Any ASCII whitespace separates (\v and \f too, found by fuzz_cards's review).
  CHECK(parse_cards("As\tKd\nQh\vJc\f2d\r") == (std::vector<int>{51, 45, 42, 36, 1}));
  CHECK(parse_cards("").empty());
  CHECK(error_of("As Xx").find("'Xx'") != std::string::npos);
  // Messages show control characters as \xNN (a NUL would end a C string) and at most 40
  // bytes of a token, cut between UTF-8 characters (found by the Python fuzzers).
  CHECK(error_of(std::string("A\0s", 3)).find("'A\\x00s'") != std::string::npos);
  const std::string long_error = error_of(std::string(39, 'x') + "\u2660\u2660");
  CHECK(long_error.find("'" + std::string(39, 'x') + "...'") != std::string::npos);
  CHECK(error_of("As as").find("duplicate card: As") != std::string::npos);
  CHECK(error_of("AsK").find("'AsK'") != std::string::npos);

  const int dup[3] = {5, 9, 5};
  CHECK_THROWS(check_distinct(dup, 3));
  const int range[2] = {5, 52};
  CHECK_THROWS(check_distinct(range, 2));
  return capsa_fast::testing::finish("test_cards");
}
