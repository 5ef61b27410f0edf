// SPDX-License-Identifier: MIT
// Tests for convex_hull.hpp (seed 002, 4.4). Oracles: brute force over the union of two point
// sets, the Triangle of three points, tie order.
#include "support_oracle.hpp"

#include <proxima/shapes/box.hpp>
#include <proxima/shapes/convex_hull.hpp>
#include <proxima/shapes/point.hpp>
#include <proxima/shapes/polytope.hpp>
#include <proxima/shapes/sphere.hpp>
#include <proxima/shapes/triangle.hpp>

namespace proxima {
namespace {

static_assert(SupportMap<ConvexHull<Sphere, Box, Point>>);

std::vector<Vec3> random_points(int n, std::uint64_t seed, const Vec3& centre) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::vector<Vec3> out;
  for (int i = 0; i < n; ++i) out.push_back(centre + Vec3{normal(rng), normal(rng), normal(rng)});
  return out;
}

TEST(ConvexHull, OfTwoPolytopesMatchesTheUnion) {
  const std::vector<Vec3> pa = random_points(20, 85, Vec3(-3, 0, 0));
  const std::vector<Vec3> pb = random_points(70, 86, Vec3(3, 1, 0));
  const ConvexHull<Polytope, Polytope> hull{Polytope(pa), Polytope(pb)};
  std::vector<Vec3> all = pa;
  all.insert(all.end(), pb.begin(), pb.end());
  int from_a = 0;
  const auto dirs = test::directions(87, 500);
  for (std::size_t i = 0; i < dirs.size(); ++i) {
    double best = -INFINITY;
    for (const Vec3& p : all) best = std::max(best, dirs[i].dot(p));
    const Vec3 s = hull.support(dirs[i]);
    ASSERT_NEAR(dirs[i].dot(s), best, 1e-12 * (1 + std::abs(best))) << "seed 87 case " << i;
    if (std::find(pa.begin(), pa.end(), s) != pa.end()) ++from_a;
  }
  EXPECT_GT(from_a, 100) << "both members must win often";
  EXPECT_LT(from_a, 400);
  test::expect_bounds_contain(hull, dirs, "polytope hull");
}


TEST(ConvexHull, OfThreePointsIsTheTriangleAndTiesGoFirst) {
  const Vec3 a(1, 0, 0), b(0, 2, 0), c(0, 0, 3);
  const ConvexHull<Point, Point, Point> hull{Point(a), Point(b), Point(c)};
  const Triangle tri(a, b, c);
  for (const Vec3& d : test::directions(88, 200)) EXPECT_EQ(hull.support(d), tri.support(d));
  EXPECT_EQ(hull.support(Vec3::Zero()), a);
  const ConvexHull<Sphere> single{Sphere(2)};
  EXPECT_EQ(single.support(Vec3(0, 3, 0)), Vec3(0, 2, 0));
  EXPECT_DOUBLE_EQ(single.bounding_sphere().radius, 2);
}


}  // namespace
}  // namespace proxima
