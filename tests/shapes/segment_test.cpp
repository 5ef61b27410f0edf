// SPDX-License-Identifier: MIT
// Tests for segment.hpp: support against brute force over dense samples
// (vertices included, so the maximum is exact), bounds, d == 0, bad input.
#include "support_oracle.hpp"

#include <proxima/shapes/segment.hpp>

namespace proxima {
namespace {

static_assert(SupportMap<Segment> && !RoundedSupportMap<Segment>);

double distance_to_segment(const Vec3& p, const Vec3& a, const Vec3& b) {
  const double t = std::clamp((p - a).dot(b - a) / (b - a).squaredNorm(), 0.0, 1.0);
  return (p - (a + t * (b - a))).norm();
}

TEST(Segment, SupportMatchesDenseSamples) {
  const Segment seg(Vec3(1, -2, 0.5), Vec3(-3, 4, 2));
  std::vector<Vec3> samples;
  for (int i = 0; i <= 1000; ++i) samples.push_back(seg.a() + (i / 1000.0) * (seg.b() - seg.a()));
  const auto contains = [&](const Vec3& p) { return distance_to_segment(p, seg.a(), seg.b()) < 1e-12; };
  test::expect_support_matches_samples(seg, samples, contains, test::directions(11, 500), 0, "segment seed 11");
  test::expect_bounds_contain(seg, test::directions(12, 200), "segment seed 12");
  test::expect_zero_direction_deterministic(seg, contains, "segment");
  EXPECT_EQ(Segment::along_z(2).support(Vec3(0, 0, 1)), Vec3(0, 0, 2));
}

TEST(Segment, BadInputNamesTheField) {
  try {
    Segment s(Vec3(0, 0, 0), Vec3(0, NAN, 0));
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "b.y");
    EXPECT_NE(std::string(e.what()).find("nan"), std::string::npos);
  }
  try {
    Segment s(Vec3(1, 2, 3), Vec3(1, 2, 3));
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "b");
  }
  try {
    (void)Segment::along_z(0);
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "half_length");
  }
}

}  // namespace
}  // namespace proxima
