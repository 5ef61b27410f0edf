// SPDX-License-Identifier: MIT
// Vocabulary types shared by every layer: Eigen fixed-size vectors in double precision.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <limits>

namespace proxima {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;

/// Quiet NaN: the value of every result field that a query did not set, so a misread is visible.
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// A vector of three NaNs (see kNaN).
inline Vec3 nan_vec3() { return Vec3::Constant(kNaN); }

/// a + s * b, the same bits as that Eigen expression, always evaluated in line: in a large
/// translation unit GCC 12 keeps Eigen's assignment of `a + s * b` out of line (a call through an
/// expression object on the stack at every use; in the benchmark's unit it was in GJK's
/// sub-distance step and the closed forms' points, docs/benchmarks.md session 22). flatten inlines
/// Eigen's assignment into this helper, always_inline the helper into its caller. a - s * b is
/// add_scaled(a, -s, b): IEEE subtraction is the addition of the negation, bit for bit.
[[gnu::flatten]] inline Vec3 add_scaled(const Vec3& a, double s, const Vec3& b) {
  return a + s * b;
}

/// r^T v, the same bits as Eigen's `r.transpose() * v` (each coordinate a column of r dotted
/// with v, summed left to right; tests/core/transpose_times_test.cpp), written out so it is always
/// evaluated in line: GCC 12 kept Eigen's assignment of that product out of line in large
/// translation units (a call per use, e.g. in the box pair's pre-pass, the ellipsoid Newton step
/// and every Pose::rotate_inverse; docs/benchmarks.md, session 23).
inline Vec3 transpose_times(const Mat3& r, const Vec3& v) {
  return Vec3(r(0, 0) * v.x() + r(1, 0) * v.y() + r(2, 0) * v.z(), r(0, 1) * v.x() + r(1, 1) * v.y() + r(2, 1) * v.z(),
              r(0, 2) * v.x() + r(1, 2) * v.y() + r(2, 2) * v.z());
}

}  // namespace proxima
