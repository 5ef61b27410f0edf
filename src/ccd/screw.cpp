// SPDX-License-Identifier: MIT
#include <proxima/ccd/screw.hpp>

#include <proxima/core/error.hpp>

#include "ccd/half_turn.hpp"

#include <cmath>
#include <numbers>

namespace proxima::ccd {

Vec3 Screw::apply(const Vec3& x, double s) const {
  if (angle == 0) return x + s * glide * axis;
  return detail::turned_apply(*this, detail::half_turn(s * angle), x, s);
}

Vec3 Screw::rotate(const Vec3& d, double s) const {
  if (angle == 0) return d;
  return detail::turned_rotate(*this, detail::half_turn(s * angle), d);
}

Vec3 Screw::velocity(const Vec3& x, double s) const {
  if (angle == 0) return glide * axis;
  const Vec3 w = rotate(x - axis_point, s);
  return angle * axis.cross(w) + glide * axis;
}

Screw Screw::inverse() const { return {axis_point, axis, -angle, -glide}; }

Pose Screw::pose(double s) const {
  if (angle == 0) return Pose::from_matrix(Mat3::Identity(), apply(Vec3::Zero(), s));
  // R = I + sin(phi) [v]x + (1 - cos(phi)) [v]x^2, [v]x^2 = v v^T - I, from the one half-turn sincos
  // that apply() uses too (Eigen's AngleAxis made its own sin and cos; 1 - cos as 2 sin^2(phi/2)
  // keeps a small turn's digits).
  const detail::HalfTurn h = detail::half_turn(s * angle);
  const auto [sine, versine] = detail::turn_of(h);
  const double x = axis.x(), y = axis.y(), z = axis.z();
  Mat3 rotation;
  const double cosine = (h.ch - h.sh) * (h.ch + h.sh);
  rotation << cosine + versine * (x * x), versine * x * y - sine * z, versine * x * z + sine * y,  //
      versine * x * y + sine * z, cosine + versine * (y * y), versine * y * z - sine * x,        //
      versine * x * z - sine * y, versine * y * z + sine * x, cosine + versine * (z * z);
  return Pose::from_matrix(rotation, detail::turned_apply(*this, h, Vec3::Zero(), s));
}

Screw decompose(const Pose& omega, double pi_margin) {
  const Eigen::Quaterniond q(omega.rotation());
  const Vec3& t = omega.translation();
  // theta = 2 atan2(|q.vec|, |q.w|) in [0, pi]; the axis follows the sign of q.w.
  const double vec_norm = q.vec().norm();
  const double theta = 2 * std::atan2(vec_norm, std::abs(q.w()));
  Screw screw;
  if (theta <= kScrewMinAngle) {
    const double length = t.norm();
    if (length > 0) {
      screw.axis = t / length;
      screw.glide = length;
    }
    return screw;
  }
  if (theta > std::numbers::pi - pi_margin) {
    throw InvalidInput("rotation", "the step's relative rotation " + format_number(theta) +
                                       " rad is at or beyond pi (limit pi - " + format_number(pi_margin) +
                                       "): split the step");
  }
  const Vec3 v = (q.w() < 0 ? Vec3(-q.vec()) : Vec3(q.vec())) / vec_norm;
  screw.axis = v;
  screw.angle = theta;
  screw.glide = v.dot(t);
  const Vec3 t_perp = t - screw.glide * v;
  screw.axis_point = t_perp / 2 + v.cross(t) / (2 * std::tan(theta / 2));
  return screw;
}

Pose relative_motion(const Pose& a_start, const Pose& a_end, const Pose& b_start, const Pose& b_end) {
  // relative_pose(a_end, b_end) is a_end.inverse() * b_end bit for bit, without storing the
  // inverse and loading it back into the product (cost only: the same bits).
  return relative_pose(a_end, b_end) * b_start.inverse() * a_start;
}

Pose interpolate(const Pose& start, const Pose& end, double s) {
  const Screw world = decompose(end * start.inverse());
  return world.pose(s) * start;
}

double glide_error_estimate(double theta) {
  if (theta == 0) return 0;
  const double half = detail::turn_sincos(theta / 4).sin;
  return 2 * half * half / theta;  // 1 - cos(theta/2) = 2 sin^2(theta/4)
}

}  // namespace proxima::ccd
