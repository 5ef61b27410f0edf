// SPDX-License-Identifier: MIT
// The ccd module's own sincos (src/ccd/turn_sincos.hpp) against std::sin / std::cos: within 1 ulp
// of both over a dense sweep of [-4, 4] and seeded random arguments (uniform and log-uniform),
// exact at 0, odd in sin and even in cos bit for bit, the C library's results beyond its reach.
#include "ccd/turn_sincos.hpp"
#include "ccd/ulp_distance.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <numbers>
#include <random>

namespace proxima::ccd::detail {
namespace {

using proxima::test::ulp_distance;

constexpr std::int64_t kMaxUlp = 1;

struct Tally {
  std::int64_t worst = 0;
  long equal = 0, total = 0;
  void add(std::int64_t d) {
    worst = std::max(worst, d);
    equal += d == 0 ? 1 : 0;
    ++total;
  }
};

// Checks one argument; returns false (after a gtest failure) if it is off.
bool check(double x, Tally& tally, std::uint64_t seed, long draw) {
  const SinCos got = turn_sincos(x);
  const std::int64_t ds = ulp_distance(got.sin, std::sin(x)), dc = ulp_distance(got.cos, std::cos(x));
  tally.add(ds);
  tally.add(dc);
  EXPECT_LE(ds, kMaxUlp) << "seed " << seed << " draw " << draw << " x " << x << " sin " << got.sin;
  EXPECT_LE(dc, kMaxUlp) << "seed " << seed << " draw " << draw << " x " << x << " cos " << got.cos;
  const SinCos mirrored = turn_sincos(-x);
  EXPECT_EQ(std::bit_cast<std::uint64_t>(mirrored.sin), std::bit_cast<std::uint64_t>(-got.sin)) << "x " << x;
  EXPECT_EQ(std::bit_cast<std::uint64_t>(mirrored.cos), std::bit_cast<std::uint64_t>(got.cos)) << "x " << x;
  return ds <= kMaxUlp && dc <= kMaxUlp;
}

TEST(TurnSinCos, WithinOneUlpOfTheLibraryOnADenseSweep) {
  Tally tally;
  constexpr long kSteps = 2000000;
  for (long i = 0; i <= kSteps; ++i) {
    const double x = -kTurnSinCosReach + 2 * kTurnSinCosReach * static_cast<double>(i) / kSteps;
    if (!check(x, tally, 0, i)) return;
  }
  // Mostly the same double.
  EXPECT_GT(tally.equal, tally.total * 9 / 10) << "worst " << tally.worst << " ulp";
  std::printf("sweep: %ld of %ld results equal to the library's, worst %lld ulp\n", tally.equal, tally.total,
              static_cast<long long>(tally.worst));
}

TEST(TurnSinCos, WithinOneUlpOfTheLibraryOnSeededRandomArguments) {
  const std::uint64_t seed = 20261201;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(-kTurnSinCosReach, kTurnSinCosReach), exponent(-60, 2);
  Tally tally;
  for (long i = 0; i < 1000000; ++i) {
    const double u = uniform(rng);
    const double e = exponent(rng);
    // Every other draw log-uniform in magnitude (small angles: the screw's tiny turns).
    const double x = i % 2 == 0 ? u : std::copysign(std::exp2(e), u);
    if (!check(x, tally, seed, i)) return;
  }
  EXPECT_GT(tally.equal, tally.total * 9 / 10) << "seed " << seed << " worst " << tally.worst << " ulp";
  std::printf("random: %ld of %ld results equal to the library's, worst %lld ulp\n", tally.equal, tally.total,
              static_cast<long long>(tally.worst));
}

TEST(TurnSinCos, NearTheQuadrantsAndTheReach) {
  // The doubles around k pi/2 (the reduction's cancellation), pi/4 (the kernels' edge) and the reach.
  Tally tally;
  long draw = 0;
  for (double centre : {std::numbers::pi / 4, std::numbers::pi / 2, 3 * std::numbers::pi / 4, std::numbers::pi,
                        3 * std::numbers::pi / 2, kTurnSinCosReach}) {
    double x = centre;
    for (int i = 0; i < 64; ++i) x = std::nextafter(x, 0.0);
    for (int i = 0; i < 129; ++i, ++draw) {
      if (!check(x, tally, 0, draw)) return;
      x = std::nextafter(x, 10.0);
    }
  }
}

TEST(TurnSinCos, ExactAtZeroAndTheLibraryBeyondItsReach) {
  const SinCos zero = turn_sincos(0.0), negative_zero = turn_sincos(-0.0);
  EXPECT_EQ(std::bit_cast<std::uint64_t>(zero.sin), std::bit_cast<std::uint64_t>(0.0));
  EXPECT_EQ(std::bit_cast<std::uint64_t>(negative_zero.sin), std::bit_cast<std::uint64_t>(-0.0));
  EXPECT_EQ(zero.cos, 1.0);
  EXPECT_EQ(negative_zero.cos, 1.0);
  const double tiny = std::numeric_limits<double>::denorm_min();
  EXPECT_EQ(turn_sincos(tiny).sin, tiny);
  EXPECT_EQ(turn_sincos(tiny).cos, 1.0);
  for (double x : {std::nextafter(kTurnSinCosReach, 10.0), 10.0, -1e6, 1e300}) {
    EXPECT_EQ(turn_sincos(x).sin, std::sin(x)) << x;
    EXPECT_EQ(turn_sincos(x).cos, std::cos(x)) << x;
  }
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(std::isnan(turn_sincos(inf).sin));
  EXPECT_TRUE(std::isnan(turn_sincos(-inf).cos));
  EXPECT_TRUE(std::isnan(turn_sincos(std::numeric_limits<double>::quiet_NaN()).sin));
}

}  // namespace
}  // namespace proxima::ccd::detail
