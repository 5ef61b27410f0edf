// SPDX-License-Identifier: MIT
// One batch::intersect call on the bench's batch data (bench/suites/batch.cpp: two random
// polytopes of N vertices, 20,000 poses, translations in [-1.2, 1.2]^3), one thread, for
// callgrind's instruction count of the small-polytope kernels (docs/benchmarks.md, session 20).
//   g++ -O3 -DNDEBUG -std=c++20 -Iinclude -isystem /usr/include/eigen3 bench/tools/batch_intersect_ir.cpp
//     build/libproxima_batch.a build/libproxima_query.a build/libproxima_shapes.a build/libproxima_core.a
//     -lqhull_r -lpthread -o /tmp/batch_intersect_ir
//   valgrind --tool=callgrind --collect-atstart=no '--toggle-collect=proxima::batch::intersect*'
//     /tmp/batch_intersect_ir 8
// usage: batch_intersect_ir N [nesterov]   (nesterov: the one-element kernel, which runs run_gjk
// with momentum; otherwise the AVX2 lanes on a CPU that has them)
#include <proxima/batch/batch.hpp>
#include <proxima/shapes/any_convex.hpp>
#include <proxima/shapes/polytope.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

using namespace proxima;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: batch_intersect_ir N [nesterov]\n");
    return 2;
  }
  const int n = std::atoi(argv[1]);
  std::mt19937_64 rng(7007);
  std::normal_distribution<double> g(0.0, 1.0);
  const auto polytope = [&] {
    std::vector<Vec3> points;
    for (int i = 0; i < n; ++i) {
      const double z = g(rng), y = g(rng), x = g(rng);
      points.push_back(Vec3(x, y, z).normalized());
    }
    return AnyConvex(Polytope(points));
  };
  const AnyConvex a = polytope();
  const AnyConvex b = polytope();
  const std::size_t queries = 20000;
  std::uniform_real_distribution<double> u(-1.2, 1.2);
  std::vector<double> rows;
  for (std::size_t i = 0; i < queries; ++i) {
    for (double v : {u(rng), u(rng), u(rng), g(rng), g(rng), g(rng), g(rng)}) rows.push_back(v);
  }
  const batch::PoseArray poses = batch::PoseArray::quaternions(rows.data(), queries);
  std::vector<std::uint8_t> hit(queries);
  const Pose identity;
  batch::BatchOptions o;
  o.threads = 1;
  if (argc > 2) o.gjk.nesterov = true;
  batch::intersect(std::span(&a, 1), std::span(&identity, 1), std::span(&b, 1), poses, {.intersect = hit}, o);
  int overlapping = 0;
  for (const std::uint8_t h : hit) overlapping += h;
  std::printf("%d of %zu overlap\n", overlapping, queries);
}
