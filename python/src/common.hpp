// SPDX-License-Identifier: MIT
// Shared by the binding files of the `proxima` extension (one file per layer: core, shapes,
// query, lp, mesh, ipm, ccd, batch): the Python Shape handle, pose conversion, numpy argument
// readers and the bind_* entry points module.cpp calls in dependency order.
//
// Conventions: quaternions are (w, x, y, z) unless the caller passes scalar_first=False (then
// (x, y, z, w), scipy's order); never guessed. proxima::InvalidInput becomes proxima.InvalidInput
// (a ValueError) with the same message; arguments of the wrong type raise TypeError.
#pragma once

#include <proxima/batch/batch.hpp>
#include <proxima/core/error.hpp>
#include <proxima/core/pose.hpp>
#include <proxima/shapes/any_convex.hpp>

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace proxima::python {

namespace py = pybind11;

using DoubleArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

/// A Python shape: an AnyConvex behind a shared pointer (cheap to pass to compounds).
/// `recipe` = (factory name, argument tuple) rebuilds it, which is how a Shape pickles (Dask).
struct Shape {
  std::shared_ptr<const AnyConvex> shape;
  py::tuple recipe;
  const AnyConvex& get() const { return *shape; }
};
Shape make_shape(AnyConvex s, const char* factory, py::tuple args);

std::string vec_repr(const Vec3& v);
/// The Python type name of obj (for TypeError messages).
std::string type_name(const py::handle& obj);

Pose pose_from_quaternion(const Eigen::Vector4d& q, const Vec3& t, bool scalar_first);
/// A pose from a 3 x 3 rotation (plus optional translation) or a 4 x 4 homogeneous matrix.
Pose pose_from_matrix(const Eigen::MatrixXd& m, const std::optional<Vec3>& translation);

// ---- batch arguments -------------------------------------------------------------------------

/// Shapes of a batch argument: one Shape (broadcast) or a sequence of them.
struct ShapeArg {
  std::vector<AnyConvex> owned;
  const AnyConvex* single = nullptr;
  std::span<const AnyConvex> span() const {
    return single ? std::span<const AnyConvex>(single, 1) : std::span<const AnyConvex>(owned);
  }
};
ShapeArg shape_arg(const py::object& obj, const char* name);

/// Poses of a batch argument: a Pose (broadcast), a list of Pose, or an array (7,), (N, 7),
/// (4, 4), (N, 4, 4). Keeps the (possibly converted) array alive.
struct PoseArg {
  DoubleArray array;
  std::vector<Pose> poses;
  batch::PoseArray view;
};
PoseArg pose_arg(const py::object& obj, const char* name, bool scalar_first);

/// A float64 array of rows of `width` doubles: (width,) is one row (broadcast), (N, width) N rows.
/// Integer arrays are converted; other dtypes raise TypeError, other shapes ValueError naming
/// `name`. C-contiguous float64 input is read in place.
struct RowsArg {
  DoubleArray array;
  std::size_t rows = 0;
};
RowsArg rows_arg(const py::object& obj, const char* name, py::ssize_t width);

/// "raise" / "mark" -> the batch policy (ValueError naming bad_poses otherwise).
batch::BadPosePolicy bad_pose_policy(const std::string& bad_poses);

template <class T>
py::array_t<T> new_array(std::size_t n, std::size_t width = 1) {
  if (width == 1) return py::array_t<T>(static_cast<py::ssize_t>(n));
  return py::array_t<T>(std::vector<py::ssize_t>{static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(width)});
}
template <class T>
std::span<T> span_of(py::array_t<T>& a) {
  return std::span<T>(a.mutable_data(), static_cast<std::size_t>(a.size()));
}
/// A uint8 0/1 array viewed as numpy bool (no copy).
py::array as_bool(py::array_t<std::uint8_t>& a);

/// Sets the attributes of a freshly built options object from keyword arguments; an unknown
/// name raises TypeError listing it (so IpmOptions(max_iteration=3) is not silently ignored).
void set_from_kwargs(const py::object& self, const py::kwargs& kwargs, const char* type);

// ---- the layers, in dependency order ----------------------------------------------------------
void bind_core(py::module_& m);    ///< Status, Detail, Pose, result structs, GJK/EPA options
void bind_shapes(py::module_& m);  ///< Shape and its factories
void bind_query(py::module_& m);   ///< distance / intersect / penetration, WarmStart, Pair
void bind_lp(py::module_& m);      ///< lp_intersect, lp_contains, lp_distance, lp_point_inside
void bind_mesh(py::module_& m);    ///< submodule mesh: Mesh, files, generators
void bind_ipm(py::module_& m);     ///< submodule ipm: primitives, objects, presets, queries
void bind_ccd(py::module_& m);     ///< submodule ccd: screw motions, screw_collisions, toi
void bind_batch(py::module_& m);   ///< batch_* on numpy arrays

}  // namespace proxima::python
