// SPDX-License-Identifier: MIT
// Tests for affine.hpp (seed 002, theorem 2). Oracles: the image of a box is the polytope of the
// 8 mapped corners (brute force over them); the image of the unit ball under a diagonal map is an
// Ellipsoid (closed form |A d|); the image of a hinted Polytope keeps using its hint.
#include "support_oracle.hpp"

#include <proxima/shapes/affine.hpp>
#include <proxima/shapes/box.hpp>
#include <proxima/shapes/ellipsoid.hpp>
#include <proxima/shapes/polytope.hpp>
#include <proxima/shapes/sphere.hpp>

namespace proxima {
namespace {

static_assert(SupportMap<Affine<Box>> && !RoundedSupportMap<Affine<Sphere>>);
static_assert(HintedSupportMap<Affine<Polytope>> && !HintedSupportMap<Affine<Box>>);

Mat3 random_matrix(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> uni(-2, 2);
  Mat3 m;
  for (int i = 0; i < 9; ++i) m(i / 3, i % 3) = uni(rng);
  return m;
}

TEST(Affine, ImageOfABoxIsThePolytopeOfItsMappedCorners) {
  std::mt19937_64 rng(71);
  int reflections = 0;
  for (int trial = 0; trial < 50; ++trial) {
    const Mat3 b = random_matrix(rng);
    const Vec3 c(1, -2, 3);
    const Vec3 h(0.5, 1, 2);
    const Affine<Box> image(Box(h), b, c);
    std::vector<Vec3> corners;
    for (int k = 0; k < 8; ++k) corners.push_back(b * h.cwiseProduct(Vec3(k & 1 ? 1 : -1, k & 2 ? 1 : -1, k & 4 ? 1 : -1)) + c);
    if (b.determinant() < 0) ++reflections;
    for (const Vec3& d : test::directions(72 + std::uint64_t(trial), 100)) {
      double best = -INFINITY;
      for (const Vec3& p : corners) best = std::max(best, d.dot(p));
      ASSERT_NEAR(d.dot(image.support(d)), best, 1e-12 * (1 + std::abs(best))) << "seed 71, trial " << trial;
    }
    test::expect_bounds_contain(image, test::directions(73, 50), "affine box trial " + std::to_string(trial), false);
  }
  EXPECT_GT(reflections, 5) << "reflections (det < 0) must be among the samples";
  EXPECT_LT(reflections, 45);
}

TEST(Affine, DiagonalImageOfTheUnitBallIsAnEllipsoid) {
  const Vec3 a(1, 2, 0.25);
  const Affine<Sphere> image(Sphere(1), Mat3(a.asDiagonal()));
  const Ellipsoid ellipsoid(a);
  for (const Vec3& d : test::directions(74, 300)) {
    EXPECT_LT((image.support(d) - ellipsoid.support(d)).norm(), 1e-14);
    EXPECT_NEAR(d.dot(image.support(d)), a.cwiseProduct(d).norm(), 1e-12 * d.norm());
  }
  EXPECT_DOUBLE_EQ(image.bounding_sphere().radius, 2.0);
  EXPECT_EQ(image.local_aabb().max, a) << "axis-aligned map: the box is tight";
}

TEST(Affine, PassesTheHintToAPolytope) {
  std::vector<Vec3> points;
  for (const Vec3& u : test::fibonacci_sphere(500)) points.push_back(u);
  std::mt19937_64 rng(75);
  const Mat3 b = random_matrix(rng);
  const Affine<Polytope> image(Polytope(points), b, Vec3(0, 0, 1));
  int hint = -1;
  for (const Vec3& d : test::directions(76, 300)) {
    double best = -INFINITY;
    for (const Vec3& p : points) best = std::max(best, d.dot(b * p + Vec3(0, 0, 1)));
    ASSERT_NEAR(d.dot(image.support(d, hint)), best, 1e-12 * (1 + std::abs(best)) * d.norm());
    ASSERT_EQ(image.support(d, hint), image.support(d));
  }
}

TEST(Affine, SingularOrNonFiniteMapsAreRefused) {
  Mat3 flat = Mat3::Identity();
  flat(2, 2) = 0;
  try {
    Affine<Sphere> a(Sphere(1), flat);
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "linear");
    EXPECT_NE(std::string(e.what()).find("invertible"), std::string::npos);
  }
  flat(2, 2) = 1e-13;  // below kAffineMinSingularValueRatio
  EXPECT_THROW(Affine<Sphere>(Sphere(1), flat), InvalidInput);
  flat(2, 2) = 1e-11;  // strong but legitimate squash
  EXPECT_NO_THROW(Affine<Sphere>(Sphere(1), flat));
  Mat3 bad = Mat3::Identity();
  bad(1, 2) = NAN;
  try {
    Affine<Sphere> a(Sphere(1), bad);
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "linear[1][2]");
  }
  try {
    Affine<Sphere> a(Sphere(1), Mat3::Identity(), Vec3(0, INFINITY, 0));
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "offset.y");
  }
}

}  // namespace
}  // namespace proxima
