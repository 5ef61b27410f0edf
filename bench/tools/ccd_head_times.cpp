// SPDX-License-Identifier: MIT
// The raster query's fixed head alone, timed: the ccd bench's motions of one case (64, seed 1,
// medium preset) as they are, and again with B's start and end poses moved 1000 of B's radii along
// world z, so the bounding-sphere early out returns before any geometry is made or drawn (input
// checks, relative motion, its decomposition, A's own angle test, the sphere test, the result).
// Timed as the bench times a query at batch 1: per motion one untimed call, then the timed one;
// the median over REPS x 64 samples (steady_clock, about 21 ns of timer included).
// Build as ccd_warm_times.cpp (docs/benchmarks.md, session 32):
//   g++ -O3 -DNDEBUG -std=c++20 -Ibench -Iinclude -isystem /usr/include/eigen3 bench/tools/ccd_head_times.cpp \
//     bench/suites/ccd_cases.cpp build/libproxima_ccd.a build/libproxima_mesh.a build/libproxima_shapes.a \
//     build/libproxima_core.a -lqhull_r -o head
//   taskset -c 1 ./head cube-cube 50
#include "suites/ccd_cases.hpp"

#include <proxima/ccd/screw_collisions.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace proxima;

namespace {

double now_ns() {
  return static_cast<double>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s CASE REPS\n", argv[0]);
    return 2;
  }
  const std::string name = argv[1];
  const int reps = std::atoi(argv[2]);
  auto cases = bench::make_ccd_cases(64, 1);
  ccd::ScrewOptions o;
  o.method = ccd::ScrewMethod::raster;
  o.pixel_size = kCcdRasterPixelSizeMedium;
  o.time_resolution = kCcdRasterTimeResolutionMedium;
  double sink = 0;
  for (auto& c : cases) {
    if (c.name != name) continue;
    for (int far = 0; far < 2; ++far) {
      const Pose away = Pose::from_translation(Vec3(0, 0, far != 0 ? 1e3 * c.b.bounding_sphere().radius : 0));
      std::vector<double> all;
      long contacts = 0;
      for (int r = 0; r < reps; ++r) {
        for (const auto& m : c.motions) {
          const Pose b_start = away * m.b_start, b_end = away * m.b_end;
          sink += ccd::screw_collisions(c.a, m.a_start, m.a_end, c.b, b_start, b_end, o).toi;  // untimed
          const double t0 = now_ns();
          const ccd::ScrewResult res = ccd::screw_collisions(c.a, m.a_start, m.a_end, c.b, b_start, b_end, o);
          all.push_back(now_ns() - t0);
          contacts += res.contact ? 1 : 0;
          sink += res.toi;
        }
      }
      std::sort(all.begin(), all.end());
      std::printf("%s %s median %.0f ns (contacts %ld of %zu)\n", name.c_str(), far != 0 ? "far" : "as-is",
                  all[all.size() / 2], contacts, all.size());
    }
  }
  std::fprintf(stderr, "sink %g\n", sink);
  return 0;
}
