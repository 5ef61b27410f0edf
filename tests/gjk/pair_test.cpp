// SPDX-License-Identifier: MIT
// Tests for gjk/pair.hpp: every query order agrees with the free functions (the oracle here), the
// seed-003 state machine, exactly which setter drops which cache, warm starts across a trajectory
// (same answers, fewer iterations), and a runtime AnyConvex pair.
#include <proxima/gjk/pair.hpp>
#include <proxima/shapes/any_convex.hpp>
#include <proxima/shapes/box.hpp>
#include <proxima/shapes/sphere.hpp>

#include "test_shapes.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace proxima::gjk {
namespace {

using test::VertexHull;

TEST(Pair, StateMachineAndCacheInvalidation) {
  Pair pair(Box(Vec3(1, 1, 1)), Box(Vec3(0.5, 0.5, 0.5)), Pose(), Pose::from_translation(Vec3(1.25, 0, 0)));
  EXPECT_EQ(pair.state(), PairState::unknown);
  EXPECT_TRUE(pair.collide().intersect);
  EXPECT_EQ(pair.state(), PairState::colliding);
  const PenetrationResult p1 = pair.penetration();
  EXPECT_EQ(pair.state(), PairState::penetration_known);
  EXPECT_NEAR(p1.depth, 0.25, 1e-12);
  EXPECT_NEAR((p1.normal - Vec3::UnitX()).norm(), 0, 1e-12);
  // Same pose again: nothing recomputed (identical answer, flags kept).
  pair.set_pose_b(Pose::from_translation(Vec3(1.25, 0, 0)));
  EXPECT_TRUE(pair.has_cached_penetration());
  EXPECT_EQ(pair.penetration().depth, p1.depth);
  // Both moved by the same exact translation: relative pose bit-identical, answers kept and
  // re-expressed in the world frame.
  pair.set_poses(Pose::from_translation(Vec3(8, -4, 2)), Pose::from_translation(Vec3(9.25, -4, 2)));
  EXPECT_TRUE(pair.has_cached_penetration());
  const PenetrationResult moved = pair.penetration();
  EXPECT_EQ(moved.depth, p1.depth);
  EXPECT_NEAR((moved.point_a - p1.point_a - Vec3(8, -4, 2)).norm(), 0, 1e-12);
  // A real move drops every answer but keeps the warm start.
  pair.set_pose_b(Pose::from_translation(Vec3(11, -4, 2)));
  EXPECT_EQ(pair.state(), PairState::unknown);
  EXPECT_FALSE(pair.has_cached_intersect() || pair.has_cached_distance() || pair.has_cached_penetration());
  EXPECT_GT(pair.warm_start().size, 0);
  EXPECT_FALSE(pair.collide().intersect);
  EXPECT_EQ(pair.state(), PairState::separated);
  const DistanceResult d = pair.distance();
  EXPECT_EQ(pair.state(), PairState::distance_known);
  EXPECT_NEAR(d.distance, 1.5, 1e-12);
  // Separated: penetration comes from the distance, without EPA.
  const PenetrationResult sep = pair.penetration();
  EXPECT_FALSE(sep.intersect);
  EXPECT_EQ(sep.depth, 0);
  EXPECT_EQ(sep.point_a, d.point_a);
  // A new shape drops answers and the warm start.
  pair.set_shape_a(Box(Vec3(3, 3, 3)));
  EXPECT_EQ(pair.state(), PairState::unknown);
  EXPECT_EQ(pair.warm_start().size, 0);
  EXPECT_TRUE(pair.collide().intersect);
  // New options drop answers.
  pair.set_options({.max_iterations = 50}, {});
  EXPECT_EQ(pair.state(), PairState::unknown);
}

TEST(Pair, DerivedAnswersCarryCertificates) {
  Pair pair(Sphere(1), Box(Vec3(1, 2, 3)), Pose(), Pose::from_euler_xyz(0.3, 0.2, 0.1, Vec3(4, 1, 0)));
  const DistanceResult d = pair.distance();
  ASSERT_FALSE(d.intersect);
  const IntersectResult c = pair.collide();  // derived from the distance
  EXPECT_EQ(c.iterations, 0);
  ASSERT_FALSE(c.intersect);
  // The derived axis must separate: max over the sphere < min over the box.
  const Vec3 u = c.separating_axis;
  const Box& box = pair.shape_b();
  const double max_a = u.dot(pair.pose_a().translation()) + 1;
  const double min_b = -(-u).dot(pair.pose_b().apply(box.support(pair.pose_b().rotate_inverse(-u))));
  EXPECT_LT(max_a, min_b);
}

TEST(Pair, AgreesWithFreeFunctionsInEveryOrder) {
  const unsigned seed = 3001;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> g;
  int overlaps = 0, separations = 0;
  for (int c = 0; c < 300; ++c) {
    std::vector<Vec3> va, vb;
    for (int i = 0; i < 10; ++i) va.emplace_back(Vec3{g(rng), g(rng), g(rng)});
    for (int i = 0; i < 10; ++i) vb.emplace_back(Vec3{g(rng), g(rng), g(rng)});
    const VertexHull a(va), b(vb);
    const Pose pa = test::random_pose(rng, 1.2);
    const Pose pb = test::random_pose(rng, 1.2);
    Pair pair(a, b, pa, pb);
    const IntersectResult fi = intersect(a, pa, b, pb);
    const DistanceResult fd = distance(a, pa, b, pb);
    const PenetrationResult fp = penetration(a, pa, b, pb);
    const std::string label = "seed 3001 case " + std::to_string(c) + " order " + std::to_string(c % 3);
    IntersectResult pi;
    DistanceResult pd;
    PenetrationResult pp;
    switch (c % 3) {
      case 0: pi = pair.collide(); pd = pair.distance(); pp = pair.penetration(); break;
      case 1: pp = pair.penetration(); pi = pair.collide(); pd = pair.distance(); break;
      default: pd = pair.distance(); pp = pair.penetration(); pi = pair.collide(); break;
    }
    ASSERT_EQ(pi.intersect, fi.intersect) << label;
    ASSERT_NEAR(pd.distance, fd.distance, 1e-12) << label;
    ASSERT_EQ(pp.intersect, fp.intersect) << label;
    ASSERT_NEAR(pp.depth, fp.depth, 1e-9) << label;
    if (fd.intersect) {
      ++overlaps;
      EXPECT_LE((pp.point_b - pp.point_a + pp.depth * pp.normal).norm(), 1e-9) << label;
    } else {
      ++separations;
      EXPECT_NEAR((pd.point_a - fd.point_a).norm(), 0, 1e-9) << label;
      EXPECT_NEAR((pd.normal - fd.normal).norm(), 0, 1e-9) << label;
    }
  }
  EXPECT_GT(overlaps, 60);
  EXPECT_GT(separations, 60);
}

TEST(Pair, TrajectoryWarmStartSameAnswersFewerIterations) {
  const unsigned seed = 3002;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> g;
  std::vector<Vec3> va, vb;
  for (int i = 0; i < 60; ++i) va.emplace_back(Vec3{g(rng), g(rng), g(rng)});
  for (int i = 0; i < 60; ++i) vb.push_back(Vec3{g(rng), 0.5 * g(rng), 2 * g(rng)});
  const VertexHull a(va), b(vb);
  Pair pair(a, b);
  long warm_iterations = 0, cold_iterations = 0;
  int overlaps = 0;
  for (int step = 0; step < 400; ++step) {
    const double t = step * 0.03;
    const Pose pb = Pose::from_euler_xyz(0.3 * t, 0.2 * t, 0.1 * t, Vec3(4.5 * std::cos(t), 4 * std::sin(0.7 * t), 0.5));
    pair.set_pose_b(pb);
    const DistanceResult warm = pair.distance();
    const DistanceResult cold = distance(a, Pose(), b, pb);
    ASSERT_NEAR(warm.distance, cold.distance, 1e-12) << "step " << step;
    if (warm.intersect) {
      ++overlaps;
      const PenetrationResult pw = pair.penetration();
      const PenetrationResult pc = penetration(a, Pose(), b, pb);
      ASSERT_NEAR(pw.depth, pc.depth, 1e-9) << "step " << step;
    }
    warm_iterations += warm.iterations;
    cold_iterations += cold.iterations;
  }
  EXPECT_GT(overlaps, 40);
  EXPECT_LT(overlaps, 360);
  EXPECT_LT(warm_iterations, cold_iterations * 3 / 4) << warm_iterations << " vs " << cold_iterations;
}

TEST(Pair, RuntimeAnyConvexPair) {
  const unsigned seed = 3003;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> g;
  std::vector<Vec3> va;
  for (int i = 0; i < 40; ++i) va.emplace_back(Vec3{g(rng), g(rng), g(rng)});
  const Polytope poly(va);
  const Sphere ball(0.7);
  Pair<AnyConvex, AnyConvex> runtime{AnyConvex(poly), AnyConvex(ball)};
  Pair<Polytope, Sphere> typed(poly, ball);
  int overlaps = 0;
  for (int c = 0; c < 100; ++c) {
    const Pose pb = test::random_pose(rng, 2);
    runtime.set_pose_b(pb);
    typed.set_pose_b(pb);
    const DistanceResult dr = runtime.distance(), dt = typed.distance();
    ASSERT_NEAR(dr.distance, dt.distance, 1e-12) << "seed 3003 case " << c;
    const PenetrationResult pr = runtime.penetration(), pt = typed.penetration();
    ASSERT_NEAR(pr.depth, pt.depth, 1e-9) << "seed 3003 case " << c;
    overlaps += dr.intersect ? 1 : 0;
  }
  EXPECT_GT(overlaps, 20);
  EXPECT_LT(overlaps, 80);
}

}  // namespace
}  // namespace proxima::gjk
