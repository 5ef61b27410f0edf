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

}  // namespace
}  // namespace proxima::ccd::detail
