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

}  // namespace proxima
