// SPDX-License-Identifier: MIT
// Random draws in a fixed order, so a seed draws the same configuration under every compiler.
//
// C++ leaves the evaluation order of a function call's arguments unspecified: in
// `Vec3(u(rng), u(rng), u(rng))` or `Pose::from_quaternion(n(rng), ..., Vec3(...))` GCC draws
// the numbers right to left and clang left to right, so the Release (GCC) and the sanitizer
// (clang) builds of the tests ran different configurations from the same seed, and a failing
// seed printed by one did not reproduce under the other. These helpers draw left to right
// (clang's order, which the sanitizer stage has always run). Header-only.
#pragma once

#include <proxima/core/pose.hpp>

#include <Eigen/Core>

namespace proxima::test {

/// (x, y, z), drawn in that order. A braced list is evaluated left to right.
template <class Dist, class Rng>
Vec3 draw_vec3(Dist& dist, Rng& rng) {
  return Vec3{dist(rng), dist(rng), dist(rng)};
}

/// (w, x, y, z), drawn in that order (not normalised: Pose::from_quaternion does that).
template <class QuatDist, class Rng>
Eigen::Vector4d draw_quaternion(QuatDist& q, Rng& rng) {
  return Eigen::Vector4d{q(rng), q(rng), q(rng), q(rng)};
}

/// Pose::from_quaternion(w, x, y, z, translation), the quaternion drawn from `q` (w first).
template <class QuatDist, class Rng>
Pose draw_quaternion_pose(QuatDist& q, Rng& rng, const Vec3& translation = Vec3::Zero()) {
  const double w = q(rng);
  const double x = q(rng);
  const double y = q(rng);
  const double z = q(rng);
  return Pose::from_quaternion(w, x, y, z, translation);
}

/// The quaternion drawn from `q` (w first), then the translation from `t`.
template <class QuatDist, class TransDist, class Rng>
Pose draw_quaternion_pose(QuatDist& q, TransDist& t, Rng& rng) {
  const double w = q(rng);
  const double x = q(rng);
  const double y = q(rng);
  const double z = q(rng);
  const Vec3 translation = draw_vec3(t, rng);
  return Pose::from_quaternion(w, x, y, z, translation);
}

/// Pose::from_euler_xyz(ax, ay, az, translation), the angles drawn from `angle` in that order.
template <class AngleDist, class Rng>
Pose draw_euler_pose(AngleDist& angle, Rng& rng, const Vec3& translation = Vec3::Zero()) {
  const double ax = angle(rng);
  const double ay = angle(rng);
  const double az = angle(rng);
  return Pose::from_euler_xyz(ax, ay, az, translation);
}

}  // namespace proxima::test
