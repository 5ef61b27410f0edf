// SPDX-License-Identifier: MIT
// How far Polytope's hill climb walks from its start vertex (docs/benchmarks.md, session 16): on
// the bench's polytopes (make_polytope_set(N, ..., seed 1), the first 40 bodies), 2,000 seeded
// random directions per body, the mean and largest number of moves of a climb started
//   r=0      from the best of the 26 directions {-1,0,1}^3 (the start table before session 16)
//   r=8..32  from the cube-map cell of the direction (detail::start_cell at that resolution)
// A move is one step to a better neighbour; every climb also reads its final vertex's neighbours.
//   g++ -O2 -std=c++20 -Ibench -Iinclude -isystem /usr/include/eigen3 bench/tools/polytope_climb_moves.cpp \
//     bench/inputs.cpp bench/reference/minkowski.cpp build/libproxima_shapes.a build/libproxima_core.a \
//     -lqhull_r -o /tmp/polytope_climb_moves && /tmp/polytope_climb_moves 1024 && /tmp/polytope_climb_moves 128
#include "inputs.hpp"
#include <proxima/shapes/polytope.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>
using namespace proxima;
using namespace proxima::bench;

namespace {

int moves_from(const Polytope& p, const Vec3& d, int current) {
  int moves = 0;
  double value = d.dot(p.vertices()[static_cast<std::size_t>(current)]);
  for (;;) {
    int best = current;
    double best_value = value;
    for (const int n : p.neighbors(current)) {
      const double v = d.dot(p.vertices()[static_cast<std::size_t>(n)]);
      if (v > best_value) best_value = v, best = n;
    }
    if (best == current) return moves;
    current = best;
    value = best_value;
    ++moves;
  }
}

int best_of_26(const Polytope& p, const Vec3& d) {
  int best = 0;
  double best_value = -1e300;
  for (int x = -1; x <= 1; ++x) {
    for (int y = -1; y <= 1; ++y) {
      for (int z = -1; z <= 1; ++z) {
        if (x == 0 && y == 0 && z == 0) continue;
        const int s = p.scan(Vec3(x, y, z));
        const double v = d.dot(p.vertices()[static_cast<std::size_t>(s)]);
        if (v > best_value) best_value = v, best = s;
      }
    }
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1024;
  const CaseSet set = make_polytope_set(n, n == 1024 ? 64 : 256, 1);
  for (const int r : {0, 8, 16, 32}) {
    std::mt19937 rng(1);
    std::normal_distribution<double> normal;
    long total = 0, count = 0;
    int most = 0;
    for (std::size_t b = 0; b < set.bodies.size() && b < 40; ++b) {
      const auto& v = set.bodies[b].hull.vertices;
      const Polytope p(std::span<const Vec3>(v.data(), v.size()));
      std::vector<int> table;
      for (int c = 0; r > 0 && c < 6 * r * r; ++c) table.push_back(p.scan(detail::start_cell_direction(c, r)));
      for (int k = 0; k < 2000; ++k) {
        const Vec3 d(normal(rng), normal(rng), normal(rng));
        const int start = r > 0 ? table[static_cast<std::size_t>(detail::start_cell(d, r))] : best_of_26(p, d);
        const int m = moves_from(p, d, start);
        total += m;
        ++count;
        most = std::max(most, m);
      }
    }
    std::printf("N=%d r=%d mean moves %.2f max %d\n", n, r, static_cast<double>(total) / static_cast<double>(count),
                most);
  }
}
