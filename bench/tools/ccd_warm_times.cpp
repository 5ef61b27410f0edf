// SPDX-License-Identifier: MIT
// The raster mode's warm query times on one ccd bench case, timed as the bench times them at
// batch 1 (bench/suites/ccd.cpp: per motion one untimed call, then the timed call of the same
// motion), and the same warm calls alone for valgrind. Medium preset (core/tolerance.hpp), seed 1.
// Built against a build's libraries as ccd_answer_hash.sh builds its tool (docs/benchmarks.md,
// session 32); -Isrc for the test hook that turns the scans' AVX2 masks off.
//   ccd_warm_times bench CASE MOTIONS REPS   median, first and third quartile (ns) over REPS x
//       MOTIONS timed calls (one untimed pass first)
//   ccd_warm_times per CASE MOTIONS REPS     the same, then each motion's median (ns)
//   ccd_warm_times cg CASE MOTIONS           each motion twice, the second call between two
//       CALLGRIND_TOGGLE_COLLECT (valgrind --tool=callgrind --collect-atstart=no)
//   ccd_warm_times none CASE MOTIONS         the cases built, no query (a trace's set-up alone)
// Environment: NOAVX2=1 runs the scans' portable pre-tests (detail::set_raster_avx2_for_tests).
// FAR=1 moves B's start and end poses 1000 of B's bounding radii along world z, so the
// bounding-sphere early out returns before any geometry is made or drawn: the query's fixed head
// alone (input checks, relative motion, its decomposition, A's own angle test, the sphere test,
// the result; session 34).
#include "ccd/glide_raster.hpp"
#include "suites/ccd_cases.hpp"

#include <proxima/ccd/screw_collisions.hpp>
#include <valgrind/callgrind.h>

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
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s bench|per|cg|none CASE MOTIONS [REPS]\n", argv[0]);
    return 2;
  }
  const std::string mode = argv[1], name = argv[2];
  const int motions = std::atoi(argv[3]);
  const int reps = argc > 4 ? std::atoi(argv[4]) : 1;
  if (std::getenv("NOAVX2") != nullptr) ccd::detail::set_raster_avx2_for_tests(false);
  auto cases = bench::make_ccd_cases(motions, 1);
  ccd::ScrewOptions o;
  o.method = ccd::ScrewMethod::raster;
  o.pixel_size = kCcdRasterPixelSizeMedium;
  o.time_resolution = kCcdRasterTimeResolutionMedium;
  double sink = 0;
  for (auto& c : cases) {
    if (c.name != name || mode == "none") continue;
    const std::size_t n = c.motions.size();
    if (std::getenv("FAR") != nullptr) {
      const Pose away = Pose::from_translation(Vec3(0, 0, 1e3 * c.b.bounding_sphere().radius));
      for (auto& m : c.motions) {
        m.b_start = away * m.b_start;
        m.b_end = away * m.b_end;
      }
    }
    auto call = [&](std::size_t i) {
      const auto& m = c.motions[i];
      const ccd::ScrewResult r = ccd::screw_collisions(c.a, m.a_start, m.a_end, c.b, m.b_start, m.b_end, o);
      return r.toi + static_cast<double>(r.collisions.size());
    };
    if (mode == "cg") {
      for (std::size_t i = 0; i < n; ++i) {
        sink += call(i);
        CALLGRIND_TOGGLE_COLLECT;
        sink += call(i);
        CALLGRIND_TOGGLE_COLLECT;
      }
      continue;
    }
    std::vector<double> all;
    std::vector<std::vector<double>> per(n);
    for (std::size_t i = 0; i < n; ++i) sink += call(i);
    for (int r = 0; r < reps; ++r) {
      for (std::size_t i = 0; i < n; ++i) {
        sink += call(i);  // untimed: this motion's data and branch history, as the bench does
        const double start = now_ns();
        sink += call(i);
        const double sample = now_ns() - start;
        all.push_back(sample);
        per[i].push_back(sample);
      }
    }
    if (all.empty()) continue;
    std::sort(all.begin(), all.end());
    const std::size_t k = all.size();
    std::printf("%s median %.0f q1 %.0f q3 %.0f\n", name.c_str(), all[k / 2], all[k / 4], all[3 * k / 4]);
    if (mode == "per") {
      for (std::size_t i = 0; i < n; ++i) {
        std::sort(per[i].begin(), per[i].end());
        std::printf("%zu %.0f\n", i, per[i][per[i].size() / 2]);
      }
    }
  }
  std::fprintf(stderr, "sink %g\n", sink);
  return 0;
}
