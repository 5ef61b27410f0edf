// SPDX-License-Identifier: MIT
// The GJK phase's share of penetration() by the clock on EPA N's intersecting pairs (docs/
// benchmarks.md, session 35), timed as bench/harness.cpp times a query: per pair, one untimed
// call, then a batch of 32 calls of the same pair; the GJK phase alone (relative pose, scale,
// B placed, run_warm_gjk as penetration() runs them) and the whole query alternated 9 times, the
// median of each per pair. Prints the medians over pairs and the per-pair share's median, p10
// and p90. Build from the repository root (one line):
//   g++ -O3 -DNDEBUG -std=c++20 -Ibench -Iinclude -isystem /usr/include/eigen3 bench/tools/epa_gjk_share.cpp
//     bench/inputs.cpp bench/reference/minkowski.cpp build/libproxima_shapes.a build/libproxima_core.a -lqhull_r
//     -o /tmp/epa_gjk_share
// then taskset -c 1 /tmp/epa_gjk_share N (N = 8, 32 or 128).
#include "inputs.hpp"
#include "tools/polytope_pairs.hpp"
#include <proxima/gjk/epa.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>
#include <algorithm>
using namespace proxima;
using namespace proxima::bench;
int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 32;
  // The intersecting pairs only (EPA's row); the shapes stay owned by `all`.
  const tools::PolytopePairs all = tools::load_polytope_pairs(n, 256);
  std::vector<const Polytope*> as, bs;
  std::vector<Pose> pas, pbs;
  for (std::size_t k = 0; k < all.size(); ++k) {
    gjk::WarmStart w0;
    if (!gjk::penetration(all.a(k), all.pose_a(k), all.b(k), all.pose_b(k), gjk::EpaOptions{}, w0).intersect) continue;
    as.push_back(&all.a(k));
    bs.push_back(&all.b(k));
    pas.push_back(all.pose_a(k));
    pbs.push_back(all.pose_b(k));
  }
  auto ws = std::make_unique<gjk::EpaHull>();
  const gjk::EpaOptions options;
  double sink = 0;
  {
    // The bench's protocol (bench/harness.cpp time_queries): per pair, one untimed call, then a
    // timed batch of the same pair; here the GJK phase alone and the whole query, alternated.
    std::vector<double> g_med, p_med, share;
    for (std::size_t i = 0; i < as.size(); ++i) {
      std::vector<double> tg, tp;
      for (int rep = 0; rep < 9; ++rep) {
        for (int mode = 0; mode < 2; ++mode) {
          const auto one = [&]() {
            if (mode == 0) {
              const Pose b_in_a = relative_pose(pas[i], pbs[i]);
              gjk::MinkowskiDifference<Polytope, Polytope> md(*as[i], *bs[i], b_in_a);
              const double scale = gjk::detail::query_scale(*as[i], *bs[i], b_in_a);
              alignas(32) std::array<double, 3 * proxima::detail::kPolytopeScanMaxPadded> placed;
              md.place_b(placed.data());
              gjk::WarmStart warm;
              const auto run = gjk::detail::run_warm_gjk(md, pas[i], scale, options.gjk, gjk::detail::GjkMode::distance, warm);
              sink += run.v.x() + run.contact;
            } else {
              gjk::WarmStart warm;
              sink += gjk::penetration(*as[i], pas[i], *bs[i], pbs[i], options, warm, *ws).depth;
            }
          };
          one();
          const auto t0 = std::chrono::steady_clock::now();
          for (int b = 0; b < 32; ++b) one();
          const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / 32;
          (mode == 0 ? tg : tp).push_back(ns);
        }
      }
      std::sort(tg.begin(), tg.end());
      std::sort(tp.begin(), tp.end());
      g_med.push_back(tg[tg.size() / 2]);
      p_med.push_back(tp[tp.size() / 2]);
      share.push_back(g_med.back() / p_med.back());
    }
    std::sort(g_med.begin(), g_med.end());
    std::sort(p_med.begin(), p_med.end());
    std::sort(share.begin(), share.end());
    std::printf("bench protocol: median over pairs gjk_phase %.0f ns, penetration %.0f ns, per-pair share median %.3f (p10 %.3f, p90 %.3f)\n",
                g_med[g_med.size() / 2], p_med[p_med.size() / 2], share[share.size() / 2], share[share.size() / 10],
                share[share.size() * 9 / 10]);
  }
  return sink == 42.0 ? 1 : 0;  // keeps the results alive
}
