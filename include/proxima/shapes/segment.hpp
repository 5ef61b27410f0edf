// SPDX-License-Identifier: MIT
// Line segment between two points: the core of a capsule (Capsule = Rounded<Segment>).
#pragma once

#include <proxima/core/bounds.hpp>
#include <proxima/core/error.hpp>

namespace proxima {

/// The segment conv{a, b} in its local frame.
class Segment {
 public:
  /// Throws InvalidInput("a.x" ...) / ("b.y" ...) on a non-finite entry, and InvalidInput("b")
  /// when b == a (a zero-length segment is a point: use Point).
  Segment(const Vec3& a, const Vec3& b) : a_(a), b_(b) {
    require_finite("a", a);
    require_finite("b", b);
    if (a == b) throw InvalidInput("b", "must differ from a (zero-length segment)");
  }

  /// The segment from (0, 0, -half_length) to (0, 0, +half_length): a capsule's core.
  /// Throws InvalidInput("half_length") unless half_length is finite and > 0.
  static Segment along_z(double half_length) {
    require_positive("half_length", half_length);
    return Segment(Vec3(0, 0, -half_length), Vec3(0, 0, half_length));
  }

  /// The endpoint maximising d . x; `a` on ties (so d == 0 gives a). O(1), no allocation.
  Vec3 support(const Vec3& d) const { return d.dot(b_) > d.dot(a_) ? b_ : a_; }

  const Vec3& a() const noexcept { return a_; }
  const Vec3& b() const noexcept { return b_; }
  /// Centred at the midpoint, radius half the length.
  BoundingSphere bounding_sphere() const { return {(a_ + b_) / 2, (b_ - a_).norm() / 2}; }
  Aabb local_aabb() const { return {a_.cwiseMin(b_), a_.cwiseMax(b_)}; }

 private:
  Vec3 a_;
  Vec3 b_;
};

}  // namespace proxima
