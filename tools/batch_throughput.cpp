// SPDX-License-Identifier: MIT
// Throughput of the batch API (issue 7 targets): intersect on N=8 polytope pairs, distance on N=32
// polytope pairs, and toi_translate on N=8 pairs (no target), 1 and 2 threads, seeded random poses
// (about half overlapping). Standalone: build against a configured build directory, e.g. (one
// command, wrapped here; the library is header-only in gjk, so there is no libproxima_gjk.a)
//   g++ -std=c++20 -O2 -DNDEBUG -I include -I /usr/include/eigen3 tools/batch_throughput.cpp
//       build-py/libproxima_batch.a build-py/libproxima_query.a build-py/libproxima_ccd.a
//       build-py/libproxima_ipm.a build-py/libproxima_lp.a build-py/libproxima_mesh.a
//       build-py/libproxima_shapes.a build-py/libproxima_core.a
//       -lqhull_r -o /tmp/batch_throughput && /tmp/batch_throughput
// Prints queries per second, the
// best of `kRepeats` runs (the machine is shared: the best run is the least disturbed one).
#include <proxima/batch/batch.hpp>
#include <proxima/batch/toi.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

namespace {

using namespace proxima;

constexpr int kRepeats = 5;
constexpr std::size_t kQueries = 200000;

Polytope random_polytope(std::mt19937& rng, int count) {
  std::normal_distribution<double> g(0.0, 1.0);
  std::vector<Vec3> points;
  for (int i = 0; i < count; ++i) points.push_back(Vec3(g(rng), g(rng), g(rng)).normalized());
  return Polytope(points);
}

std::vector<double> random_rows(std::mt19937& rng, std::size_t n, double spread) {
  std::uniform_real_distribution<double> u(-spread, spread);
  std::normal_distribution<double> g(0.0, 1.0);
  std::vector<double> rows;
  rows.reserve(7 * n);
  for (std::size_t i = 0; i < n; ++i) {
    for (double v : {u(rng), u(rng), u(rng), g(rng), g(rng), g(rng), g(rng)}) rows.push_back(v);
  }
  return rows;
}

template <class F>
double best_rate(F&& run) {
  double best = 0;
  for (int r = 0; r < kRepeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    run();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best = std::max(best, static_cast<double>(kQueries) / s);
  }
  return best;
}

}  // namespace

int main() {
  std::mt19937 rng(7);
  for (int vertices : {8, 32}) {
    const AnyConvex a = random_polytope(rng, vertices);
    const AnyConvex b = random_polytope(rng, vertices);
    const std::vector<double> rows = random_rows(rng, kQueries, vertices == 8 ? 1.2 : 1.7);
    const Pose identity;
    std::vector<std::uint8_t> hit(kQueries);
    std::vector<double> dist(kQueries);
    std::size_t hits = 0;
    double rate_i[3] = {};
    double rate_d[3] = {};
    for (int threads : {1, 2}) {
      batch::BatchOptions o;
      o.threads = threads;
      const batch::PoseArray pb = batch::PoseArray::quaternions(rows.data(), kQueries);
      rate_i[threads] = best_rate([&] {
        batch::intersect(std::span(&a, 1), std::span(&identity, 1), std::span(&b, 1), pb, {.intersect = hit}, o);
      });
      rate_d[threads] = best_rate([&] {
        batch::distance(std::span(&a, 1), std::span(&identity, 1), std::span(&b, 1), pb, {.distance = dist}, o);
      });
    }
    hits = static_cast<std::size_t>(std::count(hit.begin(), hit.end(), 1));
    std::printf("N=%2d  overlap %.0f%%  intersect: 1T %.2f M/s, 2T %.2f M/s (x%.2f)   distance: 1T %.2f M/s, 2T %.2f M/s (x%.2f)\n",
                vertices, 100.0 * static_cast<double>(hits) / kQueries, rate_i[1] / 1e6, rate_i[2] / 1e6,
                rate_i[2] / rate_i[1], rate_d[1] / 1e6, rate_d[2] / 1e6, rate_d[2] / rate_d[1]);
  }
  // Time of impact: B (N=8) 3 away, translating towards A with a random sideways component.
  {
    const AnyConvex a = random_polytope(rng, 8);
    const AnyConvex b = random_polytope(rng, 8);
    const std::vector<double> rows = random_rows(rng, kQueries, 3.0);
    std::uniform_real_distribution<double> u(-1, 1);
    std::vector<double> velocity(3 * kQueries);
    for (std::size_t i = 0; i < kQueries; ++i) {
      for (int k = 0; k < 3; ++k) velocity[3 * i + k] = -rows[7 * i + k] + u(rng);
    }
    const Pose identity;
    const Vec3 still = Vec3::Zero();
    std::vector<std::uint8_t> contact(kQueries);
    double rate[3] = {};
    for (int threads : {1, 2}) {
      batch::ToiBatchOptions o;
      o.threads = threads;
      rate[threads] = best_rate([&] {
        batch::toi_translate(std::span(&a, 1), std::span(&identity, 1), std::span(&still, 1), std::span(&b, 1),
                             batch::PoseArray::quaternions(rows.data(), kQueries),
                             batch::VectorArray::rows(velocity.data(), kQueries), 1.0, {.contact = contact}, o);
      });
    }
    const auto contacts = static_cast<double>(std::count(contact.begin(), contact.end(), 1));
    std::printf("N= 8  contact %.0f%%  toi_translate: 1T %.2f M/s, 2T %.2f M/s (x%.2f)\n", 100.0 * contacts / kQueries,
                rate[1] / 1e6, rate[2] / 1e6, rate[2] / rate[1]);
  }
  return 0;
}
