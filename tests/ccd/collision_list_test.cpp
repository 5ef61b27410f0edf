// SPDX-License-Identifier: MIT
// The ccd queries' heap-free stable sort (src/ccd/stable_sort.hpp) and finish_collisions
// (src/ccd/collision_list.hpp), shared by both screw_collisions modes. The oracle is
// std::stable_sort: a stable order is unique, so both must give exactly its order.
#include <proxima/ccd/screw.hpp>

#include "ccd/collision_list.hpp"
#include "ccd/stable_sort.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace proxima::ccd {
namespace {

// n collisions numbered by `vertex` in the order found; about half the times from five values
// (ties), the others anywhere in [0, 1].
std::vector<Collision> draw_collisions(int n, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> pick(0, 4);
  std::uniform_real_distribution<double> uniform(0, 1);
  std::vector<Collision> found;
  for (int i = 0; i < n; ++i) {
    Collision c;
    c.vertex = i;
    const bool tied = pick(rng) < 2;
    const double anywhere = uniform(rng);
    const int slot = pick(rng);
    c.time = tied ? 0.25 * slot : anywhere;
    c.point = Vec3(1, 0, 0);
    c.normal = Vec3::UnitZ();
    found.push_back(c);
  }
  return found;
}

bool by_time(const Collision& x, const Collision& y) { return x.time < y.time; }

// Every length from 0 to 300 (one insertion run, one merge level and several, odd tails), the
// buffer kept across calls as the queries keep it.
TEST(StableSort, GivesStdStableSortsOrderAtEveryLength) {
  const unsigned seed = 3401;
  std::mt19937_64 rng(seed);
  std::vector<Collision> buffer;
  int ties = 0;
  for (int trial = 0; trial < 3; ++trial) {
    for (int n = 0; n <= 300; ++n) {
      std::vector<Collision> items = draw_collisions(n, rng);
      std::vector<Collision> expected = items;
      std::stable_sort(expected.begin(), expected.end(), by_time);
      detail::stable_sort_with_buffer(items, buffer, by_time);
      ASSERT_EQ(items.size(), expected.size());
      for (std::size_t i = 0; i < expected.size(); ++i) {
        ASSERT_EQ(items[i].vertex, expected[i].vertex) << "seed " << seed << " trial " << trial << " n " << n << " position " << i;
        if (i > 0 && expected[i].time == expected[i - 1].time) ++ties;
      }
    }
  }
  EXPECT_GT(ties, 10000);  // the ties were exercised
}

// Already sorted and reversed input (insertion sort's best and worst case, merges that take one
// side whole).
TEST(StableSort, SortedAndReversedRuns) {
  std::vector<int> buffer;
  for (const int n : {1, 2, 16, 17, 31, 32, 33, 100, 257}) {
    std::vector<int> up(static_cast<std::size_t>(n)), down(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      up[static_cast<std::size_t>(i)] = i;
      down[static_cast<std::size_t>(i)] = n - 1 - i;
    }
    const std::vector<int> expected = up;
    detail::stable_sort_with_buffer(up, buffer, [](int x, int y) { return x < y; });
    detail::stable_sort_with_buffer(down, buffer, [](int x, int y) { return x < y; });
    EXPECT_EQ(up, expected) << "n " << n;
    EXPECT_EQ(down, expected) << "n " << n;
  }
}

TEST(CollisionList, OrdersByTimeKeepingTiesAsFound) {
  const unsigned seed = 3301;
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> count(0, 40);
  std::vector<Collision> found, buffer;
  for (int trial = 0; trial < 2000; ++trial) {
    const int n = count(rng);
    found = draw_collisions(n, rng);
    std::vector<Collision> expected = found;
    std::stable_sort(expected.begin(), expected.end(), by_time);
    ScrewResult result;
    ScrewOptions options;
    options.first_contact_only = trial % 2 == 1;
    detail::finish_collisions(found, buffer, options, Screw{}, Pose(), result);
    // First contact only: those within time_tolerance of the earliest.
    std::size_t keep = expected.size();
    if (options.first_contact_only && !expected.empty()) {
      keep = 0;
      while (keep < expected.size() && expected[keep].time <= expected.front().time + options.time_tolerance) ++keep;
    }
    ASSERT_EQ(result.collisions.size(), keep) << "seed " << seed << " trial " << trial;
    for (std::size_t i = 0; i < keep; ++i) {
      ASSERT_EQ(result.collisions[i].vertex, expected[i].vertex)
          << "seed " << seed << " trial " << trial << " n " << n << " position " << i;
    }
    // The workspace's vector is left sorted, whole (its storage is kept for the next query).
    ASSERT_EQ(found.size(), expected.size()) << "seed " << seed << " trial " << trial;
    for (std::size_t i = 0; i < expected.size(); ++i) ASSERT_EQ(found[i].vertex, expected[i].vertex);
    EXPECT_EQ(result.contact, n > 0);
    if (n > 0) {
      EXPECT_EQ(result.toi, expected.front().time);
      EXPECT_EQ(result.point, result.collisions.front().point);
    }
  }
}

// The points and normals go from A's start frame to the world frame at each collision's time.
TEST(CollisionList, MapsToTheWorldFrameAtEachTime) {
  const Pose a_start = Pose::from_euler_xyz(0.1, 0.2, 0.3, Vec3(1, 2, 3));
  const Pose a_end = Pose::from_euler_xyz(0.4, -0.2, 0.9, Vec3(-1, 0, 2));
  const Screw a_motion = decompose(a_end * a_start.inverse());
  std::vector<Collision> found(2), buffer;
  found[0].time = 0.75;
  found[1].time = 0.25;
  for (Collision& c : found) {
    c.point = Vec3(0.5, -0.25, 1);
    c.normal = Vec3(0, 0.6, 0.8);
  }
  ScrewResult result;
  detail::finish_collisions(found, buffer, ScrewOptions{}, a_motion, a_start, result);
  ASSERT_EQ(result.collisions.size(), 2U);
  for (const Collision& c : result.collisions) {
    const Pose pose_a = a_motion.pose(c.time) * a_start;
    EXPECT_LT((c.point - pose_a.apply(Vec3(0.5, -0.25, 1))).norm(), 1e-12);
    EXPECT_LT((c.normal - pose_a.rotate(Vec3(0, 0.6, 0.8))).norm(), 1e-12);
  }
  EXPECT_EQ(result.toi, 0.25);
  // A moved: the mapping is not the identity.
  EXPECT_GT((result.collisions[0].point - Vec3(0.5, -0.25, 1)).norm(), 0.1);
}

}  // namespace
}  // namespace proxima::ccd
