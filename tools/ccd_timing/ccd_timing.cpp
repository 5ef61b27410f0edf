// SPDX-License-Identifier: MIT
// Timing of the screw collision query (issue 5), exact or raster mode: seeded random screw motions per shape
// pair (cube-cube, car-car, torus-torus, L-prism vs torus), the same generator as
// tests/ccd/screw_collisions_test.cpp (B starts outside A and is driven through or past it,
// rotating up to 45 degrees). Prints the median and mean time per query and the hit fraction.
//
// Not part of the main build. Build by hand against the static libraries of a build dir:
//   B=/work/main/build-ccd2   # any Release build dir holding libproxima_{ccd,mesh,core}.a
//   c++ -std=c++20 -O3 -DNDEBUG -I/work/main/include -isystem /usr/include/eigen3
//     /work/main/tools/ccd_timing/ccd_timing.cpp $B/libproxima_ccd.a $B/libproxima_mesh.a
//     $B/libproxima_core.a -o /tmp/ccd_timing            (one line)
//   /tmp/ccd_timing [motions_per_pair=100] [seed=5005] [only_pair_name|all] [exact|raster|raster-low|raster-high]
// (tools/ccd_timing/CMakeLists.txt does the same with -DPROXIMA_BUILD_DIR=<build dir>.)
#include <proxima/ccd/screw_collisions.hpp>
#include <proxima/mesh/generators.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <numbers>
#include <random>
#include <string>
#include <vector>

namespace {

using proxima::Mat3;
using proxima::Pose;
using proxima::Vec3;
using proxima::mesh::Mesh;

Pose random_rotation_pose(std::mt19937_64& rng, double max_angle) {
  std::uniform_real_distribution<double> u(-1, 1);
  Vec3 axis(u(rng), u(rng), u(rng));
  while (axis.norm() < 0.1) axis = Vec3(u(rng), u(rng), u(rng));
  const double angle = max_angle * (u(rng) + 1) / 2;
  return Pose::from_matrix(Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix(), Vec3::Zero());
}

Vec3 random_unit(std::mt19937_64& rng) {
  std::normal_distribution<double> n;
  return Vec3(n(rng), n(rng), n(rng)).normalized();
}

struct Motion {
  Pose a_start, a_end, b_start, b_end;
};

Motion random_motion(std::mt19937_64& rng, const Mesh& a, const Mesh& b) {
  std::uniform_real_distribution<double> u01(0, 1);
  const double reach = a.bounding_sphere().radius + b.bounding_sphere().radius;
  Motion m;
  m.a_start = random_rotation_pose(rng, std::numbers::pi);
  m.a_end = random_rotation_pose(rng, 0.1) * m.a_start * Pose::from_translation(Vec3(0.1 * u01(rng), 0, 0));
  const Vec3 dir = random_unit(rng);
  Vec3 side = random_unit(rng);
  side = (side - side.dot(dir) * dir).normalized();
  const Pose b_rot = random_rotation_pose(rng, std::numbers::pi);
  const Vec3 offset = reach * 1.2 * u01(rng) * side;
  const Vec3 centre = m.a_start.apply(a.bounding_sphere().center);
  const Vec3 start_c = centre + reach * (1.02 + 0.5 * u01(rng)) * dir + offset;
  const Vec3 end_c = centre - reach * (0.5 + 2.5 * u01(rng)) * dir + offset;
  m.b_start = Pose::from_matrix(b_rot.rotation(), start_c - b_rot.rotate(b.bounding_sphere().center));
  const Pose spin = random_rotation_pose(rng, std::numbers::pi / 4 - 0.1);
  const Mat3 r_end = spin.rotation() * b_rot.rotation();
  m.b_end = Pose::from_matrix(r_end, end_c - r_end * b.bounding_sphere().center);
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  const int count = argc > 1 ? std::atoi(argv[1]) : 100;
  const std::uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 5005;
  struct Pair {
    const char* name;
    Mesh a, b;
  };
  std::vector<Pair> pairs;
  pairs.push_back({"cube-cube", proxima::mesh::make_box(Vec3(0.5, 0.5, 0.5)), proxima::mesh::make_box(Vec3(0.5, 0.5, 0.5))});
  pairs.push_back({"car-car", proxima::mesh::make_car(), proxima::mesh::make_car()});
  pairs.push_back({"torus-torus", proxima::mesh::make_torus(1, 0.3), proxima::mesh::make_torus(1, 0.3)});
  pairs.push_back({"lprism-torus", proxima::mesh::make_l_prism(), proxima::mesh::make_torus(1, 0.3)});
  const std::string method = argc > 4 ? argv[4] : "exact";
  proxima::ccd::ScrewOptions options;
  if (method != "exact") options.method = proxima::ccd::ScrewMethod::raster;
  if (method == "raster-low") {
    options.pixel_size = proxima::kCcdRasterPixelSizeLow;
    options.time_resolution = proxima::kCcdRasterTimeResolutionLow;
  } else if (method == "raster-high") {
    options.pixel_size = proxima::kCcdRasterPixelSizeHigh;
    options.time_resolution = proxima::kCcdRasterTimeResolutionHigh;
  }
  std::printf("seed %llu, %d motions per pair, %s mode, all collisions\n", static_cast<unsigned long long>(seed), count,
              method.c_str());
  std::printf("%-14s %12s %12s %12s %8s %10s %10s %10s\n", "pair", "median_us", "mean_us", "max_us", "hits", "pairs/q",
              "iters/q", "colls/q");
  const std::string only = argc > 3 && std::string(argv[3]) != "all" ? argv[3] : "";
  for (const Pair& p : pairs) {
    if (!only.empty() && only != p.name) continue;
    std::mt19937_64 rng(seed);
    std::vector<Motion> motions;
    for (int k = 0; k < count; ++k) motions.push_back(random_motion(rng, p.a, p.b));
    std::vector<double> us;
    int hits = 0;
    double candidate_pairs = 0, iterations = 0, collisions = 0;
    for (const Motion& m : motions) {
      const auto t0 = std::chrono::steady_clock::now();
      const proxima::ccd::ScrewResult r =
          proxima::ccd::screw_collisions(p.a, m.a_start, m.a_end, p.b, m.b_start, m.b_end, options);
      const auto t1 = std::chrono::steady_clock::now();
      us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
      hits += r.contact ? 1 : 0;
      candidate_pairs += r.candidate_pairs;
      iterations += r.iterations;
      collisions += static_cast<double>(r.collisions.size());
    }
    std::vector<double> sorted = us;
    std::sort(sorted.begin(), sorted.end());
    double mean = 0;
    for (double x : us) mean += x;
    mean /= static_cast<double>(us.size());
    std::printf("%-14s %12.1f %12.1f %12.1f %8d %10.0f %10.0f %10.1f\n", p.name, sorted[sorted.size() / 2], mean,
                sorted.back(), hits, candidate_pairs / count, iterations / count, collisions / count);
  }
  return 0;
}
