// SPDX-License-Identifier: MIT
// Tests for superquadric.hpp. Three independent oracles:
//  1. brute force: d . x over dense surface samples (radial points found by bisection) never
//     beats the support by more than rounding;
//  2. a second solver: plain bisection on the Lagrange multiplier in long double, without logs,
//     Newton or the radial correction (for exponents > 1);
//  3. the certificate: the support lies on the surface (residual) and the surface normal there
//     is parallel to d (KKT).
#include "support_oracle.hpp"

#include <proxima/shapes/superquadric.hpp>

#include <sstream>

namespace proxima {
namespace {

static_assert(SupportMap<Superquadric>);

/// Radial surface point in direction w (unit): r w with sum |r w_i / a_i|^e_i = 1, by bisection.
Vec3 radial_surface_point(const Vec3& w, const Vec3& a, const Vec3& e) {
  double hi = INFINITY;
  for (int i = 0; i < 3; ++i) {
    if (w[i] != 0) hi = std::min(hi, a[i] / std::abs(w[i]));
  }
  double lo = 0;
  for (int it = 0; it < 60; ++it) {
    const double r = (lo + hi) / 2;
    double sum = 0;
    for (int i = 0; i < 3; ++i) sum += std::pow(std::abs(r * w[i] / a[i]), e[i]);
    (sum > 1 ? hi : lo) = r;
  }
  return lo * w;
}

/// Second solver: bisection in long double on t = 1 / lambda of the Lagrange condition.
Vec3 reference_support(const Vec3& d, const Vec3& a, const Vec3& e) {
  long double hi = INFINITY;
  for (int i = 0; i < 3; ++i) {
    const long double c = (long double)a[i] * std::abs(d[i]);
    if (c > 0) hi = std::min(hi, (long double)e[i] / c);
  }
  long double lo = 0;
  const auto u = [&](long double t, int i) {
    const long double c = (long double)a[i] * std::abs(d[i]);
    return std::pow(t * c / e[i], 1.0L / (e[i] - 1.0L));
  };
  for (int it = 0; it < 100; ++it) {
    const long double t = (lo + hi) / 2;
    long double sum = 0;
    for (int i = 0; i < 3; ++i) sum += std::pow(u(t, i), (long double)e[i]);
    (sum > 1 ? hi : lo) = t;
  }
  Vec3 x;
  for (int i = 0; i < 3; ++i) x[i] = double(std::copysign(a[i] * u(lo, i), (long double)d[i]));
  return x;
}

struct Case {
  Vec3 a;
  Vec3 e;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const double e : {1.0, 1.1, 4.0 / 3, 2.0, 2.2, 13.769, 16.0, 100.0}) out.push_back({Vec3(1, 2, 0.5), Vec3::Constant(e)});
  out.push_back({Vec3(1, 1, 1.7), Vec3(2.0909, 2.2, 13.769)});  // DESIGN.md's "can"
  out.push_back({Vec3(2, 1, 1.7), Vec3(2.0909, 3.4, 2.4286)});  // DESIGN.md's "mouse" part
  out.push_back({Vec3(1, 3, 2), Vec3(1, 2, 16)});
  out.push_back({Vec3(1, 1, 1), Vec3(1, 1, 2)});
  out.push_back({Vec3(0.5, 1, 4), Vec3(1.1, 100, 4.0 / 3)});
  out.push_back({Vec3(1e-3, 2e-3, 1e-3), Vec3(2.2, 1, 13.769)});  // small scale
  out.push_back({Vec3(1e5, 3e5, 2e5), Vec3(100, 1.1, 2)});       // large scale
  return out;
}

std::string describe(const Case& c) {
  std::ostringstream s;
  s << "semiaxes " << c.a.transpose() << " exponents " << c.e.transpose();
  return s.str();
}

TEST(Superquadric, SupportMatchesDenseSamplesAndIsOnTheSurface) {
  int max_iterations = 0;
  for (const Case& c : cases()) {
    const Superquadric sq(c.a, c.e);
    const std::string label = describe(c);
    std::vector<Vec3> samples;
    for (const Vec3& w : test::fibonacci_sphere(6000)) {
      samples.push_back(radial_surface_point(w, c.a, c.e));
      // Signed-power parametrisation x_i = a_i sign(w_i) |w_i|^(2 / e_i): exactly on the surface,
      // and dense near the edges and corners that radial samples miss for large exponents.
      Vec3 x;
      for (int i = 0; i < 3; ++i) x[i] = std::copysign(c.a[i] * std::pow(std::abs(w[i]), 2 / c.e[i]), w[i]);
      samples.push_back(x);
    }
    for (int i = 0; i < 3; ++i) {  // the tips, exact maximisers of the octahedron-like cases
      samples.push_back(c.a[i] * Vec3::Unit(i));
      samples.push_back(-c.a[i] * Vec3::Unit(i));
    }
    const auto contains = [&](const Vec3& p) { return sq.implicit_value(p) <= 1 + 1e-12; };
    // The gap only bounds how far below the true maximum the sampled one may be; the strong
    // checks are the lower bound (no sample beats the support) and the surface residual below.
    test::expect_support_matches_samples(sq, samples, contains, test::directions(51, 300), 0.05 * c.a.maxCoeff(), label);
    test::expect_bounds_contain(sq, test::directions(52, 100), label);
    test::expect_zero_direction_deterministic(sq, contains, label);
    for (const Vec3& d : test::directions(53, 300)) {
      const SuperquadricSupport s = sq.support_with_diagnostics(d);
      ASSERT_TRUE(s.converged) << label << " d=" << d.transpose();
      max_iterations = std::max(max_iterations, s.iterations);
      ASSERT_NEAR(sq.implicit_value(s.point), 1.0, 1e-12) << label << " d=" << d.transpose();
    }
  }
  EXPECT_LE(max_iterations, 60) << "Newton should need far fewer steps than the cap";
  EXPECT_GE(max_iterations, 2) << "the root find must have been exercised";
}

TEST(Superquadric, AgreesWithLongDoubleBisection) {
  int compared = 0;
  for (const Case& c : cases()) {
    if (c.e.minCoeff() <= 1) continue;  // the reference needs every exponent > 1
    const Superquadric sq(c.a, c.e);
    const std::string label = describe(c);
    const double scale = c.a.norm();
    for (const Vec3& d : test::directions(54, 200)) {
      const Vec3 x = sq.support(d);
      const Vec3 ref = reference_support(d, c.a, c.e);
      ASSERT_NEAR(d.dot(x), d.dot(ref), 1e-12 * scale * d.norm()) << label << " d=" << d.transpose();
      ASSERT_LT((x - ref).norm(), 1e-8 * scale) << label << " d=" << d.transpose();
      ++compared;
    }
  }
  EXPECT_GE(compared, 2000);
}

TEST(Superquadric, NormalAtTheSupportIsParallelToTheDirection) {
  int checked = 0;
  for (const Case& c : cases()) {
    const Superquadric sq(c.a, c.e);
    for (const Vec3& d : test::directions(55, 300)) {
      const Vec3 x = sq.support(d);
      if ((x.array() == 0).any()) continue;  // a vertex or edge of a linear term: a subgradient only
      Vec3 g;
      for (int i = 0; i < 3; ++i) {
        g[i] = std::copysign(c.e[i] * std::pow(std::abs(x[i] / c.a[i]), c.e[i] - 1) / c.a[i], x[i]);
      }
      ASSERT_LT((g.normalized() - d.normalized()).norm(), 1e-8) << describe(c) << " d=" << d.transpose();
      ++checked;
    }
  }
  EXPECT_GE(checked, 3000) << "most directions must hit smooth points";
}

TEST(Superquadric, LinearExponentsGiveTheVertices) {
  const Vec3 a(1, 2, 0.5);
  const Superquadric octahedron(a, Vec3::Ones());
  for (const Vec3& d : test::directions(56, 500)) {
    const double expected = a.cwiseProduct(d.cwiseAbs()).maxCoeff();
    EXPECT_NEAR(d.dot(octahedron.support(d)), expected, 1e-15 * expected) << d.transpose();
  }
  // (1, 2, 2): below the threshold the smooth terms take lambda = c_x and x keeps the slack.
  const Superquadric mixed(Vec3::Ones(), Vec3(1, 2, 2));
  const Vec3 s = mixed.support(Vec3(1, 0.6, 0.8));
  EXPECT_NEAR(s.y(), 0.3, 1e-15);  // u_y = c_y / (2 c_x)
  EXPECT_NEAR(s.z(), 0.4, 1e-15);
  EXPECT_NEAR(s.x(), 1 - 0.25, 1e-15);
}

TEST(Superquadric, ExtremeDirectionsAndExponentsStayFinite) {
  for (const double e : {1.0, 1.0 + 1e-10, 1.0 + 1e-6, 1e3, 1e6}) {
    const Superquadric sq(Vec3(1, 2, 3), Vec3(e, 2, e));
    for (const double scale : {1e-300, 1e-8, 1.0, 1e300}) {
      for (const Vec3& d : test::directions(57, 50)) {
        const Vec3 x = sq.support(scale * d.normalized());
        ASSERT_TRUE(x.allFinite()) << "e=" << e << " scale " << scale;
        ASSERT_LE(sq.implicit_value(x), 1 + 1e-12) << "e=" << e << " scale " << scale;
        ASSERT_GE(sq.implicit_value(x), 1 - 1e-9) << "e=" << e << " scale " << scale;
      }
    }
  }
}

TEST(Superquadric, BadInputNamesTheField) {
  try {
    Superquadric s(Vec3(1, 1, 1), Vec3(2, 0.5, 2));
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "exponents.y");
    EXPECT_NE(std::string(e.what()).find("0.5"), std::string::npos);
  }
  try {
    Superquadric s(Vec3(1, -1, 1), Vec3(2, 2, 2));
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "semiaxes.y");
  }
  try {
    Superquadric s(Vec3(1, 1, 1), Vec3(2, 2, INFINITY));
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_EQ(e.field(), "exponents.z");
  }
  EXPECT_THROW(Superquadric(Vec3(1, 1, 1), Vec3(NAN, 2, 2)), InvalidInput);
}

}  // namespace
}  // namespace proxima
