// SPDX-License-Identifier: MIT
// In-process A/B timing of a closed-form header change (bench/tools/prim_ab.sh builds it) on the
// bench's capsule-capsule and sphere-box rows (256 pairs, seed from the command line): base and
// next side run in the same process, pair by pair, in alternating order, as header_ab_main.cpp
// does for polytopes. Each sample times a batch of 128 calls on one pair after one untimed call
// (bench/harness.cpp's warm regime). Prints, per row, the count of answers that differ bit for bit
// (intersect, distance, points), the median of next / base over the samples and the two medians.
//   prim_ab [seed=1] [repeat=5]
// Caveat (session 22, docs/benchmarks.md): GCC inlines differently here than in the bench's
// proxima_impl.cpp, a much larger translation unit. Eigen assignments the bench kept out of line
// were inlined here, so a change can read neutral here and move the bench's row by 15%: check
// the bench's object code (objdump) and its row too.
#include "inputs.hpp"
#include "tools/tool_support.hpp"
#include <proxima/shapes/box.hpp>
#include <proxima/shapes/capsule.hpp>
#include <proxima/shapes/sphere.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace proxima;
using namespace proxima::bench;

DistanceAnswer ab_capsules_base(const Capsule&, const Pose&, const Capsule&, const Pose&);
DistanceAnswer ab_capsules_next(const Capsule&, const Pose&, const Capsule&, const Pose&);
DistanceAnswer ab_sphere_box_base(const Sphere&, const Pose&, const Box&, const Pose&);
DistanceAnswer ab_sphere_box_next(const Sphere&, const Pose&, const Box&, const Pose&);

namespace {

/// Keeps the optimiser from dropping the timed calls.
volatile double g_sink = 0;

bool same(const DistanceAnswer& x, const DistanceAnswer& y) {
  return x.intersect == y.intersect && std::memcmp(&x.distance, &y.distance, sizeof(double)) == 0 &&
         std::memcmp(x.point_a.data(), y.point_a.data(), 3 * sizeof(double)) == 0 &&
         std::memcmp(x.point_b.data(), y.point_b.data(), 3 * sizeof(double)) == 0;
}

template <class A, class B, class F>
void run_row(const char* row, std::uint64_t seed, int repeat, F make, DistanceAnswer (*base)(const A&, const Pose&, const B&, const Pose&),
             DistanceAnswer (*next)(const A&, const Pose&, const B&, const Pose&)) {
  const CaseSet set = make_primitive_set(row, 256, seed);
  std::vector<A> as;
  std::vector<B> bs;
  std::vector<Pose> poses;
  for (const PairCase& pc : set.pairs) {
    make(set.bodies[static_cast<std::size_t>(pc.body_a)], set.bodies[static_cast<std::size_t>(pc.body_b)], as, bs);
    poses.push_back(tools::to_pose(pc.pose_a));
    poses.push_back(tools::to_pose(pc.pose_b));
  }
  const std::size_t n = set.pairs.size();
  int differ = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!same(base(as[i], poses[2 * i], bs[i], poses[2 * i + 1]), next(as[i], poses[2 * i], bs[i], poses[2 * i + 1]))) {
      ++differ;
    }
  }
  constexpr int kBatch = 128;  // about the bench's kMinBatchNs (2 us) at these rows' 15-20 ns
  double sink = 0;
  const auto timed = [&](auto query, std::size_t i) {
    sink += query(as[i], poses[2 * i], bs[i], poses[2 * i + 1]).distance;  // untimed: caches
    const double t0 = tools::now_ns();
    for (int k = 0; k < kBatch; ++k) sink += query(as[i], poses[2 * i], bs[i], poses[2 * i + 1]).distance;
    return (tools::now_ns() - t0) / kBatch;
  };
  const tools::AbMedians t =
      tools::alternate_ab(n, repeat, [&](bool next_side, std::size_t i) { return next_side ? timed(next, i) : timed(base, i); });
  g_sink = g_sink + sink;
  std::printf("%-16s seed %llu: answers differing %d / %zu; next/base median %.3f; base %.2f ns, next %.2f ns\n", row,
              static_cast<unsigned long long>(seed), differ, n, t.ratio, t.base, t.next);
}

}  // namespace

int main(int argc, char** argv) {
  const std::uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1;
  const int repeat = argc > 2 ? std::atoi(argv[2]) : 5;
  run_row<Capsule, Capsule>(
      "capsule-capsule", seed, repeat,
      [](const Body& a, const Body& b, std::vector<Capsule>& as, std::vector<Capsule>& bs) {
        as.emplace_back(a.size.x(), a.size.y());
        bs.emplace_back(b.size.x(), b.size.y());
      },
      ab_capsules_base, ab_capsules_next);
  run_row<Sphere, Box>(
      "sphere-box", seed, repeat,
      [](const Body& a, const Body& b, std::vector<Sphere>& as, std::vector<Box>& bs) {
        as.emplace_back(a.size.x());
        bs.emplace_back(b.size);
      },
      ab_sphere_box_base, ab_sphere_box_next);
  return 0;
}
