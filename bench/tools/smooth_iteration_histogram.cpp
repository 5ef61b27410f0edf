// SPDX-License-Identifier: MIT
// Where the smooth primitive rows of the bench spend their time: for the cylinder-cone and
// ellipsoid-ellipsoid pairs of make_primitive_set(row, 256, seed), split by the answer
// (separated / intersecting), the iterations per query ("iterations:pairs") and the median over
// pairs of a warm per-query time (200 back-to-back calls per pair, steady_clock) for
//   gjk       gjk::distance with ellipsoid_newton off (plain GJK),
//   nesterov  the same with GjkOptions::nesterov,
//   default   gjk::distance with default options (ellipsoid pairs: Newton, gjk/ellipsoid_newton.hpp).
// Times are indicative (no pinning, no clock-cost correction; use proxima_bench for figures).
// Build like bench/tools/callgrind_micro.sh (docs/benchmarks.md, session 10), one command line:
//   g++ -O3 -DNDEBUG -std=c++20 -Ibench -Iinclude -isystem /usr/include/eigen3
//     bench/tools/smooth_iteration_histogram.cpp bench/inputs.cpp bench/reference/minkowski.cpp
//     build/libproxima_shapes.a build/libproxima_core.a -lqhull_r -o /tmp/smooth_hist
//   taskset -c 1 /tmp/smooth_hist [seed]
#include "inputs.hpp"
#include <proxima/gjk/distance.hpp>
#include <proxima/shapes/cone.hpp>
#include <proxima/shapes/cylinder.hpp>
#include <proxima/shapes/ellipsoid.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>
using namespace proxima;
using namespace proxima::bench;

static Pose to_pose(const Placement& p) {
  const auto& q = p.quaternion;
  return Pose::from_quaternion(q.w(), q.x(), q.y(), q.z(), p.translation);
}

volatile double sink;

template <class A, class B>
static void report(const std::string& row, const std::vector<A>& as, const std::vector<B>& bs,
                   const std::vector<Pose>& poses) {
  const gjk::GjkOptions variants[] = {{.ellipsoid_newton = false}, {.nesterov = true, .ellipsoid_newton = false}, {}};
  const char* names[] = {"gjk", "nesterov", "default"};
  std::vector<int> cls(as.size());
  for (std::size_t i = 0; i < as.size(); ++i) cls[i] = gjk::distance(as[i], poses[2 * i], bs[i], poses[2 * i + 1], variants[0]).intersect;
  for (int v = 0; v < 3; ++v) {
    for (int c = 0; c < 2; ++c) {
      std::map<int, int> hist;
      std::vector<double> ns;
      for (std::size_t i = 0; i < as.size(); ++i) {
        if (cls[i] != c) continue;
        const Pose& pa = poses[2 * i];
        const Pose& pb = poses[2 * i + 1];
        ++hist[gjk::distance(as[i], pa, bs[i], pb, variants[v]).iterations];
        const auto t0 = std::chrono::steady_clock::now();
        for (int r = 0; r < 200; ++r) sink = gjk::distance(as[i], pa, bs[i], pb, variants[v]).distance;
        ns.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / 200);
      }
      std::sort(ns.begin(), ns.end());
      std::printf("%s %s %s pairs=%zu median_ns=%.0f iterations:pairs", row.c_str(), names[v],
                  c ? "intersecting" : "separated", ns.size(), ns.empty() ? 0.0 : ns[ns.size() / 2]);
      for (const auto& [iterations, pairs] : hist) std::printf(" %d:%d", iterations, pairs);
      std::printf("\n");
    }
  }
}

int main(int argc, char** argv) {
  const std::uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1;
  for (const std::string row : {"cylinder-cone", "ellipsoid-ellipsoid"}) {
    const CaseSet set = make_primitive_set(row, 256, seed);
    std::vector<Pose> poses;
    std::vector<Cylinder> cyl;
    std::vector<Cone> cones;
    std::vector<Ellipsoid> ea, eb;
    for (const auto& pc : set.pairs) {
      const Body& a = set.bodies[static_cast<std::size_t>(pc.body_a)];
      const Body& b = set.bodies[static_cast<std::size_t>(pc.body_b)];
      if (row == "cylinder-cone") {
        cyl.emplace_back(a.size.x(), a.size.y());
        cones.emplace_back(b.size.x(), b.size.y());
      } else {
        ea.emplace_back(a.size);
        eb.emplace_back(b.size);
      }
      poses.push_back(to_pose(pc.pose_a));
      poses.push_back(to_pose(pc.pose_b));
    }
    if (row == "cylinder-cone") {
      report(row, cyl, cones, poses);
    } else {
      report(row, ea, eb, poses);
    }
  }
}
