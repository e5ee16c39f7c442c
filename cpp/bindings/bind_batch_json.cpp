// The batch route's body reader and answer writer (capsa_fast/batch_json.hpp), for the API.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstring>
#include <string>
#include <string_view>

#include "capsa_fast/batch_json.hpp"

namespace py = pybind11;

namespace capsa_fast::bindings {

namespace {

py::list issue_list(const std::vector<batch_json::Issue>& issues) {
  py::list out;
  for (const auto& issue : issues) out.append(py::make_tuple(issue.field, issue.message));
  return out;
}

// (syntax_error or None, issues [(field, message)], issue_total, hands, cards [n, width]
// uint8, counts [n] uint8). Issues are the shape ones when there are any, else the card
// ones; cards and counts are filled only when the body has no issue.
py::tuple read_batch_json(const py::buffer& body, std::size_t max_hands, std::size_t max_issues,
                          std::uint32_t sizes, int width) {
  const py::buffer_info info = body.request();
  if (info.ndim != 1 || info.itemsize != 1 || info.strides[0] != 1)
    throw std::invalid_argument("read_batch_json: the body must be contiguous bytes");
  const std::string_view text(static_cast<const char*>(info.ptr),
                              static_cast<std::size_t>(info.size));
  batch_json::Options options;
  options.max_hands = max_hands;
  options.max_issues = max_issues;
  options.sizes = sizes;
  options.width = width;
  batch_json::Result result;
  {
    py::gil_scoped_release release;
    result = batch_json::read(text, options);
  }
  if (!result.syntax_error.empty())
    return py::make_tuple(result.syntax_error, py::list(), 0, 0, py::none(), py::none());
  const bool shape = result.shape_total > 0;
  const auto& issues = shape ? result.shape_issues : result.card_issues;
  const std::size_t total = shape ? result.shape_total : result.card_total;
  const auto n = static_cast<py::ssize_t>(result.counts.size());
  py::array_t<std::uint8_t> cards({n, static_cast<py::ssize_t>(width)});
  py::array_t<std::uint8_t> counts(n);
  if (n > 0) {
    std::memcpy(cards.mutable_data(), result.cards.data(), result.cards.size());
    std::memcpy(counts.mutable_data(), result.counts.data(), result.counts.size());
  }
  return py::make_tuple(py::none(), issue_list(issues), total, result.hands, cards, counts);
}

py::bytes write_batch_response(const py::array_t<std::int32_t, py::array::c_style>& strengths) {
  if (strengths.ndim() != 1) throw std::invalid_argument("strengths must be one-dimensional");
  std::string text;
  {
    py::gil_scoped_release release;
    text = batch_json::write_response(strengths.data(), static_cast<std::size_t>(strengths.size()));
  }
  return py::bytes(text);
}

}  // namespace

void bind_batch_json(py::module_& m) {
  m.def("read_batch_json", &read_batch_json, py::arg("body"), py::arg("max_hands"),
        py::arg("max_issues"), py::arg("sizes"), py::arg("width"),
        "Read a batch body {\"hands\": [[card, ...], ...]} in one pass (GIL released).");
  m.def("write_batch_response", &write_batch_response, py::arg("strengths"),
        "The batch answer {\"strengths\": [...], \"categories\": [...]} as JSON bytes.");
}

}  // namespace capsa_fast::bindings
