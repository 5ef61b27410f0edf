// SPDX-License-Identifier: MIT
// Cache misses of cold gjk::intersect / gjk::distance calls on the bench's polytope sets
// (make_polytope_set(N, 256, seed 1)), counted by callgrind's cache simulation: one call per pair
// in turn, two rounds, with a 4 MiB walk between calls (outside the counted function `query`) so
// every call starts on data pushed out of the caches, as in the bench's cold regime, but without
// the machine's noise (docs/benchmarks.md, session 20). Counts are per run of 512 calls.
//   g++ -O3 -DNDEBUG -std=c++20 -Ibench -Iinclude -isystem /usr/include/eigen3
//     bench/tools/cold_query_misses.cpp bench/inputs.cpp bench/reference/minkowski.cpp
//     build/libproxima_shapes.a build/libproxima_core.a -lqhull_r -o /tmp/cold_query_misses
//   valgrind --tool=callgrind --cache-sim=yes --D1=32768,8,64 --LL=1048576,16,64
//     --collect-atstart=no --toggle-collect='query*' /tmp/cold_query_misses 8 intersect
//   callgrind_annotate callgrind.out.PID | grep 'PROGRAM TOTALS'   (Ir ... D1mr: read misses)
// usage: cold_query_misses N intersect|distance
#include "inputs.hpp"

#include <proxima/gjk/distance.hpp>
#include <proxima/gjk/intersect.hpp>
#include <proxima/shapes/polytope.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

using namespace proxima;
using namespace proxima::bench;

namespace {

Pose to_pose(const Placement& p) { return Pose::from_matrix(p.rotation, p.translation); }

__attribute__((noinline)) double query(const Polytope& a, const Pose& pa, const Polytope& b, const Pose& pb,
                                       bool distance) {
  if (distance) return gjk::distance(a, pa, b, pb).distance;
  return gjk::intersect(a, pa, b, pb).intersect ? 1.0 : 0.0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: cold_query_misses N intersect|distance\n");
    return 2;
  }
  const int n = std::atoi(argv[1]);
  const bool distance = std::strcmp(argv[2], "distance") == 0;
  const CaseSet set = make_polytope_set(n, 256, 1);
  std::vector<std::unique_ptr<Polytope>> bodies;  // one allocation each, as a scene's bodies
  for (const auto& body : set.bodies) {
    bodies.push_back(std::make_unique<Polytope>(std::span<const Vec3>(body.hull.vertices.data(), body.hull.vertices.size())));
  }
  std::vector<Pose> pa, pb;
  for (const auto& pc : set.pairs) pa.push_back(to_pose(pc.pose_a)), pb.push_back(to_pose(pc.pose_b));
  std::vector<double> evict((4u << 20) / sizeof(double), 1.0);
  double sink = 0;
  for (int round = 0; round < 2; ++round) {
    for (std::size_t i = 0; i < set.pairs.size(); ++i) {
      for (std::size_t k = 0; k < evict.size(); k += 8) sink += evict[k];  // one read per line
      const auto& pc = set.pairs[i];
      sink += query(*bodies[static_cast<std::size_t>(pc.body_a)], pa[i], *bodies[static_cast<std::size_t>(pc.body_b)],
                    pb[i], distance);
    }
  }
  std::printf("%g\n", sink);
}
