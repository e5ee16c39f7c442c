// The private extension module capsa_fast._core: one bind_<area> per file.
#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>

#include "capsa_fast/isa.hpp"

namespace py = pybind11;

namespace capsa_fast::bindings {
void bind_cards(py::module_& m);
void bind_poker(py::module_& m);
void bind_equity(py::module_& m);
void bind_banting(py::module_& m);
void bind_banting_game(py::module_& m);
void bind_banting_env(py::module_& m);
void bind_susun(py::module_& m);
void bind_batch_json(py::module_& m);
}  // namespace capsa_fast::bindings

PYBIND11_MODULE(_core, m) {
  m.doc() = "capsa_fast C++ core (private; use the capsa_fast package)";
  // A CAPSA_FAST_ISA the core cannot read stops the import, naming it (the core would
  // otherwise quietly run its portable loops only).
  if (const std::string error = capsa_fast::isa_setting_error(); !error.empty())
    throw std::invalid_argument(error);
  m.def("isa_cap", [] { return std::string(capsa_fast::isa_name(capsa_fast::isa_cap())); },
        "The highest instruction set CAPSA_FAST_ISA lets the core dispatch to.");
  capsa_fast::bindings::bind_cards(m);
  capsa_fast::bindings::bind_poker(m);
  capsa_fast::bindings::bind_equity(m);
  capsa_fast::bindings::bind_banting(m);
  capsa_fast::bindings::bind_banting_game(m);
  capsa_fast::bindings::bind_banting_env(m);
  capsa_fast::bindings::bind_susun(m);
  capsa_fast::bindings::bind_batch_json(m);
}
