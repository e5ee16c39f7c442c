// The private extension module capsa_fast._core: one bind_<area> per file.
#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace capsa_fast::bindings {
void bind_cards(py::module_& m);
void bind_poker(py::module_& m);
void bind_banting(py::module_& m);
void bind_banting_game(py::module_& m);
void bind_susun(py::module_& m);
void bind_batch_json(py::module_& m);
}  // namespace capsa_fast::bindings

PYBIND11_MODULE(_core, m) {
  m.doc() = "capsa_fast C++ core (private; use the capsa_fast package)";
  capsa_fast::bindings::bind_cards(m);
  capsa_fast::bindings::bind_poker(m);
  capsa_fast::bindings::bind_banting(m);
  capsa_fast::bindings::bind_banting_game(m);
  capsa_fast::bindings::bind_susun(m);
  capsa_fast::bindings::bind_batch_json(m);
}
