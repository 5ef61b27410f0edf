// SPDX-License-Identifier: MIT
// Per-pair picture of the gjk_distance polytope rows (docs/benchmarks.md, session 24): for every
// pair of make_polytope_set(N, 256, seed 1) (N = 8, 32: the bench's rows) the warm time of
// gjk::distance measured as the bench's warm regime (the pair once untimed, then the median of
// `batches` batches of 16 calls; `passes` passes, the per-pair median over them), the class
// (intersecting / separated), GJK's iterations, whether the first support pair answered it
// (iterations 0), and how near / deep the pair is (distance, or EPA's depth), sorted by time; the
// pairs around the row's median (places 120-137 of 256) are marked. The time of the same call
// capped at 1, 2, ... iterations (GjkOptions::max_iterations) gives each iteration's cost.
//   g++ -O3 -DNDEBUG -std=c++20 -Ibench -Iinclude -isystem /usr/include/eigen3
//       bench/tools/distance_pair_times.cpp bench/inputs.cpp bench/reference/minkowski.cpp
//       build/libproxima_shapes.a build/libproxima_core.a -lqhull_r -o /tmp/distance_pair_times
//   taskset -c 1 /tmp/distance_pair_times 8 [passes=3] [all]
// or, for callgrind (instrumentation on around the calls only; add -g to the build for lines):
//   valgrind --tool=callgrind --instr-atstart=no /tmp/distance_pair_times 8 one PAIR [calls=100] [cap]
#include "inputs.hpp"
#include "tools/polytope_pairs.hpp"
#include "tools/tool_support.hpp"
#include <proxima/gjk/distance.hpp>
#include <proxima/gjk/epa.hpp>
#include <proxima/shapes/polytope.hpp>

#include <valgrind/callgrind.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>
using namespace proxima;
using namespace proxima::bench;
using tools::median;
using tools::now_ns;
using tools::warm_ns;
using tools::to_pose;

namespace {

struct Row {
  std::size_t pair = 0;
  double ns = 0;
  bool intersect = false;
  int iterations = 0;
  double distance = 0;  // separated: the distance; intersecting: EPA's depth
  double scale = 0;     // the two hulls' bounding radii summed
  double capped[4] = {0, 0, 0, 0};  // ns with max_iterations = 1..4
};

volatile double g_sink;

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 8;
  const int passes = argc > 2 ? std::atoi(argv[2]) : 3;
  const bool all = argc > 3 && std::strcmp(argv[3], "all") == 0;
  const tools::PolytopePairs loaded = tools::load_polytope_pairs(n, 256);
  const auto& shapes = loaded.shapes;
  const auto& poses = loaded.poses;
  const std::size_t pairs = loaded.size();
  if (argc > 3 && std::strcmp(argv[2], "one") == 0) {
    const auto i = static_cast<std::size_t>(std::atoi(argv[3]));
    const int calls = argc > 4 ? std::atoi(argv[4]) : 100;
    gjk::GjkOptions o;
    if (argc > 5) o.max_iterations = std::atoi(argv[5]);
    const Polytope& a = *shapes[2 * i];
    const Polytope& b = *shapes[2 * i + 1];
    g_sink = g_sink + gjk::distance(a, poses[2 * i], b, poses[2 * i + 1], o).distance;
    CALLGRIND_START_INSTRUMENTATION;
    for (int c = 0; c < calls; ++c) g_sink = g_sink + gjk::distance(a, poses[2 * i], b, poses[2 * i + 1], o).distance;
    CALLGRIND_STOP_INSTRUMENTATION;
    const DistanceResult r = gjk::distance(a, poses[2 * i], b, poses[2 * i + 1], o);
    std::printf("pair %zu calls %d intersect %d iterations %d\n", i, calls, r.intersect ? 1 : 0, r.iterations);
    return 0;
  }
  std::vector<Row> rows(pairs);
  std::vector<std::vector<double>> samples(pairs), capped(pairs * 4);
  for (int pass = 0; pass < passes; ++pass) {
    for (std::size_t i = 0; i < pairs; ++i) {
      const Polytope& a = *shapes[2 * i];
      const Polytope& b = *shapes[2 * i + 1];
      const Pose& pa = poses[2 * i];
      const Pose& pb = poses[2 * i + 1];
      samples[i].push_back(warm_ns([&] { g_sink = g_sink + gjk::distance(a, pa, b, pb).distance; }));
      for (int k = 0; k < 4; ++k) {
        gjk::GjkOptions o;
        o.max_iterations = k + 1;
        capped[4 * i + k].push_back(warm_ns([&] { g_sink = g_sink + gjk::distance(a, pa, b, pb, o).distance; }));
      }
    }
  }
  for (std::size_t i = 0; i < pairs; ++i) {
    const Polytope& a = *shapes[2 * i];
    const Polytope& b = *shapes[2 * i + 1];
    const DistanceResult r = gjk::distance(a, poses[2 * i], b, poses[2 * i + 1]);
    Row& row = rows[i];
    row.pair = i;
    row.ns = median(samples[i]);
    for (int k = 0; k < 4; ++k) row.capped[k] = median(capped[4 * i + k]);
    row.intersect = r.intersect;
    row.iterations = r.iterations;
    row.scale = a.bounding_sphere().radius + b.bounding_sphere().radius;
    row.distance = r.intersect ? gjk::penetration(a, poses[2 * i], b, poses[2 * i + 1]).depth : r.distance;
  }
  std::vector<Row> sorted = rows;
  std::sort(sorted.begin(), sorted.end(), [](const Row& x, const Row& y) { return x.ns < y.ns; });
  std::vector<double> all_ns, sep, hit;
  for (const Row& r : rows) {
    all_ns.push_back(r.ns);
    (r.intersect ? hit : sep).push_back(r.ns);
  }
  std::printf("N=%d: %zu pairs, %zu intersecting; median %.0f ns, separated %.0f, intersecting %.0f\n", n, pairs,
              hit.size(), median(all_ns), median(sep), median(hit));
  std::printf("place pair class it  ns    cap1 cap2 cap3 cap4  dist_or_depth/scale\n");
  for (std::size_t k = 0; k < sorted.size(); ++k) {
    const Row& r = sorted[k];
    if (!all && (k + 1 < 100 || k + 1 > 160)) continue;
    std::printf("%4zu %4zu %s %2d %5.0f  %4.0f %4.0f %4.0f %4.0f  %+.3e%s\n", k + 1, r.pair,
                r.intersect ? (r.iterations == 0 ? "hit0" : "hit ") : "sep ", r.iterations, r.ns, r.capped[0],
                r.capped[1], r.capped[2], r.capped[3], (r.intersect ? -r.distance : r.distance) / r.scale,
                (k + 1 >= 120 && k + 1 <= 137) ? "  <- median region" : "");
  }
  // Class counts by time band
  int hit0 = 0, hitg = 0;
  std::vector<double> hitg_ns, hitg_it, sep_it;
  for (const Row& r : rows) {
    if (r.intersect && r.iterations == 0) ++hit0;
    if (r.intersect && r.iterations > 0) {
      ++hitg;
      hitg_ns.push_back(r.ns);
      hitg_it.push_back(r.iterations);
    }
    if (!r.intersect) sep_it.push_back(r.iterations);
  }
  std::printf("intersecting answered by the first support pair %d; by GJK %d (median %.0f ns, %.0f iterations); "
              "separated median %.0f iterations\n",
              hit0, hitg, hitg_ns.empty() ? 0.0 : median(hitg_ns), hitg_it.empty() ? 0.0 : median(hitg_it),
              median(sep_it));
  return 0;
}
