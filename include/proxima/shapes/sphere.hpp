// SPDX-License-Identifier: MIT
// Sphere centred at the local origin: a point swollen by its radius (a RoundedSupportMap), so
// GJK sees a point and adds the radius back exactly.
#pragma once

#include <proxima/core/bounds.hpp>
#include <proxima/core/error.hpp>
#include <proxima/shapes/concepts.hpp>

namespace proxima {

/// The ball {x : |x| <= radius}. Mathematically Rounded<Point>; it stays its own small type
/// because it is the most common shape, has one field, and is the scene's "sphere".
class Sphere {
 public:
  /// Throws InvalidInput("radius") unless radius is finite and > 0.
  explicit Sphere(double radius) : radius_(radius) { require_positive("radius", radius); }

  /// s(d) = radius * d / |d| (no overflow for huge or tiny d); the centre for d == 0.
  Vec3 support(const Vec3& d) const { return radius_ * unit_or_zero(d); }
  /// The core is the centre point.
  Vec3 core_support(const Vec3& /*d*/) const { return Vec3::Zero(); }
  double margin() const noexcept { return radius_; }

  double radius() const noexcept { return radius_; }
  BoundingSphere bounding_sphere() const { return {Vec3::Zero(), radius_}; }
  Aabb local_aabb() const { return {Vec3::Constant(-radius_), Vec3::Constant(radius_)}; }

 private:
  double radius_;
};

}  // namespace proxima
