// SPDX-License-Identifier: MIT
// Tests for ellipsoid.hpp: support against brute force over dense surface samples, membership,
// extreme direction lengths (no overflow), bounds, bad input.
#include "support_oracle.hpp"

#include <proxima/shapes/ellipsoid.hpp>

namespace proxima {
namespace {

static_assert(SupportMap<Ellipsoid>);

TEST(Ellipsoid, SupportMatchesDenseSamples) {
  for (const Vec3& a : {Vec3(1, 2, 3), Vec3(0.01, 1, 1), Vec3(5, 5, 5)}) {
    const Ellipsoid e(a);
    std::vector<Vec3> samples;
    for (const Vec3& u : test::fibonacci_sphere(20000)) samples.push_back(a.cwiseProduct(u));
    const auto contains = [&](const Vec3& p) { return p.cwiseQuotient(a).squaredNorm() <= 1 + 1e-12; };
    std::ostringstream label;
    label << "ellipsoid " << a.transpose() << " seed 41";
    // 20000 Fibonacci points are < 0.03 rad apart; the value gap is <= max(a) * (1 - cos 0.03).
    test::expect_support_matches_samples(e, samples, contains, test::directions(41, 300), 5e-4 * a.maxCoeff(), label.str());
    test::expect_bounds_contain(e, test::directions(42, 200), label.str());
    test::expect_zero_direction_deterministic(e, contains, label.str());
    // The support lies ON the surface, for huge and tiny directions alike.
    for (const double scale : {1e-300, 1e-10, 1.0, 1e300}) {
      const Vec3 s = e.support(scale * Vec3(0.3, -0.5, 0.7));
      EXPECT_NEAR(s.cwiseQuotient(a).squaredNorm(), 1.0, 1e-14) << label.str() << " scale " << scale;
    }
  }
}

TEST(Ellipsoid, BadInputNamesTheField) {
  try {
    Ellipsoid e(Vec3(1, 1, 0));
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "semiaxes.z");
    EXPECT_NE(std::string(e.what()).find("0"), std::string::npos);
  }
}

}  // namespace
}  // namespace proxima
