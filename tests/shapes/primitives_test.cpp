// SPDX-License-Identifier: MIT
// Tests for the primitive shapes point.hpp, sphere.hpp, box.hpp: support against brute force
// maximisation over dense samples, validation naming the field.
#include <proxima/shapes/box.hpp>
#include <proxima/shapes/concepts.hpp>
#include <proxima/shapes/point.hpp>
#include <proxima/shapes/sphere.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace proxima {
namespace {

static_assert(SupportMap<Point>);
static_assert(RoundedSupportMap<Sphere>);
static_assert(SupportMap<Box> && !RoundedSupportMap<Box>);

TEST(Box, SupportIsTheMaximisingVertex) {
  const Box box(Vec3(1, 2, 0.5));
  std::mt19937_64 rng(7);
  std::normal_distribution<double> n;
  for (int i = 0; i < 200; ++i) {
    const Vec3 d(n(rng), n(rng), n(rng));
    double best = -INFINITY;
    for (int c = 0; c < 8; ++c) {
      const Vec3 corner((c & 1 ? 1 : -1) * 1.0, (c & 2 ? 1 : -1) * 2.0, (c & 4 ? 1 : -1) * 0.5);
      best = std::max(best, d.dot(corner));
    }
    EXPECT_NEAR(d.dot(box.support(d)), best, 1e-14) << "seed 7, case " << i;
  }
}

TEST(Sphere, SupportEqualsCorePlusMargin) {
  const Sphere s(2.5);
  const Vec3 d(1, -2, 3);
  EXPECT_LT((s.support(d) - (core_support(s, d) + margin(s) * d.normalized())).norm(), 1e-14);
  EXPECT_NEAR(s.support(d).norm(), 2.5, 1e-14);
}

TEST(Shapes, BadSizesAreRefusedNamingTheField) {
  try {
    Sphere s(-1);
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "radius");
    EXPECT_NE(std::string(e.what()).find("-1"), std::string::npos);
  }
  try {
    Box b(Vec3(1, std::nan(""), 1));
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "half_extents.y");
  }
  EXPECT_THROW(Point(Vec3(INFINITY, 0, 0)), InvalidInput);
}

}  // namespace
}  // namespace proxima
