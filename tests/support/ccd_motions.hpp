// SPDX-License-Identifier: MIT
// Seeded random turns and screw-motion test cases for the ccd tests, drawn in a fixed order
// (support/draws.hpp says why: every draw is its own statement, so GCC and clang run the same
// motions from a seed). Header-only.
#pragma once

#include <proxima/core/pose.hpp>
#include <proxima/mesh/mesh.hpp>

#include <Eigen/Geometry>

#include <numbers>
#include <random>

namespace proxima::test {

/// A unit vector, uniform on the sphere (x, y, z drawn in that order).
inline Vec3 random_unit(std::mt19937_64& rng) {
  std::normal_distribution<double> n;
  const double x = n(rng);
  const double y = n(rng);
  const double z = n(rng);
  return Vec3(x, y, z).normalized();
}

/// A turn by an angle uniform in [0, max_angle] about a random axis (angle drawn first), with the
/// given translation.
inline Pose random_turn(std::mt19937_64& rng, double max_angle, const Vec3& translation = Vec3::Zero()) {
  std::uniform_real_distribution<double> u01(0, 1);
  const double angle = max_angle * u01(rng);
  return Pose::from_matrix(Eigen::AngleAxisd(angle, random_unit(rng)).toRotationMatrix(), translation);
}

/// Start and end poses of two bodies over one step.
struct Motion {
  Pose a0, a1, b0, b1;
};

/// B starts clear of A's bounding sphere and passes by (odd k: near the centre line, so mostly
/// through A) or farther off, turning up to 45 degrees (every third motion 2.5 rad) relative to
/// A, which turns and moves a little itself: a screw with rotation, glide and an axis off the
/// origin. With `near_miss` > 0 the even-k motions instead pass at a distance between 0.85 and 1
/// times near_miss times the sum of the bounding radii, measured perpendicular to the path (the
/// same draws): below 1 the bounding spheres still meet, so the bodies graze or just miss each
/// other after the early outs have let them through.
inline Motion random_motion(std::mt19937_64& rng, const mesh::Mesh& a, const mesh::Mesh& b, int k,
                            double near_miss = 0) {
  std::uniform_real_distribution<double> u01(0, 1);
  const double reach = a.bounding_sphere().radius + b.bounding_sphere().radius;
  Motion m;
  m.a0 = random_turn(rng, std::numbers::pi);
  const Pose a_turn = random_turn(rng, 0.1);
  const double shift = 0.1 * u01(rng);
  m.a1 = a_turn * m.a0 * Pose::from_translation(Vec3(shift, 0, 0));
  const Vec3 dir = random_unit(rng);
  const Pose turn = random_turn(rng, std::numbers::pi);
  const double along = u01(rng);
  const Vec3 side = random_unit(rng);
  Vec3 offset = reach * (k % 2 == 0 ? 1.0 : 0.4) * along * side;
  if (near_miss > 0 && k % 2 == 0) {
    const Vec3 across = (side - side.dot(dir) * dir).normalized();
    offset = reach * near_miss * (0.85 + 0.15 * along) * across;
  }
  const double start = 1.02 + 0.5 * u01(rng);
  m.b0 = Pose::from_matrix(turn.rotation(), reach * start * dir + offset);
  const double spin = k % 3 == 2 ? 2.5 : std::numbers::pi / 4;
  const Mat3 r_end = random_turn(rng, spin).rotation() * turn.rotation();
  const double end = 0.5 + 2.5 * u01(rng);
  m.b1 = Pose::from_matrix(r_end, -reach * end * dir + offset);
  return m;
}

}  // namespace proxima::test
