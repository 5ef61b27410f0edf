// SPDX-License-Identifier: MIT
// Axis-aligned box centred at the local origin, given by half extents (never full sides).
#pragma once

#include <proxima/core/bounds.hpp>
#include <proxima/core/error.hpp>

namespace proxima {

/// The box {x : |x_i| <= half_extents_i}.
class Box {
 public:
  /// Throws InvalidInput("half_extents.x" ...) unless every half extent is finite and > 0.
  explicit Box(const Vec3& half_extents) : h_(half_extents) {
    require_positive("half_extents", half_extents);
    radius_ = h_.norm();
  }

  /// s(d)_i = sign(d_i) * h_i, with sign(0) = +1 so the answer is a vertex (seed 002, 3.2).
  Vec3 support(const Vec3& d) const {
    return {d.x() < 0 ? -h_.x() : h_.x(), d.y() < 0 ? -h_.y() : h_.y(), d.z() < 0 ? -h_.z() : h_.z()};
  }

  const Vec3& half_extents() const noexcept { return h_; }
  /// Radius |h|, computed once at construction (every GJK query asks for it).
  BoundingSphere bounding_sphere() const { return {Vec3::Zero(), radius_}; }
  Aabb local_aabb() const { return {-h_, h_}; }

 private:
  Vec3 h_;
  double radius_ = 0;
};

}  // namespace proxima
