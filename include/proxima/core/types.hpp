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

}  // namespace proxima
