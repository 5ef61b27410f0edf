// SPDX-License-Identifier: MIT
// Tests for cone.hpp: support against brute force over the dense base rim and the apex, membership
// by the closed-form inequalities, flat and needle cones, bounds, d == 0, bad input.
#include "support_oracle.hpp"

#include <proxima/shapes/cone.hpp>

namespace proxima {
namespace {

static_assert(SupportMap<Cone>);

constexpr int kRimSamples = 4096;

std::vector<Vec3> rim(double r, double z) {
  std::vector<Vec3> out;
  for (int i = 0; i < kRimSamples; ++i) {
    const double t = 2 * std::numbers::pi * i / kRimSamples;
    out.emplace_back(r * std::cos(t), r * std::sin(t), z);
  }
  return out;
}

TEST(Cone, SupportMatchesDenseSamples) {
  for (const double h : {0.05, 1.0, 20.0}) {  // flat, regular and needle cones
    const double r = 0.8;
    const Cone cone(r, h);
    std::vector<Vec3> samples = rim(r, -h);
    samples.emplace_back(0, 0, h);
    const auto contains = [&](const Vec3& p) {
      const double eps = 1e-12 * (r + h);
      return p.z() <= h + eps && p.z() >= -h - eps && std::hypot(p.x(), p.y()) <= r * (h - p.z()) / (2 * h) + eps;
    };
    const double gap = r * (1 - std::cos(std::numbers::pi / kRimSamples));
    const std::string label = "cone h=" + std::to_string(h) + " seed 33";
    test::expect_support_matches_samples(cone, samples, contains, test::directions(33, 500), gap, label);
    test::expect_bounds_contain(cone, test::directions(34, 200), label);
    test::expect_zero_direction_deterministic(cone, contains, label);
    EXPECT_EQ(cone.support(Vec3::Zero()), Vec3(0, 0, h));
    EXPECT_EQ(cone.support(Vec3(0, 0, -1)), Vec3(0, 0, -h));
  }
}


TEST(Cone, BadInputNamesTheField) {
  try {
    Cone c(INFINITY, 2);
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "radius");
  }
  try {
    Cone c(1, 0);
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "half_height");
  }
}

}  // namespace
}  // namespace proxima
