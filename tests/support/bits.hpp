// SPDX-License-Identifier: MIT
// Bit-level comparison and wide-range draws for the tests that promise "the same bits as Eigen's
// expression" (tests/core/add_scaled_test.cpp, tests/core/transpose_times_test.cpp). Header-only.
#pragma once

#include <proxima/core/types.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>

namespace proxima::test {

/// True when every coordinate has the same bits; NaN payloads may differ, NaN-ness may not.
inline bool same_bits(const Vec3& x, const Vec3& y) {
  for (int i = 0; i < 3; ++i) {
    if (std::isnan(x[i]) || std::isnan(y[i])) {
      if (std::isnan(x[i]) != std::isnan(y[i])) return false;
    } else if (std::bit_cast<std::uint64_t>(x[i]) != std::bit_cast<std::uint64_t>(y[i])) {
      return false;
    }
  }
  return true;
}

/// A value spread over 61 binades (2^-31 .. 2^30) with either sign, so products and sums round.
inline double spread_binades(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-30, 30);
  const double m = mantissa(rng);  // drawn before the exponent under every compiler
  return std::ldexp(m, exponent(rng));
}

/// Three spread_binades values, drawn x, y, z in that order (a braced list runs left to right).
inline Vec3 spread_vec3(std::mt19937_64& rng) { return Vec3{spread_binades(rng), spread_binades(rng), spread_binades(rng)}; }

}  // namespace proxima::test
