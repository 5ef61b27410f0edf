// SPDX-License-Identifier: MIT
// Private: the signed distance of a point carried by a screw to a fixed plane, in closed form, for
// the vertex-face contact functions of both screw_collisions modes.
#pragma once

#include <proxima/ccd/screw.hpp>

#include "ccd/half_turn.hpp"

#include <cmath>

namespace proxima::ccd::detail {

// The signed distance of a point x carried by a screw (angle alpha, glide gamma, unit axis v
// through u) to a fixed plane n . y = d, in closed form: with w = x - u and phi = s alpha,
//   f(s) = c0 + c1 sin(phi) + c2 (1 - cos(phi)) + c3 s,
// c0 = n . x - d, c1 = n . (v x w), c2 = n . (v x (v x w)), c3 = gamma n . v. One sincos per
// evaluation and no vector work; the slope bounds use the plane's view of the motion, |f'| <=
// |alpha| hypot(c1, c2) + |c3| and |f''| <= alpha^2 hypot(c1, c2), which are never larger than
// the point's speed and centripetal bounds and much smaller when n is nearly along the axis.
struct PlaneDistance {
  double c0, c1, c2, c3, alpha;
  PlaneDistance(const Screw& screw, const Vec3& x, const Vec3& n, double d) : alpha(screw.angle) {
    const Vec3 vw = screw.axis.cross(x - screw.axis_point);
    c0 = n.dot(x) - d;
    c1 = n.dot(vw);
    c2 = n.dot(screw.axis.cross(vw));
    c3 = screw.glide * n.dot(screw.axis);
  }
  double value(double s) const {
    const auto [sine, versine] = turn_of(half_turn(s * alpha));
    return c0 + sine * c1 + versine * c2 + s * c3;
  }
  double slope(double s) const {
    const SinCos t = turn_sincos(s * alpha);
    return alpha * (c1 * t.cos + c2 * t.sin) + c3;
  }
  double slope_bound() const { return std::abs(alpha) * std::hypot(c1, c2) + std::abs(c3); }
  double curvature_bound() const { return alpha * alpha * std::hypot(c1, c2); }
};

}  // namespace proxima::ccd::detail
