// SPDX-License-Identifier: MIT
// Tests for triangle.hpp: support against brute force over dense samples (vertices included, so
// the maximum is exact), bounds, d == 0, degenerate triangles, bad input.
#include "support_oracle.hpp"

#include <proxima/shapes/triangle.hpp>

namespace proxima {
namespace {

static_assert(SupportMap<Triangle>);

TEST(Triangle, SupportMatchesDenseSamples) {
  const Triangle tri(Vec3(1, 0, 0), Vec3(0, 2, 0.5), Vec3(-1, -1, 3));
  std::vector<Vec3> samples;
  const int n = 60;
  for (int i = 0; i <= n; ++i)
    for (int j = 0; i + j <= n; ++j)
      samples.push_back(tri.a() + (double(i) / n) * (tri.b() - tri.a()) + (double(j) / n) * (tri.c() - tri.a()));
  const auto contains = [&](const Vec3& p) { return p == tri.a() || p == tri.b() || p == tri.c(); };
  test::expect_support_matches_samples(tri, samples, contains, test::directions(13, 500), 0, "triangle seed 13");
  test::expect_bounds_contain(tri, test::directions(14, 200), "triangle seed 14");
  test::expect_zero_direction_deterministic(tri, contains, "triangle");
}


TEST(Triangle, CollinearTriangleIsAcceptedAndExact) {
  const Triangle tri(Vec3(0, 0, 0), Vec3(1, 1, 1), Vec3(2, 2, 2));
  EXPECT_EQ(tri.support(Vec3(1, 0, 0)), Vec3(2, 2, 2));
  EXPECT_EQ(tri.support(Vec3(-1, 0, 0)), Vec3(0, 0, 0));
}


TEST(Triangle, BadInputNamesTheField) {
  try {
    Triangle t(Vec3(1, 1, 1), Vec3(1, 1, 1), Vec3(1, 1, 1));
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "vertices");
  }
  try {
    Triangle t(Vec3(1, 1, 1), Vec3(1, 1, 1), Vec3(-INFINITY, 1, 1));
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "c.x");
    EXPECT_NE(std::string(e.what()).find("-inf"), std::string::npos);
  }
}

}  // namespace
}  // namespace proxima
