#include "capsa_fast/batch_json.hpp"

#include <charconv>
#include <stdexcept>

#include "capsa_fast/cards.hpp"

namespace capsa_fast::batch_json {
namespace {

constexpr std::size_t kMaxDepth = 256;       // nesting of a value the reader skips
constexpr std::size_t kMaxKeyBytes = 400;    // of an unknown field's name, for its path
constexpr std::size_t kMaxTokenBytes = 64;   // of a card string, for its message
constexpr std::size_t kMaxCardTokenBytes = 16;  // longer strings are never cards
constexpr std::uint8_t kNoCard = 0xFF;

constexpr const char* kTypeMessage =
    "Expected a card: a string like 'As' or an integer id 0..51, got ";

struct SyntaxError {
  const char* at;
  const char* what;
};

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Drops an incomplete UTF-8 sequence from the end of `s` (left by cutting it short).
void trim_partial_utf8(std::string& s) {
  std::size_t i = s.size();
  std::size_t back = 0;
  while (i > 0 && back < 4 && (static_cast<unsigned char>(s[i - 1]) & 0xC0) == 0x80) {
    --i;
    ++back;
  }
  if (i == 0) return;
  const auto lead = static_cast<unsigned char>(s[i - 1]);
  std::size_t need = 0;
  if (lead >= 0xF0) {
    need = 3;
  } else if (lead >= 0xE0) {
    need = 2;
  } else if (lead >= 0xC0) {
    need = 1;
  } else {
    return;  // ASCII: complete
  }
  if (back < need) s.resize(i - 1);
}

// A JSON object key as one segment of a field path (RFC 6901: '~' -> '~0', '/' -> '~1').
std::string pointer_token(std::string_view key) {
  std::string out;
  out.reserve(key.size());
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

class Reader {
 public:
  Reader(std::string_view body, const Options& options, Result& result)
      : begin_(body.data()), p_(body.data()), end_(body.data() + body.size()),
        options_(options), result_(result) {}

  void run() {
    skip_space();
    if (p_ < end_ && *p_ == '{') {
      read_object();
    } else {
      skip_value();
      shape_issue("", "Input should be an object.");
    }
    skip_space();
    if (p_ != end_) fail("unexpected data after the JSON value");
  }

 private:
  const char* begin_;
  const char* p_;
  const char* end_;
  const Options& options_;
  Result& result_;
  bool card_checks_ = true;  // off once more card issues were seen than are kept
  std::vector<Issue> pending_;  // the current hand's card issues (reused between hands)
  std::string token_;           // the current card string (reused)

  // A card string without escapes or non-ASCII bytes, the usual case ("As", "10h"): read
  // in place. Returns false (p_ unchanged) when the string needs the full reader.
  bool read_plain_token(std::string_view& token) {
    const char* start = p_ + 1;
    const char* q = start;
    const char* stop = end_ - start > 17 ? start + 17 : end_;
    while (q < stop) {
      const auto c = static_cast<unsigned char>(*q);
      if (c == '"') {
        token = std::string_view(start, static_cast<std::size_t>(q - start));
        p_ = q + 1;
        return true;
      }
      if (c == '\\' || c < 0x20 || c >= 0x80) return false;
      ++q;
    }
    return false;
  }

  [[noreturn]] void fail(const char* what) { throw SyntaxError{p_, what}; }

  void skip_space() {
    while (p_ < end_ && is_space(*p_)) ++p_;
  }

  char peek() {
    if (p_ >= end_) fail("the body ends in the middle of a value");
    return *p_;
  }

  void expect(char c, const char* what) {
    skip_space();
    if (p_ >= end_ || *p_ != c) fail(what);
    ++p_;
  }

  void shape_issue(std::string field, std::string message) {
    ++result_.shape_total;
    if (result_.shape_issues.size() < options_.max_issues)
      result_.shape_issues.push_back({std::move(field), std::move(message)});
  }

  void card_issue(std::string field, std::string message) {
    ++result_.card_total;
    if (result_.card_issues.size() < options_.max_issues) {
      result_.card_issues.push_back({std::move(field), std::move(message)});
    } else {
      card_checks_ = false;  // the answer lists no more of them: stop looking
    }
  }

  // Reads a string (at its opening quote). Appends up to `keep` bytes of its value to
  // `out` (when given); returns the value's length in bytes.
  std::size_t read_string(std::string* out, std::size_t keep) {
    ++p_;  // the opening quote
    std::size_t length = 0;
    std::string scratch;
    auto put = [&](std::string_view bytes) {
      if (out != nullptr && out->size() < keep)
        out->append(bytes.substr(0, keep - out->size()));
      length += bytes.size();
    };
    while (true) {
      // Plain ASCII runs in one go.
      const char* run = p_;
      while (p_ < end_) {
        const auto c = static_cast<unsigned char>(*p_);
        if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
        ++p_;
      }
      if (p_ > run) put(std::string_view(run, static_cast<std::size_t>(p_ - run)));
      if (p_ >= end_) fail("the body ends inside a string");
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        ++p_;
        return length;
      }
      if (c < 0x20) fail("a control character inside a string");
      if (c == '\\') {
        ++p_;
        if (p_ >= end_) fail("the body ends inside a string");
        const char e = *p_++;
        char plain = 0;
        switch (e) {
          case '"': plain = '"'; break;
          case '\\': plain = '\\'; break;
          case '/': plain = '/'; break;
          case 'b': plain = '\b'; break;
          case 'f': plain = '\f'; break;
          case 'n': plain = '\n'; break;
          case 'r': plain = '\r'; break;
          case 't': plain = '\t'; break;
          case 'u': {
            std::uint32_t cp = read_hex4();
            if (cp >= 0xD800 && cp <= 0xDBFF) {
              // A high surrogate pairs with a following low one; alone it is U+FFFD.
              if (end_ - p_ >= 6 && p_[0] == '\\' && p_[1] == 'u') {
                const char* save = p_;
                p_ += 2;
                const std::uint32_t low = read_hex4();
                if (low >= 0xDC00 && low <= 0xDFFF) {
                  cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                } else {
                  p_ = save;
                  cp = 0xFFFD;
                }
              } else {
                cp = 0xFFFD;
              }
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
              cp = 0xFFFD;
            }
            scratch.clear();
            append_utf8(scratch, cp);
            put(scratch);
            continue;
          }
          default:
            --p_;
            fail("an unknown escape in a string");
        }
        put(std::string_view(&plain, 1));
        continue;
      }
      // A multi-byte UTF-8 character: checked, then copied.
      std::size_t n = 0;
      unsigned char lo = 0x80, hi = 0xBF;
      if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
      } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
      } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
      } else {
        fail("bytes that are not UTF-8 text");
      }
      if (static_cast<std::size_t>(end_ - p_) < n) fail("bytes that are not UTF-8 text");
      for (std::size_t k = 1; k < n; ++k) {
        const auto b = static_cast<unsigned char>(p_[k]);
        const unsigned char min = k == 1 ? lo : 0x80;
        const unsigned char max = k == 1 ? hi : 0xBF;
        if (b < min || b > max) fail("bytes that are not UTF-8 text");
      }
      put(std::string_view(p_, n));
      p_ += n;
    }
  }

  std::uint32_t read_hex4() {
    if (end_ - p_ < 4) fail("an incomplete \\u escape");
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      const char h = *p_;
      v <<= 4;
      if (h >= '0' && h <= '9') {
        v |= static_cast<std::uint32_t>(h - '0');
      } else if (h >= 'a' && h <= 'f') {
        v |= static_cast<std::uint32_t>(h - 'a' + 10);
      } else if (h >= 'A' && h <= 'F') {
        v |= static_cast<std::uint32_t>(h - 'A' + 10);
      } else {
        fail("an invalid \\u escape");
      }
      ++p_;
    }
    return v;
  }

  // Reads a number; true when it is an integer (no fraction, no exponent).
  bool read_number() {
    if (*p_ == '-') ++p_;
    if (p_ >= end_) fail("an incomplete number");
    if (*p_ == '0') {
      ++p_;
    } else if (*p_ >= '1' && *p_ <= '9') {
      while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    } else {
      fail("an invalid number");
    }
    bool integer = true;
    if (p_ < end_ && *p_ == '.') {
      integer = false;
      ++p_;
      if (p_ >= end_ || *p_ < '0' || *p_ > '9') fail("an invalid number");
      while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    }
    if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
      integer = false;
      ++p_;
      if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (p_ >= end_ || *p_ < '0' || *p_ > '9') fail("an invalid number");
      while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    }
    return integer;
  }

  void read_literal(std::string_view word) {
    if (static_cast<std::size_t>(end_ - p_) < word.size() ||
        std::string_view(p_, word.size()) != word)
      fail("an invalid value");
    p_ += word.size();
  }

  // Skips one value of any kind, checking its syntax, without recursion.
  void skip_value() {
    skip_space();
    std::string stack;  // '[' or '{' per open container
    while (true) {
      // A value at p_.
      const char c = peek();
      if (c == '{' || c == '[') {
        if (stack.size() >= kMaxDepth) fail("values nested too deeply");
        ++p_;
        skip_space();
        const char close = c == '{' ? '}' : ']';
        if (peek() == close) {
          ++p_;
        } else {
          stack += c;
          if (c == '{') read_key_colon();
          skip_space();
          continue;
        }
      } else if (c == '"') {
        read_string(nullptr, 0);
      } else if (c == '-' || (c >= '0' && c <= '9')) {
        read_number();
      } else if (c == 't') {
        read_literal("true");
      } else if (c == 'f') {
        read_literal("false");
      } else if (c == 'n') {
        read_literal("null");
      } else {
        fail("an invalid value");
      }
      // After a value: close containers or move to the next element.
      while (true) {
        if (stack.empty()) return;
        skip_space();
        const char open = stack.back();
        const char next = peek();
        if (next == ',') {
          ++p_;
          if (open == '{') read_key_colon();
          skip_space();
          break;
        }
        if ((open == '[' && next == ']') || (open == '{' && next == '}')) {
          ++p_;
          stack.pop_back();
          continue;
        }
        fail(open == '[' ? "expected ',' or ']'" : "expected ',' or '}'");
      }
    }
  }

  void read_key_colon() {
    skip_space();
    if (peek() != '"') fail("expected a string key");
    read_string(nullptr, 0);
    expect(':', "expected ':'");
  }

  void read_object() {
    ++p_;  // '{'
    bool seen_hands = false;
    skip_space();
    if (peek() == '}') {
      ++p_;
    } else {
      while (true) {
        skip_space();
        if (peek() != '"') fail("expected a string key");
        std::string key;
        const std::size_t length = read_string(&key, kMaxKeyBytes);
        expect(':', "expected ':'");
        skip_space();
        if (length == 5 && key == "hands") {
          if (seen_hands) {
            skip_value();
            shape_issue("hands", "The field is given more than once.");
          } else {
            seen_hands = true;
            read_hands();
          }
        } else {
          skip_value();
          if (length > key.size()) trim_partial_utf8(key);
          shape_issue(pointer_token(key), "Unknown field.");
        }
        skip_space();
        const char next = peek();
        ++p_;
        if (next == '}') break;
        if (next != ',') {
          --p_;
          fail("expected ',' or '}'");
        }
      }
    }
    if (!seen_hands) shape_issue("hands", "Field required.");
  }

  void read_hands() {
    if (peek() != '[') {
      skip_value();
      shape_issue("hands", "Input should be a valid list.");
      return;
    }
    ++p_;
    skip_space();
    if (peek() == ']') {
      ++p_;
      shape_issue("hands", "List should have at least 1 item after validation, not 0.");
      return;
    }
    while (true) {
      skip_space();
      const std::size_t row = result_.hands++;
      if (peek() == '[') {
        read_hand(row);
      } else {
        skip_value();
        shape_issue("hands/" + std::to_string(row), "Input should be a valid list.");
      }
      skip_space();
      const char next = peek();
      ++p_;
      if (next == ']') break;
      if (next != ',') {
        --p_;
        fail("expected ',' or ']'");
      }
    }
    if (result_.hands > options_.max_hands) {
      result_.cards.clear();
      result_.counts.clear();
    }
  }

  std::string card_path(std::size_t row, std::size_t index) const {
    return "hands/" + std::to_string(row) + "/" + std::to_string(index);
  }

  void read_hand(std::size_t row) {
    ++p_;  // '['
    const auto width = static_cast<std::size_t>(options_.width);
    // Rows past max_hands are counted, not kept, and their cards not checked.
    const bool keep = row < options_.max_hands;
    std::uint8_t ids[16];
    std::uint64_t mask = 0;
    pending_.clear();
    std::size_t count = 0;
    skip_space();
    if (peek() == ']') {
      ++p_;
    } else {
      while (true) {
        skip_space();
        const std::size_t index = count++;
        const bool check = keep && card_checks_ && index < width;
        const char c = peek();
        int id = -1;
        if (c == '"') {
          std::string_view token;
          std::size_t length = 0;
          if (read_plain_token(token)) {
            length = token.size();
          } else {
            token_.clear();
            length = read_string(&token_, kMaxTokenBytes);
            token = token_;
          }
          if (check) {
            id = length <= kMaxCardTokenBytes ? parse_card(token) : -1;
            if (id < 0) pending_.push_back({card_path(row, index), bad_card_message(token)});
          }
        } else if (c == '-' || (c >= '0' && c <= '9')) {
          const char* start = p_;
          const bool integer = read_number();
          const std::string_view text(start, static_cast<std::size_t>(p_ - start));
          if (!integer) {
            shape_issue(card_path(row, index), kTypeMessage + printable_token(text) + ".");
          } else if (check) {
            const std::string_view digits = text[0] == '-' ? text.substr(1) : text;
            int value = -1;
            if (digits.size() <= 2) {
              value = 0;
              for (char d : digits) value = value * 10 + (d - '0');
              if (text[0] == '-' && value != 0) value = -1;
            }
            if (value >= 0 && value < kDeckSize) {
              id = value;
            } else {
              pending_.push_back({
                  card_path(row, index),
                  "not a card id: " + printable_token(text) + " (ids run from 0 = 2c to 51 = As)"});
            }
          }
        } else {
          const char* what = c == '{' ? "an object" : c == '[' ? "a list" : nullptr;
          const char* start = p_;
          skip_value();
          const std::string got =
              what != nullptr ? what
                              : std::string(start, static_cast<std::size_t>(p_ - start));
          shape_issue(card_path(row, index), kTypeMessage + got + ".");
        }
        if (index < width) {
          ids[index] = kNoCard;
          if (id >= 0) {
            const std::uint64_t bit = std::uint64_t{1} << id;
            if (mask & bit) {
              std::size_t first = 0;
              while (ids[first] != id) ++first;
              pending_.push_back({card_path(row, index), "Duplicate card " + format_card(id) +
                                                             " (also at " + card_path(row, first) +
                                                             ")."});
            } else {
              mask |= bit;
              ids[index] = static_cast<std::uint8_t>(id);
            }
          }
        }
        skip_space();
        const char next = peek();
        ++p_;
        if (next == ']') break;
        if (next != ',') {
          --p_;
          fail("expected ',' or ']'");
        }
      }
    }
    if (!keep) return;
    const bool allowed = count < 32 && ((options_.sizes >> count) & 1u) != 0;
    if (!allowed) {
      if (card_checks_)
        card_issue("hands/" + std::to_string(row), count_message(options_.sizes, count));
    } else {
      for (auto& issue : pending_) card_issue(std::move(issue.field), std::move(issue.message));
    }
    if (result_.shape_total == 0 && result_.card_total == 0) {
      const std::size_t at = result_.cards.size();
      result_.cards.resize(at + width, 0);
      for (std::size_t k = 0; k < count && k < width; ++k) result_.cards[at + k] = ids[k];
      result_.counts.push_back(static_cast<std::uint8_t>(count));
    }
  }
};

}  // namespace

std::string count_message(std::uint32_t sizes, std::size_t got) {
  std::vector<int> options;
  for (int k = 0; k < 32; ++k)
    if ((sizes >> k) & 1u) options.push_back(k);
  std::string wanted;
  for (std::size_t i = 0; i < options.size(); ++i) {
    if (i > 0) wanted += i + 1 == options.size() ? " or " : ", ";
    wanted += std::to_string(options[i]);
  }
  return "Expected " + wanted + " cards, got " + std::to_string(got) + ".";
}

Result read(std::string_view body, const Options& options) {
  if (options.width < 1 || options.width > 16)
    throw std::invalid_argument("batch_json: width must be 1..16");
  Result result;
  Reader reader(body, options, result);
  try {
    reader.run();
  } catch (const SyntaxError& error) {
    // Line and column as editors count them (column in bytes, from 1).
    std::size_t line = 1, column = 1;
    for (const char* q = body.data(); q < error.at; ++q) {
      if (*q == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    result = Result{};
    result.syntax_error = std::string(error.what) + " at line " + std::to_string(line) +
                          " column " + std::to_string(column);
  }
  return result;
}

std::string write_response(const std::int32_t* strengths, std::size_t n) {
  static constexpr std::string_view kHead = "{\"strengths\":[";
  static constexpr std::string_view kMiddle = "],\"categories\":[";
  static constexpr std::string_view kTail = "]}";
  std::string out;
  out.reserve(kHead.size() + kMiddle.size() + kTail.size() + n * 24);
  out += kHead;
  char digits[16];
  for (std::size_t i = 0; i < n; ++i) {
    const std::int32_t s = strengths[i];
    if (s < 1 || s > poker::kMaxStrength)
      throw std::invalid_argument("batch_json: not a strength: " + std::to_string(s));
    if (i > 0) out += ',';
    const auto done = std::to_chars(digits, digits + sizeof digits, s);
    out.append(digits, static_cast<std::size_t>(done.ptr - digits));
  }
  out += kMiddle;
  // Each category's quoted name once; a strength's category is the last start at or below.
  std::string quoted[9];
  int starts[10];
  for (int c = 0; c < 9; ++c) {
    quoted[c] = std::string("\"") + poker::category_name(static_cast<poker::Category>(c)) + "\"";
    starts[c] = poker::category_start(c);
  }
  starts[9] = poker::kMaxStrength + 1;
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) out += ',';
    int c = 0;
    while (strengths[i] >= starts[c + 1]) ++c;
    out += quoted[c];
  }
  out += kTail;
  return out;
}

}  // namespace capsa_fast::batch_json
