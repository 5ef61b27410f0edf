// SPDX-License-Identifier: MIT
// Triangle (a flat 2-simplex): the support mapping of its three vertices (seed 002, 4.1,
// "Polytope", with the vertex list fixed at three).
#pragma once

#include <proxima/core/bounds.hpp>
#include <proxima/core/error.hpp>

#include <algorithm>

namespace proxima {

/// The triangle conv{a, b, c} in its local frame. A degenerate (collinear) triangle is accepted:
/// it is still a convex set (a segment) and its support mapping is still exact.
class Triangle {
 public:
  /// Throws InvalidInput("a.x" ...) on a non-finite entry, and InvalidInput("vertices") when the
  /// three vertices are identical.
  Triangle(const Vec3& a, const Vec3& b, const Vec3& c) : a_(a), b_(b), c_(c) {
    require_finite("a", a);
    require_finite("b", b);
    require_finite("c", c);
    if (a == b && b == c) throw InvalidInput("vertices", "all three vertices are identical");
  }

  /// The vertex maximising d . x; the first of a, b, c on ties (d == 0 gives a). O(1).
  Vec3 support(const Vec3& d) const {
    const double da = d.dot(a_);
    const double db = d.dot(b_);
    const double dc = d.dot(c_);
    if (dc > da && dc > db) return c_;
    return db > da ? b_ : a_;
  }

  const Vec3& a() const noexcept { return a_; }
  const Vec3& b() const noexcept { return b_; }
  const Vec3& c() const noexcept { return c_; }
  /// Centred at the centroid; radius the largest vertex distance from it.
  BoundingSphere bounding_sphere() const {
    const Vec3 g = (a_ + b_ + c_) / 3;
    return {g, std::max({(a_ - g).norm(), (b_ - g).norm(), (c_ - g).norm()})};
  }
  Aabb local_aabb() const { return {a_.cwiseMin(b_).cwiseMin(c_), a_.cwiseMax(b_).cwiseMax(c_)}; }

 private:
  Vec3 a_;
  Vec3 b_;
  Vec3 c_;
};

}  // namespace proxima
