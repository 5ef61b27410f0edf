// SPDX-License-Identifier: MIT
// Rounded<Core>: a convex core swollen by a ball (the Minkowski sum core + ball(radius)). A
// capsule is a rounded segment, a rounded box has radiused edges, a sphere is a rounded point.
// GJK works on the core and adds the radius back exactly (RoundedSupportMap, concepts.hpp).
#pragma once

#include <proxima/core/bounds.hpp>
#include <proxima/core/error.hpp>
#include <proxima/shapes/concepts.hpp>

#include <utility>

namespace proxima {

/// core + ball(radius), in the core's local frame. If Core is itself rounded (e.g. Rounded of a
/// Sphere), the margins add up and core_support() reaches through to the innermost core.
template <SupportMap Core>
class Rounded {
 public:
  /// Throws InvalidInput("radius") unless radius is finite and > 0.
  Rounded(Core core, double radius) : core_(std::move(core)), radius_(radius) {
    require_positive("radius", radius);
  }

  /// s(d) = s_core(d) + margin() * d / |d| (seed 002, 4.3, Minkowski sum with a ball). For d == 0
  /// the core's support of 0. Cost: one core support plus one norm; no allocation.
  Vec3 support(const Vec3& d) const { return proxima::core_support(core_, d) + margin() * unit_or_zero(d); }
  /// Support of the innermost (non-rounded) core.
  Vec3 core_support(const Vec3& d) const { return proxima::core_support(core_, d); }
  /// Core support with a hill-climbing hint, when the core takes one (e.g. a rounded Polytope).
  Vec3 core_support(const Vec3& d, int& hint) const
    requires HintedSupportMap<Core> || HintedCoreSupportMap<Core>
  {
    return proxima::core_support(core_, d, hint);
  }
  /// Radius of the swelling: this radius plus the core's own margin, if any.
  double margin() const { return radius_ + proxima::margin(core_); }

  const Core& core() const noexcept { return core_; }
  /// The radius given at construction (not including the core's own margin).
  double radius() const noexcept { return radius_; }
  BoundingSphere bounding_sphere() const {
    const BoundingSphere s = core_.bounding_sphere();
    return {s.center, s.radius + radius_};
  }
  Aabb local_aabb() const {
    const Aabb b = core_.local_aabb();
    return {b.min.array() - radius_, b.max.array() + radius_};
  }

 private:
  Core core_;
  double radius_;
};

}  // namespace proxima
