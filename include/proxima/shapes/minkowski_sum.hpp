// SPDX-License-Identifier: MIT
// MinkowskiSum<A, B>: A + B = {a + b}, seed 002, section 4.3: s_{A+B}(v) = s_A(v) + s_B(v).
// Sweeping a shape by a segment, or rounding it by a sphere, are Minkowski sums.
#pragma once

#include <proxima/core/bounds.hpp>
#include <proxima/shapes/concepts.hpp>

#include <utility>

namespace proxima {

/// A + B in the common local frame of A and B. Holds both by value.
/// If either summand is rounded (RoundedSupportMap), so is the sum: its core is core(A) + core(B)
/// and its margin the sum of the margins (a ball plus a ball is a ball), which keeps GJK exact.
template <SupportMap A, SupportMap B>
class MinkowskiSum {
 public:
  MinkowskiSum(A a, B b) : a_(std::move(a)), b_(std::move(b)) {}

  /// s_A(v) + s_B(v). Cost: two supports; no allocation. d == 0: s_A(0) + s_B(0).
  Vec3 support(const Vec3& v) const { return a_.support(v) + b_.support(v); }

  /// core(A) + core(B) (only when a summand is rounded).
  Vec3 core_support(const Vec3& v) const
    requires(RoundedSupportMap<A> || RoundedSupportMap<B>)
  {
    return proxima::core_support(a_, v) + proxima::core_support(b_, v);
  }
  /// margin(A) + margin(B) (only when a summand is rounded).
  double margin() const
    requires(RoundedSupportMap<A> || RoundedSupportMap<B>)
  {
    return proxima::margin(a_) + proxima::margin(b_);
  }

  const A& a() const noexcept { return a_; }
  const B& b() const noexcept { return b_; }

  /// Centres and radii add.
  BoundingSphere bounding_sphere() const {
    const BoundingSphere sa = a_.bounding_sphere();
    const BoundingSphere sb = b_.bounding_sphere();
    return {sa.center + sb.center, sa.radius + sb.radius};
  }
  /// Boxes add (exact: the box of a sum is the sum of the boxes).
  Aabb local_aabb() const {
    const Aabb ba = a_.local_aabb();
    const Aabb bb = b_.local_aabb();
    return {ba.min + bb.min, ba.max + bb.max};
  }

 private:
  A a_;
  B b_;
};

}  // namespace proxima
