// SPDX-License-Identifier: MIT
// detail::clamped_int: the double -> int conversion for computed counts, defined for every
// double (NaN, infinities, values beyond int's range), which a bare static_cast is not (the
// sanitizer job's UBSan reports float-cast-overflow on those).
#include "core/clamped_int.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace proxima::detail {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaNValue = std::numeric_limits<double>::quiet_NaN();

TEST(ClampedInt, TruncatesInsideTheRange) {
  EXPECT_EQ(clamped_int(3.0, 1, 64), 3);
  EXPECT_EQ(clamped_int(3.9, 1, 64), 3);
  EXPECT_EQ(clamped_int(-2.5, -10, 10), -2);
  EXPECT_EQ(clamped_int(std::ceil(12.01), 1, 64), 13);
}

TEST(ClampedInt, ClampsAtBothEnds) {
  EXPECT_EQ(clamped_int(0.0, 1, 64), 1);
  EXPECT_EQ(clamped_int(1.0, 1, 64), 1);
  EXPECT_EQ(clamped_int(64.0, 1, 64), 64);
  EXPECT_EQ(clamped_int(65.0, 1, 64), 64);
  EXPECT_EQ(clamped_int(1e300, 1, 64), 64);
  EXPECT_EQ(clamped_int(-1e300, -5, 5), -5);
  EXPECT_EQ(clamped_int(-0.0, -5, 5), 0);
}

TEST(ClampedInt, NonFiniteValuesAreDefined) {
  EXPECT_EQ(clamped_int(kInf, 1, 64), 64);
  EXPECT_EQ(clamped_int(-kInf, 1, 64), 1);
  EXPECT_EQ(clamped_int(kNaNValue, 1, 64), 1);
  EXPECT_EQ(clamped_int(kNaNValue, 1, 64, 64), 64);
  // The extremes of int itself.
  const int lo = std::numeric_limits<int>::min(), hi = std::numeric_limits<int>::max();
  EXPECT_EQ(clamped_int(1e20, lo, hi), hi);
  EXPECT_EQ(clamped_int(-1e20, lo, hi), lo);
}

}  // namespace
}  // namespace proxima::detail
