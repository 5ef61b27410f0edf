// SPDX-License-Identifier: MIT
// Plain support functions of the benchmark bodies, written independently of proxima's shapes so
// the references do not share code with the implementation under test. Local frame; d != 0.
#pragma once

#include "../common.hpp"

#include <cmath>

namespace proxima::bench {

/// A point of `body` maximising d . x (local frame).
inline Vec3 body_support(const Body& body, const Vec3& d) {
  const Vec3& s = body.size;
  switch (body.kind) {
    case ShapeKind::polytope:
    case ShapeKind::box: {
      const auto& v = body.hull.vertices;
      std::size_t best = 0;
      double best_value = d.dot(v[0]);
      for (std::size_t i = 1; i < v.size(); ++i) {
        const double value = d.dot(v[i]);
        if (value > best_value) {
          best_value = value;
          best = i;
        }
      }
      return v[best];
    }
    case ShapeKind::sphere: {
      const double n = d.norm();
      return n > 0 ? Vec3(d * (s.x() / n)) : Vec3::Zero();
    }
    case ShapeKind::capsule: {
      const double n = d.norm();
      const Vec3 tip(0, 0, d.z() >= 0 ? s.y() : -s.y());
      return n > 0 ? Vec3(tip + d * (s.x() / n)) : tip;
    }
    case ShapeKind::cylinder: {
      const double rho = std::hypot(d.x(), d.y());
      const double z = d.z() >= 0 ? s.y() : -s.y();
      if (rho > 0) return {s.x() * d.x() / rho, s.x() * d.y() / rho, z};
      return {0, 0, z};
    }
    case ShapeKind::cone: {
      const double rho = std::hypot(d.x(), d.y());
      const Vec3 apex(0, 0, s.y());
      const Vec3 rim = rho > 0 ? Vec3(s.x() * d.x() / rho, s.x() * d.y() / rho, -s.y()) : Vec3(0, 0, -s.y());
      return d.dot(apex) >= d.dot(rim) ? apex : rim;
    }
    case ShapeKind::ellipsoid: {
      const Vec3 ad = s.cwiseProduct(d);
      const double n = ad.norm();
      return n > 0 ? Vec3(s.cwiseProduct(ad) / n) : Vec3::Zero();
    }
  }
  return Vec3::Zero();
}

/// Support value h(d) = max over the body of d . x.
inline double body_support_value(const Body& body, const Vec3& d) { return d.dot(body_support(body, d)); }

/// Signed distance-like membership test: <= 0 inside (local point), in length units for the
/// primitives, in plane-distance units for polytopes (max over face planes).
double body_outside(const Body& body, const Vec3& p);

}  // namespace proxima::bench
