// SPDX-License-Identifier: MIT
// Tests for transformed.hpp. Oracles: brute force over the placed corners of a box; the rounded
// identity support == core + margin * d / |d| after placement; hint pass-through on a Polytope.
#include "support_oracle.hpp"
#include "support/draws.hpp"

#include <proxima/shapes/box.hpp>
#include <proxima/shapes/capsule.hpp>
#include <proxima/shapes/polytope.hpp>
#include <proxima/shapes/transformed.hpp>

namespace proxima {
namespace {

static_assert(RoundedSupportMap<Transformed<Capsule>> && !RoundedSupportMap<Transformed<Box>>);
static_assert(HintedSupportMap<Transformed<Polytope>>);

TEST(Transformed, PlacedBoxMatchesItsPlacedCorners) {
  std::mt19937_64 rng(91);
  std::uniform_real_distribution<double> angle(-3, 3);
  for (int trial = 0; trial < 30; ++trial) {
    const Vec3 turn = proxima::test::draw_vec3(angle, rng);
    const Pose pose = Pose::from_euler_xyz(turn.x(), turn.y(), turn.z(), Vec3(angle(rng), 5, -2));
    const Vec3 h(0.5, 1, 2);
    const Transformed<Box> placed(Box(h), pose);
    for (const Vec3& d : test::directions(92 + std::uint64_t(trial), 100)) {
      double best = -INFINITY;
      for (int k = 0; k < 8; ++k) best = std::max(best, d.dot(pose.apply(h.cwiseProduct(Vec3(k & 1 ? 1 : -1, k & 2 ? 1 : -1, k & 4 ? 1 : -1)))));
      ASSERT_NEAR(d.dot(placed.support(d)), best, 1e-12 * (1 + std::abs(best))) << "seed 91 trial " << trial;
    }
    test::expect_bounds_contain(placed, test::directions(93, 50), "placed box", false);
  }
}

TEST(Transformed, KeepsRoundingAndHints) {
  const Pose pose = Pose::from_euler_xyz(0.4, -1.2, 0.7, Vec3(1, 2, 3));
  const Transformed<Capsule> capsule(Capsule(0.5, 2), pose);
  EXPECT_EQ(capsule.margin(), 0.5);
  for (const Vec3& d : test::directions(94, 200)) {
    const Vec3 rebuilt = capsule.core_support(d) + capsule.margin() * d.normalized();
    ASSERT_LT((capsule.support(d) - rebuilt).norm(), 1e-12);
    // The core is the placed segment: one of its two placed endpoints.
    const Vec3 c = capsule.core_support(d);
    ASSERT_TRUE((c - pose.apply(Vec3(0, 0, 2))).norm() < 1e-12 || (c - pose.apply(Vec3(0, 0, -2))).norm() < 1e-12);
  }
  std::vector<Vec3> points;
  for (const Vec3& u : test::fibonacci_sphere(300)) points.push_back(u);
  const Transformed<Polytope> ball(Polytope(points), pose);
  int hint = -1;
  for (const Vec3& d : test::directions(95, 200)) {
    double best = -INFINITY;
    for (const Vec3& p : points) best = std::max(best, d.dot(pose.apply(p)));
    ASSERT_NEAR(d.dot(ball.support(d, hint)), best, 1e-12 * (1 + std::abs(best)));
  }
}

}  // namespace
}  // namespace proxima
