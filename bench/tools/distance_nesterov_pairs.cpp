// SPDX-License-Identifier: MIT
// Per-pair comparison of two option sets of gjk::distance on the bench's polytope rows
// (make_polytope_set(N, 256, seed 1)): the default options and GjkOptions::nesterov (session 30:
// why proxima_nesterov reads faster than proxima on N=8). For every pair: the warm time of each
// (the bench's warm regime, the two alternated per pair, the median over `passes` passes), GJK's
// iterations of each, the class; the pairs at the row's median (places 120-137 of 256) of each.
// Instruction counts: distance_pair_times' `one` mode under callgrind.
//   g++ -O3 -DNDEBUG -std=c++20 -Ibench -Iinclude -isystem /usr/include/eigen3
//       bench/tools/distance_nesterov_pairs.cpp bench/inputs.cpp bench/reference/minkowski.cpp
//       build/libproxima_shapes.a build/libproxima_core.a -lqhull_r -o /tmp/distance_nesterov_pairs
//   taskset -c 1 /tmp/distance_nesterov_pairs 8 [passes=5] [all]
#include "inputs.hpp"
#include "tools/polytope_pairs.hpp"
#include "tools/tool_support.hpp"
#include <proxima/gjk/distance.hpp>
#include <proxima/shapes/polytope.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
using namespace proxima;
using namespace proxima::bench;
using tools::median;
using tools::warm_ns;

namespace {

volatile double g_sink;

struct Row {
  std::size_t pair = 0;
  double ns[2] = {0, 0};
  int it[2] = {0, 0};
  bool intersect = false;
};

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 8;
  const int passes = argc > 2 ? std::atoi(argv[2]) : 5;
  const bool all = argc > 3 && std::strcmp(argv[3], "all") == 0;
  const tools::PolytopePairs loaded = tools::load_polytope_pairs(n, 256);
  const auto& shapes = loaded.shapes;
  const auto& poses = loaded.poses;
  const std::size_t pairs = loaded.size();
  gjk::GjkOptions opts[2];
  opts[1].nesterov = true;
  std::vector<Row> rows(pairs);
  std::vector<std::vector<double>> samples(2 * pairs);
  for (int pass = 0; pass < passes; ++pass) {
    for (std::size_t i = 0; i < pairs; ++i) {
      const Polytope& a = *shapes[2 * i];
      const Polytope& b = *shapes[2 * i + 1];
      const Pose& pa = poses[2 * i];
      const Pose& pb = poses[2 * i + 1];
      for (int s = 0; s < 2; ++s) {
        const int v = (pass + static_cast<int>(i) + s) % 2;
        samples[2 * i + static_cast<std::size_t>(v)].push_back(
            warm_ns([&] { g_sink = g_sink + gjk::distance(a, pa, b, pb, opts[v]).distance; }));
      }
    }
  }
  long sum_it[2] = {0, 0};
  std::vector<double> all_ns[2];
  int faster = 0, slower = 0, fewer_it = 0, more_it = 0;
  for (std::size_t i = 0; i < pairs; ++i) {
    const Polytope& a = *shapes[2 * i];
    const Polytope& b = *shapes[2 * i + 1];
    Row& row = rows[i];
    row.pair = i;
    for (int v = 0; v < 2; ++v) {
      row.ns[v] = median(samples[2 * i + static_cast<std::size_t>(v)]);
      const DistanceResult r = gjk::distance(a, poses[2 * i], b, poses[2 * i + 1], opts[v]);
      row.it[v] = r.iterations;
      row.intersect = r.intersect;
      sum_it[v] += row.it[v];
      all_ns[v].push_back(row.ns[v]);
    }
    if (row.it[1] < row.it[0]) ++fewer_it;
    if (row.it[1] > row.it[0]) ++more_it;
    if (row.ns[1] < 0.95 * row.ns[0]) ++faster;
    if (row.ns[1] > 1.05 * row.ns[0]) ++slower;
  }
  std::printf("N=%d: %zu pairs; row median ns plain %.1f nesterov %.1f; iterations summed %ld / %ld\n", n, pairs,
              median(all_ns[0]), median(all_ns[1]), sum_it[0], sum_it[1]);
  std::printf("nesterov: fewer iterations on %d pairs, more on %d; >5%% faster on %d, >5%% slower on %d\n", fewer_it,
              more_it, faster, slower);
  for (int v = 0; v < 2; ++v) {
    std::vector<Row> sorted = rows;
    std::sort(sorted.begin(), sorted.end(), [v](const Row& x, const Row& y) { return x.ns[v] < y.ns[v]; });
    std::printf("sorted by %s time: places 120-137\n", v == 0 ? "plain" : "nesterov");
    for (std::size_t k = 119; k < 137 && k < sorted.size(); ++k) {
      const Row& r = sorted[k];
      std::printf("%4zu pair %4zu %s it %d/%d ns %5.0f/%5.0f\n", k + 1, r.pair, r.intersect ? "hit" : "sep",
                  r.it[0], r.it[1], r.ns[0], r.ns[1]);
    }
  }
  for (const Row& r : rows) {
    if (!all && r.it[0] == r.it[1]) continue;
    std::printf("pair %4zu %s it %d/%d ns %5.0f/%5.0f\n", r.pair, r.intersect ? "hit" : "sep", r.it[0], r.it[1],
                r.ns[0], r.ns[1]);
  }
  return 0;
}
