// SPDX-License-Identifier: MIT
// Cone with its axis along z: base disc of radius `radius` at z = -half_height, apex at
// z = +half_height (DESIGN.md). Seed 002, 4.1 "Cone" (axis moved from y to z).
#pragma once

#include <proxima/core/bounds.hpp>
#include <proxima/core/error.hpp>
#include <proxima/shapes/concepts.hpp>

#include <cmath>

namespace proxima {

/// conv({apex (0, 0, h)} U {base disc x^2 + y^2 <= r^2 at z = -h}).
class Cone {
 public:
  /// Throws InvalidInput("radius") / ("half_height") unless each is finite and > 0.
  Cone(double radius, double half_height) : radius_(radius), half_height_(half_height) {
    require_positive("radius", radius);
    require_positive("half_height", half_height);
    bounding_radius_ = std::hypot(radius_, half_height_);
  }

  /// The apex or the point of the base rim in the direction of (d.x, d.y), whichever has the
  /// larger d . x (the seed's test on the half-angle, written as that comparison); the apex on
  /// ties, so d == 0 gives the apex. When d is parallel to -z, the base centre. O(1).
  Vec3 support(const Vec3& d) const {
    const double sigma = planar_norm(d.x(), d.y());  // no overflow / underflow
    const double apex_value = d.z() * half_height_;
    const double rim_value = radius_ * sigma - d.z() * half_height_;
    if (apex_value >= rim_value) return {0, 0, half_height_};
    if (sigma > 0) return {radius_ * (d.x() / sigma), radius_ * (d.y() / sigma), -half_height_};
    return {0, 0, -half_height_};
  }

  double radius() const noexcept { return radius_; }
  double half_height() const noexcept { return half_height_; }
  /// Centred at the origin (not the smallest ball, but the one the query scale assumes).
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
