// SPDX-License-Identifier: MIT
// add_scaled (core/types.hpp): a + s * b evaluated in line. The closed forms and GJK's
// sub-distance step use it in place of Eigen expressions and promise the same bits, including
// add_scaled(a, -s, b) for a - s * b; this checks both promises on seeded random and special values.
#include <proxima/core/types.hpp>

#include "support/bits.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

namespace proxima {
namespace {

using test::same_bits;
using test::spread_binades;
using test::spread_vec3;

TEST(AddScaled, SameBitsAsTheEigenExpressions) {
  const std::uint64_t seed = 20261129;
  std::mt19937_64 rng(seed);
  int rounded = 0;  // draws where a + s * b is not exact (so the test is informative)
  for (int k = 0; k < 20000; ++k) {
    const Vec3 a = spread_vec3(rng);
    const Vec3 b = spread_vec3(rng);
    const double s = spread_binades(rng);
    const Vec3 plus = a + s * b;
    const Vec3 minus = a - s * b;
    ASSERT_TRUE(same_bits(add_scaled(a, s, b), plus)) << "seed " << seed << " draw " << k;
    ASSERT_TRUE(same_bits(add_scaled(a, -s, b), minus)) << "seed " << seed << " draw " << k;
    const long double exact = static_cast<long double>(a[0]) + static_cast<long double>(s) * b[0];
    if (static_cast<long double>(plus[0]) != exact) ++rounded;
  }
  EXPECT_GT(rounded, 10000) << "seed " << seed;
}

TEST(AddScaled, SpecialValuesAsTheExpressions) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double values[] = {0.0, -0.0, 1.0, -1.0, 1e-310, -1e308, 1e308, inf, -inf, nan};
  for (double x : values) {
    for (double s : values) {
      for (double y : values) {
        const Vec3 a(x, -x, 1.0), b(y, 2.0, -y);
        const Vec3 plus = a + s * b, minus = a - s * b, got_plus = add_scaled(a, s, b),
                   got_minus = add_scaled(a, -s, b);
        for (int i = 0; i < 3; ++i) {
          // NaN payloads may differ; NaN-ness and every other value must not.
          if (std::isnan(plus[i])) {
            EXPECT_TRUE(std::isnan(got_plus[i])) << x << " " << s << " " << y;
          } else {
            EXPECT_EQ(std::bit_cast<std::uint64_t>(got_plus[i]), std::bit_cast<std::uint64_t>(plus[i]))
                << x << " " << s << " " << y;
          }
          if (std::isnan(minus[i])) {
            EXPECT_TRUE(std::isnan(got_minus[i])) << x << " " << s << " " << y;
          } else {
            EXPECT_EQ(std::bit_cast<std::uint64_t>(got_minus[i]), std::bit_cast<std::uint64_t>(minus[i]))
                << x << " " << s << " " << y;
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace proxima
