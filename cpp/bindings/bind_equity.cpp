// Hold'em equity (capsa_fast/equity.hpp): ranges parsed in C++, the engine run with the
// GIL released (it starts its own threads).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "capsa_fast/cards.hpp"
#include "capsa_fast/equity.hpp"
#include "convert.hpp"

namespace py = pybind11;

namespace capsa_fast::bindings {
namespace {

// A player: range text, or a hand given as cards (a list of ids or card strings).
equity::Range range_from(py::handle player, std::size_t index) {
  try {
    if (PyUnicode_Check(player.ptr())) return equity::parse_range(player.cast<std::string>());
    const std::vector<int> cards = cards_from(player);
    if (cards.size() != 2) {
      throw std::invalid_argument("a hand has 2 cards, got " + std::to_string(cards.size()));
    }
    equity::Range r;
    r.combos.push_back(static_cast<std::uint16_t>(equity::combo_index(cards[0], cards[1])));
    r.weights.push_back(1.0);
    return r;
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("player " + std::to_string(index) + ": " + e.what());
  }
}

equity::Options options_from(int method, std::uint64_t samples, double target_stderr,
                             double max_exact_work, double time_limit, int threads,
                             std::uint64_t seed, double exact_work_cap) {
  if (method < 0 || method > 2) throw std::invalid_argument("method is 0 (auto), 1 (exact) or 2 (Monte Carlo)");
  equity::Options o;
  o.method = static_cast<equity::Method>(method);
  o.samples = samples;
  if (!(target_stderr > 0)) throw std::invalid_argument("target_stderr must be above 0");
  o.target_stderr = target_stderr;
  o.max_exact_work = max_exact_work;
  o.time_limit = time_limit;
  if (threads < 1) throw std::invalid_argument("threads must be at least 1");
  o.threads = threads;
  o.seed = seed;
  o.exact_work_cap = exact_work_cap;
  return o;
}

py::dict equity_call(const py::list& players, py::handle board, py::handle dead, int method,
                     std::uint64_t samples, double target_stderr, double max_exact_work,
                     double time_limit, int threads, std::uint64_t seed, double exact_work_cap) {
  std::vector<equity::Range> ranges;
  for (std::size_t i = 0; i < players.size(); ++i) ranges.push_back(range_from(players[i], i));
  const std::vector<int> b = cards_from(board), d = cards_from(dead);
  const equity::Options o = options_from(method, samples, target_stderr, max_exact_work, time_limit, threads, seed, exact_work_cap);
  equity::Result r;
  {
    py::gil_scoped_release release;
    r = equity::equity(ranges, b, d, o);
  }
  py::dict out;
  out["equity"] = r.equity;
  out["win"] = r.win;
  out["tie"] = r.tie;
  out["stderr_each"] = r.stderr_each;
  out["stderr"] = r.stderr_max;
  out["exact"] = r.exact;
  out["showdowns"] = r.showdowns;
  out["samples"] = r.samples;
  out["method"] = r.method;
  return out;
}

py::dict table_call(py::handle villain, py::handle board, py::handle dead, int method,
                    std::uint64_t samples, double target_stderr, double max_exact_work,
                    double time_limit, int threads, std::uint64_t seed, double exact_work_cap) {
  const equity::Range range = range_from(villain, 1);
  const std::vector<int> b = cards_from(board), d = cards_from(dead);
  const equity::Options o = options_from(method, samples, target_stderr, max_exact_work, time_limit, threads, seed, exact_work_cap);
  equity::TableResult r;
  {
    py::gil_scoped_release release;
    r = equity::equity_table(range, b, d, o);
  }
  const auto arr = [](const std::vector<double>& v) { return py::array_t<double>(static_cast<py::ssize_t>(v.size()), v.data()); };
  py::dict out;
  out["equity"] = arr(r.equity);
  out["win"] = arr(r.win);
  out["tie"] = arr(r.tie);
  out["weight"] = arr(r.weight);
  out["stderr"] = arr(r.stderr_each);
  out["exact"] = r.exact;
  out["showdowns"] = r.showdowns;
  out["samples"] = r.samples;
  out["method"] = r.method;
  return out;
}

}  // namespace

void bind_equity(py::module_& m) {
  m.def("equity", &equity_call, py::arg("players"), py::arg("board"), py::arg("dead"),
        py::arg("method"), py::arg("samples"), py::arg("target_stderr"), py::arg("max_exact_work"),
        py::arg("time_limit"), py::arg("threads"), py::arg("seed"), py::arg("exact_work_cap") = 0.0);
  m.def("equity_table", &table_call, py::arg("villain"), py::arg("board"), py::arg("dead"),
        py::arg("method"), py::arg("samples"), py::arg("target_stderr"), py::arg("max_exact_work"),
        py::arg("time_limit"), py::arg("threads"), py::arg("seed"), py::arg("exact_work_cap") = 0.0);
  m.def(
      "parse_range",
      [](const std::string& text) {
        const equity::Range r = equity::parse_range(text);
        std::vector<int> combos(r.combos.begin(), r.combos.end());
        return py::make_tuple(combos, r.weights);
      },
      py::arg("text"));
  std::vector<std::string> combo_names, class_names;
  std::vector<int> combo_class;
  for (int c = 0; c < equity::kNumCombos; ++c) {
    combo_names.push_back(equity::combo_text(c));
    combo_class.push_back(equity::class_of_combo(c));
  }
  for (int k = 0; k < equity::kNumClasses; ++k) class_names.push_back(equity::class_name(k));
  m.attr("COMBO_NAMES") = py::tuple(py::cast(combo_names));
  m.attr("CLASS_NAMES") = py::tuple(py::cast(class_names));
  m.attr("COMBO_CLASS") = py::tuple(py::cast(combo_class));
}

}  // namespace capsa_fast::bindings
