// SPDX-License-Identifier: MIT
// The exact mode's cost with the bodies passed as given and the other way round (the same motions),
// on pairs of meshes of different feature counts: the measurements behind kExactSwapFeatureRatio
// (src/ccd/screw_collisions.cpp; docs/benchmarks.md, session 31, s31-swap). Best of 30 passes over
// 64 motions (bench/suites/ccd_cases.hpp, make_ccd_motions seed 7), us a query.
// Against a build whose screw_collisions swaps, a pair above the ratio is swapped inside either way
// round (both columns then time the swapped query); against one without the swap (b047f8f or with
// the ratio raised), the columns are the two roles.
// Build (from the repo root, a configured Release build in build/):
//   g++ -O3 -DNDEBUG -std=c++20 -Ibench -Iinclude -isystem /usr/include/eigen3 bench/tools/ccd_swap_ratio.cpp \
//     bench/suites/ccd_cases.cpp build/libproxima_ccd.a build/libproxima_mesh.a build/libproxima_shapes.a \
//     build/libproxima_core.a -lqhull_r -o /tmp/ccd_swap_ratio && taskset -c 0 /tmp/ccd_swap_ratio
#include "suites/ccd_cases.hpp"

#include <proxima/ccd/screw_collisions.hpp>
#include <proxima/mesh/generators.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

using namespace proxima;

namespace {

// Best of 30 passes over the motions, us a query: A and B as given, or passed the other way round.
double time_query(const mesh::Mesh& a, const mesh::Mesh& b, const std::vector<bench::CcdMotion>& motions, bool swap,
                  bool first) {
  ccd::ScrewOptions o;
  o.first_contact_only = first;
  double best = 1e300;
  for (int pass = 0; pass < 30; ++pass) {
    const auto t0 = std::chrono::steady_clock::now();
    for (const bench::CcdMotion& m : motions) {
      const ccd::ScrewResult r = swap ? ccd::screw_collisions(b, m.b_start, m.b_end, a, m.a_start, m.a_end, o)
                                      : ccd::screw_collisions(a, m.a_start, m.a_end, b, m.b_start, m.b_end, o);
      (void)r;
    }
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best * 1e6 / static_cast<double>(motions.size());
}

}  // namespace

int main() {
  const mesh::Mesh cube = mesh::make_box(Vec3(0.5, 0.5, 0.5));
  const mesh::Mesh car = mesh::make_car();
  const mesh::Mesh prism = mesh::make_l_prism();
  const mesh::Mesh torus = mesh::make_torus(1, 0.3);
  const mesh::Mesh coarse = mesh::make_torus(1, 0.3, 10, 8);
  struct Pair {
    const char* name;
    const mesh::Mesh* a;
    const mesh::Mesh* b;
  };
  for (const Pair& p : {Pair{"cube(26)-car(54)", &cube, &car}, Pair{"cube(26)-lprism(38)", &cube, &prism},
                        Pair{"lprism(38)-car(54)", &prism, &car}, Pair{"car(54)-torus10x8(320)", &car, &coarse},
                        Pair{"cube(26)-torus10x8(320)", &cube, &coarse},
                        Pair{"torus10x8(320)-torus(1200)", &coarse, &torus}}) {
    const std::vector<bench::CcdMotion> motions = bench::make_ccd_motions(*p.a, *p.b, 64, 7);
    for (const bool first : {false, true}) {
      std::printf("%-28s %s  as given %.2f us  swapped %.2f us\n", p.name, first ? "first" : "all  ",
                  time_query(*p.a, *p.b, motions, false, first), time_query(*p.a, *p.b, motions, true, first));
    }
  }
}
