// SPDX-License-Identifier: MIT
// The first support pair's common point on polytope pairs (gjk/first_support_overlap.hpp,
// GjkOptions::first_support_overlap; docs/benchmarks.md, session 19), on the bench's polytope sets
// (make_polytope_set(N, pairs, seed 1): N = 8, 32, 128, 1024 are the bench's rows, any other N
// works too). Two modes:
//   census N   the intersecting pairs (gjk::distance with the test off) and how many of them the
//              test answers (0 iterations), with the hull's triangle count and whether the hull
//              has the interior test (Polytope::has_interior_test)
//   times N    warm medians of gjk::distance and gjk::intersect with the option off and on, each
//              pair once untimed then the median of 5 batches of 16 calls (as the bench's warm
//              regime), median over the pairs; two alternated passes
//   g++ -O3 -DNDEBUG -std=c++20 -Ibench -Iinclude -isystem /usr/include/eigen3 bench/tools/polytope_overlap_census.cpp
//       bench/inputs.cpp bench/reference/minkowski.cpp build/libproxima_shapes.a build/libproxima_core.a
//       -lqhull_r -o /tmp/polytope_overlap_census && taskset -c 1 /tmp/polytope_overlap_census times 256
#include "inputs.hpp"
#include "tools/polytope_pairs.hpp"
#include "tools/tool_support.hpp"
#include <proxima/gjk/distance.hpp>
#include <proxima/gjk/intersect.hpp>
#include <proxima/shapes/polytope.hpp>

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
using tools::to_pose;

namespace {

tools::PolytopePairs load(int n) { return tools::load_polytope_pairs(n, n >= 1024 ? 64 : 256); }

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s census|times N\n", argv[0]);
    return 2;
  }
  const int n = std::atoi(argv[2]);
  const tools::PolytopePairs p = load(n);
  const std::size_t pairs = p.poses.size() / 2;
  const auto& a = [&](std::size_t i) -> const Polytope& { return *p.shapes[2 * i]; };
  const auto& b = [&](std::size_t i) -> const Polytope& { return *p.shapes[2 * i + 1]; };
  std::printf("N=%d: %zu pairs, first hull %zu triangles, interior test %s\n", n, pairs, a(0).faces().size(),
              a(0).has_interior_test() ? "yes" : "no");
  gjk::GjkOptions off;
  off.first_support_overlap = false;
  if (std::strcmp(argv[1], "census") == 0) {
    int intersecting = 0, answered = 0;
    for (std::size_t i = 0; i < pairs; ++i) {
      if (!gjk::distance(a(i), p.poses[2 * i], b(i), p.poses[2 * i + 1], off).intersect) continue;
      ++intersecting;
      const DistanceResult on = gjk::distance(a(i), p.poses[2 * i], b(i), p.poses[2 * i + 1]);
      answered += on.intersect && on.iterations == 0;
    }
    std::printf("intersecting %d, answered by the first support pair %d\n", intersecting, answered);
    return 0;
  }
  volatile double sink = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (int on = 0; on < 2; ++on) {
      for (int query = 0; query < 2; ++query) {
        const gjk::GjkOptions options = on ? gjk::GjkOptions{} : off;
        std::vector<double> times;
        for (std::size_t i = 0; i < pairs; ++i) {
          const auto call = [&] {
            const Pose& pa = p.poses[2 * i];
            const Pose& pb = p.poses[2 * i + 1];
            sink = sink + (query == 0 ? gjk::distance(a(i), pa, b(i), pb, options).distance
                                      : static_cast<double>(gjk::intersect(a(i), pa, b(i), pb, options).intersect));
          };
          times.push_back(tools::warm_ns(call));
        }
        std::printf("  pass %d %-9s test %-3s median %.0f ns\n", pass + 1, query == 0 ? "distance" : "intersect",
                    on ? "on" : "off", median(times));
      }
    }
  }
  return 0;
}
