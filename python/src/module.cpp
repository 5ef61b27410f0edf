// SPDX-License-Identifier: MIT
// The compiled part of the `proxima` Python package (_proxima). One binding file per layer
// (common.hpp lists them); this file only registers the exception and calls them in dependency
// order (a type must be registered before a default argument or a signature uses it).
#include "common.hpp"

PYBIND11_MODULE(_proxima, m) {
  using namespace proxima::python;  // NOLINT
  m.doc() = "proxima: proximity queries and collision detection (compiled core).";
  py::register_exception<proxima::InvalidInput>(m, "InvalidInput", PyExc_ValueError);
  bind_core(m);
  bind_shapes(m);
  bind_query(m);
  bind_lp(m);
  bind_mesh(m);
  bind_ipm(m);
  bind_ccd(m);
  bind_batch(m);
}
