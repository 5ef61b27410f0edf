// SPDX-License-Identifier: MIT
// How early EPA N's answers are known, and what GJK's support points could seed (docs/benchmarks.md,
// session 35): on the seeded pairs of bench/tools/epa_pair_census.cpp it records every support
// point GJK and EPA compute, then re-runs EPA capped at 1, 2, ... iterations and reports the first
// cap whose answer already has the final depth (to EPA's tolerance), and how many of EPA's
// support points GJK had already computed (a point GJK dropped from its simplex and EPA finds
// again). Build from the repository root (one line):
//   g++ -O2 -DNDEBUG -std=c++20 -Ibench -Iinclude -isystem /usr/include/eigen3 bench/tools/epa_stop_census.cpp
//     bench/inputs.cpp bench/reference/minkowski.cpp build/libproxima_shapes.a build/libproxima_core.a -lqhull_r
//     -o /tmp/epa_stop_census
// then /tmp/epa_stop_census N (N = 8, 32, 128 or 1024).
#include "inputs.hpp"
#include "tools/polytope_pairs.hpp"

#include <proxima/gjk/epa.hpp>
#include <proxima/shapes/polytope.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

using namespace proxima;
using namespace proxima::bench;

namespace {

// The Minkowski difference, recording every support point it returns.
struct Recorder {
  gjk::MinkowskiDifference<Polytope, Polytope>& md;
  std::vector<Vec3>* seen;
  gjk::SupportPoint support(const Vec3& d) {
    const gjk::SupportPoint s = md.support(d);
    seen->push_back(s.w);
    return s;
  }
  double margin() const { return md.margin(); }
};

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 32;
  const tools::PolytopePairs pairs = tools::load_polytope_pairs(n, n == 1024 ? 64 : 256);
  auto hull = std::make_unique<gjk::EpaHull>();
  int queries = 0;
  long gjk_supports = 0, gjk_dropped = 0, epa_supports = 0, epa_repeats_of_gjk = 0, early_total = 0;
  int early_hist[8] = {0};
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    const Polytope& a = pairs.a(p);
    const Polytope& b = pairs.b(p);
    const Pose& pa = pairs.pose_a(p);
    const Pose b_in_a = pa.inverse() * pairs.pose_b(p);
    gjk::MinkowskiDifference<Polytope, Polytope> md(a, b, b_in_a);
    const double scale = gjk::detail::query_scale(a, b, b_in_a);
    gjk::WarmStart warm;
    const gjk::EpaOptions options;
    std::vector<Vec3> gjk_seen;
    Recorder rec{md, &gjk_seen};
    const Vec3 dir = gjk::detail::first_direction(a, b, pa, b_in_a, warm);
    gjk::detail::GjkRun run;
    gjk::detail::run_gjk_in_place<gjk::detail::GjkMode::distance>(rec, run, dir, scale, options.gjk);
    if (!run.contact) continue;
    ++queries;
    gjk_supports += static_cast<long>(gjk_seen.size());
    gjk_dropped += static_cast<long>(gjk_seen.size()) - run.simplex.size;
    std::vector<Vec3> epa_seen;
    Recorder rec2{md, &epa_seen};
    const gjk::detail::EpaRun full = gjk::detail::run_epa(rec2, run.simplex, scale, options, *hull);
    epa_supports += static_cast<long>(epa_seen.size());
    for (const Vec3& w : epa_seen) {
      bool in_simplex = false, in_gjk = false;
      for (int i = 0; i < run.simplex.size; ++i) in_simplex = in_simplex || run.simplex.points[static_cast<std::size_t>(i)].w == w;
      for (const Vec3& g : gjk_seen) in_gjk = in_gjk || g == w;
      if (in_gjk && !in_simplex) ++epa_repeats_of_gjk;
    }
    const double tol = options.relative_tolerance * full.depth + options.absolute_tolerance * scale;
    int first = full.iterations;
    for (int cap = 1; cap < full.iterations; ++cap) {
      gjk::EpaOptions capped = options;
      capped.max_iterations = cap;
      std::vector<Vec3> scratch;
      Recorder rec3{md, &scratch};
      const gjk::detail::EpaRun r = gjk::detail::run_epa(rec3, run.simplex, scale, capped, *hull);
      if (std::abs(r.depth - full.depth) <= tol && (r.normal - full.normal).norm() <= 1e-9) {
        first = cap;
        break;
      }
    }
    const int early = full.iterations - first;  // iterations after the answer was already in hand
    early_total += early;
    ++early_hist[std::min(early, 7)];
  }
  std::printf("N=%d queries=%d gjk_supports=%.2f gjk_dropped=%.2f epa_supports=%.2f epa_refinds_gjk_dropped=%.3f "
              "iterations_after_answer=%.2f\n",
              n, queries, double(gjk_supports) / queries, double(gjk_dropped) / queries, double(epa_supports) / queries,
              double(epa_repeats_of_gjk) / queries, double(early_total) / queries);
  std::printf("histogram of iterations after the answer (0..7+):");
  for (int h : early_hist) std::printf(" %d", h);
  std::printf("\n");
  return 0;
}
