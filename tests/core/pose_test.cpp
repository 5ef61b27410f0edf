// SPDX-License-Identifier: MIT
// Tests for include/proxima/core/pose.hpp: every factory against an independent construction.
#include "support/draws.hpp"

#include <proxima/core/error.hpp>
#include <proxima/core/pose.hpp>
#include <proxima/core/tolerance.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace proxima {
namespace {

Mat3 rot_x(double a) { return (Mat3() << 1, 0, 0, 0, std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a)).finished(); }
Mat3 rot_y(double a) { return (Mat3() << std::cos(a), 0, std::sin(a), 0, 1, 0, -std::sin(a), 0, std::cos(a)).finished(); }
Mat3 rot_z(double a) { return (Mat3() << std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a), 0, 0, 0, 1).finished(); }

TEST(Pose, DefaultIsIdentity) {
  const Pose p;
  EXPECT_EQ(p.rotation(), Mat3::Identity());
  EXPECT_EQ(p.translation(), Vec3::Zero());
}

TEST(Pose, EulerXyzIsRxRyRz) {
  const double ax = 0.3, ay = -1.1, az = 2.5;
  const Pose p = Pose::from_euler_xyz(ax, ay, az, Vec3(1, 2, 3));
  const Mat3 expected = rot_x(ax) * rot_y(ay) * rot_z(az);
  EXPECT_LT((p.rotation() - expected).norm(), 1e-14);
  // A point on the local x axis: R * e_x + t.
  EXPECT_LT((p.apply(Vec3::UnitX()) - (expected.col(0) + Vec3(1, 2, 3))).norm(), 1e-14);
}

TEST(Pose, QuaternionIsNormalisedAndMatchesAngleAxis) {
  const double half = 0.35;  // rotation of 0.7 rad about z
  const Pose p = Pose::from_quaternion(3 * std::cos(half), 0, 0, 3 * std::sin(half));
  EXPECT_LT((p.rotation() - rot_z(0.7)).norm(), 1e-14);
}

// Entries whose squares overflow (|entry| > ~1e154) are still a valid quaternion: the rotation
// is the one of the scaled-down quaternion, not the identity an overflowed norm would give.
TEST(Pose, HugeQuaternionIsNormalisedWithoutOverflow) {
  const double half = 0.35;
  for (const double scale : {1e160, 1e300, std::numeric_limits<double>::max()}) {
    const Pose p = Pose::from_quaternion(scale * std::cos(half), 0, 0, scale * std::sin(half), Vec3(1, 2, 3));
    EXPECT_LT((p.rotation() - rot_z(0.7)).norm(), 1e-14) << scale;
    EXPECT_EQ(p.translation(), Vec3(1, 2, 3));
  }
  const Pose quarter = Pose::from_quaternion(1e200, 1e200, 0, 0);  // 90 degrees about x
  EXPECT_LT((quarter.rotation() - rot_x(M_PI / 2)).norm(), 1e-14);
  // One huge entry among ordinary ones: the small ones vanish relative to it (a half turn about y).
  const Pose half_turn = Pose::from_quaternion(1, 2, -1e250, 3);
  EXPECT_LT((half_turn.rotation() - rot_y(M_PI)).norm(), 1e-14);
}

TEST(Pose, ZeroQuaternionIsRefusedNamingTheField) {
  try {
    (void)Pose::from_quaternion(0, 0, 0, 0);
    FAIL() << "zero quaternion accepted";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "quaternion");
  }
  EXPECT_THROW((void)Pose::from_quaternion(std::nan(""), 0, 0, 1), InvalidInput);
}

TEST(Pose, MatrixMustBeAProperRotation) {
  EXPECT_NO_THROW((void)Pose::from_matrix(rot_y(0.4)));
  EXPECT_THROW((void)Pose::from_matrix(2 * Mat3::Identity()), InvalidInput);
  Mat3 reflection = Mat3::Identity();
  reflection(2, 2) = -1;
  EXPECT_THROW((void)Pose::from_matrix(reflection), InvalidInput);
  Mat3 bad = Mat3::Identity();
  bad(1, 2) = INFINITY;
  try {
    (void)Pose::from_matrix(bad);
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "matrix[1][2]");
  }
}

TEST(Pose, IsometryRoundTrip) {
  Eigen::Isometry3d iso = Eigen::Isometry3d::Identity();
  iso.linear() = rot_x(0.2) * rot_z(-0.9);
  iso.translation() = Vec3(-4, 5, 0.5);
  const Pose p = Pose::from_isometry(iso);
  EXPECT_LT((p.isometry().matrix() - iso.matrix()).norm(), 1e-14);
}

// A pose that travels as its matrix (pickling, scene files, another process) must come back bit
// for bit, or the same query gives different last bits after the trip; sloppy matrices are still
// re-orthonormalised.
TEST(Pose, MatrixRoundTripIsBitExactAndSloppyMatricesAreCleaned) {
  std::mt19937_64 rng(20261124);
  std::normal_distribution<double> n(0, 1);
  for (int trial = 0; trial < 1000; ++trial) {
    SCOPED_TRACE("seed 20261124 trial " + std::to_string(trial));
    const Vec3 t{n(rng), n(rng), n(rng)};
    const Pose from_q = proxima::test::draw_quaternion_pose(n, rng, t);
    const Pose from_e = proxima::test::draw_euler_pose(n, rng, t);
    const Pose composed = from_q * from_e;
    for (const Pose& p : {from_q, from_e, composed, composed.inverse()}) {
      const Pose back = Pose::from_matrix(p.rotation(), p.translation());
      EXPECT_TRUE(back.rotation() == p.rotation());
      EXPECT_TRUE(back.translation() == p.translation());
    }
  }
  // A matrix printed with 7 digits is accepted and cleaned to a rotation at double precision.
  const Mat3 sloppy = (rot_x(0.3) * rot_z(1.1) * 1e7).array().round() / 1e7;
  const Pose cleaned = Pose::from_matrix(sloppy);
  EXPECT_FALSE(cleaned.rotation() == sloppy);
  EXPECT_LT((cleaned.rotation().transpose() * cleaned.rotation() - Mat3::Identity()).cwiseAbs().maxCoeff(),
            kRotationExactTolerance);
}

TEST(Pose, InverseAndCompositionAgreeWithMatrices) {
  std::mt19937_64 rng(20261121);
  std::uniform_real_distribution<double> u(-3, 3);
  for (int i = 0; i < 100; ++i) {
    const Vec3 angles = proxima::test::draw_vec3(u, rng);
    const Pose a = Pose::from_euler_xyz(angles.x(), angles.y(), angles.z(), proxima::test::draw_vec3(u, rng));
    const Pose b = proxima::test::draw_quaternion_pose(u, u, rng);
    const Vec3 x{u(rng), u(rng), u(rng)};
    EXPECT_LT(((a * b).apply(x) - a.apply(b.apply(x))).norm(), 1e-12) << "seed 20261121, case " << i;
    EXPECT_LT((a.inverse().apply(a.apply(x)) - x).norm(), 1e-12);
    EXPECT_LT((a.apply_inverse(a.apply(x)) - x).norm(), 1e-12);
    EXPECT_LT((a.rotate_inverse(a.rotate(x)) - x).norm(), 1e-12);
  }
}

}  // namespace
}  // namespace proxima
