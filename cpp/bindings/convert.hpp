// Conversions shared by the binding files: Python card input -> ids.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <vector>

namespace capsa_fast::bindings {

// Cards from a string ("As Kd 10h") or a sequence of card strings and/or integer ids.
// Raises ValueError naming the first bad item or duplicate card.
std::vector<int> cards_from(pybind11::handle obj);

// Card ids (already checked) as a 52-bit mask, bit = id.
inline std::uint64_t card_mask(const std::vector<int>& ids) {
  std::uint64_t m = 0;
  for (int c : ids) m |= std::uint64_t{1} << c;
  return m;
}

}  // namespace capsa_fast::bindings
