// SPDX-License-Identifier: MIT
// Tests for cylinder.hpp: support against brute force over the dense rim circles, membership by the closed-form inequalities, bounds, d == 0, bad input.
#include "support_oracle.hpp"

#include <proxima/shapes/cylinder.hpp>

namespace proxima {
namespace {

static_assert(SupportMap<Cylinder>);

constexpr int kRimSamples = 4096;

std::vector<Vec3> rim(double r, double z) {
  std::vector<Vec3> out;
  for (int i = 0; i < kRimSamples; ++i) {
    const double t = 2 * std::numbers::pi * i / kRimSamples;
    out.emplace_back(r * std::cos(t), r * std::sin(t), z);
  }
  return out;
}

TEST(Cylinder, SupportMatchesDenseSamples) {
  const double r = 0.7;
  const double h = 1.9;
  const Cylinder cyl(r, h);
  std::vector<Vec3> samples = rim(r, h);
  const std::vector<Vec3> bottom = rim(r, -h);
  samples.insert(samples.end(), bottom.begin(), bottom.end());
  const auto contains = [&](const Vec3& p) {
    return std::hypot(p.x(), p.y()) <= r * (1 + 1e-12) && std::abs(p.z()) <= h * (1 + 1e-12);
  };
  const double gap = r * (1 - std::cos(std::numbers::pi / kRimSamples));
  test::expect_support_matches_samples(cyl, samples, contains, test::directions(31, 500), gap, "cylinder seed 31");
  test::expect_bounds_contain(cyl, test::directions(32, 200), "cylinder seed 32");
  test::expect_zero_direction_deterministic(cyl, contains, "cylinder");
  EXPECT_EQ(cyl.support(Vec3(0, 0, -2)), Vec3(0, 0, -h));
}

TEST(Cylinder, BadInputNamesTheField) {
  try {
    Cylinder c(1, -2);
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "half_height");
    EXPECT_NE(std::string(e.what()).find("-2"), std::string::npos);
  }
  EXPECT_THROW(Cylinder(0, 1), InvalidInput);
}

}  // namespace
}  // namespace proxima
