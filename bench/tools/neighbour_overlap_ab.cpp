// SPDX-License-Identifier: MIT
// GjkOptions::neighbour_support_overlap off against on (gjk/first_support_overlap.hpp,
// docs/benchmarks.md, session 24) on the bench's polytope sets (make_polytope_set(N, 256, seed 1);
// any N works):
//   times N [passes=3]          per-pair warm times (the pair once untimed, then the median of 5
//                               batches of 16 calls), off and on alternated pair by pair; the row's,
//                               the separated and the intersecting pairs' medians and their ratios
//   callgrind N sep|hit 0|1     instrumentation on around the queries of one class only, with the
//                               option off (0) or on (1): instructions per query from
//                               valgrind --tool=callgrind --collect-atstart=no, PROGRAM TOTALS / queries
//   g++ -O3 -DNDEBUG -std=c++20 -Ibench -Iinclude -isystem /usr/include/eigen3 bench/tools/neighbour_overlap_ab.cpp
//       bench/inputs.cpp bench/reference/minkowski.cpp build/libproxima_shapes.a build/libproxima_core.a
//       -lqhull_r -o /tmp/neighbour_overlap_ab && taskset -c 1 /tmp/neighbour_overlap_ab times 32
#include "inputs.hpp"
#include "tools/polytope_pairs.hpp"
#include "tools/tool_support.hpp"
#include <proxima/gjk/distance.hpp>
#include <proxima/shapes/polytope.hpp>
#include <valgrind/callgrind.h>

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

volatile double g_sink;

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s times N [passes] | callgrind N sep|hit 0|1\n", argv[0]);
    return 2;
  }
  const bool times = std::strcmp(argv[1], "times") == 0;
  const int n = std::atoi(argv[2]);
  const tools::PolytopePairs loaded = tools::load_polytope_pairs(n, 256);
  const auto& s = loaded.shapes;
  const auto& p = loaded.poses;
  const std::size_t pairs = loaded.size();
  const auto query = [&](std::size_t i, bool on) {
    gjk::GjkOptions o;
    o.neighbour_support_overlap = on;
    o.support_edge_overlap = false;  // the session-24 comparison: the vertex tests alone (session 25 added the edges)
    return gjk::distance(*s[2 * i], p[2 * i], *s[2 * i + 1], p[2 * i + 1], o);
  };
  if (!times) {
    if (argc < 5) return 2;
    const bool want_separated = std::strcmp(argv[3], "sep") == 0;
    const bool on = std::atoi(argv[4]) != 0;
    int queries = 0;
    for (std::size_t i = 0; i < pairs; ++i) {
      if (query(i, true).intersect == want_separated) continue;
      CALLGRIND_TOGGLE_COLLECT;
      g_sink = g_sink + query(i, on).distance;
      CALLGRIND_TOGGLE_COLLECT;
      ++queries;
    }
    std::printf("N=%d %s option %d queries=%d\n", n, want_separated ? "separated" : "intersecting", on ? 1 : 0, queries);
    return 0;
  }
  const int passes = argc > 3 ? std::atoi(argv[3]) : 3;
  for (int pass = 0; pass < passes; ++pass) {
    std::vector<double> all[2], separated[2], hit[2];
    for (std::size_t i = 0; i < pairs; ++i) {
      const bool is_separated = !query(i, true).intersect;
      for (int k = 0; k < 2; ++k) {
        const int on = (static_cast<int>(i) + pass + k) % 2;
        const double ns = warm_ns([&] { g_sink = g_sink + query(i, on != 0).distance; });
        all[on].push_back(ns);
        (is_separated ? separated[on] : hit[on]).push_back(ns);
      }
    }
    std::printf("N=%d pass %d: off row %.0f separated %.0f intersecting %.0f | on row %.0f separated %.0f "
                "intersecting %.0f | on/off row %.3f separated %.3f intersecting %.3f\n",
                n, pass + 1, median(all[0]), median(separated[0]), median(hit[0]), median(all[1]), median(separated[1]),
                median(hit[1]), median(all[1]) / median(all[0]), median(separated[1]) / median(separated[0]),
                median(hit[1]) / median(hit[0]));
  }
  return 0;
}
