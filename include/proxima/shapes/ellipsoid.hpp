// SPDX-License-Identifier: MIT
// Axis-aligned ellipsoid centred at the origin: the image of the unit ball under diag(semiaxes),
// so its support is that of an affine image of a sphere (seed 002, 4.2, theorem 2).
#pragma once

#include <proxima/core/bounds.hpp>
#include <proxima/core/error.hpp>

#include <cmath>

namespace proxima {

/// {x : (x/a)^2 + (y/b)^2 + (z/c)^2 <= 1} with semiaxes (a, b, c).
class Ellipsoid {
 public:
  /// Throws InvalidInput("semiaxes.x" ...) unless every semiaxis is finite and > 0.
  explicit Ellipsoid(const Vec3& semiaxes) : a_(semiaxes) { require_positive("semiaxes", semiaxes); }

  /// s(d) = A^2 d / |A d| with A = diag(semiaxes); the centre for d == 0. When |A d|^2 is outside
  /// the comfortably normal range, d is first divided by its largest entry so that huge or tiny
  /// directions neither overflow nor underflow. O(1).
  Vec3 support(const Vec3& d) const {
    const Vec3 ad_plain = a_.cwiseProduct(d);
    const double nn = ad_plain.squaredNorm();
    if (nn >= 0x1p-900 && nn <= 0x1p900) return a_.cwiseProduct(ad_plain) / std::sqrt(nn);
    const double m = d.cwiseAbs().maxCoeff();
    if (!(m > 0)) return Vec3::Zero();
    const Vec3 ad = a_.cwiseProduct(d / m);
    return a_.cwiseProduct(ad) / ad.norm();
  }

  const Vec3& semiaxes() const noexcept { return a_; }
  BoundingSphere bounding_sphere() const { return {Vec3::Zero(), a_.maxCoeff()}; }
  Aabb local_aabb() const { return {-a_, a_}; }

 private:
  Vec3 a_;
};

}  // namespace proxima
