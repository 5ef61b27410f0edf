// SPDX-License-Identifier: MIT
// gjk queries on the library's own shapes (shapes/: Capsule, Segment, Polytope with hill climbing,
// Cylinder, Cone, AnyConvex) against independent answers: capsule closed forms, the brute-force
// vertex-list hull (same geometry, no hill climbing), and dense support sampling for the curved
// shapes (every sampled direction's support-plane gap bounds the distance from below).
#include <proxima/gjk/epa.hpp>
#include <proxima/gjk/intersect.hpp>
#include <proxima/shapes/any_convex.hpp>
#include <proxima/shapes/capsule.hpp>
#include <proxima/shapes/cone.hpp>
#include <proxima/shapes/cylinder.hpp>
#include <proxima/shapes/polytope.hpp>
#include <proxima/shapes/segment.hpp>

#include "test_shapes.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace proxima::gjk {
namespace {

TEST(LibraryShapes, CapsulePairsClosedForm) {
  const unsigned seed = 4001;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  int hits = 0, misses = 0;
  for (int c = 0; c < 1000; ++c) {
    const double scale = std::pow(10.0, -3 + 2 * (c % 5));
    const Capsule a{scale * (0.05 + 0.3 * u(rng)), scale * (0.1 + u(rng))};
    const Capsule b{scale * (0.05 + 0.3 * u(rng)), scale * (0.1 + u(rng))};
    const Pose pa = test::random_pose(rng, std::min(1e5, 10 * scale));
    const Mat3 turn = test::random_pose(rng, 0).rotation();
    const Vec3 dir = test::random_unit(rng);
    const Pose pb = Pose::from_matrix(turn, pa.translation() + dir * scale * 2.5 * u(rng));
    const Vec3 a0 = pa.apply(Vec3(0, 0, -a.half_length())), a1 = pa.apply(Vec3(0, 0, a.half_length()));
    const Vec3 b0 = pb.apply(Vec3(0, 0, -b.half_length())), b1 = pb.apply(Vec3(0, 0, b.half_length()));
    const double core = test::segment_segment_distance(a0, a1, b0, b1);
    const double exact = core - a.margin() - b.margin();
    const std::string label = "seed 4001 case " + std::to_string(c);
    const double tol = 1e-11 * 4 * scale + 1e-14 * pa.translation().norm();
    const DistanceResult d = distance(a, pa, b, pb);
    ASSERT_NEAR(d.distance, std::max(exact, 0.0), tol) << label;
    if (exact > tol) {
      ++misses;
      EXPECT_FALSE(intersect(a, pa, b, pb).intersect) << label;
    } else if (exact < -tol) {
      ++hits;
      EXPECT_TRUE(intersect(a, pa, b, pb).intersect) << label;
      const PenetrationResult p = penetration(a, pa, b, pb);
      ASSERT_NEAR(p.depth, -exact, 1e-9 * 4 * scale + 1e-14 * pa.translation().norm()) << label;
    }
  }
  EXPECT_GT(hits, 250);
  EXPECT_GT(misses, 250);
}

TEST(LibraryShapes, PolytopeHillClimbingMatchesVertexScan) {
  const unsigned seed = 4002;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> g;
  int hits = 0;
  for (int c = 0; c < 100; ++c) {
    std::vector<Vec3> va, vb;
    for (int i = 0; i < 200; ++i) {
      const Vec3 dir = test::random_unit(rng);
      va.push_back(dir * (1 + 0.01 * g(rng)));
    }
    for (int i = 0; i < 150; ++i) vb.push_back(Vec3{g(rng), 0.3 * g(rng), g(rng)});
    const Polytope pa_shape(va), pb_shape(vb);
    const test::VertexHull ha(va), hb(vb);
    const Pose pa = test::random_pose(rng, 1);
    const Pose pb = test::random_pose(rng, 1.5);
    const std::string label = "seed 4002 case " + std::to_string(c);
    WarmStart warm;  // carries the hill-climbing hints between the two calls
    const DistanceResult d1 = distance(pa_shape, pa, pb_shape, pb, {}, warm);
    const DistanceResult d2 = distance(pa_shape, pa, pb_shape, pb, {}, warm);
    const DistanceResult ref = distance(ha, pa, hb, pb);
    ASSERT_NEAR(d1.distance, ref.distance, 1e-12) << label;
    ASSERT_NEAR(d2.distance, ref.distance, 1e-12) << label;
    if (ref.intersect) {
      ++hits;
      const PenetrationResult p = penetration(pa_shape, pa, pb_shape, pb);
      const PenetrationResult pr = penetration(ha, pa, hb, pb);
      ASSERT_NEAR(p.depth, pr.depth, 1e-9) << label;
    }
  }
  EXPECT_GT(hits, 20);
  EXPECT_LT(hits, 80);
}

/// Lower bound on the distance from support sampling: max over directions u of (min over B of
/// u.x) - (max over A of u.x). No direction may beat the true distance; the optimal normal
/// attains it.
template <class A, class B>
double sampled_lower_bound(const A& a, const Pose& pa, const B& b, const Pose& pb, const Vec3& around,
                           std::mt19937_64& rng) {
  double best = -INFINITY;
  std::normal_distribution<double> g;
  for (int i = 0; i < 4000; ++i) {
    const double spread = i == 0 ? 0.0 : i < 2000 ? 1e-3 : 1.0;  // sample 0: exactly `around`
    const Vec3 u = (around + spread * Vec3{g(rng), g(rng), g(rng)}).normalized();
    const double max_a = u.dot(pa.apply(a.support(pa.rotate_inverse(u))));
    const double min_b = -(-u).dot(pb.apply(b.support(pb.rotate_inverse(-u))));
    best = std::max(best, min_b - max_a);
  }
  return best;
}

TEST(LibraryShapes, CurvedShapesAgainstSupportSampling) {
  const unsigned seed = 4003;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  int separated = 0;
  for (int c = 0; c < 60; ++c) {
    const Cylinder cyl{0.3 + u(rng), 0.3 + u(rng)};
    const Cone cone{0.3 + u(rng), 0.3 + u(rng)};
    const Pose pa = test::random_pose(rng, 0);
    const Mat3 pb_rotation = test::random_pose(rng, 0).rotation();
    const Pose pb = Pose::from_matrix(pb_rotation, test::random_unit(rng) * 3.5);
    const DistanceResult d = distance(cyl, pa, cone, pb);
    const std::string label = "seed 4003 case " + std::to_string(c);
    ASSERT_EQ(d.status, Status::converged) << label;
    if (d.intersect) continue;
    ++separated;
    // Upper bound: the witness points are on the shapes (checked by their supports along the
    // normal); lower bound: sampled support planes near the normal.
    const double lower = sampled_lower_bound(cyl, pa, cone, pb, d.normal, rng);
    EXPECT_LE(lower, d.distance + 1e-9) << label;
    EXPECT_GE(lower, d.distance - 1e-9) << label;
    EXPECT_NEAR(d.normal.dot(pa.apply(cyl.support(pa.rotate_inverse(d.normal)))), d.normal.dot(d.point_a), 1e-9)
        << label;
  }
  EXPECT_GT(separated, 30);
}

TEST(LibraryShapes, AnyConvexAgreesWithConcreteTypes) {
  const unsigned seed = 4004;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  for (int c = 0; c < 100; ++c) {
    const Capsule cap{0.2 + u(rng), 0.5 + u(rng)};
    const Segment seg(Vec3(-1, 0, 0), Vec3(1, 0.5 * u(rng), 0));
    const AnyConvex acap(cap), aseg(seg);
    const Pose pa = test::random_pose(rng, 0);
    const Pose pb = test::random_pose(rng, 1.5);
    const std::string label = "seed 4004 case " + std::to_string(c);
    ASSERT_NEAR(distance(acap, pa, aseg, pb).distance, distance(cap, pa, seg, pb).distance, 1e-12) << label;
    ASSERT_NEAR(penetration(acap, pa, aseg, pb).depth, penetration(cap, pa, seg, pb).depth, 1e-9) << label;
  }
}

}  // namespace
}  // namespace proxima::gjk
