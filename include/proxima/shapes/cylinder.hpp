// SPDX-License-Identifier: MIT
// Cylinder with its axis along z, centred at the origin (seed 002, 4.1 "Cylinder", with the axis
// moved from y to z per DESIGN.md).
#pragma once

#include <proxima/core/bounds.hpp>
#include <proxima/core/error.hpp>
#include <proxima/shapes/concepts.hpp>

#include <cmath>

namespace proxima {

/// {x : x^2 + y^2 <= radius^2, |z| <= half_height}.
class Cylinder {
 public:
  /// Throws InvalidInput("radius") / ("half_height") unless each is finite and > 0.
  Cylinder(double radius, double half_height) : radius_(radius), half_height_(half_height) {
    require_positive("radius", radius);
    require_positive("half_height", half_height);
    bounding_radius_ = std::hypot(radius_, half_height_);
  }

  /// A point of the rim of the top (d.z >= 0) or bottom cap in the direction of (d.x, d.y); the
  /// cap centre when d is parallel to z (so d == 0 gives (0, 0, half_height)). O(1).
  Vec3 support(const Vec3& d) const {
    const double sigma = planar_norm(d.x(), d.y());  // no overflow / underflow
    const double z = d.z() < 0 ? -half_height_ : half_height_;
    if (sigma > 0) return {radius_ * (d.x() / sigma), radius_ * (d.y() / sigma), z};
    return {0, 0, z};
  }

  double radius() const noexcept { return radius_; }
  double half_height() const noexcept { return half_height_; }
  BoundingSphere bounding_sphere() const { return {Vec3::Zero(), bounding_radius_}; }
  Aabb local_aabb() const {
    return {Vec3(-radius_, -radius_, -half_height_), Vec3(radius_, radius_, half_height_)};
  }

 private:
  double radius_;
  double half_height_;
  double bounding_radius_ = 0;  // hypot(radius, half_height), computed once
};

}  // namespace proxima
