// SPDX-License-Identifier: MIT
// Bounding volumes every shape reports in its own local frame.
#pragma once

#include <proxima/core/types.hpp>

namespace proxima {

/// Axis-aligned box in a shape's local frame: every point x of the shape has min <= x <= max.
struct Aabb {
  Vec3 min = nan_vec3();
  Vec3 max = nan_vec3();
};

/// Sphere in a shape's local frame that contains the shape. Not necessarily the smallest one;
/// algorithms use `center` as an interior-ish starting point and `radius` as the shape's scale.
struct BoundingSphere {
  Vec3 center = nan_vec3();
  double radius = kNaN;
};

}  // namespace proxima
