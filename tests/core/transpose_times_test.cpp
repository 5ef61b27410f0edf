// SPDX-License-Identifier: MIT
// transpose_times (core/types.hpp) and Pose::rotate_inverse / apply_inverse, which use it: r^T v
// written out so it is always in line. They promise the bits of Eigen's `r.transpose() * v` and
// `r.transpose() * (x - t)` (the GJK answers hashed by bench/tools/gjk_answer_hash.sh rely on it);
// this checks the promise on seeded random matrices, rotations and special values.
#include <proxima/core/pose.hpp>
#include <proxima/core/types.hpp>

#include "support/bits.hpp"
#include "support/draws.hpp"

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

TEST(TransposeTimes, SameBitsAsEigenOnGeneralMatrices) {
  const std::uint64_t seed = 20261129;
  std::mt19937_64 rng(seed);
  int rounded = 0;  // draws whose first coordinate is not exact (so the test is informative)
  for (int k = 0; k < 20000; ++k) {
    Mat3 r;
    for (int i = 0; i < 9; ++i) r.data()[i] = spread_binades(rng);
    const Vec3 v = spread_vec3(rng);
    const Vec3 expected = r.transpose() * v;
    ASSERT_TRUE(same_bits(transpose_times(r, v), expected)) << "seed " << seed << " draw " << k;
    const long double exact = static_cast<long double>(r(0, 0)) * v[0] + static_cast<long double>(r(1, 0)) * v[1] +
                              static_cast<long double>(r(2, 0)) * v[2];
    if (static_cast<long double>(expected[0]) != exact) ++rounded;
  }
  EXPECT_GT(rounded, 10000) << "seed " << seed;
}

TEST(TransposeTimes, PoseInverseMapsAsTheEigenExpressions) {
  const std::uint64_t seed = 20261130;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (int k = 0; k < 5000; ++k) {
    const Vec3 t = spread_vec3(rng);
    const Pose pose = test::draw_quaternion_pose(normal, rng, t);
    const Mat3& r = pose.rotation();
    const Vec3 x = spread_vec3(rng);
    ASSERT_TRUE(same_bits(pose.rotate_inverse(x), r.transpose() * x)) << "seed " << seed << " draw " << k;
    ASSERT_TRUE(same_bits(pose.apply_inverse(x), r.transpose() * (x - t))) << "seed " << seed << " draw " << k;
  }
}

TEST(TransposeTimes, SpecialValuesAsEigen) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double values[] = {0.0, -0.0, 1.0, -1.0, 1e-310, -1e308, 1e308, inf, -inf, nan};
  for (double a : values) {
    for (double b : values) {
      for (double c : values) {
        Mat3 r;
        r << a, -b, 1.0, b, c, -0.0, c, a, -1.0;
        const Vec3 v(a, b, c);
        const Vec3 w(-0.0, c, a);
        EXPECT_TRUE(same_bits(transpose_times(r, v), r.transpose() * v)) << a << " " << b << " " << c;
        EXPECT_TRUE(same_bits(transpose_times(r, w), r.transpose() * w)) << a << " " << b << " " << c;
      }
    }
  }
}

}  // namespace
}  // namespace proxima
