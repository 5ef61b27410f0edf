// SPDX-License-Identifier: MIT
// ConvexHull<S...>: conv(S_1 U ... U S_n) of a compile-time list of shapes. Seed 002, section 4.4:
// the support is the member support with the largest v . s_i(v).
#pragma once

#include <proxima/core/bounds.hpp>
#include <proxima/shapes/concepts.hpp>

#include <algorithm>
#include <limits>
#include <tuple>
#include <utility>

namespace proxima {

/// The convex hull of one or more shapes sharing a local frame. Holds them by value (a tuple).
/// For a hull of a runtime list, use AnyConvexHull (any_convex.hpp).
template <SupportMap... S>
  requires(sizeof...(S) >= 1)
class ConvexHull {
 public:
  explicit ConvexHull(S... shapes) : shapes_(std::move(shapes)...) {}

  /// The member support maximising v . s_i(v); the first member on ties (so d == 0 gives the
  /// first member's support of 0). Cost: one support per member; no allocation.
  Vec3 support(const Vec3& v) const {
    Vec3 best = Vec3::Zero();
    double best_value = -std::numeric_limits<double>::infinity();
    std::apply(
        [&](const auto&... shape) {
          const auto consider = [&](const Vec3& p) {
            const double value = v.dot(p);
            if (value > best_value || best_value == -std::numeric_limits<double>::infinity()) {
              best = p;
              best_value = value > best_value ? value : best_value;
            }
          };
          (consider(shape.support(v)), ...);
        },
        shapes_);
    return best;
  }

  const std::tuple<S...>& shapes() const noexcept { return shapes_; }

  /// Union of the members' boxes.
  Aabb local_aabb() const {
    Aabb box{Vec3::Constant(std::numeric_limits<double>::infinity()),
             Vec3::Constant(-std::numeric_limits<double>::infinity())};
    std::apply([&](const auto&... shape) { ((grow(box, shape.local_aabb())), ...); }, shapes_);
    return box;
  }
  /// Centred at the centre of the union box, radius reaching every member's sphere.
  BoundingSphere bounding_sphere() const {
    const Aabb box = local_aabb();
    const Vec3 centre = (box.min + box.max) / 2;
    double radius = 0;
    std::apply(
        [&](const auto&... shape) {
          ((radius = std::max(radius, (shape.bounding_sphere().center - centre).norm() + shape.bounding_sphere().radius)),
           ...);
        },
        shapes_);
    return {centre, radius};
  }

 private:
  static void grow(Aabb& box, const Aabb& other) {
    box.min = box.min.cwiseMin(other.min);
    box.max = box.max.cwiseMax(other.max);
  }

  std::tuple<S...> shapes_;
};

}  // namespace proxima
