// Conversions shared by the binding files: Python card input -> ids.
#pragma once

#include <pybind11/pybind11.h>

#include <vector>

namespace capsa_fast::bindings {

// Cards from a string ("As Kd 10h") or a sequence of card strings and/or integer ids.
// Raises ValueError naming the first bad item or duplicate card.
std::vector<int> cards_from(pybind11::handle obj);

}  // namespace capsa_fast::bindings
