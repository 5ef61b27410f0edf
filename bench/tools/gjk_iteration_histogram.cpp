// SPDX-License-Identifier: MIT
// How many GJK iterations the bench's polytope pairs take, cold start, split by the answer: the
// intersect and distance queries on make_polytope_set(N, 256, seed 1) (64 pairs at N = 1024), one
// line per (class, query) as "iterations:pairs". Where the medians of the bench rows sit
// (docs/benchmarks.md, gjk-speed7). Build like bench/tools/callgrind_micro.sh:
//   g++ -O2 -std=c++20 -Ibench -Iinclude -isystem /usr/include/eigen3 bench/tools/gjk_iteration_histogram.cpp \
//     bench/inputs.cpp bench/reference/minkowski.cpp build/libproxima_shapes.a build/libproxima_core.a \
//     -lqhull_r -o /tmp/gjk_iteration_histogram && /tmp/gjk_iteration_histogram 32
#include "inputs.hpp"
#include <proxima/gjk/distance.hpp>
#include <proxima/gjk/intersect.hpp>
#include <proxima/shapes/polytope.hpp>
#include <cstdio>
#include <cstdlib>
#include <map>
using namespace proxima;
using namespace proxima::bench;

static Pose to_pose(const Placement& p) {
  const auto& q = p.quaternion;
  return Pose::from_quaternion(q.w(), q.x(), q.y(), q.z(), p.translation);
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 32;
  const CaseSet set = make_polytope_set(n, n == 1024 ? 64 : 256, 1);
  std::map<int, int> by_intersect[2], by_distance[2];  // [intersecting?][iterations] -> pairs
  for (const auto& pc : set.pairs) {
    const auto& va = set.bodies[static_cast<std::size_t>(pc.body_a)].hull.vertices;
    const auto& vb = set.bodies[static_cast<std::size_t>(pc.body_b)].hull.vertices;
    const Polytope a{std::span<const Vec3>(va.data(), va.size())};
    const Polytope b{std::span<const Vec3>(vb.data(), vb.size())};
    const IntersectResult hit = gjk::intersect(a, to_pose(pc.pose_a), b, to_pose(pc.pose_b));
    const DistanceResult dist = gjk::distance(a, to_pose(pc.pose_a), b, to_pose(pc.pose_b));
    ++by_intersect[hit.intersect][hit.iterations];
    ++by_distance[hit.intersect][dist.iterations];
  }
  for (int c = 0; c < 2; ++c) {
    for (const auto* table : {&by_intersect[c], &by_distance[c]}) {
      std::printf("N=%d %s %s iterations:pairs", n, c ? "intersecting" : "separated",
                  table == &by_intersect[c] ? "intersect" : "distance");
      for (const auto& [iterations, pairs] : *table) std::printf(" %d:%d", iterations, pairs);
      std::printf("\n");
    }
  }
}
