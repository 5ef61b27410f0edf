// SPDX-License-Identifier: MIT
// A tight loop over gjk::distance on capsule-capsule and sphere-box pairs (the closed forms), timed
// outside the bench harness: its per-call virtual dispatch and the binary's code placement move
// these ~25 ns rows by several ns between builds (docs/benchmarks.md), so a change to the closed
// forms is judged here, the same source compiled against the old and the new headers:
//   git archive OLD include | tar -x -C /tmp/old
//   F="-O3 -DNDEBUG -std=c++20 -isystem /usr/include/eigen3"
//   g++ $F -I /tmp/old/include bench/tools/closed_form_loop.cpp build/libproxima_core.a -o old_loop
//   g++ $F -I include bench/tools/closed_form_loop.cpp build/libproxima_core.a -o new_loop
//   for i in 1 2 3; do taskset -c 1 ./old_loop; taskset -c 1 ./new_loop; done
// Prints the best of 30 passes, ns per call, per row.
#include <proxima/gjk/distance.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

using namespace proxima;

int main() {
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Capsule> capsules;
  std::vector<Sphere> spheres;
  std::vector<Box> boxes;
  std::vector<Pose> poses;
  for (int i = 0; i < 512; ++i) {
    capsules.emplace_back(0.3 + 0.2 * std::abs(u(rng)), 0.5);
    spheres.emplace_back(0.5);
    boxes.emplace_back(Vec3(0.5, 0.6, 0.7));
    const double w = u(rng), x = u(rng), y = u(rng), z = u(rng);
    const double tx = u(rng), ty = u(rng), tz = u(rng);
    poses.push_back(Pose::from_quaternion(w, x, y, z, 1.5 * Vec3(tx, ty, tz)));
  }
  for (int row = 0; row < 2; ++row) {
    double best = 1e30, sink = 0;
    for (int pass = 0; pass < 30; ++pass) {
      const auto start = std::chrono::steady_clock::now();
      for (int k = 0; k < 20; ++k) {
        for (int i = 0; i < 511; ++i) {
          const DistanceResult r = row == 0 ? gjk::distance(capsules[i], poses[i], capsules[i + 1], poses[i + 1])
                                            : gjk::distance(spheres[i], poses[i], boxes[i + 1], poses[i + 1]);
          sink += r.distance + r.point_a.x();
        }
      }
      const auto stop = std::chrono::steady_clock::now();
      best = std::min(best, std::chrono::duration<double, std::nano>(stop - start).count() / (20 * 511));
    }
    std::printf("%s %.2f ns per call (checksum %g)\n", row == 0 ? "capsule-capsule" : "sphere-box", best, sink);
  }
}
