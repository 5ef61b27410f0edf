// SPDX-License-Identifier: MIT
// Tests for minkowski_sum.hpp (seed 002, 4.3). Oracles: brute force over all vertex sums of two
// polytopes, closed forms for boxes plus spheres.
#include "support_oracle.hpp"

#include <proxima/shapes/box.hpp>
#include <proxima/shapes/capsule.hpp>
#include <proxima/shapes/minkowski_sum.hpp>
#include <proxima/shapes/polytope.hpp>
#include <proxima/shapes/sphere.hpp>

namespace proxima {
namespace {

static_assert(SupportMap<MinkowskiSum<Box, Polytope>> && !RoundedSupportMap<MinkowskiSum<Box, Polytope>>);
static_assert(RoundedSupportMap<MinkowskiSum<Box, Sphere>>);

std::vector<Vec3> random_points(int n, std::uint64_t seed, const Vec3& centre) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::vector<Vec3> out;
  for (int i = 0; i < n; ++i) out.push_back(centre + Vec3{normal(rng), normal(rng), normal(rng)});
  return out;
}

TEST(MinkowskiSum, OfTwoPolytopesMatchesAllVertexSums) {
  const std::vector<Vec3> pa = random_points(30, 81, Vec3(1, 0, 0));
  const std::vector<Vec3> pb = random_points(60, 82, Vec3(0, -3, 2));
  const MinkowskiSum<Polytope, Polytope> sum{Polytope(pa), Polytope(pb)};
  std::vector<Vec3> sums;
  for (const Vec3& a : pa)
    for (const Vec3& b : pb) sums.push_back(a + b);
  const auto dirs = test::directions(83, 500);
  for (std::size_t i = 0; i < dirs.size(); ++i) {
    double best = -INFINITY;
    for (const Vec3& p : sums) best = std::max(best, dirs[i].dot(p));
    ASSERT_NEAR(dirs[i].dot(sum.support(dirs[i])), best, 1e-12 * (1 + std::abs(best))) << "seed 83 case " << i;
  }
  test::expect_bounds_contain(sum, dirs, "polytope sum");
}

TEST(MinkowskiSum, BoxPlusSphereIsRoundedAndExact) {
  const MinkowskiSum<Box, Sphere> sum{Box(Vec3(1, 2, 3)), Sphere(0.5)};
  EXPECT_EQ(sum.margin(), 0.5);
  for (const Vec3& d : test::directions(84, 300)) {
    const double expected = Vec3(1, 2, 3).dot(d.cwiseAbs()) + 0.5 * d.norm();
    EXPECT_NEAR(d.dot(sum.support(d)), expected, 1e-12 * expected);
    EXPECT_EQ(sum.core_support(d), Box(Vec3(1, 2, 3)).support(d));
  }
  const MinkowskiSum<Capsule, Sphere> fat{Capsule(1, 2), Sphere(0.5)};  // a capsule of radius 1.5
  EXPECT_EQ(fat.margin(), 1.5);
  EXPECT_EQ(fat.local_aabb().max, Vec3(1.5, 1.5, 3.5));
}

}  // namespace
}  // namespace proxima
