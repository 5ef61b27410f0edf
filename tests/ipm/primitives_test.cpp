// SPDX-License-Identifier: MIT
// Primitives: values, gradients and Hessians against central differences of value(); validation.
#include <proxima/core/error.hpp>
#include <proxima/ipm/primitives.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace proxima::ipm {
namespace {

constexpr double kFloor = 1e-6;

/// Central-difference gradient and Hessian of value(), compared with evaluate() at points where
/// every power term is away from 0 (where the Hessian is exact, not regularised).
void check_derivatives(const Primitive& p, const Vec3& u, double step = 1e-5) {
  LocalEval e;
  p.evaluate(u, kFloor, e);
  EXPECT_NEAR(e.value, p.value(u), 1e-12 * (1 + std::abs(e.value)));
  for (int i = 0; i < 3; ++i) {
    Vec3 d = Vec3::Zero();
    d[i] = step;
    const double fd = (p.value(u + d) - p.value(u - d)) / (2 * step);
    EXPECT_NEAR(e.gradient[i], fd, 1e-6 * (1 + std::abs(fd))) << "component " << i << " at " << u.transpose();
    LocalEval ep, em;
    p.evaluate(u + d, kFloor, ep);
    p.evaluate(u - d, kFloor, em);
    const Vec3 col = (ep.gradient - em.gradient) / (2 * step);
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(e.hessian(k, i), col[k], 1e-5 * (1 + std::abs(col[k]))) << "H(" << k << "," << i << ")";
    }
  }
}

TEST(IpmPrimitives, DerivativesMatchFiniteDifferences) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> coord(-0.9, 0.9);
  const Superquadric sq({1, 0.7, 1.5}, {4.0 / 3, 7.0 / 5, 15.0 / 13});
  const Superquadric sq2({1, 1, 1.7}, {23.0 / 11, 11.0 / 5, 179.0 / 13});
  Mat3 q;
  q << 2, 0.5, 0, 0.5, 1, 0.2, 0, 0.2, 3;
  const Quadric quad(q, {0.1, -0.2, 0.3}, -1);
  const Hyperquadric hq({{{0, 1, 0, 0}, 16}, {{1, 0.5, 0, 0.1}, 1.5}, {{1, -0.5, 0, 0}, 16}, {{0, 0, 2.5, 0}, 2}});
  const Halfspace hs({1, 2, 3}, 0.5);
  int checked = 0;
  for (int trial = 0; trial < 50; ++trial) {
    const Vec3 u{coord(rng), coord(rng), coord(rng)};
    SCOPED_TRACE("seed 11 trial " + std::to_string(trial));
    // Keep power terms away from 0 so the exact Hessian applies (|w| >= 0.05).
    if ((u.cwiseAbs().array() < 0.05).any()) continue;
    check_derivatives(sq, u);
    check_derivatives(sq2, u);
    check_derivatives(quad, u);
    check_derivatives(hs, u);
    const double h1 = u.x() + 0.5 * u.y() + 0.1;
    if (std::abs(h1) > 0.05 && std::abs(u.x() - 0.5 * u.y()) > 0.05) check_derivatives(hq, u);
    ++checked;
  }
  EXPECT_GE(checked, 30);
}

TEST(IpmPrimitives, ClosedFormValues) {
  const Quadric e = Quadric::ellipsoid({1, 2, 3});
  EXPECT_DOUBLE_EQ(e.value({1, 0, 0}), 0);
  EXPECT_DOUBLE_EQ(e.value({0, 0, 0}), -1);
  EXPECT_DOUBLE_EQ(e.value({0, 4, 0}), 3);
  const Halfspace h({0, 0, 2}, 4);  // z <= 2
  EXPECT_DOUBLE_EQ(h.value({5, 5, 3}), 1);
  EXPECT_DOUBLE_EQ(h.normal().norm(), 1);
  const Superquadric s({2, 1, 1}, {3, 1.5, 16});
  EXPECT_NEAR(s.value({1, 0, 0}), std::pow(0.5, 3) - 1, 1e-15);
  EXPECT_NEAR(s.value({0, 0.25, 0}), std::pow(0.25, 1.5) - 1, 1e-15);
}

TEST(IpmPrimitives, CurvatureIsCappedNearZeroForExponentsBelowTwo) {
  const Superquadric s({1, 1, 1}, {4.0 / 3, 3, 2});
  LocalEval e;
  s.evaluate(Vec3::Zero(), kFloor, e);
  EXPECT_TRUE(e.gradient.isZero(0));
  const double cap = (4.0 / 3) * (1.0 / 3) * std::pow(kFloor, 4.0 / 3 - 2);
  EXPECT_DOUBLE_EQ(e.hessian(0, 0), cap);
  EXPECT_DOUBLE_EQ(e.hessian(1, 1), 0);
  EXPECT_DOUBLE_EQ(e.hessian(2, 2), 2);
  EXPECT_TRUE(e.hessian.allFinite());
}

template <class F>
void expect_invalid(F&& make, const std::string& field) {
  try {
    make();
    ADD_FAILURE() << "expected InvalidInput naming " << field;
  } catch (const InvalidInput& error) {
    EXPECT_EQ(error.field(), field) << error.what();
  }
}

TEST(IpmPrimitives, BadInputIsRefusedNamingTheField) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  expect_invalid([] { Superquadric({1, 1, 1}, {2, 0.5, 2}); }, "exponents[1]");
  expect_invalid([&] { Superquadric({1, 1, 1}, {2, 2, nan}); }, "exponents[2]");
  expect_invalid([] { Superquadric({1, 0, 1}, {2, 2, 2}); }, "semiaxes.y");
  expect_invalid([] { Superquadric({-1, 1, 1}, {2, 2, 2}); }, "semiaxes.x");
  expect_invalid([&] { Superquadric({1, 1, inf}, {2, 2, 2}); }, "semiaxes.z");
  expect_invalid([] { Halfspace({0, 0, 0}, 1); }, "normal");
  expect_invalid([&] { Halfspace({0, 0, 1}, nan); }, "offset");
  expect_invalid([&] { Halfspace({nan, 0, 1}, 0); }, "normal.x");
  Mat3 indefinite = Mat3::Identity();
  indefinite(2, 2) = -1;
  expect_invalid([&] { Quadric(indefinite, Vec3::Zero(), -1); }, "Q");
  Mat3 asymmetric = Mat3::Identity();
  asymmetric(0, 1) = 1;
  expect_invalid([&] { Quadric(asymmetric, Vec3::Zero(), -1); }, "Q");
  expect_invalid([&] { Quadric(Mat3::Identity(), Vec3::Zero(), inf); }, "c");
  expect_invalid([] { Quadric::ellipsoid({1, 0, 1}); }, "semiaxes.y");
  expect_invalid([] { Hyperquadric({{{1, 0, 0, 0}, 2}, {{0, 1, 0, 0}, 2}}); }, "terms");
  expect_invalid([] { Hyperquadric({{{1, 0, 0, 0}, 2}, {{0, 1, 0, 0}, 0.9}, {{0, 0, 1, 0}, 2}}); },
                 "terms[1].exponent");
  expect_invalid([] { Hyperquadric({{{1, 0, 0, 0}, 2}, {{0, 1, 0, 0}, 2}, {{0, 0, 0, 1}, 2}}); }, "terms[2].plane");
  expect_invalid([&] { Hyperquadric({{{1, 0, 0, 0}, 2}, {{0, 1, nan, 0}, 2}, {{0, 0, 1, 0}, 2}}); },
                 "terms[1].plane[2]");
}

TEST(IpmPrimitives, Boundedness) {
  EXPECT_FALSE(Primitive(Halfspace({1, 0, 0}, 1)).bounded());
  EXPECT_TRUE(Primitive(Quadric::ellipsoid({1, 2, 3})).bounded());
  EXPECT_FALSE(Primitive(Quadric(Vec3(1, 1, 0).asDiagonal(), Vec3::Zero(), -1)).bounded());  // cylinder
  EXPECT_TRUE(Primitive(Superquadric({1, 1, 1}, {2, 2, 2})).bounded());
  EXPECT_FALSE(Primitive(Hyperquadric({{{1, 0, 0, 0}, 2}, {{0, 1, 0, 0}, 2}, {{1, 1, 0, 0}, 2}})).bounded());
}

}  // namespace
}  // namespace proxima::ipm
