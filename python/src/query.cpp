// SPDX-License-Identifier: MIT
// Bindings of the query layer (runtime shapes, one dispatch per query, then the templated GJK /
// EPA kernels): distance (optionally warm-started), intersect, penetration, and the cached pair.
#include "common.hpp"

#include <proxima/gjk/pair.hpp>
#include <proxima/query/query.hpp>

namespace proxima::python {

using namespace pybind11::literals;

void bind_query(py::module_& m) {
  py::class_<gjk::WarmStart>(m, "WarmStart",
                             "GJK warm-start state for one pair (gjk::WarmStart): pass the same object to\n"
                             "successive distance() calls on the same two shapes. Starts cold.")
      .def(py::init<>(), "A cold warm start.")
      .def_readonly("size", &gjk::WarmStart::size, "Number of simplex points kept (0 = cold).")
      .def("reset", &gjk::WarmStart::reset, "Forgets everything (the next query starts cold).");

  m.def("distance",
        [](const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, const std::optional<gjk::GjkOptions>& o,
           gjk::WarmStart* warm) {
          const gjk::GjkOptions options = o.value_or(gjk::GjkOptions{});
          const py::gil_scoped_release release;
          if (warm != nullptr) return query::distance(a.get(), pa, b.get(), pb, options, *warm);
          return query::distance(a.get(), pa, b.get(), pb, options);
        },
        "a"_a, "pose_a"_a, "b"_a, "pose_b"_a, "options"_a = std::nullopt, "warm"_a = nullptr,
        "GJK distance between a at pose_a and b at pose_b (query::distance): DistanceResult, world frame.\n"
        "warm: a WarmStart to start from and update (keep one per pair for coherent motion).");
  m.def("intersect",
        [](const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, const std::optional<gjk::GjkOptions>& o) {
          const gjk::GjkOptions options = o.value_or(gjk::GjkOptions{});
          const py::gil_scoped_release release;
          return query::intersect(a.get(), pa, b.get(), pb, options);
        },
        "a"_a, "pose_a"_a, "b"_a, "pose_b"_a, "options"_a = std::nullopt,
        "GJK overlap test with a separating-axis certificate (query::intersect): IntersectResult.");
  m.def("penetration",
        [](const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, const std::optional<gjk::EpaOptions>& o) {
          const gjk::EpaOptions options = o.value_or(gjk::EpaOptions{});
          const py::gil_scoped_release release;
          return query::penetration(a.get(), pa, b.get(), pb, options);
        },
        "a"_a, "pose_a"_a, "b"_a, "pose_b"_a, "options"_a = std::nullopt,
        "GJK + EPA penetration depth (query::penetration): PenetrationResult (translating b by\n"
        "depth * normal separates them).");

  // ---- pair --------------------------------------------------------------------------------------
  using PairT = gjk::Pair<AnyConvex, AnyConvex>;
  py::class_<PairT>(m, "Pair",
                    "Two shapes with poses, caching answers and warm-starting GJK between queries (gjk::Pair).\n"
                    "Not thread-safe: one pair per thread.")
      .def(py::init([](const Shape& a, const Shape& b, const Pose& pa, const Pose& pb) {
             return std::make_unique<PairT>(a.get(), b.get(), pa, pb);
           }),
           "a"_a, "b"_a, "pose_a"_a = Pose(), "pose_b"_a = Pose(), "A pair of shapes at the given poses.")
      .def("collide", &PairT::collide, py::call_guard<py::gil_scoped_release>(), "Overlap test: IntersectResult.")
      .def("distance", &PairT::distance, py::call_guard<py::gil_scoped_release>(), "Distance: DistanceResult.")
      .def("penetration", &PairT::penetration, py::call_guard<py::gil_scoped_release>(),
           "Penetration: PenetrationResult.")
      .def("set_pose_a", &PairT::set_pose_a, "pose"_a, "Moves A (the warm start survives).")
      .def("set_pose_b", &PairT::set_pose_b, "pose"_a, "Moves B (the warm start survives).")
      .def("set_poses", &PairT::set_poses, "pose_a"_a, "pose_b"_a, "Moves both.")
      .def("set_shape_a", [](PairT& p, const Shape& s) { p.set_shape_a(s.get()); }, "shape"_a,
           "Replaces A (drops answers and the warm start).")
      .def("set_shape_b", [](PairT& p, const Shape& s) { p.set_shape_b(s.get()); }, "shape"_a,
           "Replaces B (drops answers and the warm start).")
      .def("reset_warm_start", &PairT::reset_warm_start, "Forgets the warm start.")
      .def_property_readonly("pose_a", &PairT::pose_a, "The pose of A.")
      .def_property_readonly("pose_b", &PairT::pose_b, "The pose of B.");

}

}  // namespace proxima::python
