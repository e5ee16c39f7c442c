#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "capsa_fast/cards.hpp"
#include "capsa_fast/poker.hpp"
#include "convert.hpp"

namespace py = pybind11;

namespace capsa_fast::bindings {
namespace {

using poker::Strength;

// One evaluated hand: the cards as given and their strength. The label and the best five
// are derived on demand so that a bare evaluation stays cheap.
struct HandValue {
  std::array<int, 7> cards{};
  int n = 0;
  Strength strength = 0;

  std::string category() const { return poker::category_name(poker::category_of(strength)); }
  int category_index() const { return static_cast<int>(poker::category_of(strength)); }
  std::string label() const { return poker::label(strength); }
  py::list best() const {
    std::array<int, 5> idx{};
    const int m = poker::best_five(cards.data(), n, idx);
    py::list out(static_cast<std::size_t>(m));
    for (int i = 0; i < m; ++i) out[static_cast<std::size_t>(i)] = cards[idx[i]];
    return out;
  }
  py::list card_list() const {
    py::list out(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) out[static_cast<std::size_t>(i)] = cards[i];
    return out;
  }
};

HandValue evaluate_cards(py::handle obj) {
  const std::vector<int> ids = cards_from(obj);
  const int n = static_cast<int>(ids.size());
  HandValue hv;
  hv.strength = poker::evaluate(ids.data(), n);  // throws on a wrong count
  std::copy(ids.begin(), ids.end(), hv.cards.begin());
  hv.n = n;
  return hv;
}

std::string row_problem(const std::vector<long long>& row) {
  std::uint64_t seen = 0;
  for (long long v : row) {
    if (v < 0 || v >= kDeckSize) {
      return "not a card id: " + std::to_string(v) + " (ids run from 0 = 2c to 51 = As)";
    }
    const std::uint64_t bit = std::uint64_t{1} << v;
    if (seen & bit) return "duplicate card: " + format_card(static_cast<int>(v));
    seen |= bit;
  }
  return "invalid row";
}

// Splits [0, n) into `threads` contiguous parts and runs f(begin, end) on each.
template <class F>
void parallel_rows(std::size_t n, int threads, F&& f) {
  const std::size_t parts = std::min<std::size_t>(static_cast<std::size_t>(threads),
                                                  std::max<std::size_t>(n / 65536, 1));
  if (parts <= 1) {
    f(std::size_t{0}, n);
    return;
  }
  std::vector<std::thread> pool;
  const std::size_t chunk = (n + parts - 1) / parts;
  for (std::size_t p = 1; p < parts; ++p) {
    const std::size_t b = p * chunk, e = std::min(n, b + chunk);
    if (b < e) pool.emplace_back([&f, b, e] { f(b, e); });
  }
  f(std::size_t{0}, std::min(n, chunk));
  for (auto& t : pool) t.join();
}

template <class T>
py::array_t<std::int32_t> batch_typed(const py::array& arr, bool validate, int threads) {
  const auto n = static_cast<std::size_t>(arr.shape(0));
  const int k = static_cast<int>(arr.shape(1));
  const auto rs = static_cast<std::ptrdiff_t>(arr.strides(0) / static_cast<py::ssize_t>(sizeof(T)));
  const auto cs = static_cast<std::ptrdiff_t>(arr.strides(1) / static_cast<py::ssize_t>(sizeof(T)));
  const T* data = static_cast<const T*>(arr.data());
  py::array_t<std::int32_t> out(static_cast<py::ssize_t>(n));
  std::int32_t* dst = out.mutable_data();
  std::atomic<bool> all_valid{true};
  {
    py::gil_scoped_release release;
    parallel_rows(n, threads, [&](std::size_t b, std::size_t e) {
      // Strengths are computed into a small buffer and widened to int32 for the caller.
      constexpr std::size_t kBlock = 4096;
      Strength buf[kBlock];
      bool ok = true;
      for (std::size_t i = b; i < e; i += kBlock) {
        const std::size_t m = std::min(kBlock, e - i);
        ok &= poker::evaluate_batch(data + static_cast<std::ptrdiff_t>(i) * rs, m, k, rs, cs,
                                    buf, validate);
        for (std::size_t j = 0; j < m; ++j) dst[i + j] = buf[j];
      }
      if (!ok) all_valid = false;
    });
  }
  if (!all_valid) {
    const std::size_t bad = poker::find_invalid_row(data, n, k, rs, cs);
    std::vector<long long> row(static_cast<std::size_t>(k));
    for (int j = 0; j < k; ++j) {
      row[static_cast<std::size_t>(j)] =
          static_cast<long long>(data[static_cast<std::ptrdiff_t>(bad) * rs + j * cs]);
    }
    throw std::invalid_argument("row " + std::to_string(bad) + ": " + row_problem(row));
  }
  return out;
}

py::array_t<std::int32_t> evaluate_batch(const py::array& arr, bool validate, int threads) {
  if (arr.ndim() != 2) {
    throw std::invalid_argument("hands must be a 2-D array [N, k], got " +
                                std::to_string(arr.ndim()) + " dimension(s)");
  }
  const auto k = arr.shape(1);
  if (k != 3 && k != 5 && k != 6 && k != 7) {
    throw std::invalid_argument("a poker hand has 3, 5, 6 or 7 cards, got rows of " +
                                std::to_string(k));
  }
  if (threads < 1) throw std::invalid_argument("threads must be at least 1");
  const py::dtype dt = arr.dtype();
  const char kind = dt.kind();
  if (kind != 'i' && kind != 'u') {
    throw std::invalid_argument("hands must be an integer array of card ids, got dtype " +
                                py::str(dt).cast<std::string>());
  }
  const bool is_signed = kind == 'i';
  switch (dt.itemsize()) {
    case 1: return is_signed ? batch_typed<std::int8_t>(arr, validate, threads)
                             : batch_typed<std::uint8_t>(arr, validate, threads);
    case 2: return is_signed ? batch_typed<std::int16_t>(arr, validate, threads)
                             : batch_typed<std::uint16_t>(arr, validate, threads);
    case 4: return is_signed ? batch_typed<std::int32_t>(arr, validate, threads)
                             : batch_typed<std::uint32_t>(arr, validate, threads);
    default: return is_signed ? batch_typed<std::int64_t>(arr, validate, threads)
                              : batch_typed<std::uint64_t>(arr, validate, threads);
  }
}

void check_strength(long s) {
  if (s < 1 || s > poker::kMaxStrength) {
    throw std::invalid_argument("not a strength: " + std::to_string(s) + " (valid: 1.." +
                                std::to_string(poker::kMaxStrength) + ")");
  }
}

}  // namespace

void bind_poker(py::module_& m) {
  py::class_<HandValue>(m, "HandValue", "A poker hand's value: category, strength, label.")
      .def_readonly("strength", &HandValue::strength,
                    "One integer, larger is stronger; 3/5/6/7-card hands share the scale.")
      .def_property_readonly("category", &HandValue::category)
      .def_property_readonly("category_index", &HandValue::category_index)
      .def_property_readonly("label", &HandValue::label)
      .def_property_readonly("best", &HandValue::best,
                             "Ids of the best five cards (a 3-card hand: its three).")
      .def_property_readonly("cards", &HandValue::card_list)
      .def("__eq__", [](const HandValue& a, const HandValue& b) { return a.strength == b.strength; })
      .def("__lt__", [](const HandValue& a, const HandValue& b) { return a.strength < b.strength; })
      .def("__le__", [](const HandValue& a, const HandValue& b) { return a.strength <= b.strength; })
      .def("__gt__", [](const HandValue& a, const HandValue& b) { return a.strength > b.strength; })
      .def("__ge__", [](const HandValue& a, const HandValue& b) { return a.strength >= b.strength; })
      .def("__hash__", [](const HandValue& a) { return static_cast<py::ssize_t>(a.strength); })
      .def("__repr__", [](const HandValue& h) {
        return "HandValue(category='" + h.category() + "', strength=" +
               std::to_string(h.strength) + ", label='" + h.label() + "')";
      });

  m.def("evaluate", &evaluate_cards, py::arg("cards"),
        "Evaluate 3, 5, 6 or 7 cards (ids or strings) in poker order.");
  m.def("evaluate_batch", &evaluate_batch, py::arg("hands"), py::arg("validate") = true,
        py::arg("threads") = 1);
  m.def(
      "strength_label",
      [](long s) {
        check_strength(s);
        return poker::label(static_cast<Strength>(s));
      },
      py::arg("strength"));
  m.def(
      "strength_category",
      [](long s) {
        check_strength(s);
        return std::string(poker::category_name(poker::category_of(static_cast<Strength>(s))));
      },
      py::arg("strength"));
  std::vector<int> starts;
  for (int c = 0; c <= poker::kNumCategories; ++c) starts.push_back(poker::category_start(c));
  m.attr("CATEGORY_STARTS") = py::tuple(py::cast(starts));
  std::vector<std::string> names;
  for (int c = 0; c < poker::kNumCategories; ++c)
    names.emplace_back(poker::category_name(static_cast<poker::Category>(c)));
  m.attr("CATEGORIES") = py::tuple(py::cast(names));
  m.attr("MAX_STRENGTH") = static_cast<int>(poker::kMaxStrength);
}

}  // namespace capsa_fast::bindings
