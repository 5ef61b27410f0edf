// SPDX-License-Identifier: MIT
// Screw motion ("glide rotation", seed 004 section 4): the relative motion of two rigid bodies
// over a step, taken as a rotation by angle theta about a fixed axis combined with a glide g along
// it, both at constant rate. A pure translation is the case theta == 0 with the axis along the
// translation.
#pragma once

#include <proxima/core/pose.hpp>
#include <proxima/core/tolerance.hpp>

#include <cmath>

namespace proxima::ccd {

/// A screw motion Omega(s), s in [0, 1]: Omega(s) x = u + R(s theta)(x - u) + s g v, where R(phi)
/// rotates by phi about the unit axis v (right-hand rule) and u is a point on the axis. Omega(0)
/// is the identity and Omega(1) the whole step. Evaluated in the "displacement" form
/// x + (R - I)(x - u) + s g v, whose rounding error stays near eps * |t| even when theta is tiny
/// and u is far away (|u| ~ |t| / theta).
struct Screw {
  Vec3 axis_point = Vec3::Zero();  ///< u: the axis point closest to the frame origin (0 for a translation)
  Vec3 axis = Vec3::UnitX();       ///< v: unit axis direction (the translation direction if theta == 0)
  double angle = 0;                ///< theta in [0, pi): rotation over the whole step, radians
  double glide = 0;                ///< g: translation along v over the whole step (length units)

  /// True when there is no rotation (theta == 0): the motion is x + s g v.
  bool is_translation() const noexcept { return angle == 0; }
  /// Omega(s) x. Cost: a few dozen flops.
  Vec3 apply(const Vec3& x, double s) const;
  /// R(s theta) d: a direction (edge, normal) carried by the motion.
  Vec3 rotate(const Vec3& d, double s) const;
  /// d/ds Omega(s) x = theta v x (Omega(s) x - u) + g v: the velocity field of seed 004 eq. (3).
  Vec3 velocity(const Vec3& x, double s) const;
  /// Distance of x from the axis (0 for a translation): it is constant along the motion.
  /// Inline, as speed(): both run per feature in the ccd modes' set-up and slab loops. The norm
  /// written out as Eigen sums it, (c0^2 + c1^2) + c2^2 (the same number): Eigen's norm() of the
  /// cross product stored two of its lanes to the stack and loaded them back as one pair, a
  /// failed store forwarding that perf put at two thirds of this function's samples.
  double axis_distance(const Vec3& x) const {
    if (angle == 0) return 0;
    const Vec3 c = axis.cross(x - axis_point);
    return std::sqrt((c[0] * c[0] + c[1] * c[1]) + c[2] * c[2]);
  }
  /// |d/ds Omega(s) x| = sqrt(theta^2 r^2 + g^2) for a point at axis distance r: constant in s.
  /// The square root of the sum where no square can over- or underflow, std::hypot (about ten
  /// times the cost, and out of line) only outside that range; the two agree to an ulp.
  double speed(double axis_distance) const {
    const double a = angle * axis_distance;
    const double s2 = a * a + glide * glide;
    if (s2 >= 0x1p-900 && s2 <= 0x1p900) return std::sqrt(s2);
    return std::hypot(a, glide);
  }
  /// The inverse motion: Omega(s)^-1 for every s (same axis, angle -theta, glide -g). Its
  /// `angle` is negative, which every member above accepts.
  Screw inverse() const;
  /// Omega(s) as a pose (the motion of a frame attached to the moving body).
  Pose pose(double s) const;
};

/// The screw decomposition of a rigid transform Omega x = R x + t (seed 004 section 4.1): theta and
/// v from R (quaternion based, accurate for small angles), g = v . t, and the axis point
/// u = t_perp / 2 + (v x t) / (2 tan(theta / 2)), t_perp the part of t orthogonal to v. Angles
/// at or below kScrewMinAngle give a pure translation (axis along t; identity if t == 0: axis x,
/// glide 0). Throws InvalidInput("rotation") when theta > pi - pi_margin: the seed's algorithm
/// needs theta < pi, and near pi the sense of rotation is undetermined. We refuse rather than
/// subdivide: a rigid transform alone cannot tell which way a body turned by nearly half a turn,
/// so the caller must split the step (e.g. by supplying intermediate poses).
/// Cost: one 3x3 to quaternion conversion and a few dozen flops.
Screw decompose(const Pose& omega, double pi_margin = kScrewPiMargin);

/// The relative motion of B seen from A (seed 004 eq. (1)): Omega = M_f^-1 N_f N_i^-1 M_i, with
/// M the poses of A and N those of B (start i, end f). A point of B at x in A's local frame at the
/// start is at Omega x in A's local frame at the end.
Pose relative_motion(const Pose& a_start, const Pose& a_end, const Pose& b_start, const Pose& b_end);

/// Pose of a body at time s in [0, 1] when it moves from `start` to `end` by its own screw motion
/// in the world frame: decompose(end * start^-1)(s) * start. Throws as decompose().
Pose interpolate(const Pose& start, const Pose& end, double s);

/// Seed 004 section 4.3, eq. (5): the relative error (1 - cos(theta/2)) / theta of taking the
/// motion as a screw when it was a rotation about another fixed point: the largest gap between a
/// circular arc of angle theta and its chord, divided by the arc length. 0 at theta == 0.
double glide_error_estimate(double theta);

}  // namespace proxima::ccd
