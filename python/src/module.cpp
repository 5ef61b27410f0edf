// SPDX-License-Identifier: MIT
// The compiled part of the `proxima` Python package (_proxima): shapes, poses, results, the pair
// object, the gjk queries, the lp functions and the batch API on numpy arrays.
//
// Conventions: quaternions are (w, x, y, z) unless the caller passes scalar_first=False (then
// (x, y, z, w), scipy's order); never guessed. Batch poses are (N, 7) rows [tx, ty, tz, qw, qx, qy,
// qz] or (N, 4, 4) matrices, read in place when C-contiguous float64 (copied otherwise). The GIL is
// released while C++ works. proxima::InvalidInput becomes proxima.InvalidInput, a ValueError
// subclass with the same message; arguments of the wrong type raise TypeError.
#include <proxima/batch/batch.hpp>
#include <proxima/core/error.hpp>
#include <proxima/gjk/pair.hpp>
#include <proxima/lp/contains.hpp>
#include <proxima/lp/distance.hpp>
#include <proxima/lp/intersect.hpp>

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace py = pybind11;
using namespace pybind11::literals;

namespace proxima::python {
namespace {

using DoubleArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

// A Python shape: an AnyConvex behind a shared pointer (cheap to pass to compounds).
// `recipe` = (factory name, argument tuple) rebuilds it, which is how a Shape pickles (Dask).
struct Shape {
  std::shared_ptr<const AnyConvex> shape;
  py::tuple recipe;
  const AnyConvex& get() const { return *shape; }
};
Shape make(AnyConvex s, const char* factory, py::tuple args) {
  return Shape{std::make_shared<const AnyConvex>(std::move(s)), py::make_tuple(factory, std::move(args))};
}

std::string vec_repr(const Vec3& v) {
  return "(" + format_number(v.x()) + ", " + format_number(v.y()) + ", " + format_number(v.z()) + ")";
}

Eigen::Quaterniond quaternion_from(const Eigen::Vector4d& q, bool scalar_first) {
  return scalar_first ? Eigen::Quaterniond(q[0], q[1], q[2], q[3]) : Eigen::Quaterniond(q[3], q[0], q[1], q[2]);
}

Pose pose_from_quaternion(const Eigen::Vector4d& q, const Vec3& t, bool scalar_first) {
  const Eigen::Quaterniond e = quaternion_from(q, scalar_first);
  return Pose::from_quaternion(e.w(), e.x(), e.y(), e.z(), t);
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

// ---- batch arguments -----------------------------------------------------------------------

// Shapes of a batch argument: one Shape (broadcast) or a sequence of them.
struct ShapeArg {
  std::vector<AnyConvex> owned;
  const AnyConvex* single = nullptr;
  std::span<const AnyConvex> span() const {
    return single ? std::span<const AnyConvex>(single, 1) : std::span<const AnyConvex>(owned);
  }
};

ShapeArg shape_arg(const py::object& obj, const char* name) {
  ShapeArg r;
  if (py::isinstance<Shape>(obj)) {
    r.single = &obj.cast<const Shape&>().get();
    return r;
  }
  if (!py::isinstance<py::sequence>(obj) || py::isinstance<py::str>(obj)) {
    throw py::type_error(std::string(name) + ": expected a proxima.Shape or a sequence of them, got " +
                         std::string(py::str(py::type::of(obj).attr("__name__"))));
  }
  const py::sequence seq = obj.cast<py::sequence>();
  r.owned.reserve(seq.size());
  for (std::size_t i = 0; i < seq.size(); ++i) {
    const py::object item = seq[i];
    if (!py::isinstance<Shape>(item)) {
      throw py::type_error(std::string(name) + "[" + std::to_string(i) + "]: expected a proxima.Shape, got " +
                           std::string(py::str(py::type::of(item).attr("__name__"))));
    }
    r.owned.push_back(item.cast<const Shape&>().get());
  }
  return r;
}

// Poses of a batch argument: a Pose (broadcast), a sequence of Pose, or an array (7,), (N, 7),
// (4, 4), (N, 4, 4). Keeps the (possibly converted) array alive.
struct PoseArg {
  DoubleArray array;
  std::vector<Pose> poses;
  batch::PoseArray view;
};

PoseArg pose_arg(const py::object& obj, const char* name, bool scalar_first) {
  PoseArg r;
  if (py::isinstance<Pose>(obj)) {
    r.poses.push_back(obj.cast<Pose>());
    r.view = batch::PoseArray(std::span<const Pose>(r.poses));
    return r;
  }
  if (py::isinstance<py::list>(obj) && py::len(obj) > 0 && py::isinstance<Pose>(obj.cast<py::list>()[0])) {
    for (const py::handle item : obj.cast<py::list>()) {
      if (!py::isinstance<Pose>(item)) throw py::type_error(std::string(name) + ": a list of poses must hold only proxima.Pose");
      r.poses.push_back(item.cast<Pose>());
    }
    r.view = batch::PoseArray(std::span<const Pose>(r.poses));
    return r;
  }
  const py::array raw = py::array::ensure(obj);
  if (!raw) throw py::type_error(std::string(name) + ": expected a proxima.Pose, a list of them or a float array");
  if (raw.dtype().kind() != 'f' && raw.dtype().kind() != 'i' && raw.dtype().kind() != 'u') {
    throw py::type_error(std::string(name) + ": expected a real numeric array, got dtype " +
                         std::string(py::str(raw.dtype())));
  }
  r.array = DoubleArray::ensure(raw);
  std::vector<py::ssize_t> shape(r.array.shape(), r.array.shape() + r.array.ndim());
  const auto shape_text = [&] {
    std::string s = "(";
    for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + (shape.size() == 1 ? ",)" : ")");
  };
  const bool rows7 = (shape.size() == 2 && shape[1] == 7) || (shape.size() == 1 && shape[0] == 7);
  const bool mats = (shape.size() == 3 && shape[1] == 4 && shape[2] == 4) || (shape.size() == 2 && shape[0] == 4 && shape[1] == 4);
  if (!rows7 && !mats) {
    throw InvalidInput(name, "expected an array of shape (N, 7) [tx, ty, tz, qw, qx, qy, qz] or (N, 4, 4), got shape " +
                                 shape_text());
  }
  const std::size_t n = (shape.size() == 1 || (mats && shape.size() == 2)) ? 1 : static_cast<std::size_t>(shape[0]);
  if (rows7) {
    if (!scalar_first) {  // reorder [tx, ty, tz, qx, qy, qz, qw] into a scalar-first copy
      DoubleArray copy(std::vector<py::ssize_t>{static_cast<py::ssize_t>(n), 7});
      const double* src = r.array.data();
      double* dst = copy.mutable_data();
      for (std::size_t i = 0; i < n; ++i) {
        const double* s = src + 7 * i;
        double* d = dst + 7 * i;
        d[0] = s[0], d[1] = s[1], d[2] = s[2], d[3] = s[6], d[4] = s[3], d[5] = s[4], d[6] = s[5];
      }
      r.array = copy;
    }
    r.view = batch::PoseArray::quaternions(r.array.data(), n);
  } else {
    r.view = batch::PoseArray::matrices(r.array.data(), n);
  }
  return r;
}

batch::BatchOptions batch_options(int threads, const std::string& bad_poses, const std::optional<gjk::GjkOptions>& gjk,
                                  const std::optional<gjk::EpaOptions>& epa) {
  batch::BatchOptions o;
  o.threads = threads;
  if (bad_poses == "raise") {
    o.bad_poses = batch::BadPosePolicy::throw_invalid_input;
  } else if (bad_poses == "mark") {
    o.bad_poses = batch::BadPosePolicy::mark_element;
  } else {
    throw InvalidInput("bad_poses", "must be \"raise\" or \"mark\", got \"" + bad_poses + "\"");
  }
  if (gjk) o.gjk = *gjk;
  if (epa) o.epa = *epa;
  return o;
}

template <class T>
py::array_t<T> new_array(std::size_t n, std::size_t width = 1) {
  if (width == 1) return py::array_t<T>(static_cast<py::ssize_t>(n));
  return py::array_t<T>(std::vector<py::ssize_t>{static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(width)});
}
template <class T>
std::span<T> span_of(py::array_t<T>& a) {
  return std::span<T>(a.mutable_data(), static_cast<std::size_t>(a.size()));
}

py::array as_bool(py::array_t<std::uint8_t>& a) {
  return py::reinterpret_borrow<py::array>(a.attr("view")(py::dtype::of<bool>()));
}

struct BatchInputs {
  ShapeArg a, b;
  PoseArg pa, pb;
  std::size_t n = 0;
};
BatchInputs batch_inputs(const py::object& a, const py::object& pose_a, const py::object& b, const py::object& pose_b,
                         bool scalar_first) {
  BatchInputs in{shape_arg(a, "a"), shape_arg(b, "b"), pose_arg(pose_a, "pose_a", scalar_first),
                 pose_arg(pose_b, "pose_b", scalar_first)};
  in.n = batch::batch_size(in.a.span().size(), in.pa.view.size(), in.b.span().size(), in.pb.view.size());
  return in;
}

py::dict batch_intersect(const py::object& a, const py::object& pose_a, const py::object& b, const py::object& pose_b,
                         int threads, const std::string& bad_poses, bool scalar_first,
                         const std::optional<gjk::GjkOptions>& gjk) {
  const BatchInputs in = batch_inputs(a, pose_a, b, pose_b, scalar_first);
  const batch::BatchOptions options = batch_options(threads, bad_poses, gjk, std::nullopt);
  auto hit = new_array<std::uint8_t>(in.n);
  auto axis = new_array<double>(in.n, 3);
  auto iterations = new_array<std::int32_t>(in.n);
  auto status = new_array<std::uint8_t>(in.n);
  auto detail = new_array<std::uint8_t>(in.n);
  const batch::IntersectOutputs out{span_of(hit), span_of(axis), span_of(iterations), span_of(status), span_of(detail)};
  {
    const py::gil_scoped_release release;
    batch::intersect(in.a.span(), in.pa.view, in.b.span(), in.pb.view, out, options);
  }
  return py::dict("intersect"_a = as_bool(hit), "separating_axis"_a = axis, "iterations"_a = iterations,
                  "status"_a = status, "detail"_a = detail);
}

py::dict batch_distance(const py::object& a, const py::object& pose_a, const py::object& b, const py::object& pose_b,
                        int threads, const std::string& bad_poses, bool scalar_first,
                        const std::optional<gjk::GjkOptions>& gjk) {
  const BatchInputs in = batch_inputs(a, pose_a, b, pose_b, scalar_first);
  const batch::BatchOptions options = batch_options(threads, bad_poses, gjk, std::nullopt);
  auto dist = new_array<double>(in.n);
  auto hit = new_array<std::uint8_t>(in.n);
  auto point_a = new_array<double>(in.n, 3);
  auto point_b = new_array<double>(in.n, 3);
  auto normal = new_array<double>(in.n, 3);
  auto gap = new_array<double>(in.n);
  auto iterations = new_array<std::int32_t>(in.n);
  auto status = new_array<std::uint8_t>(in.n);
  auto detail = new_array<std::uint8_t>(in.n);
  const batch::DistanceOutputs out{span_of(dist),   span_of(hit),        span_of(point_a),
                                   span_of(point_b), span_of(normal),    span_of(gap),
                                   span_of(iterations), span_of(status), span_of(detail)};
  {
    const py::gil_scoped_release release;
    batch::distance(in.a.span(), in.pa.view, in.b.span(), in.pb.view, out, options);
  }
  return py::dict("distance"_a = dist, "intersect"_a = as_bool(hit), "point_a"_a = point_a, "point_b"_a = point_b,
                  "normal"_a = normal, "gap"_a = gap, "iterations"_a = iterations, "status"_a = status,
                  "detail"_a = detail);
}

py::dict batch_penetration(const py::object& a, const py::object& pose_a, const py::object& b,
                           const py::object& pose_b, int threads, const std::string& bad_poses, bool scalar_first,
                           const std::optional<gjk::EpaOptions>& epa) {
  const BatchInputs in = batch_inputs(a, pose_a, b, pose_b, scalar_first);
  const batch::BatchOptions options = batch_options(threads, bad_poses, std::nullopt, epa);
  auto hit = new_array<std::uint8_t>(in.n);
  auto depth = new_array<double>(in.n);
  auto normal = new_array<double>(in.n, 3);
  auto point_a = new_array<double>(in.n, 3);
  auto point_b = new_array<double>(in.n, 3);
  auto iterations = new_array<std::int32_t>(in.n);
  auto status = new_array<std::uint8_t>(in.n);
  auto detail = new_array<std::uint8_t>(in.n);
  const batch::PenetrationOutputs out{span_of(hit),     span_of(depth),      span_of(normal), span_of(point_a),
                                      span_of(point_b), span_of(iterations), span_of(status), span_of(detail)};
  {
    const py::gil_scoped_release release;
    batch::penetration(in.a.span(), in.pa.view, in.b.span(), in.pb.view, out, options);
  }
  return py::dict("intersect"_a = as_bool(hit), "depth"_a = depth, "normal"_a = normal, "point_a"_a = point_a,
                  "point_b"_a = point_b, "iterations"_a = iterations, "status"_a = status, "detail"_a = detail);
}

// ---- lp ----------------------------------------------------------------------------------------

// Points given as rows (k x n, the numpy habit) -> columns (n x k, the lp layer's layout).
Eigen::MatrixXd columns(const Eigen::MatrixXd& rows) { return rows.transpose(); }

lp::DistanceNorm norm_from(const std::string& norm) {
  if (norm == "l1") return lp::DistanceNorm::l1;
  if (norm == "linf") return lp::DistanceNorm::linf;
  throw InvalidInput("norm", "must be \"l1\" or \"linf\", got \"" + norm + "\"");
}

constexpr const char* kPoseDoc =
    "A rigid placement world = R @ local + t.\n\n"
    "Pose(translation=(0, 0, 0), quaternion=(1, 0, 0, 0), *, scalar_first=True): the quaternion is\n"
    "(w, x, y, z) by default; pass scalar_first=False for scipy's (x, y, z, w) order. A non-unit\n"
    "quaternion is normalised; a zero or non-finite one raises ValueError (proxima.InvalidInput).";

}  // namespace
}  // namespace proxima::python

using namespace proxima;          // NOLINT
using namespace proxima::python;  // NOLINT

PYBIND11_MODULE(_proxima, m) {
  m.doc() = "proxima: proximity queries and collision detection between convex shapes (compiled core).";

  py::register_exception<InvalidInput>(m, "InvalidInput", PyExc_ValueError);

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
      .value("face_capacity", Detail::face_capacity);

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

  // ---- shapes ------------------------------------------------------------------------------------
  py::class_<Shape>(m, "Shape", "A convex shape (proxima::AnyConvex); build one with the factory functions.")
      .def_property_readonly("kind", [](const Shape& s) { return std::string(s.get().kind()); },
                             "The scene type name ('sphere', 'box', ...).")
      .def("support", [](const Shape& s, const Vec3& d) { return s.get().support(d); }, "direction"_a,
           "The support point (local frame): a point of the shape maximising direction . x.")
      .def_property_readonly("margin", [](const Shape& s) { return s.get().margin(); },
                             "Radius of a rounded shape's swelling (0 for the others).")
      .def_property_readonly("bounding_sphere",
                             [](const Shape& s) {
                               const BoundingSphere b = s.get().bounding_sphere();
                               return py::make_tuple(b.center, b.radius);
                             },
                             "(center, radius) of a ball containing the shape (local frame).")
      .def_property_readonly("aabb",
                             [](const Shape& s) {
                               const Aabb b = s.get().local_aabb();
                               return py::make_tuple(b.min, b.max);
                             },
                             "(min, max) corners of the local axis-aligned bounding box.")
      .def("__reduce__",
           [](const Shape& s) {
             // proxima._rebuild_shape(factory, args) calls the factory (pybind11 functions do not pickle).
             return py::make_tuple(py::module_::import("proxima").attr("_rebuild_shape"), s.recipe);
           },
           "Pickles as its factory call (so shapes travel to Dask workers).")
      .def("__repr__", [](const Shape& s) { return "proxima.Shape(kind='" + std::string(s.get().kind()) + "')"; });

  m.def("point", [](const Vec3& position) { return make(Point(position), "point", py::make_tuple(position)); }, "position"_a = Vec3(Vec3::Zero()),
        "A single point.");
  m.def("segment", [](const Vec3& a, const Vec3& b) { return make(Segment(a, b), "segment", py::make_tuple(a, b)); }, "a"_a, "b"_a,
        "The segment [a, b].");
  m.def("triangle", [](const Vec3& a, const Vec3& b, const Vec3& c) { return make(Triangle(a, b, c), "triangle", py::make_tuple(a, b, c)); }, "a"_a,
        "b"_a, "c"_a, "The triangle abc.");
  m.def("sphere", [](double radius) { return make(Sphere(radius), "sphere", py::make_tuple(radius)); }, "radius"_a, "A ball of the given radius.");
  m.def("box", [](const Vec3& half_extents) { return make(Box(half_extents), "box", py::make_tuple(half_extents)); }, "half_extents"_a,
        "An axis-aligned box [-h, h] (half extents, each > 0).");
  m.def("capsule", [](double radius, double half_length) { return make(Capsule(radius, half_length), "capsule", py::make_tuple(radius, half_length)); }, "radius"_a,
        "half_length"_a, "A capsule along z: segment [-half_length, half_length] swollen by radius.");
  m.def("cylinder", [](double radius, double half_height) { return make(Cylinder(radius, half_height), "cylinder", py::make_tuple(radius, half_height)); },
        "radius"_a, "half_height"_a, "A cylinder along z.");
  m.def("cone", [](double radius, double half_height) { return make(Cone(radius, half_height), "cone", py::make_tuple(radius, half_height)); }, "radius"_a,
        "half_height"_a, "A cone along z, apex at +half_height.");
  m.def("ellipsoid", [](const Vec3& semiaxes) { return make(Ellipsoid(semiaxes), "ellipsoid", py::make_tuple(semiaxes)); }, "semiaxes"_a,
        "An axis-aligned ellipsoid.");
  m.def("polytope",
        [](const Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>& vertices) {
          std::vector<Vec3> v;
          for (Eigen::Index i = 0; i < vertices.rows(); ++i) v.emplace_back(vertices.row(i).transpose());
          return make(Polytope(v), "polytope", py::make_tuple(Eigen::MatrixXd(vertices)));
        },
        "vertices"_a, "The convex hull of the rows of `vertices` (k, 3).");
  m.def("superquadric",
        [](const Vec3& semiaxes, const Vec3& exponents) { return make(Superquadric(semiaxes, exponents), "superquadric", py::make_tuple(semiaxes, exponents)); },
        "semiaxes"_a, "exponents"_a, "A superquadric |x/a|^e1 + |y/b|^e2 + |z/c|^e3 <= 1 (scene format).");
  m.def("rounded", [](const Shape& core, double radius) { return make(AnyConvex::rounded(core.get(), radius), "rounded", py::make_tuple(core, radius)); },
        "core"_a, "radius"_a, "core + ball(radius).");
  m.def("affine",
        [](const Shape& shape, const Mat3& matrix, const Vec3& translation) {
          return make(AnyConvex::affine(shape.get(), matrix, translation), "affine", py::make_tuple(shape, matrix, translation));
        },
        "shape"_a, "matrix"_a, "translation"_a = Vec3(Vec3::Zero()), "The image matrix @ x + translation of `shape`.");
  m.def("minkowski", [](const Shape& a, const Shape& b) { return make(AnyConvex::minkowski(a.get(), b.get()), "minkowski", py::make_tuple(a, b)); },
        "a"_a, "b"_a, "The Minkowski sum a + b.");
  m.def("hull",
        [](const std::vector<Shape>& of) {
          std::vector<AnyConvex> shapes;
          for (const Shape& s : of) shapes.push_back(s.get());
          return make(AnyConvex::hull(std::move(shapes)), "hull", py::make_tuple(of));
        },
        "of"_a, "The convex hull of a list of shapes.");

  // ---- options and results -----------------------------------------------------------------------
  py::class_<gjk::GjkOptions>(m, "GjkOptions", "Tolerances and cap of a GJK run (proxima::gjk::GjkOptions).")
      .def(py::init([](double relative_tolerance, double absolute_tolerance, int max_iterations, bool nesterov) {
             return gjk::GjkOptions{relative_tolerance, absolute_tolerance, max_iterations, nesterov};
           }),
           "relative_tolerance"_a = kGjkRelativeTolerance, "absolute_tolerance"_a = kGjkAbsoluteTolerance,
           "max_iterations"_a = kGjkMaxIterations, "nesterov"_a = false, "GJK options (defaults from tolerance.hpp).")
      .def_readwrite("relative_tolerance", &gjk::GjkOptions::relative_tolerance)
      .def_readwrite("absolute_tolerance", &gjk::GjkOptions::absolute_tolerance)
      .def_readwrite("max_iterations", &gjk::GjkOptions::max_iterations)
      .def_readwrite("nesterov", &gjk::GjkOptions::nesterov);
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
      .def_readonly("iterations", &PenetrationResult::iterations)
      .def_readonly("status", &PenetrationResult::status)
      .def_readonly("detail", &PenetrationResult::detail)
      .def("__repr__", [](const PenetrationResult& r) {
        return "PenetrationResult(depth=" + format_number(r.depth) + ", intersect=" + (r.intersect ? "True" : "False") +
               ", status=" + std::string(to_string(r.status)) + ")";
      });

  // ---- gjk queries -------------------------------------------------------------------------------
  m.def("distance",
        [](const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, const std::optional<gjk::GjkOptions>& o) {
          const py::gil_scoped_release release;
          return batch::scalar_distance(a.get(), pa, b.get(), pb, o.value_or(gjk::GjkOptions{}));
        },
        "a"_a, "pose_a"_a, "b"_a, "pose_b"_a, "options"_a = std::nullopt,
        "GJK distance between a at pose_a and b at pose_b: DistanceResult (world frame).");
  m.def("intersect",
        [](const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, const std::optional<gjk::GjkOptions>& o) {
          const py::gil_scoped_release release;
          return batch::scalar_intersect(a.get(), pa, b.get(), pb, o.value_or(gjk::GjkOptions{}));
        },
        "a"_a, "pose_a"_a, "b"_a, "pose_b"_a, "options"_a = std::nullopt,
        "GJK overlap test with a separating-axis certificate: IntersectResult.");
  m.def("penetration",
        [](const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, const std::optional<gjk::EpaOptions>& o) {
          const py::gil_scoped_release release;
          return batch::scalar_penetration(a.get(), pa, b.get(), pb, o.value_or(gjk::EpaOptions{}));
        },
        "a"_a, "pose_a"_a, "b"_a, "pose_b"_a, "options"_a = std::nullopt,
        "GJK + EPA penetration depth: PenetrationResult (translating b by depth * normal separates them).");

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

  // ---- batch -------------------------------------------------------------------------------------
  constexpr const char* kBatchArgs =
      "\n\na, b: a Shape (broadcast) or a sequence of N shapes. pose_a, pose_b: a Pose, a list of Pose,\n"
      "an (N, 7) array of rows [tx, ty, tz, qw, qx, qy, qz] (scalar_first=False: [tx, ty, tz, qx, qy,\n"
      "qz, qw]) or an (N, 4, 4) array; length 1 broadcasts. C-contiguous float64 arrays are read in\n"
      "place. threads: 0 = all cores; results do not depend on it. bad_poses: 'raise' (ValueError\n"
      "naming e.g. pose_b[7]) or 'mark' (that element gets status degenerate_input, the rest is\n"
      "answered). The GIL is released while the batch runs. Returns a dict of numpy arrays.";
  m.def("batch_intersect", &batch_intersect, "a"_a, "pose_a"_a, "b"_a, "pose_b"_a, py::kw_only(), "threads"_a = 0,
        "bad_poses"_a = "raise", "scalar_first"_a = true, "options"_a = std::nullopt,
        (std::string("Batched intersect: keys intersect (N,) bool, separating_axis (N, 3), iterations, status, detail.") +
         kBatchArgs).c_str());
  m.def("batch_distance", &batch_distance, "a"_a, "pose_a"_a, "b"_a, "pose_b"_a, py::kw_only(), "threads"_a = 0,
        "bad_poses"_a = "raise", "scalar_first"_a = true, "options"_a = std::nullopt,
        (std::string("Batched distance: keys distance, intersect, point_a, point_b, normal, gap, iterations, status, detail.") +
         kBatchArgs).c_str());
  m.def("batch_penetration", &batch_penetration, "a"_a, "pose_a"_a, "b"_a, "pose_b"_a, py::kw_only(), "threads"_a = 0,
        "bad_poses"_a = "raise", "scalar_first"_a = true, "options"_a = std::nullopt,
        (std::string("Batched penetration: keys intersect, depth, normal, point_a, point_b, iterations, status, detail.") +
         kBatchArgs).c_str());
  m.def("hardware_threads", [] { return batch::resolved_threads({}); },
        "Number of threads a batch uses with threads=0.");
}
