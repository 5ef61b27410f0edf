// SPDX-License-Identifier: MIT
// The raster's own atan2 (src/ccd/azimuth_atan2.hpp) against std::atan2 and the long double
// atan2l: within 2 ulp of both over a seeded sweep of directions and magnitudes, the C library's
// exact results at the signed zeros and the axes, the sign of y kept (the branch logic of
// branch_phi forces it), |result| <= pi, and monotone in the angle across its reduction's case
// boundaries.
#include "ccd/azimuth_atan2.hpp"
#include "ccd/ulp_distance.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>
#include <string>

namespace proxima::ccd::detail {
namespace {

using proxima::test::ulp_distance;

constexpr std::int64_t kMaxUlp = 2;

TEST(AzimuthAtan2, WithinTwoUlpOfTheLibraryOverASeededSweep) {
  const std::uint64_t seed = 20261129;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> angle(-std::numbers::pi, std::numbers::pi), exponent(-40, 40);
  std::int64_t worst_std = 0, worst_long = 0;
  int equal = 0;
  constexpr int kDraws = 400000;
  for (int i = 0; i < kDraws; ++i) {
    const double a = angle(rng), r = std::exp2(exponent(rng));
    double y = r * std::sin(a), x = r * std::cos(a);
    // One in four with the two coordinates of unrelated magnitudes (near the axes, tiny / huge).
    if (i % 4 == 1) x = std::ldexp(x, static_cast<int>(exponent(rng)));
    const double got = azimuth_atan2(y, x), want = std::atan2(y, x);
    const double exact = static_cast<double>(std::atan2(static_cast<long double>(y), static_cast<long double>(x)));
    const std::int64_t d = ulp_distance(got, want), dl = ulp_distance(got, exact);
    worst_std = std::max(worst_std, d);
    worst_long = std::max(worst_long, dl);
    equal += d == 0 ? 1 : 0;
    ASSERT_LE(d, kMaxUlp) << "seed " << seed << " draw " << i << " y " << y << " x " << x;
    ASSERT_LE(dl, kMaxUlp) << "seed " << seed << " draw " << i << " y " << y << " x " << x;
    ASSERT_EQ(std::signbit(got), std::signbit(y)) << "seed " << seed << " draw " << i;
    ASSERT_LE(std::abs(got), std::numbers::pi) << "seed " << seed << " draw " << i;
  }
  // Mostly the same double (94% when measured).
  EXPECT_GT(equal, kDraws * 9 / 10) << "worst " << worst_std << " ulp vs std, " << worst_long << " vs atan2l";
}

TEST(AzimuthAtan2, SignedZerosAxesAndExtremesAsTheLibrary) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  constexpr double tiny = std::numeric_limits<double>::denorm_min(), huge = std::numeric_limits<double>::max();
  const double values[] = {0.0, -0.0, 1.0, -1.0, tiny, -tiny, 1e-300, -1e-300, 1e300, -1e300, huge, -huge, inf, -inf};
  for (double y : values) {
    for (double x : values) {
      const double got = azimuth_atan2(y, x), want = std::atan2(y, x);
      const std::string label = "y " + std::to_string(y) + " x " + std::to_string(x);
      // Signed zeros, the axes (x = +-0: +-pi/2; y = +-0: +-0 or +-pi) and the cases left to the
      // library: bit for bit; the rest within the bound.
      if (y == 0 || x == 0 || std::isinf(y) || std::isinf(x) || std::abs(y) + std::abs(x) > huge) {
        EXPECT_EQ(std::bit_cast<std::uint64_t>(got), std::bit_cast<std::uint64_t>(want)) << label;
      } else {
        EXPECT_LE(ulp_distance(got, want), kMaxUlp) << label;
      }
      EXPECT_EQ(std::signbit(got), std::signbit(y)) << label;
    }
  }
  EXPECT_TRUE(std::isnan(azimuth_atan2(std::nan(""), 1.0)));
  EXPECT_TRUE(std::isnan(azimuth_atan2(1.0, std::nan(""))));
  // z < 0 with x = +-0, as branch_phi forces it on a cut: +-pi exactly.
  EXPECT_EQ(azimuth_atan2(0.0, -2.5), std::numbers::pi);
  EXPECT_EQ(azimuth_atan2(-0.0, -2.5), -std::numbers::pi);
}

TEST(AzimuthAtan2, MonotoneAcrossTheReductionBoundaries) {
  // y / x near tan(pi/8), 1 and tan(3pi/8) (where the reduction changes case), for x > 0 (the
  // angle grows with y) and x < 0 (it shrinks), stepping y one double at a time.
  const double ratios[] = {std::numbers::sqrt2 - 1, 1.0, std::numbers::sqrt2 + 1};
  const double scales[] = {1.0, 3.7, 1e-9, 2e7};
  for (double ratio : ratios) {
    for (double scale : scales) {
      for (double x : {scale, -scale}) {
        double y = ratio * scale;
        for (int i = 0; i < 64; ++i) y = std::nextafter(y, 0.0);
        double previous = azimuth_atan2(y, x);
        for (int i = 0; i < 128; ++i) {
          y = std::nextafter(y, std::numeric_limits<double>::infinity());
          const double now = azimuth_atan2(y, x);
          if (x > 0) {
            ASSERT_GE(now, previous) << "ratio " << ratio << " x " << x << " step " << i;
          } else {
            ASSERT_LE(now, previous) << "ratio " << ratio << " x " << x << " step " << i;
          }
          previous = now;
        }
      }
    }
  }
}

}  // namespace
}  // namespace proxima::ccd::detail
