// SPDX-License-Identifier: MIT
// EPA on curved shapes (cylinders, cones, capsules, spheres, ellipsoids, superquadrics, boxes),
// against oracles that share no code with it:
//  - an upper bound: the depth D is min over unit n of h_A(n) + h_B(-n) (the support function of
//    A - B), and the smallest value found over a Fibonacci sphere of directions refined by a
//    pattern search (the tests' own support functions, tests/support/random_shapes.hpp, and
//    oracles/brute_force.hpp's support_gap and sphere_pattern_search) is >= D
//    (equal where h is smooth at the minimiser; a pattern search can stall in the kink of a
//    cylinder's or cone's support function, so it is used as a bound only);
//  - a lower bound: B translated by (depth + gap) plus a hair along the reported normal must be
//    apart (GJK distance), since no translation shorter than D separates the shapes;
//  - exact: a sphere against a cylinder in closed form (the signed distance of its centre).
// Regression: a sphere deep inside a cylinder was answered up to half its depth short, some with
// status converged, once the hull had lost its convexity through rounding; 12 of 300 sphere-cylinder
// pairs stopped at the face capacity or the iteration cap (session 12, docs/reliability.md).
#include <proxima/gjk/distance.hpp>
#include <proxima/gjk/epa.hpp>

#include "oracles/brute_force.hpp"
#include "support/random_shapes.hpp"
#include "support/shape_builder.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace proxima::gjk {
namespace {

using testgen::PairCase;
using testgen::Rng;

/// An upper bound on min over unit n of h_A(n) + h_B(-n) = -support_gap(n) (oracles/brute_force.hpp,
/// on the generator's own support functions): 4,000 Fibonacci directions, then a pattern search
/// on the sphere from the best 6.
double oracle_depth(const PairCase& c) {
  const Pose pa = c.pose_a.pose();
  const Pose pb = c.pose_b.pose();
  const auto overlap = [&](const Vec3& n) { return -oracles::support_gap(c.a, pa, c.b, pb, n); };
  constexpr int kSamples = 4000;
  std::vector<std::pair<double, Vec3>> samples;
  samples.reserve(kSamples);
  const double golden = M_PI * (3 - std::sqrt(5.0));
  for (int i = 0; i < kSamples; ++i) {
    const double z = 1 - 2 * (i + 0.5) / kSamples;
    const double r = std::sqrt(1 - z * z);
    const Vec3 n(r * std::cos(golden * i), r * std::sin(golden * i), z);
    samples.emplace_back(overlap(n), n);
  }
  std::partial_sort(samples.begin(), samples.begin() + 6, samples.end(),
                    [](const auto& x, const auto& y) { return x.first < y.first; });
  double best = samples.front().first;
  for (int s = 0; s < 6; ++s) {
    Vec3 n = samples[static_cast<std::size_t>(s)].second;
    best = std::min(best, oracles::sphere_pattern_search(overlap, n, 0.05, 36, 64));
  }
  return best;
}

TEST(EpaCurved, DepthLiesBetweenItsOraclesOnCurvedPairs) {
  const std::uint64_t seed = 20261125;
  Rng rng(seed);
  using K = testgen::ShapeKind;
  const std::vector<std::pair<K, K>> kinds = {
      {K::sphere, K::cylinder},   {K::sphere, K::cone},        {K::capsule, K::cylinder},
      {K::capsule, K::cone},      {K::cylinder, K::cylinder},  {K::cylinder, K::cone},
      {K::cone, K::cone},         {K::cylinder, K::box},       {K::cylinder, K::ellipsoid},
      {K::sphere, K::ellipsoid},  {K::ellipsoid, K::ellipsoid}, {K::cone, K::superquadric},
  };
  constexpr int kPairsPerKind = 40;
  testgen::PlacementOptions placement;
  placement.min_factor = 0.1;  // overlapping, from deep to near touching
  placement.max_factor = 0.95;
  placement.max_translation = 1e3;
  EpaHull workspace;
  int checked = 0;
  int converged = 0;
  int deep = 0;  // depth more than half the smaller bounding radius
  std::map<std::string, int> details;
  for (const auto& [ka, kb] : kinds) {
    for (int i = 0; i < kPairsPerKind; ++i) {
      const testgen::ShapeSpec spec_a = testgen::random_smooth_spec(rng, ka);
      const testgen::ShapeSpec spec_b = testgen::random_smooth_spec(rng, kb);
      const PairCase c = testgen::place_pair(rng, "curved", spec_a, spec_b, placement);
      const AnyConvex a = testgen::to_any_convex(c.a);
      const AnyConvex b = testgen::to_any_convex(c.b);
      WarmStart warm;
      const PenetrationResult r = penetration(a, c.pose_a.pose(), b, c.pose_b.pose(), EpaOptions{}, warm, workspace);
      const double upper = oracle_depth(c);
      const double size = std::max(c.a.bounding_radius(), c.b.bounding_radius());
      SCOPED_TRACE("seed " + std::to_string(seed) + " kinds " + std::to_string(static_cast<int>(ka)) + "/" +
                   std::to_string(static_cast<int>(kb)) + " pair " + std::to_string(i) + " scale " +
                   std::to_string(c.scale) + " factor " + std::to_string(c.factor) + ": " +
                   testgen::scene_json(c, "penetration", "q"));
      if (!(upper > 1e-6 * size)) continue;  // touching or apart by the oracle: not this test's case
      ++checked;
      if (upper > 0.5 * std::min(c.a.bounding_radius(), c.b.bounding_radius())) ++deep;
      ASSERT_TRUE(r.intersect);
      ++details[std::string(to_string(r.status)) + "/" + std::string(to_string(r.detail))];
      const double tolerance = 1e-8 * size;
      EXPECT_LE(r.depth, upper + tolerance) << "depth above a support-function value";
      EXPECT_NEAR(r.normal.norm(), 1.0, 1e-12);
      EXPECT_NEAR((r.point_a - r.point_b).norm(), r.depth, 1e-6 * size);
      // depth + gap reaches the true depth: moved that far (and a hair) along the normal, B is apart.
      const Pose pb = c.pose_b.pose();
      const Pose moved = Pose::from_matrix(pb.rotation(), pb.translation() + (r.depth + r.gap + 1e-7 * size) * r.normal);
      const DistanceResult apart = distance(a, c.pose_a.pose(), b, moved);
      EXPECT_FALSE(apart.intersect) << "B moved by depth + gap " << r.depth + r.gap << " still overlaps; gap " << r.gap;
      if (ka == testgen::ShapeKind::sphere && kb == testgen::ShapeKind::cylinder) {
        const Vec3 centre = pb.inverse().apply(c.pose_a.translation);
        EXPECT_NEAR(r.depth, oracles::sphere_cylinder_depth(centre, c.a.radius, c.b.radius, c.b.half_length), tolerance);
      }
      if (r.status == Status::converged) {
        ++converged;
        EXPECT_LE(r.gap, kEpaRoundingFloor * size * 4) << to_string(r.detail);
      }
    }
  }
  std::string mix;
  for (const auto& [k, v] : details) mix += " " + k + ":" + std::to_string(v);
  SCOPED_TRACE("statuses:" + mix);
  EXPECT_GE(checked, static_cast<int>(kinds.size()) * kPairsPerKind * 8 / 10) << "too few overlapping pairs";
  EXPECT_GE(deep, 60) << "the sample must hold deep overlaps";
  // Every pair but a handful of smooth-smooth ones that exhaust the hull converges.
  EXPECT_GE(converged, checked - 3);
}

}  // namespace
}  // namespace proxima::gjk
