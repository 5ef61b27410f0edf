// SPDX-License-Identifier: MIT
// Bindings of the ccd layer (submodule proxima.ccd): screw motions (decomposition, relative
// motion, interpolation), the collision screen, screw_collisions on meshes with every collision
// as a record and as a structured numpy array, and the convex time of impact under translation
// and under a screw motion.
#include "common.hpp"

#include <proxima/batch/toi.hpp>
#include <proxima/ccd/collision_screen.hpp>
#include <proxima/ccd/screw.hpp>
#include <proxima/ccd/screw_collisions.hpp>
#include <proxima/ccd/toi.hpp>

#include <cstddef>
#include <cstring>

namespace proxima::python {

using namespace pybind11::literals;

namespace {

// One collision as written into the structured array (numpy reads it by the field offsets).
struct CollisionRecord {
  char type[2];
  std::int32_t vertex, face, edge_a, edge_b;
  double time;
  double point[3];
  double normal[3];
  double properness;
};

py::dtype collision_dtype() {
  const py::list names = py::cast(std::vector<std::string>{"type", "vertex", "face", "edge_a", "edge_b", "time",
                                                            "point", "normal", "properness"});
  const py::list formats =
      py::cast(std::vector<std::string>{"S2", "<i4", "<i4", "<i4", "<i4", "<f8", "(3,)<f8", "(3,)<f8", "<f8"});
  const py::list offsets = py::cast(std::vector<std::size_t>{
      offsetof(CollisionRecord, type), offsetof(CollisionRecord, vertex), offsetof(CollisionRecord, face),
      offsetof(CollisionRecord, edge_a), offsetof(CollisionRecord, edge_b), offsetof(CollisionRecord, time),
      offsetof(CollisionRecord, point), offsetof(CollisionRecord, normal), offsetof(CollisionRecord, properness)});
  return py::dtype(names, formats, offsets, static_cast<py::ssize_t>(sizeof(CollisionRecord)));
}

py::array collisions_array(const std::vector<ccd::Collision>& collisions) {
  const py::dtype dtype = collision_dtype();
  py::array out(dtype, std::vector<py::ssize_t>{static_cast<py::ssize_t>(collisions.size())});
  auto* records = static_cast<CollisionRecord*>(out.mutable_data());
  for (std::size_t i = 0; i < collisions.size(); ++i) {
    const ccd::Collision& c = collisions[i];
    CollisionRecord r{};
    const std::string_view name = ccd::to_string(c.type);
    std::memcpy(r.type, name.data(), std::min<std::size_t>(name.size(), 2));
    r.vertex = c.vertex;
    r.face = c.face;
    r.edge_a = c.edge_a;
    r.edge_b = c.edge_b;
    r.time = c.time;
    for (int k = 0; k < 3; ++k) r.point[k] = c.point[k], r.normal[k] = c.normal[k];
    r.properness = c.properness;
    std::memcpy(&records[i], &r, sizeof r);
  }
  return out;
}

}  // namespace

void bind_ccd(py::module_& parent) {
  py::module_ m = parent.def_submodule(
      "ccd", "Continuous collision (seed 004 and conservative advancement): screw motions, every collision of\n"
             "two meshes under a screw motion, and the first contact time of convex shapes.");

  // ---- screw motions -----------------------------------------------------------------------------
  py::class_<ccd::Screw>(m, "Screw",
                         "Screw motion Omega(s), s in [0, 1]: rotation by s * angle about the unit axis through\n"
                         "axis_point plus a glide s * glide along it (seed 004 section 4).")
      .def(py::init([](const Vec3& axis_point, const Vec3& axis, double angle, double glide) {
             require_finite("axis_point", axis_point);
             require_finite("axis", axis);
             require_finite("angle", angle);
             require_finite("glide", glide);
             if (!(axis.norm() > 0)) throw InvalidInput("axis", "must be non-zero");
             return ccd::Screw{axis_point, axis.normalized(), angle, glide};
           }),
           "axis_point"_a = Vec3(Vec3::Zero()), "axis"_a = Vec3(Vec3::UnitX()), "angle"_a = 0.0, "glide"_a = 0.0,
           "A screw motion (the axis is normalised).")
      .def_readonly("axis_point", &ccd::Screw::axis_point, "u: the axis point closest to the frame origin.")
      .def_readonly("axis", &ccd::Screw::axis, "v: unit axis direction.")
      .def_readonly("angle", &ccd::Screw::angle, "theta: rotation over the whole step (radians).")
      .def_readonly("glide", &ccd::Screw::glide, "g: translation along the axis over the whole step.")
      .def_property_readonly("is_translation", &ccd::Screw::is_translation, "True when angle == 0.")
      .def("apply", &ccd::Screw::apply, "x"_a, "s"_a, "Omega(s) x.")
      .def("rotate", &ccd::Screw::rotate, "d"_a, "s"_a, "R(s theta) d: a direction carried by the motion.")
      .def("velocity", &ccd::Screw::velocity, "x"_a, "s"_a, "d/ds Omega(s) x (seed 004 eq. 3).")
      .def("axis_distance", &ccd::Screw::axis_distance, "x"_a, "Distance of x from the axis.")
      .def("speed", &ccd::Screw::speed, "axis_distance"_a, "|d/ds Omega(s) x| at that axis distance.")
      .def("inverse", &ccd::Screw::inverse, "The inverse motion.")
      .def("pose", &ccd::Screw::pose, "s"_a, "Omega(s) as a Pose.")
      .def("__repr__", [](const ccd::Screw& s) {
        return "Screw(axis_point=" + vec_repr(s.axis_point) + ", axis=" + vec_repr(s.axis) +
               ", angle=" + format_number(s.angle) + ", glide=" + format_number(s.glide) + ")";
      });
  m.def("decompose", &ccd::decompose, "omega"_a, "pi_margin"_a = kScrewPiMargin,
        "The screw decomposition of a rigid transform (seed 004 section 4.1); ValueError naming rotation\n"
        "when its angle is within pi_margin of pi.");
  m.def("relative_motion", &ccd::relative_motion, "a_start"_a, "a_end"_a, "b_start"_a, "b_end"_a,
        "The relative motion of B seen from A: M_f^-1 N_f N_i^-1 M_i (seed 004 eq. 1).");
  m.def("interpolate", &ccd::interpolate, "start"_a, "end"_a, "s"_a,
        "Pose at s in [0, 1] of a body moving from start to end by its own screw motion.");
  m.def("glide_error_estimate", &ccd::glide_error_estimate, "theta"_a,
        "Seed 004 eq. 5: relative error (1 - cos(theta/2)) / theta of taking a rotation as a screw.");

  py::class_<ccd::ScreenPoint>(m, "ScreenPoint", "Collision-screen coordinates (r, h), screen time t and azimuth phi.")
      .def_readonly("r", &ccd::ScreenPoint::r)
      .def_readonly("h", &ccd::ScreenPoint::h)
      .def_readonly("t", &ccd::ScreenPoint::t)
      .def_readonly("phi", &ccd::ScreenPoint::phi);
  py::class_<ccd::CollisionScreen>(m, "CollisionScreen", "The collision screen of a screw motion (seed 004 sections 7-8).")
      .def("project", &ccd::CollisionScreen::project, "x"_a, "doppel"_a = false,
           "Screen coordinates of a point in the screw's frame (doppel: azimuth one turn higher).")
      .def("needs_doppel", &ccd::CollisionScreen::needs_doppel, "x"_a,
           "True when the fixed body's point x needs the doppeled projection.");
  m.def("make_collision_screen", &ccd::make_collision_screen, "screw"_a, "facing"_a,
        "The screen of a screw motion with azimuth 0 towards `facing`.");

  // ---- screw_collisions --------------------------------------------------------------------------
  py::enum_<ccd::CollisionType>(m, "CollisionType", "VF: vertex of A on face of B; FV: face of A, vertex of B; EE.")
      .value("vf", ccd::CollisionType::vf)
      .value("fv", ccd::CollisionType::fv)
      .value("ee", ccd::CollisionType::ee);
  py::enum_<ccd::ScrewMethod>(m, "ScrewMethod", "Which screw_collisions algorithm answers.")
      .value("exact", ccd::ScrewMethod::exact)
      .value("raster", ccd::ScrewMethod::raster);

  py::class_<ccd::ScrewOptions>(m, "ScrewOptions",
                                "Options of screw_collisions (ccd::ScrewOptions); ScrewOptions(first_contact_only=True).")
      .def(py::init([](const py::kwargs& kwargs) {
             py::object self = py::cast(ccd::ScrewOptions{});
             set_from_kwargs(self, kwargs, "ScrewOptions");
             return self.cast<ccd::ScrewOptions>();
           }),
           "Defaults, with the given fields replaced (unknown names raise TypeError).")
      .def_readwrite("method", &ccd::ScrewOptions::method)
      .def_readwrite("first_contact_only", &ccd::ScrewOptions::first_contact_only)
      .def_readwrite("properness_threshold", &ccd::ScrewOptions::properness_threshold)
      .def_readwrite("time_tolerance", &ccd::ScrewOptions::time_tolerance)
      .def_readwrite("max_root_iterations", &ccd::ScrewOptions::max_root_iterations)
      .def_readwrite("max_intervals", &ccd::ScrewOptions::max_intervals)
      .def_readwrite("feature_tolerance", &ccd::ScrewOptions::feature_tolerance)
      .def_readwrite("parallel_tolerance", &ccd::ScrewOptions::parallel_tolerance)
      .def_readwrite("max_time_slabs", &ccd::ScrewOptions::max_time_slabs)
      .def_readwrite("slab_sweep_fraction", &ccd::ScrewOptions::slab_sweep_fraction)
      .def_readwrite("pixel_size", &ccd::ScrewOptions::pixel_size)
      .def_readwrite("time_resolution", &ccd::ScrewOptions::time_resolution)
      .def_readwrite("max_pixel_records", &ccd::ScrewOptions::max_pixel_records)
      .def_readwrite("max_subdivision", &ccd::ScrewOptions::max_subdivision);

  py::class_<ccd::Collision>(m, "Collision", "One collision of a step (world frame at its time).")
      .def_property_readonly("type", [](const ccd::Collision& c) { return std::string(ccd::to_string(c.type)); },
                             "'VF', 'FV' or 'EE'.")
      .def_readonly("vertex", &ccd::Collision::vertex)
      .def_readonly("face", &ccd::Collision::face)
      .def_readonly("edge_a", &ccd::Collision::edge_a)
      .def_readonly("edge_b", &ccd::Collision::edge_b)
      .def_readonly("time", &ccd::Collision::time)
      .def_readonly("point", &ccd::Collision::point)
      .def_readonly("normal", &ccd::Collision::normal)
      .def_readonly("properness", &ccd::Collision::properness)
      .def("__repr__", [](const ccd::Collision& c) {
        return "Collision(type='" + std::string(ccd::to_string(c.type)) + "', time=" + format_number(c.time) +
               ", point=" + vec_repr(c.point) + ")";
      });

  py::class_<ccd::ScrewResult>(m, "ScrewResult", "Everything screw_collisions found.")
      .def_readonly("contact", &ccd::ScrewResult::contact)
      .def_readonly("toi", &ccd::ScrewResult::toi)
      .def_readonly("point", &ccd::ScrewResult::point)
      .def_readonly("normal", &ccd::ScrewResult::normal)
      .def_readonly("collisions", &ccd::ScrewResult::collisions, "Every collision (list of Collision), sorted by time.")
      .def_property_readonly("collisions_array",
                             [](const ccd::ScrewResult& r) { return collisions_array(r.collisions); },
                             "Every collision as a structured numpy array: type (S2), vertex, face, edge_a, edge_b\n"
                             "(int32), time, point (3,), normal (3,), properness (float64).")
      .def_readonly("screw", &ccd::ScrewResult::screw, "The relative motion in A's local frame at the start.")
      .def_readonly("candidate_pairs", &ccd::ScrewResult::candidate_pairs)
      .def_readonly("iterations", &ccd::ScrewResult::iterations)
      .def_readonly("status", &ccd::ScrewResult::status)
      .def_readonly("detail", &ccd::ScrewResult::detail)
      .def("__repr__", [](const ccd::ScrewResult& r) {
        return "ScrewResult(contact=" + std::string(r.contact ? "True" : "False") + ", toi=" + format_number(r.toi) +
               ", collisions=" + std::to_string(r.collisions.size()) + ")";
      });
  m.attr("COLLISION_DTYPE") = collision_dtype();

  m.def("screw_collisions",
        [](const mesh::Mesh& a, const Pose& a_start, const Pose& a_end, const mesh::Mesh& b, const Pose& b_start,
           const Pose& b_end, const std::optional<ccd::ScrewOptions>& o) {
          const ccd::ScrewOptions options = o.value_or(ccd::ScrewOptions{});
          const py::gil_scoped_release release;
          return ccd::screw_collisions(a, a_start, a_end, b, b_start, b_end, options);
        },
        "a"_a, "a_start"_a, "a_end"_a, "b"_a, "b_start"_a, "b_end"_a, "options"_a = std::nullopt,
        "Every vertex-face, face-vertex and edge-edge collision of mesh A moving from a_start to a_end\n"
        "against mesh B (b_start to b_end), the relative motion taken as a screw (seed 004): ScrewResult,\n"
        "world frame. ValueError naming rotation when the relative rotation is at or beyond pi.");
  m.def("release_thread_storage", &ccd::release_thread_storage,
        "Frees the working storage screw_collisions keeps for the calling thread (both modes; it grows\n"
        "to the largest query the thread has answered and is reused by later ones).");

  // ---- convex time of impact ---------------------------------------------------------------------
  py::class_<ccd::ToiOptions>(m, "ToiOptions", "Options of toi_translate / toi_screw (ccd::ToiOptions).")
      .def(py::init([](double distance_tolerance, int max_iterations, const gjk::GjkOptions& gjk) {
             return ccd::ToiOptions{distance_tolerance, max_iterations, gjk};
           }),
           "distance_tolerance"_a = kCcdToiDistanceTolerance, "max_iterations"_a = kCcdToiMaxIterations,
           "gjk"_a = gjk::GjkOptions{}, "Options (defaults from tolerance.hpp).")
      .def_readwrite("distance_tolerance", &ccd::ToiOptions::distance_tolerance)
      .def_readwrite("max_iterations", &ccd::ToiOptions::max_iterations)
      .def_readwrite("gjk", &ccd::ToiOptions::gjk);

  m.def("toi_translate",
        [](const Shape& a, const Pose& pa, const Vec3& va, const Shape& b, const Pose& pb, const Vec3& vb, double t_max,
           const std::optional<ccd::ToiOptions>& o) {
          const ccd::ToiOptions options = o.value_or(ccd::ToiOptions{});
          const py::gil_scoped_release release;
          return batch::scalar_toi_translate(a.get(), pa, va, b.get(), pb, vb, t_max, options);
        },
        "a"_a, "pose_a"_a, "velocity_a"_a, "b"_a, "pose_b"_a, "velocity_b"_a, "t_max"_a, "options"_a = std::nullopt,
        "First contact time in [0, t_max] of convex shape A translating with velocity_a from pose_a and B\n"
        "with velocity_b (conservative advancement on GJK): ToiResult, world frame.");
  m.def("toi_screw",
        [](const Shape& a, const Pose& as, const Pose& ae, const Shape& b, const Pose& bs, const Pose& be,
           const std::optional<ccd::ToiOptions>& o) {
          const ccd::ToiOptions options = o.value_or(ccd::ToiOptions{});
          const py::gil_scoped_release release;
          return batch::scalar_toi_screw(a.get(), as, ae, b.get(), bs, be, options);
        },
        "a"_a, "a_start"_a, "a_end"_a, "b"_a, "b_start"_a, "b_end"_a, "options"_a = std::nullopt,
        "First contact time in [0, 1] of convex shapes whose relative motion is the screw of seed 004\n"
        "(the motion screw_collisions uses): ToiResult, world frame.");
}

}  // namespace proxima::python
