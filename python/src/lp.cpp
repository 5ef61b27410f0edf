// SPDX-License-Identifier: MIT
// Bindings of the lp layer (n-dimensional point sets, simplex method with certificates). Points
// are ROWS of a (k, n) array in Python (the numpy habit) and columns in C++.
#include "common.hpp"

#include <proxima/lp/contains.hpp>
#include <proxima/lp/distance.hpp>
#include <proxima/lp/intersect.hpp>

namespace proxima::python {

using namespace pybind11::literals;

namespace {

// Points given as rows (k x n, the numpy habit) -> columns (n x k, the lp layer's layout).
Eigen::MatrixXd columns(const Eigen::MatrixXd& rows) { return rows.transpose(); }

lp::DistanceNorm norm_from(const std::string& norm) {
  if (norm == "l1") return lp::DistanceNorm::l1;
  if (norm == "linf") return lp::DistanceNorm::linf;
  throw InvalidInput("norm", "must be \"l1\" or \"linf\", got \"" + norm + "\"");
}

}  // namespace

void bind_lp(py::module_& m) {
  // ---- lp ----------------------------------------------------------------------------------------
  py::class_<lp::LpIntersectResult>(m, "LpIntersectResult", "Does conv(A) meet conv(B)? With its certificate.")
      .def_readonly("intersect", &lp::LpIntersectResult::intersect)
      .def_readonly("common_point", &lp::LpIntersectResult::common_point)
      .def_readonly("weights_a", &lp::LpIntersectResult::weights_a)
      .def_readonly("weights_b", &lp::LpIntersectResult::weights_b)
      .def_readonly("residual", &lp::LpIntersectResult::residual)
      .def_readonly("separating_normal", &lp::LpIntersectResult::separating_normal)
      .def_readonly("separating_offset", &lp::LpIntersectResult::separating_offset)
      .def_readonly("margin", &lp::LpIntersectResult::margin)
      .def_readonly("iterations", &lp::LpIntersectResult::iterations)
      .def_readonly("converged", &lp::LpIntersectResult::converged)
      .def_readonly("status", &lp::LpIntersectResult::status)
      .def_readonly("detail", &lp::LpIntersectResult::detail);
  py::class_<lp::LpContainsResult>(m, "LpContainsResult", "Is conv(A) inside conv(B)? With its certificate.")
      .def_readonly("contains", &lp::LpContainsResult::contains)
      .def_readonly("outside_vertex", &lp::LpContainsResult::outside_vertex)
      .def_readonly("separating_normal", &lp::LpContainsResult::separating_normal)
      .def_readonly("separating_offset", &lp::LpContainsResult::separating_offset)
      .def_readonly("margin", &lp::LpContainsResult::margin)
      .def_readonly("points_checked", &lp::LpContainsResult::points_checked)
      .def_readonly("iterations", &lp::LpContainsResult::iterations)
      .def_readonly("converged", &lp::LpContainsResult::converged)
      .def_readonly("status", &lp::LpContainsResult::status)
      .def_readonly("detail", &lp::LpContainsResult::detail);
  py::class_<lp::LpDistanceResult>(m, "LpDistanceResult", "1-norm or inf-norm distance of two point hulls.")
      .def_readonly("distance", &lp::LpDistanceResult::distance)
      .def_readonly("lower_bound", &lp::LpDistanceResult::lower_bound)
      .def_readonly("point_a", &lp::LpDistanceResult::point_a)
      .def_readonly("point_b", &lp::LpDistanceResult::point_b)
      .def_readonly("weights_a", &lp::LpDistanceResult::weights_a)
      .def_readonly("weights_b", &lp::LpDistanceResult::weights_b)
      .def_readonly("dual_direction", &lp::LpDistanceResult::dual_direction)
      .def_readonly("iterations", &lp::LpDistanceResult::iterations)
      .def_readonly("converged", &lp::LpDistanceResult::converged)
      .def_readonly("status", &lp::LpDistanceResult::status)
      .def_readonly("detail", &lp::LpDistanceResult::detail);
  m.def("lp_intersect",
        [](const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
          const Eigen::MatrixXd ca = columns(a), cb = columns(b);
          const py::gil_scoped_release release;
          return lp::intersect(ca, cb);
        },
        "points_a"_a, "points_b"_a,
        "Does conv(points_a) meet conv(points_b)? Points are ROWS (k, n), any dimension n (n-D LP).");
  m.def("lp_contains",
        [](const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
          const Eigen::MatrixXd ca = columns(a), cb = columns(b);
          const py::gil_scoped_release release;
          return lp::contains(ca, cb);
        },
        "points_a"_a, "points_b"_a, "Is conv(points_a) inside conv(points_b)? Points are rows (k, n).");
  m.def("lp_distance",
        [](const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, const std::string& norm) {
          const Eigen::MatrixXd ca = columns(a), cb = columns(b);
          const lp::DistanceNorm nn = norm_from(norm);
          const py::gil_scoped_release release;
          return lp::distance(ca, cb, nn);
        },
        "points_a"_a, "points_b"_a, "norm"_a = "l1",
        "Distance between conv(points_a) and conv(points_b) in the 1-norm ('l1') or inf-norm ('linf').");

  m.def("lp_point_inside",
        [](const Eigen::VectorXd& p, const Eigen::MatrixXd& b) {
          const Eigen::MatrixXd cb = columns(b);
          const py::gil_scoped_release release;
          lp::LpWorkspace workspace;
          return lp::point_inside(p, cb, workspace);
        },
        "point"_a, "points_b"_a,
        "Is `point` (n,) in conv(points_b) (rows (k, n))? An LpIntersectResult: weights_b give the\n"
        "point as a convex combination when inside, separating_normal/offset certify it outside.");
}

}  // namespace proxima::python
