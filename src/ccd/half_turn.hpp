// SPDX-License-Identifier: MIT
// Private: the one sincos of a screw's turn by phi (of phi / 2) and what is built from it, shared by
// Screw::apply / Screw::rotate, the properness turns and the exact mode's slab placement, so that
// a caller that turns many vectors by one angle pays for the sincos once and gets the same bits.
#pragma once

#include <proxima/ccd/screw.hpp>
#include <proxima/core/types.hpp>

#include "ccd/turn_sincos.hpp"

#include <cmath>
#include <utility>

namespace proxima::ccd::detail {

/// sin(phi / 2) and cos(phi / 2) (one sincos: turn_sincos.hpp, within 1 ulp of the C library's).
struct HalfTurn {
  double sh, ch;
};
inline HalfTurn half_turn(double phi) {
  const SinCos h = turn_sincos(phi / 2);
  return {h.sin, h.cos};
}

/// (R(phi) - I) w with R the rotation about unit v: sin(phi) v x w + (1 - cos(phi)) v x (v x w), with
/// 1 - cos written as 2 sin^2(phi/2) so small angles keep their digits.
inline Vec3 rotation_minus_identity(const Vec3& v, const HalfTurn& h, const Vec3& w) {
  const Vec3 vw = v.cross(w);
  return (2 * h.sh * h.ch) * vw + (2 * h.sh * h.sh) * v.cross(vw);
}

/// Screw::apply(x, s) of a turning screw (angle != 0), given h = half_turn(s * screw.angle).
inline Vec3 turned_apply(const Screw& screw, const HalfTurn& h, const Vec3& x, double s) {
  return x + rotation_minus_identity(screw.axis, h, x - screw.axis_point) + s * screw.glide * screw.axis;
}

/// Screw::rotate(d, s) of a turning screw (angle != 0), given h = half_turn(s * screw.angle).
inline Vec3 turned_rotate(const Screw& screw, const HalfTurn& h, const Vec3& d) {
  return d + rotation_minus_identity(screw.axis, h, d);
}

/// {sin(phi), 1 - cos(phi)} from the half angle's sincos.
inline std::pair<double, double> turn_of(const HalfTurn& h) { return {2 * h.sh * h.ch, 2 * h.sh * h.sh}; }

}  // namespace proxima::ccd::detail
