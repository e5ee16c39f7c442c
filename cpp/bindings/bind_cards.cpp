#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <stdexcept>
#include <string>

#include "capsa_fast/cards.hpp"
#include "convert.hpp"

namespace py = pybind11;

namespace capsa_fast::bindings {

namespace {

// The repr of a bad item, for a message: shortened at a character boundary.
std::string describe_item(py::handle item) {
  return printable_token(py::repr(item).cast<std::string>());
}

int card_from_item(py::handle item) {
  if (PyUnicode_Check(item.ptr())) {
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(item.ptr(), &size);
    if (data == nullptr) throw py::error_already_set();
    const std::string_view token(data, static_cast<std::size_t>(size));
    const int id = parse_card(token);
    if (id < 0) throw std::invalid_argument(bad_card_message(token));
    return id;
  }
  // Integer ids, including numpy integers; bool is an int subclass but never a card.
  if (!PyBool_Check(item.ptr()) && PyIndex_Check(item.ptr())) {
    // OverflowError rather than clamping, so 2**70 is named as itself, not as 2**63 - 1.
    const Py_ssize_t v = PyNumber_AsSsize_t(item.ptr(), PyExc_OverflowError);
    if (v == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      throw std::invalid_argument("not a card id: " + describe_item(item));
    }
    if (v < 0 || v >= kDeckSize) {
      throw std::invalid_argument("not a card id: " + std::to_string(v) +
                                  " (ids run from 0 = 2c to 51 = As)");
    }
    return static_cast<int>(v);
  }
  throw std::invalid_argument("a card is a string like 'As' or an id 0..51, got " +
                              describe_item(item));
}

}  // namespace

std::vector<int> cards_from(py::handle obj) {
  if (PyUnicode_Check(obj.ptr())) {
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(obj.ptr(), &size);
    if (data == nullptr) throw py::error_already_set();
    return parse_cards(std::string_view(data, static_cast<std::size_t>(size)));
  }
  std::vector<int> out;
  if (PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr())) {
    // The hot path of per-hand calls: no iterator objects.
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(obj.ptr());
    PyObject** items = PySequence_Fast_ITEMS(obj.ptr());
    out.reserve(static_cast<std::size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i) out.push_back(card_from_item(items[i]));
  } else if (py::isinstance<py::iterable>(obj) && !PyBytes_Check(obj.ptr())) {
    for (py::handle item : py::reinterpret_borrow<py::iterable>(obj))
      out.push_back(card_from_item(item));
  } else {
    throw std::invalid_argument(
        "cards must be a string like 'As Kd' or a sequence of cards, got " +
        describe_item(obj));
  }
  check_distinct(out.data(), static_cast<int>(out.size()));
  return out;
}

void bind_cards(py::module_& m) {
  m.def("parse_cards", &cards_from, py::arg("cards"),
        "Card ids from a string ('As Kd 10h 3\u2666') or a sequence of strings/ids.");
  m.def(
      "card_id",
      [](py::handle token) {
        if (!PyUnicode_Check(token.ptr()) && !PyIndex_Check(token.ptr())) {
          throw std::invalid_argument("a card is a string like 'As' or an id 0..51, got " +
                                      describe_item(token));
        }
        return card_from_item(token);
      },
      py::arg("card"), "The id of one card given as a string ('Ts', '10s') or an id.");
  m.def(
      "format_cards",
      [](py::handle obj) {
        const std::vector<int> ids = cards_from(obj);
        py::list out(ids.size());
        for (std::size_t i = 0; i < ids.size(); ++i) out[i] = py::str(format_card(ids[i]));
        return out;
      },
      py::arg("cards"), "Canonical strings ('As', 'Td') for card ids.");
}

}  // namespace capsa_fast::bindings
