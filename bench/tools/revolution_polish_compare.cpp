// SPDX-License-Identifier: MIT
// The cylinder-cone Newton polish (gjk/revolution_polish.hpp) on the bench's cylinder-cone pairs:
// GJK alone (revolution_polish off) against the default, in one binary: the largest relative
// difference of the separated distances, mean iterations, and per-pair best-of-15 times (medians
// over the row and over its separated pairs). docs/benchmarks.md, session 14.
//   g++ -O3 -DNDEBUG -std=c++20 -Ibench -Iinclude -isystem /usr/include/eigen3 bench/tools/revolution_polish_compare.cpp
//       bench/inputs.cpp bench/reference/minkowski.cpp build/libproxima_shapes.a build/libproxima_core.a
//       -lqhull_r -o /tmp/polish_compare && /tmp/polish_compare 1
#include "inputs.hpp"
#include <proxima/gjk/distance.hpp>
#include <chrono>
#include <cstdio>
#include <algorithm>
using namespace proxima; using namespace proxima::bench;
static Pose to_pose(const Placement& p) { const auto& q = p.quaternion; return Pose::from_quaternion(q.w(), q.x(), q.y(), q.z(), p.translation); }
static double now() { return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
int main(int argc, char** argv) {
  const CaseSet set = make_primitive_set("cylinder-cone", 256, argc > 1 ? std::atoi(argv[1]) : 1);
  std::vector<double> tf, tp, sf, sp; double worst = 0; long itf = 0, itp = 0; int nsep = 0, polished = 0;
  gjk::GjkOptions off; off.revolution_polish = false;
  for (const auto& pc : set.pairs) {
    const Body& ba = set.bodies[pc.body_a]; const Body& bb = set.bodies[pc.body_b];
    Cylinder cy(ba.size.x(), ba.size.y()); Cone co(bb.size.x(), bb.size.y());
    Pose pa = to_pose(pc.pose_a), pb = to_pose(pc.pose_b);
    auto full = gjk::distance(cy, pa, co, pb, off);
    auto nw = gjk::distance(cy, pa, co, pb);
    if (full.intersect != nw.intersect) std::printf("INTERSECT MISMATCH\n");
    if (!full.intersect) { worst = std::max(worst, std::abs(full.distance - nw.distance) / full.distance); itf += full.iterations; itp += nw.iterations; ++nsep; polished += nw.iterations != full.iterations || nw.distance != full.distance; }
    double best_f = 1e18, best_p = 1e18; volatile double sink = 0;
    for (int rep = 0; rep < 15; ++rep) {
      double t0 = now(); for (int k = 0; k < 20; ++k) sink = sink + gjk::distance(cy, pa, co, pb, off).distance; double t1 = now();
      for (int k = 0; k < 20; ++k) sink = sink + gjk::distance(cy, pa, co, pb).distance; double t2 = now();
      best_f = std::min(best_f, (t1 - t0) / 20); best_p = std::min(best_p, (t2 - t1) / 20);
    }
    tf.push_back(best_f); tp.push_back(best_p);
    if (!full.intersect) { sf.push_back(best_f); sp.push_back(best_p); }
  }
  auto med = [](std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; };
  std::printf("separated %d, answered by the polish %d; worst rel diff %.3g, separated mean iterations off %.1f on %.1f | row median off %.0f on %.0f | separated off %.0f on %.0f\n", nsep, polished, worst, double(itf)/nsep, double(itp)/nsep, med(tf), med(tp), med(sf), med(sp));
}
