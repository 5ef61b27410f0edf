// SPDX-License-Identifier: MIT
// Bindings of the core layer: Status, Detail, Pose, the result structs, the GJK / EPA options,
// and the helpers the other binding files share (common.hpp).
#include "common.hpp"

#include <proxima/core/results.hpp>
#include <proxima/core/status.hpp>
#include <proxima/core/tolerance.hpp>
#include <proxima/gjk/options.hpp>

namespace proxima::python {

using namespace pybind11::literals;

Shape make_shape(AnyConvex s, const char* factory, py::tuple args) {
  return Shape{std::make_shared<const AnyConvex>(std::move(s)), py::make_tuple(factory, std::move(args))};
}

std::string vec_repr(const Vec3& v) {
  return "(" + format_number(v.x()) + ", " + format_number(v.y()) + ", " + format_number(v.z()) + ")";
}

std::string type_name(const py::handle& obj) { return py::str(py::type::of(obj).attr("__name__")); }

Pose pose_from_quaternion(const Eigen::Vector4d& q, const Vec3& t, bool scalar_first) {
  return scalar_first ? Pose::from_quaternion(q[0], q[1], q[2], q[3], t) : Pose::from_quaternion(q[3], q[0], q[1], q[2], t);
}

Pose pose_from_matrix(const Eigen::MatrixXd& m, const std::optional<Vec3>& translation) {
  if (m.rows() == 3 && m.cols() == 3) return Pose::from_matrix(m, translation.value_or(Vec3::Zero()));
  if (m.rows() == 4 && m.cols() == 4) {
    if (translation) throw InvalidInput("translation", "must not be given with a 4 x 4 matrix (it holds the translation)");
    const Eigen::Matrix4d h = m;
    std::vector<double> data(16);
    for (int i = 0; i < 4; ++i) {
      for (int j = 0; j < 4; ++j) data[static_cast<std::size_t>(4 * i + j)] = h(i, j);
    }
    return batch::PoseArray::matrices(data.data(), 1).at(0, "matrix");
  }
  throw InvalidInput("matrix", "must be 3 x 3 (rotation) or 4 x 4 (homogeneous), got " + std::to_string(m.rows()) +
                                   " x " + std::to_string(m.cols()));
}

py::array as_bool(py::array_t<std::uint8_t>& a) {
  return py::reinterpret_borrow<py::array>(a.attr("view")(py::dtype::of<bool>()));
}

void set_from_kwargs(const py::object& self, const py::kwargs& kwargs, const char* type) {
  for (const auto& [key, value] : kwargs) {
    const std::string name = py::str(key);
    if (name.starts_with("_") || !py::hasattr(py::type::of(self), name.c_str())) {
      throw py::type_error(std::string(type) + "() got an unexpected keyword argument '" + name + "'");
    }
    py::setattr(self, key, value);
  }
}

namespace {

constexpr const char* kPoseDoc =
    "A rigid placement world = R @ local + t.\n\n"
    "Pose(translation=(0, 0, 0), quaternion=(1, 0, 0, 0), *, scalar_first=True): the quaternion is\n"
    "(w, x, y, z) by default; pass scalar_first=False for scipy's (x, y, z, w) order. A non-unit\n"
    "quaternion is normalised; a zero or non-finite one raises ValueError (proxima.InvalidInput).";

}  // namespace

void bind_core(py::module_& m) {
  // ---- status ------------------------------------------------------------------------------------
  py::enum_<Status>(m, "Status", "How an iterative query stopped (proxima::Status).")
      .value("converged", Status::converged)
      .value("iteration_limit", Status::iteration_limit)
      .value("degenerate_input", Status::degenerate_input)
      .value("capacity_exceeded", Status::capacity_exceeded);
  py::enum_<Detail>(m, "Detail", "Why a query stopped, finer than Status (proxima::Detail).")
      .value("none", Detail::none)
      .value("duality_gap", Detail::duality_gap)
      .value("repeated_support", Detail::repeated_support)
      .value("no_progress", Detail::no_progress)
      .value("origin_enclosed", Detail::origin_enclosed)
      .value("separating_axis", Detail::separating_axis)
      .value("touching", Detail::touching)
      .value("non_finite", Detail::non_finite)
      .value("degenerate_simplex", Detail::degenerate_simplex)
      .value("face_capacity", Detail::face_capacity)
      .value("scale_out_of_range", Detail::scale_out_of_range);

  // ---- pose --------------------------------------------------------------------------------------
  py::class_<Pose>(m, "Pose", kPoseDoc)
      .def(py::init([](const Vec3& translation, const Eigen::Vector4d& quaternion, bool scalar_first) {
             return pose_from_quaternion(quaternion, translation, scalar_first);
           }),
           "translation"_a = Vec3(Vec3::Zero()), "quaternion"_a = Eigen::Vector4d(1, 0, 0, 0), py::kw_only(),
           "scalar_first"_a = true, "A pose from a translation and a quaternion ((w, x, y, z) unless scalar_first=False).")
      .def_static("from_quaternion",
                  [](const Eigen::Vector4d& quaternion, const Vec3& translation, bool scalar_first) {
                    return pose_from_quaternion(quaternion, translation, scalar_first);
                  },
                  "quaternion"_a, "translation"_a = Vec3(Vec3::Zero()), py::kw_only(), "scalar_first"_a = true,
                  "A pose from a quaternion, (w, x, y, z) by default; scalar_first=False reads scipy's (x, y, z, w).")
      .def_static("from_scipy",
                  [](const Eigen::Vector4d& quaternion_xyzw, const Vec3& translation) {
                    return pose_from_quaternion(quaternion_xyzw, translation, false);
                  },
                  "quaternion_xyzw"_a, "translation"_a = Vec3(Vec3::Zero()),
                  "A pose from a scipy-ordered quaternion (x, y, z, w), e.g. Rotation.as_quat().")
      .def_static("from_euler_xyz",
                  [](const Vec3& angles, const Vec3& translation) {
                    return Pose::from_euler_xyz(angles.x(), angles.y(), angles.z(), translation);
                  },
                  "euler_xyz"_a, "translation"_a = Vec3(Vec3::Zero()),
                  "A pose from angles (radians) about x, then y, then z: R = Rx @ Ry @ Rz (the scene format's euler_xyz).")
      .def_static("from_matrix", &pose_from_matrix, "matrix"_a, "translation"_a = std::nullopt,
                  "A pose from a 3x3 rotation (with an optional translation) or a 4x4 homogeneous matrix;\n"
                  "the rotation must be orthonormal with det +1 (else ValueError).")
      .def_static("from_translation", &Pose::from_translation, "translation"_a, "A pure translation.")
      .def_property_readonly("translation", [](const Pose& p) { return Vec3(p.translation()); },
                             "The translation t (3,).")
      .def_property_readonly("rotation", [](const Pose& p) { return Mat3(p.rotation()); }, "The rotation R (3, 3).")
      .def_property_readonly("quaternion",
                             [](const Pose& p) {
                               const Eigen::Quaterniond q = p.quaternion();
                               return Eigen::Vector4d(q.w(), q.x(), q.y(), q.z());
                             },
                             "The rotation as a unit quaternion (w, x, y, z).")
      .def("as_matrix",
           [](const Pose& p) {
             Eigen::Matrix4d h = Eigen::Matrix4d::Identity();
             h.topLeftCorner<3, 3>() = p.rotation();
             h.topRightCorner<3, 1>() = p.translation();
             return h;
           },
           "The 4x4 homogeneous matrix [R t; 0 0 0 1].")
      .def("as_array",
           [](const Pose& p) {
             const Eigen::Quaterniond q = p.quaternion();
             Eigen::Matrix<double, 7, 1> r;
             r << p.translation(), q.w(), q.x(), q.y(), q.z();
             return r;
           },
           "The row [tx, ty, tz, qw, qx, qy, qz] the batch functions read.")
      .def("apply", &Pose::apply, "point"_a, "Maps a local point to the world: R @ p + t.")
      .def("rotate", &Pose::rotate, "direction"_a, "Rotates a local direction to the world: R @ d.")
      .def("inverse", &Pose::inverse, "The inverse pose.")
      .def("__mul__", [](const Pose& a, const Pose& b) { return a * b; }, "Composition: (a * b).apply(p) == a.apply(b.apply(p)).")
      .def("__eq__", [](const Pose& a, const Pose& b) { return a == b; }, "Bitwise equality of rotation and translation.")
      .def(py::pickle(
          [](const Pose& p) {
            Eigen::Matrix4d h = Eigen::Matrix4d::Identity();
            h.topLeftCorner<3, 3>() = p.rotation();
            h.topRightCorner<3, 1>() = p.translation();
            return py::make_tuple(h);
          },
          [](const py::tuple& t) { return pose_from_matrix(t[0].cast<Eigen::MatrixXd>(), std::nullopt); }))
      .def("__repr__", [](const Pose& p) {
        const Eigen::Quaterniond q = p.quaternion();
        return "Pose(translation=" + vec_repr(p.translation()) + ", quaternion=(" + format_number(q.w()) + ", " +
               format_number(q.x()) + ", " + format_number(q.y()) + ", " + format_number(q.z()) + "))";
      });

  // ---- options and results -----------------------------------------------------------------------
  py::class_<gjk::GjkOptions>(m, "GjkOptions", "Tolerances and cap of a GJK run (proxima::gjk::GjkOptions).")
      .def(py::init([](double relative_tolerance, double absolute_tolerance, int max_iterations, bool nesterov,
                       bool closed_forms, bool ellipsoid_newton, bool box_box, bool revolution_polish,
                       bool revolution_overlap, bool first_support_overlap, bool neighbour_support_overlap,
                       bool support_edge_overlap) {
             gjk::GjkOptions o;
             o.relative_tolerance = relative_tolerance;
             o.absolute_tolerance = absolute_tolerance;
             o.max_iterations = max_iterations;
             o.nesterov = nesterov;
             o.closed_forms = closed_forms;
             o.ellipsoid_newton = ellipsoid_newton;
             o.box_box = box_box;
             o.revolution_polish = revolution_polish;
             o.revolution_overlap = revolution_overlap;
             o.first_support_overlap = first_support_overlap;
             o.neighbour_support_overlap = neighbour_support_overlap;
             o.support_edge_overlap = support_edge_overlap;
             return o;
           }),
           "relative_tolerance"_a = kGjkRelativeTolerance, "absolute_tolerance"_a = kGjkAbsoluteTolerance,
           "max_iterations"_a = kGjkMaxIterations, "nesterov"_a = false, "closed_forms"_a = gjk::GjkOptions{}.closed_forms,
           "ellipsoid_newton"_a = gjk::GjkOptions{}.ellipsoid_newton, "box_box"_a = gjk::GjkOptions{}.box_box,
           "revolution_polish"_a = gjk::GjkOptions{}.revolution_polish,
           "revolution_overlap"_a = gjk::GjkOptions{}.revolution_overlap,
           "first_support_overlap"_a = gjk::GjkOptions{}.first_support_overlap,
           "neighbour_support_overlap"_a = gjk::GjkOptions{}.neighbour_support_overlap,
           "support_edge_overlap"_a = gjk::GjkOptions{}.support_edge_overlap,
           "GJK options (defaults from tolerance.hpp and proxima/gjk/options.hpp).")
      .def_readwrite("relative_tolerance", &gjk::GjkOptions::relative_tolerance)
      .def_readwrite("absolute_tolerance", &gjk::GjkOptions::absolute_tolerance)
      .def_readwrite("max_iterations", &gjk::GjkOptions::max_iterations)
      .def_readwrite("nesterov", &gjk::GjkOptions::nesterov)
      .def_readwrite("closed_forms", &gjk::GjkOptions::closed_forms,
                     "Sphere/box/capsule pairs by their exact closed forms (off: GJK for every pair).")
      .def_readwrite("ellipsoid_newton", &gjk::GjkOptions::ellipsoid_newton,
                     "Ellipsoid-ellipsoid and ellipsoid-sphere distance by Newton's method (off: GJK).")
      .def_readwrite("box_box", &gjk::GjkOptions::box_box,
                     "Box-box distance by the separating-axis pre-pass (off: GJK).")
      .def_readwrite("revolution_polish", &gjk::GjkOptions::revolution_polish,
                     "Cylinder/cone pairs GJK settles slowly finished by Newton's method on the closest\n"
                     "features, certified by GJK's gap (off: GJK alone).")
      .def_readwrite("revolution_overlap", &gjk::GjkOptions::revolution_overlap,
                     "Cylinder/cone pairs: a common point looked for between the axes and, on a cold query,\n"
                     "in GJK's first support pair before the loop (found: the overlap is answered without GJK;\n"
                     "off: GJK decides every pair).")
      .def_readwrite("first_support_overlap", &gjk::GjkOptions::first_support_overlap,
                     "Other pairs of solids with an interior test (polytope, box, ellipsoid, cylinder, cone), on a\n"
                     "cold query: a point of GJK's first support pair strictly inside the other solid answers the\n"
                     "overlap without GJK (off: GJK decides every pair).")
      .def_readwrite("neighbour_support_overlap", &gjk::GjkOptions::neighbour_support_overlap,
                     "With first_support_overlap, on two polytopes of at least 12 vertices each, in distance()\n"
                     "only: when the first support pair has no common point, the second and third farthest\n"
                     "vertices of each body along the same direction are tested inside the other body the same\n"
                     "way (off: the first pair alone).")
      .def_readwrite("support_edge_overlap", &gjk::GjkOptions::support_edge_overlap,
                     "With first_support_overlap, on two polytopes, in distance() only: when the vertex tests find no\n"
                     "common point and the first support plane does not show the pair apart, the hull edges at each\n"
                     "support vertex are clipped against the other body; a point of an edge strictly inside it\n"
                     "answers the overlap (off: GJK decides those pairs).");
  py::class_<gjk::EpaOptions>(m, "EpaOptions", "Tolerances and cap of an EPA run (proxima::gjk::EpaOptions).")
      .def(py::init([](double relative_tolerance, double absolute_tolerance, int max_iterations,
                       const gjk::GjkOptions& gjk_options) {
             return gjk::EpaOptions{relative_tolerance, absolute_tolerance, max_iterations, gjk_options};
           }),
           "relative_tolerance"_a = kEpaRelativeTolerance, "absolute_tolerance"_a = kEpaAbsoluteTolerance,
           "max_iterations"_a = kEpaMaxIterations, "gjk"_a = gjk::GjkOptions{}, "EPA options (defaults from tolerance.hpp).")
      .def_readwrite("relative_tolerance", &gjk::EpaOptions::relative_tolerance)
      .def_readwrite("absolute_tolerance", &gjk::EpaOptions::absolute_tolerance)
      .def_readwrite("max_iterations", &gjk::EpaOptions::max_iterations)
      .def_readwrite("gjk", &gjk::EpaOptions::gjk);

  py::class_<DistanceResult>(m, "DistanceResult", "Distance, closest points (world), normal A->B, gap certificate.")
      .def_readonly("distance", &DistanceResult::distance)
      .def_readonly("intersect", &DistanceResult::intersect)
      .def_readonly("point_a", &DistanceResult::point_a)
      .def_readonly("point_b", &DistanceResult::point_b)
      .def_readonly("normal", &DistanceResult::normal)
      .def_readonly("gap", &DistanceResult::gap)
      .def_readonly("iterations", &DistanceResult::iterations)
      .def_readonly("status", &DistanceResult::status)
      .def_readonly("detail", &DistanceResult::detail)
      .def("__repr__", [](const DistanceResult& r) {
        return "DistanceResult(distance=" + format_number(r.distance) + ", intersect=" + (r.intersect ? "True" : "False") +
               ", status=" + std::string(to_string(r.status)) + ")";
      });
  py::class_<IntersectResult>(m, "IntersectResult", "Overlap flag with a separating axis (world) when separated.")
      .def_readonly("intersect", &IntersectResult::intersect)
      .def_readonly("separating_axis", &IntersectResult::separating_axis)
      .def_readonly("iterations", &IntersectResult::iterations)
      .def_readonly("status", &IntersectResult::status)
      .def_readonly("detail", &IntersectResult::detail)
      .def("__bool__", [](const IntersectResult& r) { return r.intersect; }, "True when the shapes overlap.")
      .def("__repr__", [](const IntersectResult& r) {
        return std::string("IntersectResult(intersect=") + (r.intersect ? "True" : "False") +
               ", status=" + std::string(to_string(r.status)) + ")";
      });
  py::class_<PenetrationResult>(m, "PenetrationResult", "Penetration depth, direction A->B and witness points (world).")
      .def_readonly("intersect", &PenetrationResult::intersect)
      .def_readonly("depth", &PenetrationResult::depth)
      .def_readonly("normal", &PenetrationResult::normal)
      .def_readonly("point_a", &PenetrationResult::point_a)
      .def_readonly("point_b", &PenetrationResult::point_b)
      .def_readonly("gap", &PenetrationResult::gap)
      .def_readonly("iterations", &PenetrationResult::iterations)
      .def_readonly("status", &PenetrationResult::status)
      .def_readonly("detail", &PenetrationResult::detail)
      .def("__repr__", [](const PenetrationResult& r) {
        return "PenetrationResult(depth=" + format_number(r.depth) + ", intersect=" + (r.intersect ? "True" : "False") +
               ", status=" + std::string(to_string(r.status)) + ")";
      });

  py::class_<ToiResult>(m, "ToiResult", "First contact time, point and normal (world) of a motion.")
      .def_readonly("contact", &ToiResult::contact, "True when the shapes touch within the time range.")
      .def_readonly("toi", &ToiResult::toi, "First contact time (NaN when none).")
      .def_readonly("point", &ToiResult::point, "Contact point (world, at toi).")
      .def_readonly("normal", &ToiResult::normal, "Unit normal from A towards B (world).")
      .def_readonly("iterations", &ToiResult::iterations)
      .def_readonly("status", &ToiResult::status)
      .def_readonly("detail", &ToiResult::detail)
      .def("__bool__", [](const ToiResult& r) { return r.contact; }, "True on contact.")
      .def("__repr__", [](const ToiResult& r) {
        return "ToiResult(contact=" + std::string(r.contact ? "True" : "False") + ", toi=" + format_number(r.toi) +
               ", status=" + std::string(to_string(r.status)) + ")";
      });
}

}  // namespace proxima::python
