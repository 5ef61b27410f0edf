// SPDX-License-Identifier: MIT
// Where the wall-clock time of a cold polytope query goes (docs/benchmarks.md, session 14): warm
// medians measured the way bench/harness.cpp measures them (each pair once untimed, then a batch
// of the same pair timed), on make_polytope_set(N, 256, seed 1):
//   intersect          gjk::intersect, every pair
//   intersect0..3      the same with GjkOptions::max_iterations = 0..3 (0: the set-up and the
//                      first support call only), so the differences are the cost of iteration k
//   gjk_on_hits        gjk::distance on the intersecting pairs only: the GJK phase of EPA
//   epa                gjk::penetration on the intersecting pairs (what the bench's epa row times)
// and two latency probes, in which each call's input depends on the previous call's output (a
// GJK iteration is such a chain: support, then sub-distance, then the next support):
//   support_latency    MinkowskiDifference::support_w on pair 3 of the set
//   subdistance_latency closest_point_to_origin on a fixed triangle and tetrahedron
// Build like bench/tools/callgrind_micro.sh (one command line), then run pinned:
//   g++ -O3 -DNDEBUG -std=c++20 -Ibench -Iinclude -isystem /usr/include/eigen3 bench/tools/gjk_latency_probe.cpp
//     bench/inputs.cpp bench/reference/minkowski.cpp build/libproxima_shapes.a build/libproxima_core.a
//     -lqhull_r -o /tmp/gjk_latency_probe && taskset -c 1 /tmp/gjk_latency_probe 32 [repeat=5]
#include "inputs.hpp"
#include "tools/tool_support.hpp"
#include <proxima/gjk/distance.hpp>
#include <proxima/gjk/epa.hpp>
#include <proxima/gjk/intersect.hpp>
#include <proxima/gjk/simplex.hpp>
#include <proxima/shapes/polytope.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>
using namespace proxima;
using namespace proxima::bench;
using tools::median;
using tools::now_ns;
using tools::to_pose;

namespace {

/// Median over 2,000 samples of 1,000 chained calls each: the latency of one call.
template <class F>
double chained_ns(F&& f) {
  std::vector<double> v;
  for (int r = 0; r < 2000; ++r) {
    const double t0 = now_ns();
    for (int i = 0; i < 1000; ++i) f();
    v.push_back((now_ns() - t0) / 1000);
  }
  return median(v);
}

volatile double g_sink;

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 32;
  const int repeat = argc > 2 ? std::atoi(argv[2]) : 5;
  CaseSet set = make_polytope_set(n, n == 1024 ? 64 : 256, 1);
  std::vector<Polytope> polys;
  std::vector<Pose> poses;
  for (const PairCase& pc : set.pairs) {
    for (int b : {pc.body_a, pc.body_b}) {
      const auto& v = set.bodies[static_cast<std::size_t>(b)].hull.vertices;
      polys.emplace_back(std::span<const Vec3>(v.data(), v.size()));
    }
    poses.push_back(to_pose(pc.pose_a));
    poses.push_back(to_pose(pc.pose_b));
  }
  const std::size_t pairs = set.pairs.size();
  auto workspace = std::make_unique<gjk::EpaHull>();
  std::vector<char> hit(pairs);
  for (std::size_t i = 0; i < pairs; ++i) {
    hit[i] = gjk::intersect(polys[2 * i], poses[2 * i], polys[2 * i + 1], poses[2 * i + 1]).intersect;
  }
  const auto time_mode = [&](const std::string& name, bool hits_only, auto&& query) {
    std::vector<double> samples;
    double sink = 0;
    const int batch = 32;
    for (int r = 0; r < repeat; ++r) {
      for (std::size_t i = 0; i < pairs; ++i) {
        if (hits_only && !hit[i]) continue;
        sink += query(i);  // untimed: this pair's data into the caches
        const double t0 = now_ns();
        for (int b = 0; b < batch; ++b) sink += query(i);
        samples.push_back((now_ns() - t0) / batch);
      }
    }
    g_sink = sink;
    std::printf("N=%d %-20s median_ns=%.1f\n", n, name.c_str(), median(samples));
  };
  const auto intersect_capped = [&](int cap) {
    return [&, cap](std::size_t i) {
      gjk::GjkOptions o;
      o.max_iterations = cap;
      return double(gjk::intersect(polys[2 * i], poses[2 * i], polys[2 * i + 1], poses[2 * i + 1], o).intersect);
    };
  };
  time_mode("intersect", false, [&](std::size_t i) {
    return double(gjk::intersect(polys[2 * i], poses[2 * i], polys[2 * i + 1], poses[2 * i + 1]).intersect);
  });
  for (int cap = 0; cap <= 3; ++cap) time_mode("intersect" + std::to_string(cap), false, intersect_capped(cap));
  time_mode("gjk_on_hits", true, [&](std::size_t i) {
    return gjk::distance(polys[2 * i], poses[2 * i], polys[2 * i + 1], poses[2 * i + 1]).distance;
  });
  time_mode("epa", true, [&](std::size_t i) {
    gjk::WarmStart warm;
    return gjk::penetration(polys[2 * i], poses[2 * i], polys[2 * i + 1], poses[2 * i + 1], gjk::EpaOptions{}, warm,
                            *workspace)
        .depth;
  });

  // Latency probes. The next direction is a permutation of the last support point plus a constant
  // (any value that depends on it will do): the calls cannot overlap.
  const std::size_t p = std::min<std::size_t>(3, pairs - 1);
  const Pose b_in_a = poses[2 * p].inverse() * poses[2 * p + 1];
  gjk::MinkowskiDifference<Polytope, Polytope> md(polys[2 * p], polys[2 * p + 1], b_in_a);
  Vec3 d(0.3, -0.2, 0.9);
  const double support = chained_ns([&] {
    const Vec3 w = md.support_w(d);
    d = Vec3(w.y() + 0.3, w.z() - 0.1, w.x() + 0.7);
  });
  std::array<Vec3, 4> tet = {Vec3(1, 0.1, 0.2), Vec3(-0.5, 0.9, 0.1), Vec3(-0.4, -0.8, 0.3), Vec3(0.1, 0.05, -0.9)};
  std::array<Vec3, 3> tri = {Vec3(1, 0.1, 0.2), Vec3(-0.5, 0.9, 1.1), Vec3(-0.4, -0.8, 1.3)};
  unsigned masks = 0;
  // The first point's x picks up the previous answer times 1e-300 (a no-op on its value, not on
  // the dependency).
  const double tetrahedron = chained_ns([&] {
    const gjk::SubDistance s = gjk::closest_point_to_origin(tet.data(), 4);
    tet[0].x() = 1 + s.point.x() * 1e-300;
    masks += s.mask;
  });
  const double triangle = chained_ns([&] {
    const gjk::SubDistance s = gjk::closest_point_to_origin(tri.data(), 3);
    tri[0].x() = 1 + s.point.x() * 1e-300;
    masks += s.mask;
  });
  g_sink = d.x() + masks;
  std::printf("N=%d support_latency_ns=%.1f subdistance_latency_ns triangle=%.1f tetrahedron=%.1f\n", n, support,
              triangle, tetrahedron);
}
