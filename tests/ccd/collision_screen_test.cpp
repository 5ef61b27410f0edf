// SPDX-License-Identifier: MIT
// Collision screen (seed 004 sections 7-8): a point carried by the screw for time s keeps its
// screen position (r, h) and gains exactly s in screen time; when its azimuth passes the +-pi
// seam, the fixed point it reaches needs doppeling and its doppeled projection matches.
#include "support/draws.hpp"

#include <proxima/ccd/collision_screen.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

namespace proxima::ccd {
namespace {

TEST(CollisionScreen, FlowKeepsScreenPositionAndAdvancesTime) {
  const std::uint64_t seed = 7007;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  int wrapped = 0, plain = 0, translations = 0;
  for (int k = 0; k < 2000; ++k) {
    const double angle = k % 5 == 0 ? 0.0 : std::abs(u(rng)) * 0.8 * std::numbers::pi;
    const Vec3 axis = proxima::test::draw_vec3(u, rng).normalized();
    const Vec3 shift = (k % 7 == 0 ? 0.0 : 2.0) * proxima::test::draw_vec3(u, rng);
    const Pose omega = Pose::from_matrix(Eigen::AngleAxisd(angle, axis).toRotationMatrix(), shift);
    const Screw screw = decompose(omega);
    if (screw.is_translation() && screw.glide == 0) continue;
    const CollisionScreen screen = make_collision_screen(screw, Vec3{u(rng), u(rng), u(rng)});
    // The canonical frame: y along the axis, orthonormal.
    EXPECT_LT((screen.to_canonical * screw.axis - Vec3::UnitY()).norm(), 1e-12);
    EXPECT_LT((screen.to_canonical * screen.to_canonical.transpose() - Mat3::Identity()).norm(), 1e-12);
    const Vec3 x = 3 * Vec3{u(rng), u(rng), u(rng)};
    const double s = (u(rng) + 1) / 2;
    const Vec3 y = screw.apply(x, s);
    const ScreenPoint px = screen.project(x);
    ScreenPoint py = screen.project(y);
    const std::string label = "seed " + std::to_string(seed) + " case " + std::to_string(k);
    if (screw.is_translation()) {
      ++translations;
    } else if (px.phi + s * screw.angle > std::numbers::pi) {
      // The azimuth crossed the seam: the fixed point must be doppeled, and that copy matches.
      ++wrapped;
      EXPECT_TRUE(screen.needs_doppel(y)) << label;
      py = screen.project(y, true);
    } else {
      ++plain;
    }
    const double scale = 1 + x.norm();
    EXPECT_NEAR(py.r, px.r, 1e-12 * scale) << label;
    EXPECT_NEAR(py.h, px.h, 1e-11 * scale) << label;
    EXPECT_NEAR(py.t - px.t, s, 1e-10 * scale) << label;
  }
  EXPECT_GE(wrapped, 50);
  EXPECT_GE(plain, 500);
  EXPECT_GE(translations, 200);
}

TEST(CollisionScreen, FacingPointSitsAtAzimuthZero) {
  const Screw screw = decompose(Pose::from_matrix(Eigen::AngleAxisd(0.5, Vec3::UnitZ()).toRotationMatrix(), Vec3(1, 0, 0.3)));
  const Vec3 facing(4, -2, 1);
  const CollisionScreen screen = make_collision_screen(screw, facing);
  EXPECT_NEAR(screen.project(facing).phi, 0, 1e-14);
  EXPECT_FALSE(screen.needs_doppel(facing));
  // Just past the seam on the -x side (azimuth slightly above -pi) needs doppeling; just before it
  // on the +x side (azimuth slightly below +pi) does not.
  const Vec3 axis_foot = screen.origin;
  const Vec3 opposite = axis_foot - (facing - axis_foot);
  const Vec3 x_dir = screen.to_canonical.row(0).transpose();
  EXPECT_TRUE(screen.needs_doppel(opposite - 1e-3 * x_dir));
  EXPECT_FALSE(screen.needs_doppel(opposite + 1e-3 * x_dir));
}

}  // namespace
}  // namespace proxima::ccd
