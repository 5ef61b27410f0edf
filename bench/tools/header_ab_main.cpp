// SPDX-License-Identifier: MIT
// In-process A/B timing of a header change (bench/tools/header_ab.sh builds it): the base side and
// the new side run in the same process, pair by pair, in alternating order, so the load of a
// shared machine (other builds, SMT siblings) falls on both alike. Each sample times a batch of 16
// calls on one pair after one untimed call (bench/harness.cpp's warm regime); the result is the
// median of next / base over the samples, and the two medians. A same-vs-same build (both sides
// the base headers) read 0.992-1.001 at N = 32, EPA, load 6-7 (docs/benchmarks.md, session 21).
//   header_ab epa|distance|intersect N [repeat=5]
// Every answer of the two sides is compared first (exact equality, NaN equal to NaN): a count of
// differences is printed, since a header change meant to be bit-identical should show 0.
#include "inputs.hpp"
#include "tools/tool_support.hpp"
#include <proxima/gjk/intersect.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace proxima;
using namespace proxima::bench;
using tools::now_ns;
using tools::to_pose;

double ab_query_base(int mode, const Polytope& a, const Pose& pa, const Polytope& b, const Pose& pb);
double ab_query_next(int mode, const Polytope& a, const Pose& pa, const Polytope& b, const Pose& pb);

namespace {
volatile double g_sink;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: header_ab epa|distance|intersect N [repeat]\n");
    return 2;
  }
  const std::string name = argv[1];
  const int mode = name == "epa" ? 0 : name == "distance" ? 1 : 2;
  const int n = std::atoi(argv[2]);
  const int repeat = argc > 3 ? std::atoi(argv[3]) : 5;
  const CaseSet set = make_polytope_set(n, n == 1024 ? 64 : 256, 1);
  std::vector<Polytope> polys;
  std::vector<Pose> poses;
  for (const PairCase& pc : set.pairs) {
    for (int b : {pc.body_a, pc.body_b}) {
      const auto& v = set.bodies[static_cast<std::size_t>(b)].hull.vertices;
      polys.emplace_back(std::span<const Vec3>(v.data(), v.size()));
    }
    poses.push_back(to_pose(pc.pose_a));
    poses.push_back(to_pose(pc.pose_b));
  }
  // The bench's epa row times the intersecting pairs only.
  std::vector<std::size_t> pairs;
  for (std::size_t i = 0; i < set.pairs.size(); ++i) {
    if (mode != 0 || gjk::intersect(polys[2 * i], poses[2 * i], polys[2 * i + 1], poses[2 * i + 1]).intersect) {
      pairs.push_back(i);
    }
  }
  const auto call = [&](auto query, std::size_t i) {
    return query(mode, polys[2 * i], poses[2 * i], polys[2 * i + 1], poses[2 * i + 1]);
  };
  int differ = 0;
  for (std::size_t i : pairs) {
    const double x = call(ab_query_base, i);
    const double y = call(ab_query_next, i);
    if (!(x == y) && !(x != x && y != y)) ++differ;
  }
  constexpr int kBatch = 16;
  double sink = 0;
  const auto timed = [&](auto query, std::size_t i) {
    sink += call(query, i);  // untimed: this pair's data into the caches
    const double t0 = now_ns();
    for (int k = 0; k < kBatch; ++k) sink += call(query, i);
    return (now_ns() - t0) / kBatch;
  };
  const tools::AbMedians t = tools::alternate_ab(pairs.size(), repeat, [&](bool next_side, std::size_t j) {
    return next_side ? timed(ab_query_next, pairs[j]) : timed(ab_query_base, pairs[j]);
  });
  g_sink = sink;
  std::printf("%s N=%d pairs=%zu answers_differ=%d base_ns=%.1f next_ns=%.1f median(next/base)=%.4f\n", name.c_str(), n,
              pairs.size(), differ, t.base, t.next, t.ratio);
  return 0;
}
