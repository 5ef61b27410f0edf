// SPDX-License-Identifier: MIT
// A single point: the simplest support mapping, and the core of a sphere.
#pragma once

#include <proxima/core/bounds.hpp>
#include <proxima/core/error.hpp>

namespace proxima {

/// The point {p} in its local frame.
class Point {
 public:
  /// The origin.
  Point() = default;
  /// The point p; throws InvalidInput("position") if not finite.
  explicit Point(const Vec3& p) : p_(p) { require_finite("position", p); }

  /// s(d) = p for every d.
  Vec3 support(const Vec3& /*d*/) const { return p_; }
  const Vec3& position() const noexcept { return p_; }
  BoundingSphere bounding_sphere() const { return {p_, 0}; }
  Aabb local_aabb() const { return {p_, p_}; }

 private:
  Vec3 p_ = Vec3::Zero();
};

}  // namespace proxima
