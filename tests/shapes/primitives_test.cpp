// SPDX-License-Identifier: MIT
// Tests for the primitive shapes point.hpp, sphere.hpp, box.hpp: support against brute force
// maximisation over dense samples, validation naming the field.
#include <proxima/shapes/box.hpp>
#include <proxima/shapes/concepts.hpp>
#include <proxima/shapes/cone.hpp>
#include <proxima/shapes/cylinder.hpp>
#include <proxima/shapes/ellipsoid.hpp>
#include <proxima/shapes/point.hpp>
#include <proxima/shapes/sphere.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>

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
    const Vec3 d{n(rng), n(rng), n(rng)};
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


// planar_norm (the cylinder's and cone's sqrt(x^2 + y^2)) against a long-double reference: within
// 2 ulps everywhere, including the range ends where it hands over to std::hypot, and exact on
// zero, infinity and NaN.
TEST(PlanarNorm, MatchesLongDoubleHypotAtEveryScale) {
  const unsigned seed = 20261125;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::uniform_int_distribution<int> e(-1070, 1020);
  int fast = 0;
  int library = 0;
  for (int c = 0; c < 200000; ++c) {
    const double x_mantissa = u(rng);
    const double x = std::ldexp(x_mantissa, e(rng));
    const double y_mantissa = c % 7 == 0 ? 0.0 : u(rng);
    const double y = c % 7 == 0 ? 0.0 : std::ldexp(y_mantissa, c % 3 == 0 ? e(rng) : std::ilogb(x == 0 ? 1.0 : x) + 1);
    const double got = planar_norm(x, y);
    const long double ref = std::sqrt(static_cast<long double>(x) * x + static_cast<long double>(y) * y);
    const double s2 = x * x + y * y;
    (s2 >= 0x1p-900 && s2 <= 0x1p900 ? fast : library)++;
    // 2 ulps, or one subnormal step where the result itself is subnormal.
    const long double tol = std::max(2 * std::numeric_limits<double>::epsilon() * ref,
                                     static_cast<long double>(std::numeric_limits<double>::denorm_min()));
    ASSERT_LE(std::abs(static_cast<long double>(got) - ref), tol)
        << "seed " << seed << " case " << c << " x " << x << " y " << y;
  }
  EXPECT_GT(fast, 10000);
  EXPECT_GT(library, 10000);
  EXPECT_EQ(planar_norm(0, 0), 0);
  EXPECT_EQ(planar_norm(-0.0, 0), 0);
  EXPECT_EQ(planar_norm(INFINITY, 1), INFINITY);
  EXPECT_TRUE(std::isnan(planar_norm(NAN, 1)));
  EXPECT_EQ(planar_norm(3e-320, 4e-320), std::hypot(3e-320, 4e-320));
}

// The cylinder, cone and ellipsoid supports take a cheaper path when the direction's squares are
// well inside the normal range: the answer must not depend on the direction's length, across the
// hand-over (lengths 2^-600 .. 2^600 around 2^+-450) and at the extremes.
TEST(Shapes, SmoothSupportsIndependentOfDirectionLength) {
  const unsigned seed = 11;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> n;
  const Cylinder cyl(0.7, 1.3);
  const Cone cone(0.9, 0.4);
  const Ellipsoid ell(Vec3(0.3, 1.1, 2.5));
  for (int c = 0; c < 2000; ++c) {
    const Vec3 d{n(rng), n(rng), n(rng)};
    const Vec3 ref_cyl = cyl.support(d);
    const Vec3 ref_cone = cone.support(d);
    const Vec3 ref_ell = ell.support(d);
    for (const int k : {-1070, -1000, -600, -452, -450, -449, -300, 0, 300, 449, 450, 452, 600, 1000}) {
      const Vec3 dk = d * std::ldexp(1.0, k);  // exact scaling (power of two), unless it underflows
      if (!(dk.cwiseAbs().maxCoeff() > 0x1p-1022)) continue;
      const std::string where = "seed 11 case " + std::to_string(c) + " scale 2^" + std::to_string(k);
      ASSERT_LE((cyl.support(dk) - ref_cyl).norm(), 4e-16 * 1.3) << where;
      ASSERT_LE((cone.support(dk) - ref_cone).norm(), 4e-16) << where;
      ASSERT_LE((ell.support(dk) - ref_ell).norm(), 1e-14) << where;
    }
  }
}

}  // namespace
}  // namespace proxima
