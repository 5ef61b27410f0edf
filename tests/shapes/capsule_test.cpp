// SPDX-License-Identifier: MIT
// Tests for capsule.hpp: support against brute force over dense samples of the two end balls,
// RoundedSupportMap identity, bounds, bad input.
#include "support_oracle.hpp"

#include <proxima/shapes/box.hpp>
#include <proxima/shapes/capsule.hpp>

namespace proxima {
namespace {

static_assert(RoundedSupportMap<Capsule>);

template <class S>
void expect_support_is_core_plus_margin(const S& shape, const std::vector<Vec3>& dirs, const char* label) {
  for (std::size_t i = 0; i < dirs.size(); ++i) {
    const Vec3& d = dirs[i];
    const Vec3 expected = core_support(shape, d) + margin(shape) * d.normalized();
    EXPECT_LT((shape.support(d) - expected).norm(), 1e-13 * (1 + expected.norm())) << label << " case " << i;
  }
}

TEST(Capsule, SupportMatchesDenseSamples) {
  const double r = 0.4;
  const double hl = 1.5;
  const Capsule cap(r, hl);
  std::vector<Vec3> samples;
  for (const Vec3& u : test::fibonacci_sphere(4000)) {
    samples.push_back(Vec3(0, 0, hl) + r * u);
    samples.push_back(Vec3(0, 0, -hl) + r * u);
  }
  const auto contains = [&](const Vec3& p) {
    return (p - Vec3(0, 0, std::clamp(p.z(), -hl, hl))).norm() <= r * (1 + 1e-12);
  };
  test::expect_support_matches_samples(cap, samples, contains, test::directions(24, 400), 2e-3 * r, "capsule seed 24");
  test::expect_bounds_contain(cap, test::directions(25, 200), "capsule seed 25");
  test::expect_zero_direction_deterministic(cap, contains, "capsule");
  expect_support_is_core_plus_margin(cap, test::directions(26, 100), "capsule seed 26");
  EXPECT_DOUBLE_EQ(cap.radius(), r);
  EXPECT_DOUBLE_EQ(cap.half_length(), hl);
  EXPECT_DOUBLE_EQ(cap.local_aabb().max.z(), hl + r);
}


TEST(Capsule, BadInputNamesTheField) {
  try {
    Capsule c(-1, 1);
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "radius");
    EXPECT_NE(std::string(e.what()).find("-1"), std::string::npos);
  }
  try {
    Capsule c(1, 0);
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "half_length");
  }
  try {
    Rounded<Box> b(Box(Vec3(1, 1, 1)), NAN);
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "radius");
  }
}


}  // namespace
}  // namespace proxima
