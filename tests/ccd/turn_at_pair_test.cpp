// SPDX-License-Identifier: MIT
// turn_at_pair (src/ccd/properness.hpp: two turns in one pass of SSE2 vector lanes, the raster's
// edge-edge window centres) gives turn_at's bits for each of the two times: seeded random times and
// angles where both half angles stay within pi/4 (the vector kernel), pairs where one or both do
// not (turn_at's own path), and signed zeros, ends and NaN.
#include "ccd/properness.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <utility>

namespace proxima::ccd::detail {
namespace {

std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }

// Both results bit for bit turn_at's; false (after a gtest failure) otherwise.
bool same_as_turn_at(double s0, double s1, double theta) {
  std::pair<double, double> t0{-1, -1}, t1{-1, -1};
  turn_at_pair(s0, s1, theta, t0, t1);
  const std::pair<double, double> e0 = turn_at(s0, theta), e1 = turn_at(s1, theta);
  const bool same = bits(t0.first) == bits(e0.first) && bits(t0.second) == bits(e0.second) &&
                    bits(t1.first) == bits(e1.first) && bits(t1.second) == bits(e1.second);
  EXPECT_TRUE(same) << "s0 " << s0 << " s1 " << s1 << " theta " << theta;
  return same;
}

TEST(TurnAtPair, SeededTimesAndAnglesGiveTurnAtsBits) {
  std::mt19937_64 rng(37);
  std::uniform_real_distribution<double> time(-0.1, 1.1), angle(-3.1, 3.1), small(-1.5, 1.5);
  long vector_pairs = 0;
  for (int i = 0; i < 200000; ++i) {
    // Mostly half angles within pi/4 (|s theta| / 2 <= 1.1 * 1.5 / 2), else any screw angle.
    const double theta = i % 4 == 0 ? angle(rng) : small(rng);
    const double s0 = time(rng), s1 = time(rng);
    vector_pairs += std::abs(s0 * theta / 2) <= 0.785 && std::abs(s1 * theta / 2) <= 0.785 ? 1 : 0;
    if (!same_as_turn_at(s0, s1, theta)) return;
  }
  EXPECT_GT(vector_pairs, 100000);  // the vector path is the one exercised
}

TEST(TurnAtPair, SignedZerosEndsAndNaNGiveTurnAtsBits) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (double theta : {0.0, -0.0, 1e-300, 0.5, -0.5, 1.5707963267948966, 3.0, -3.0}) {
    for (double s0 : {0.0, -0.0, 0.5, 1.0, 1e-17, nan}) {
      for (double s1 : {0.0, -0.0, 1.0, -1e-17, 0.25}) {
        if (!same_as_turn_at(s0, s1, theta) || !same_as_turn_at(s1, s0, theta)) return;
      }
    }
  }
  // A half angle on either side of pi/4: the pair takes turn_at for both.
  const double pi4 = 0.78539816339744830962;
  for (double below : {std::nextafter(pi4, 0.0), pi4}) {
    EXPECT_TRUE(same_as_turn_at(1.0, 2 * below / 1.5, 1.5));
    EXPECT_TRUE(same_as_turn_at(2 * std::nextafter(pi4, 1.0), 0.5, 1.0));
  }
  // sin(-0) stays -0 in the vector lanes: turn_at(-0, theta) = {-0 * ..., ...}.
  std::pair<double, double> t0, t1;
  turn_at_pair(-0.0, 0.0, 1.0, t0, t1);
  EXPECT_TRUE(std::signbit(t0.first));
  EXPECT_FALSE(std::signbit(t1.first));
}

}  // namespace
}  // namespace proxima::ccd::detail
