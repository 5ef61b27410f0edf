// SPDX-License-Identifier: MIT
// The cylinder-cone primitive row's overlapping pairs and where its median sits
// (docs/benchmarks.md, session 18). Three modes:
//   census         seeds 1-6: overlapping pairs (GJK without the overlap search) answered by the
//                  axes' segments, by GJK's first support pair, by either
//   times SEED     each pair of the row timed alone (best of 15 batches of 20 calls), sorted, with
//                  its kind (0 answered without GJK, 1 overlapping left to GJK, 2 separated),
//                  iterations and distance; then the means per class
//   once CLASS     gjk::distance once on each pair of seeds 1-3 of a class (0 separated,
//                  1 overlapping), through the non-inlined query(): for
//                  valgrind --tool=callgrind --toggle-collect='query*'
//   g++ -O3 -DNDEBUG -std=c++20 -Ibench -Iinclude -isystem /usr/include/eigen3 bench/tools/revolution_overlap_census.cpp
//       bench/inputs.cpp bench/reference/minkowski.cpp build/libproxima_shapes.a build/libproxima_core.a
//       -lqhull_r -o /tmp/revolution_census && taskset -c 1 /tmp/revolution_census times 1
// (Against an older include/, e.g. session 17's 9da7abf, add -DCENSUS_WITHOUT_SUPPORT_PAIR: the
// census then counts the axes' segments alone.)
#include "inputs.hpp"
#include "tools/tool_support.hpp"
#include <proxima/gjk/distance.hpp>
#include <proxima/gjk/revolution_overlap.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
using namespace proxima;
using namespace proxima::bench;
using tools::now_ns;
using tools::to_pose;
namespace {
struct Pair {
  Cylinder a;
  Cone b;
  Pose pa, pb;
};
std::vector<Pair> row(int seed) {
  const CaseSet set = make_primitive_set("cylinder-cone", 256, static_cast<std::uint64_t>(seed));
  std::vector<Pair> out;
  for (const auto& pc : set.pairs) {
    const Body& ba = set.bodies[static_cast<std::size_t>(pc.body_a)];
    const Body& bb = set.bodies[static_cast<std::size_t>(pc.body_b)];
    out.push_back({Cylinder(ba.size.x(), ba.size.y()), Cone(bb.size.x(), bb.size.y()), to_pose(pc.pose_a), to_pose(pc.pose_b)});
  }
  return out;
}
__attribute__((noinline)) double query(const Pair& p) { return gjk::distance(p.a, p.pa, p.b, p.pb).distance; }
}  // namespace

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "census";
  if (std::strcmp(mode, "census") == 0) {
    int overlapping = 0, segments = 0, support = 0, either = 0;
    gjk::GjkOptions off;
    off.revolution_overlap = false;
    for (int seed = 1; seed <= 6; ++seed) {
      for (const Pair& p : row(seed)) {
        if (!gjk::distance(p.a, p.pa, p.b, p.pb, off).intersect) continue;
        ++overlapping;
        const Pose b_in_a = p.pa.inverse() * p.pb;
        Vec3 common, between;
        const bool s = gjk::detail::revolution_common_point(p.a, p.b, b_in_a, common, between);
        bool t = false;
#ifndef CENSUS_WITHOUT_SUPPORT_PAIR  // defined to build the other modes against headers before session 18
        if (between.squaredNorm() > 0) {
          gjk::MinkowskiDifference<Cylinder, Cone> md(p.a, p.b, b_in_a);
          const gjk::SupportPoint sp = md.support(between);
          t = gjk::detail::support_pair_common_point(p.a, p.b, b_in_a, sp.a, sp.b, common);
        }
#endif
        segments += s;
        support += t;
        either += s || t;
      }
    }
    std::printf("seeds 1-6: %d overlapping pairs; axes' segments %d, support pair %d, either %d\n", overlapping,
                segments, support, either);
    return 0;
  }
  if (std::strcmp(mode, "once") == 0) {
    const int which = argc > 2 ? std::atoi(argv[2]) : 0;
    double sink = 0;
    for (int seed = 1; seed <= 3; ++seed) {
      for (const Pair& p : row(seed)) {
        if (gjk::distance(p.a, p.pa, p.b, p.pb).intersect != (which == 1)) continue;
        sink += query(p);
      }
    }
    std::printf("%g\n", sink);
    return 0;
  }
  const int seed = argc > 2 ? std::atoi(argv[2]) : 1;
  struct Timed {
    double ns;
    int kind;
    int iterations;
    double distance;
  };
  std::vector<Timed> times;
  volatile double sink = 0;
  for (const Pair& p : row(seed)) {
    const DistanceResult r = gjk::distance(p.a, p.pa, p.b, p.pb);
    double best = 1e300;
    for (int rep = 0; rep < 15; ++rep) {
      const double t0 = now_ns();
      for (int k = 0; k < 20; ++k) sink = sink + query(p);
      best = std::min(best, (now_ns() - t0) / 20);
    }
    times.push_back({best, r.intersect ? (r.iterations == 0 ? 0 : 1) : 2, r.iterations, r.distance});
  }
  std::sort(times.begin(), times.end(), [](const Timed& x, const Timed& y) { return x.ns < y.ns; });
  double sum[3] = {0, 0, 0};
  int count[3] = {0, 0, 0};
  for (std::size_t i = 0; i < times.size(); ++i) {
    const Timed& t = times[i];
    std::printf("%3zu %8.1f ns kind %d iterations %2d distance %.3g\n", i, t.ns, t.kind, t.iterations, t.distance);
    sum[t.kind] += t.ns;
    ++count[t.kind];
  }
  for (int k = 0; k < 3; ++k) {
    std::printf("kind %d: %d pairs, mean %.1f ns\n", k, count[k], count[k] ? sum[k] / count[k] : 0.0);
  }
  return 0;
}
