// SPDX-License-Identifier: MIT
// Test helper: the distance between two doubles in representable doubles, for the tests that hold
// our own elementary functions (azimuth_atan2, turn_sincos) to within a few ulp of the C library's.
#pragma once

#include <bit>
#include <cstdint>
#include <limits>

namespace proxima::test {

/// How many doubles lie between a and b (0 when equal; a sign change counts through zero, so +0
/// and -0 are 0 apart and the smallest subnormals of either sign 2 apart).
inline std::int64_t ulp_distance(double a, double b) {
  auto ordered = [](double d) {
    const auto i = std::bit_cast<std::int64_t>(d);
    return i < 0 ? std::numeric_limits<std::int64_t>::min() - i : i;
  };
  const std::int64_t d = ordered(a) - ordered(b);
  return d < 0 ? -d : d;
}

}  // namespace proxima::test
