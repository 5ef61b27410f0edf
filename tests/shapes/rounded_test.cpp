// SPDX-License-Identifier: MIT
// Tests for rounded.hpp: support against brute force over dense samples of the
// swollen shape (core sample + ball sample), RoundedSupportMap identity, bounds, bad input.
#include "support_oracle.hpp"

#include <proxima/shapes/box.hpp>
#include <proxima/shapes/rounded.hpp>
#include <proxima/shapes/sphere.hpp>

namespace proxima {
namespace {

static_assert(RoundedSupportMap<Rounded<Box>>);
static_assert(RoundedSupportMap<Rounded<Sphere>>);

double distance_to_box(const Vec3& p, const Vec3& h) {
  return (p.cwiseAbs() - h).cwiseMax(Vec3::Zero()).norm();
}

template <class S>
void expect_support_is_core_plus_margin(const S& shape, const std::vector<Vec3>& dirs, const char* label) {
  for (std::size_t i = 0; i < dirs.size(); ++i) {
    const Vec3& d = dirs[i];
    const Vec3 expected = core_support(shape, d) + margin(shape) * d.normalized();
    EXPECT_LT((shape.support(d) - expected).norm(), 1e-13 * (1 + expected.norm())) << label << " case " << i;
  }
}

TEST(Rounded, RoundedBoxMatchesDenseSamples) {
  const Vec3 h(1, 0.5, 2);
  const double r = 0.3;
  const Rounded<Box> shape(Box(h), r);
  std::vector<Vec3> samples;
  const std::vector<Vec3> ball = test::fibonacci_sphere(4000);
  for (int c = 0; c < 8; ++c) {
    const Vec3 corner = h.cwiseProduct(Vec3(c & 1 ? 1 : -1, c & 2 ? 1 : -1, c & 4 ? 1 : -1));
    for (const Vec3& u : ball) samples.push_back(corner + r * u);
  }
  const auto contains = [&](const Vec3& p) { return distance_to_box(p, h) <= r * (1 + 1e-12); };
  // Fibonacci spacing on 4000 points is < 0.06 rad, so the sampled maximum is within r*(1-cos 0.06).
  test::expect_support_matches_samples(shape, samples, contains, test::directions(21, 400), 2e-3 * r, "rounded box seed 21");
  test::expect_bounds_contain(shape, test::directions(22, 200), "rounded box seed 22");
  test::expect_zero_direction_deterministic(shape, contains, "rounded box");
  expect_support_is_core_plus_margin(shape, test::directions(23, 100), "rounded box seed 23");
}

TEST(Rounded, RoundedSphereAddsMargins) {
  const Rounded<Sphere> shape(Sphere(1.5), 0.5);
  EXPECT_DOUBLE_EQ(shape.margin(), 2.0);
  EXPECT_EQ(shape.core_support(Vec3(1, 2, 3)), Vec3::Zero());
  EXPECT_NEAR(shape.support(Vec3(1, 2, 3)).norm(), 2.0, 1e-15);
  EXPECT_DOUBLE_EQ(shape.bounding_sphere().radius, 2.0);
}

TEST(Rounded, TinyAndHugeDirectionsKeepTheMargin) {
  const Rounded<Box> shape(Box(Vec3(1, 1, 1)), 0.5);
  const Sphere sphere(2);
  for (const double scale : {1e-300, 1e-160, 1.0, 1e160, 1e300}) {
    const Vec3 d = scale * Vec3(1, 2, 2);
    EXPECT_LT((shape.support(d) - (Vec3(1, 1, 1) + 0.5 * Vec3(1, 2, 2) / 3)).norm(), 1e-15) << scale;
    EXPECT_LT((sphere.support(d) - 2 * Vec3(1, 2, 2) / 3).norm(), 1e-15) << scale;
  }
  EXPECT_EQ(sphere.support(Vec3::Zero()), Vec3::Zero());
}

}  // namespace
}  // namespace proxima
