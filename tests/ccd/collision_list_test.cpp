// SPDX-License-Identifier: MIT
// finish_collisions (src/ccd/collision_list.hpp), shared by both screw_collisions modes: it orders
// the collisions by time, ties as found. Up to 16 collisions it sorts by insertion (no heap
// buffer), above that with std::stable_sort; both must give std::stable_sort's order, which is the
// only stable order.
#include <proxima/ccd/screw.hpp>

#include "ccd/collision_list.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace proxima::ccd {
namespace {

TEST(CollisionList, OrdersByTimeKeepingTiesAsFound) {
  const unsigned seed = 3301;
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> pick(0, 4);
  std::uniform_real_distribution<double> uniform(0, 1);
  std::uniform_int_distribution<int> count(0, 40);
  int ties = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const int n = count(rng);
    std::vector<Collision> found;
    for (int i = 0; i < n; ++i) {
      Collision c;
      c.vertex = i;  // the order found
      // Half the times from five values (ties), half anywhere in [0, 1].
      const bool tied = pick(rng) < 2;
      const double anywhere = uniform(rng);
      const int slot = pick(rng);
      c.time = tied ? 0.25 * slot : anywhere;
      c.point = Vec3::Zero();
      c.normal = Vec3::UnitZ();
      found.push_back(c);
    }
    std::vector<Collision> expected = found;
    std::stable_sort(expected.begin(), expected.end(),
                     [](const Collision& x, const Collision& y) { return x.time < y.time; });
    ScrewResult result;
    ScrewOptions options;
    detail::finish_collisions(found, options, Screw{}, Pose(), result);
    ASSERT_EQ(result.collisions.size(), expected.size()) << "seed " << seed << " trial " << trial;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      ASSERT_EQ(result.collisions[i].vertex, expected[i].vertex)
          << "seed " << seed << " trial " << trial << " n " << n << " position " << i;
      if (i > 0 && expected[i].time == expected[i - 1].time) ++ties;
    }
    EXPECT_EQ(result.contact, n > 0);
  }
  EXPECT_GT(ties, 1000);  // the ties were exercised
}

}  // namespace
}  // namespace proxima::ccd
