// The batch body reader (capsa_fast/batch_json.hpp): syntax, shape, cards, bounds.
#include <string>
#include <string_view>

#include "capsa_fast/batch_json.hpp"
#include "check.hpp"

using namespace capsa_fast;

static batch_json::Result read(std::string_view body, std::size_t max_hands = 100) {
  batch_json::Options options;
  options.max_hands = max_hands;
  return batch_json::read(body, options);
}

static bool has_issue(const std::vector<batch_json::Issue>& issues, std::string_view field,
                      std::string_view needle) {
  for (const auto& issue : issues)
    if (issue.field == field && issue.message.find(needle) != std::string::npos) return true;
  return false;
}

int main() {
  // A good body: strings in any spelling, escapes, integer ids; rows padded to the width.
  {
    const auto r = read(R"( {"hands": [["As","Kd","\u0051h"], [-0, 1, 2, 3, "10\u2660", 4, 51]] } )");
    CHECK(r.syntax_error.empty());
    CHECK_EQ(r.shape_total, 0u);
    CHECK_EQ(r.card_total, 0u);
    CHECK_EQ(r.hands, 2u);
    CHECK_EQ(r.counts.size(), 2u);
    CHECK_EQ(r.counts[0], 3);
    CHECK_EQ(r.counts[1], 7);
    CHECK_EQ(r.cards.size(), 14u);
    CHECK_EQ(r.cards[0], 51);
    CHECK_EQ(r.cards[1], 45);
    CHECK_EQ(r.cards[2], 42);  // Qh
    CHECK_EQ(r.cards[3], 0);   // padding
    CHECK_EQ(r.cards[7 + 0], 0);   // -0 is the id 0
    CHECK_EQ(r.cards[7 + 4], 35);  // 10 of spades
    CHECK_EQ(r.cards[7 + 6], 51);
  }
  // Syntax errors, with where they are.
  for (const char* bad : {"", "{", "{\"hands\": [[\"As\"]", "{\"hands\": [[\"As\",]]}",
                          "{\"hands\": [[01]]}", "{\"hands\": [[\"\\x\"]]}", "[1] x",
                          "{\"a\": tru}", "{\"hands\": [[\"\xff\"]]}", "{\"a\" 1}",
                          "{\"hands\": [[\"A\ns\"]]}", "{\"hands\": [[1.]]}"}) {
    const auto r = read(bad);
    CHECK(!r.syntax_error.empty());
    CHECK(r.syntax_error.find("line ") != std::string::npos);
  }
  {
    std::string deep(300, '[');
    deep += std::string(300, ']');
    const auto r = read("{\"x\": " + deep + "}");
    CHECK(r.syntax_error.find("nested") != std::string::npos);
    std::string fine(200, '[');
    fine += std::string(200, ']');
    const auto ok = read("{\"x\": " + fine + ", \"hands\": [[\"2c\",\"3c\",\"4c\"]]}");
    CHECK(ok.syntax_error.empty());
    CHECK(has_issue(ok.shape_issues, "x", "Unknown field"));
  }
  // Shape: not an object, missing or repeated field, wrong types; reported by path.
  {
    CHECK(has_issue(read("[1, 2]").shape_issues, "", "object"));
    CHECK(has_issue(read("{}").shape_issues, "hands", "required"));
    CHECK(has_issue(read("{\"hands\": []}").shape_issues, "hands", "at least 1"));
    CHECK(has_issue(read("{\"hands\": 5}").shape_issues, "hands", "valid list"));
    CHECK(has_issue(read("{\"hands\": [5]}").shape_issues, "hands/0", "valid list"));
    CHECK(has_issue(read("{\"hands\": [[\"As\"]], \"hands\": [[\"Ks\"]]}").shape_issues,
                    "hands", "more than once"));
    CHECK(has_issue(read("{\"a/b~\": 1, \"hands\": [[\"As\"]]}").shape_issues, "a~1b~0",
                    "Unknown field"));
    const auto r = read("{\"hands\": [[\"As\", 1.5, true, null, {}, [], \"Kd\"]]}");
    CHECK_EQ(r.shape_total, 5u);
    CHECK(has_issue(r.shape_issues, "hands/0/1", "got 1.5."));
    CHECK(has_issue(r.shape_issues, "hands/0/2", "got true."));
    CHECK(has_issue(r.shape_issues, "hands/0/3", "got null."));
    CHECK(has_issue(r.shape_issues, "hands/0/4", "got an object."));
    CHECK(has_issue(r.shape_issues, "hands/0/5", "got a list."));
  }
  // Cards: bad strings, ids out of range, repeats, wrong counts; only rows of a right size
  // get per-card issues.
  {
    const auto r = read(
        "{\"hands\": [[\"2c\",\"3c\",\"Zz\"], [52, -1, 7], [\"2c\",\"3c\",\"2C\"], "
        "[\"2c\",\"3c\",\"Zz\",\"4c\"], [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18]]}");
    CHECK(r.syntax_error.empty());
    CHECK_EQ(r.shape_total, 0u);
    CHECK_EQ(r.card_total, 6u);
    CHECK(has_issue(r.card_issues, "hands/0/2", "not a card: 'Zz'"));
    CHECK(has_issue(r.card_issues, "hands/1/0", "not a card id: 52"));
    CHECK(has_issue(r.card_issues, "hands/1/1", "not a card id: -1"));
    CHECK(has_issue(r.card_issues, "hands/2/2", "Duplicate card 2c (also at hands/2/0)."));
    CHECK(has_issue(r.card_issues, "hands/3", "Expected 3, 5, 6 or 7 cards, got 4."));
    CHECK(has_issue(r.card_issues, "hands/4", "got 18."));
    CHECK(r.counts.empty());
  }
  // A long string is named in at most 40 bytes; a huge id by its first digits.
  {
    const std::string long_token(5000, 'x');
    const auto r = read("{\"hands\": [[\"" + long_token + "\", \"2c\", \"" +
                        std::string(30, '9') + "\"]]}");
    CHECK_EQ(r.card_total, 2u);  // the long string and the string of 30 nines
    CHECK(has_issue(r.card_issues, "hands/0/0", "not a card"));
    CHECK(has_issue(r.card_issues, "hands/0/2", "not a card"));
    for (const auto& issue : r.card_issues) CHECK(issue.message.size() < 200);
    const auto big = read("{\"hands\": [[" + std::string(3000, '9') + ", 1, 2]]}");
    CHECK(big.card_issues.size() == 1 && big.card_issues[0].message.size() < 200);
  }
  // Issue lists are capped; the count goes on only as far as needed.
  {
    std::string body = "{\"hands\": [";
    for (int i = 0; i < 500; ++i) body += std::string(i ? "," : "") + "[\"2c\",\"3c\",\"Zz\"]";
    body += "]}";
    const auto r = read(body, 1000);
    CHECK_EQ(r.card_issues.size(), 50u);
    CHECK(r.card_total > 50);
    CHECK(r.card_issues[1].field == "hands/1/2");
  }
  // More hands than allowed: counted on, none kept.
  {
    std::string body = "{\"hands\": [";
    for (int i = 0; i < 30; ++i) body += std::string(i ? "," : "") + "[0,1,2]";
    body += "]}";
    const auto r = read(body, 10);
    CHECK_EQ(r.hands, 30u);
    CHECK(r.counts.empty() && r.cards.empty());
    CHECK_EQ(r.card_total, 0u);
    const auto fits = read(body, 30);
    CHECK_EQ(fits.counts.size(), 30u);
  }
  // The answer: strengths and categories in order.
  {
    const std::int32_t strengths[] = {1, poker::kMaxStrength};
    CHECK(batch_json::write_response(strengths, 2) ==
          "{\"strengths\":[1,7917],\"categories\":[\"high_card\",\"straight_flush\"]}");
    CHECK(batch_json::write_response(strengths, 0) == "{\"strengths\":[],\"categories\":[]}");
  }
  return testing::finish("batch_json");
}
