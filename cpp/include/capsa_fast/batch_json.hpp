// The body of the batch evaluation route, {"hands": [[card, ...], ...]}, read in one pass.
//
// A card is a string the card parser reads ("As", "10h", "a♠", escapes allowed) or an
// integer id 0..51. The reader checks the JSON syntax of the whole body, then the shape,
// then every card, and stores each hand's ids in a fixed-width row: its memory is bounded by
// the number of hands it is allowed to keep (`max_hands` rows of `width` bytes), never by
// what the body holds. Hands past `max_hands` are counted, not stored; a hand longer than
// `width` is counted, not stored. Problems come back as (field, message) pairs with field
// paths like "hands/3/1", the same words the Python layer uses for other routes.
//
// No Python here: the binding releases the GIL while it runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "capsa_fast/poker.hpp"

namespace capsa_fast::batch_json {

struct Options {
  std::size_t max_hands = 100000;  // more hands: one issue on "hands" (they are counted)
  std::size_t max_issues = 50;     // issues kept; past this the checks stop (syntax goes on)
  std::uint32_t sizes = (1u << 3) | (1u << 5) | (1u << 6) | (1u << 7);  // allowed counts
  int width = 7;                                                        // row width, <= 16
};

struct Issue {
  std::string field;    // "hands/3/1"; "" is the whole body
  std::string message;  // ends with a full stop, names the bad value
};

struct Result {
  // Non-empty: the body is not JSON (an HTTP 400); nothing else is meaningful then.
  std::string syntax_error;
  std::size_t hands = 0;  // hands in the body, also those past max_hands
  // Shape and type problems (not an object, unknown field, a card that is neither string
  // nor integer, ...). When there are any, they are the only issues reported.
  std::vector<Issue> shape_issues;
  std::size_t shape_total = 0;
  // Card problems (not a card, id out of range, repeated card, wrong number of cards).
  std::vector<Issue> card_issues;
  std::size_t card_total = 0;
  // hands x width ids and each hand's count; complete only when there are no issues and
  // hands <= max_hands.
  std::vector<std::uint8_t> cards;
  std::vector<std::uint8_t> counts;
};

// Reads `body`. Never throws for bad input (std::bad_alloc aside); the work is linear in
// the body's size and the memory bounded as said above.
Result read(std::string_view body, const Options& options);

// "Expected 3, 5, 6 or 7 cards, got 4." for the allowed sizes (bits) and the count seen.
std::string count_message(std::uint32_t sizes, std::size_t got);

// The JSON answer {"strengths":[...],"categories":[...]} for `n` strengths (each a valid
// strength, 1..kMaxStrength, as the batch evaluator returns them).
std::string write_response(const std::int32_t* strengths, std::size_t n);

}  // namespace capsa_fast::batch_json
