// SPDX-License-Identifier: MIT
// The screw algorithm's root isolation (src/ccd/roots.hpp) at its caps, on a function with two
// close roots around a minimum, f(s) = (s - 1/2)^2 - 1e-4 on [0, 1] (roots 0.49 and 0.51): the
// branch and bound must split near the minimum, so an interval cap below what it needs is reached
// and must be flagged (RootStats::capped, which screw_collisions reports as iteration_limit), a
// cap it does not reach must not be, and the refinement flags a bracket it could not narrow.
#include "ccd/roots.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace proxima::ccd::detail {
namespace {

constexpr double kRootLeft = 0.49;
constexpr double kRootRight = 0.51;

double f(double s) { return (s - 0.5) * (s - 0.5) - 1e-4; }
double df(double s) { return 2 * (s - 0.5); }
// |f'| <= 2 max |s - 1/2| and |f''| = 2 on [a, b].
void bounds(double a, double b, double& l1, double& l2) {
  l1 = 2 * std::max(std::abs(a - 0.5), std::abs(b - 0.5));
  l2 = 2;
}

RootLimits limits(int max_intervals, int max_root_iterations) {
  return {1e-13, 1.0 / 4096, max_root_iterations, max_intervals, 0};
}

struct Bracket {
  double lo, hi;
  int direction;
};

std::vector<Bracket> isolate(const RootLimits& lim, RootStats& stats) {
  std::vector<Bracket> out;
  find_sign_changes(f, df, bounds, 0.0, 1.0, lim, stats,
                    [&](double lo, double hi, int direction) { out.push_back({lo, hi, direction}); });
  return out;
}

TEST(LimitsRootIsolation, FindsBothRootsWithinItsCaps) {
  RootStats stats;
  const std::vector<Bracket> found = isolate(limits(4096, 200), stats);
  EXPECT_FALSE(stats.capped);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].direction, -1);
  EXPECT_EQ(found[1].direction, 1);
  EXPECT_LE(found[0].lo, kRootLeft);
  EXPECT_GE(found[0].hi, kRootLeft);
  EXPECT_LE(found[1].lo, kRootRight);
  EXPECT_GE(found[1].hi, kRootRight);
  // The count it needed: a cap at exactly that is not reached.
  RootStats again;
  EXPECT_EQ(isolate(limits(stats.intervals, 200), again).size(), 2u);
  EXPECT_FALSE(again.capped);
}

TEST(LimitsRootIsolation, IntervalCapIsFlagged) {
  RootStats full;
  (void)isolate(limits(4096, 200), full);
  ASSERT_GT(full.intervals, 2);
  for (int cap : {1, 2, full.intervals - 1}) {
    RootStats stats;
    (void)isolate(limits(cap, 200), stats);
    EXPECT_TRUE(stats.capped) << "max_intervals " << cap;
    EXPECT_LE(stats.intervals, cap) << "max_intervals " << cap;
  }
}

TEST(LimitsRootIsolation, RefinementCapIsFlagged) {
  const RootLimits lim = limits(4096, 1);
  RootStats stats;
  const double s = refine_root(f, 0.4, 0.5, -1, lim, stats);
  EXPECT_TRUE(stats.capped);
  EXPECT_GE(s, 0.4);
  EXPECT_LE(s, 0.5);
  RootStats enough;
  const double t = refine_root(f, 0.4, 0.5, -1, limits(4096, 200), enough);
  EXPECT_FALSE(enough.capped);
  EXPECT_NEAR(t, kRootLeft, 1e-12);
}

// The raster's edge-edge reach test (glide_raster.cpp, root_out_of_reach) culls a root from the
// refinement's iterates: it relies on the root finish() returns lying within width() of last()
// after every step, and on finish() after any number of step() calls being refine_root bit for
// bit. Seeded monotone cubics f(s) = sign (s - r)(1 + k (s - r)^2) with both slack settings (the
// stop at |f| <= slack returns the iterate itself).
TEST(LimitsRootIsolation, RefinerIteratesStayWithinTheirWidthOfTheRoot) {
  const std::uint32_t seed = 3501;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int checked_steps = 0, slack_stops = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const double r = unit(rng);
    const double k = 50 * unit(rng);
    const double sign = trial % 2 == 0 ? 1.0 : -1.0;
    const double lo = r - 0.3 * unit(rng) - 1e-9;
    const double hi = r + 0.3 * unit(rng) + 1e-9;
    auto g = [&](double s) { return sign * (s - r) * (1 + k * (s - r) * (s - r)); };
    RootLimits lim = limits(4096, 200);
    lim.slack = trial % 4 < 2 ? 0.0 : 1e-9;
    const int direction = sign > 0 ? 1 : -1;
    RootStats plain_stats;
    const double plain = refine_root(g, lo, hi, direction, lim, plain_stats);
    for (int steps_first = 0; steps_first <= 6; steps_first += 3) {
      RootRefiner<decltype(g)> refiner(g, lo, hi, g(lo), g(hi), direction, lim);
      std::vector<std::pair<double, double>> iterates;  // (last, width) after each step
      while (!refiner.done()) {
        refiner.step();
        iterates.emplace_back(refiner.last(), refiner.width());
        if (static_cast<int>(iterates.size()) == steps_first) break;
      }
      RootStats stats;
      const double root = refiner.finish(stats);
      EXPECT_EQ(root, plain) << "seed " << seed << " trial " << trial << " steps first " << steps_first;
      EXPECT_EQ(stats.evaluations, plain_stats.evaluations) << "seed " << seed << " trial " << trial;
      for (const auto& [last, width] : iterates) {
        EXPECT_LE(std::abs(root - last), width) << "seed " << seed << " trial " << trial;
        ++checked_steps;
      }
      if (!iterates.empty() && root == iterates.back().first && lim.slack > 0) ++slack_stops;
    }
  }
  // The sample reached both ways of stopping and many iterates.
  EXPECT_GT(checked_steps, 1000);
  EXPECT_GT(slack_stops, 0);
}

TEST(LimitsRootIsolation, FiveArgumentCallbackGetsTheBracketsValues) {
  int calls = 0;
  RootStats stats;
  find_sign_changes(f, df, bounds, 0.0, 1.0, limits(4096, 200), stats,
                    [&](double lo, double hi, int direction, double flo, double fhi) {
                      ++calls;
                      EXPECT_EQ(flo, f(lo));
                      EXPECT_EQ(fhi, f(hi));
                      EXPECT_EQ(direction < 0, flo > 0);
                    });
  EXPECT_EQ(calls, 2);
}

}  // namespace
}  // namespace proxima::ccd::detail
