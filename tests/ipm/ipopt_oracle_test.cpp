// SPDX-License-Identifier: MIT
// Ipopt (an independent interior-point code, test-only) solves the same distance problem, min
// |x - y|^2 over x in A, y in B (tests/oracles/ipopt_distance.hpp, exact Hessians), to 1e-10 from two starts; our answer must agree to 1e-8 in
// distance (relative) and 1e-6 in the closest points. Compiled only when pkg-config finds Ipopt.
#ifdef PROXIMA_HAVE_IPOPT

#include <proxima/ipm/distance.hpp>
#include <proxima/ipm/presets.hpp>

#include <gtest/gtest.h>

#include <random>

#include "oracles/ipopt_distance.hpp"
#include "support/draws.hpp"

namespace proxima::ipm {
namespace {

TEST(IpmVersusIpopt, PresetPairsAgree) {
  const Object objects[] = {soda_can(), rounded_cuboid(), mouse(), hexagonal_nut(), pyramid(), diamond()};
  std::mt19937_64 rng(501);
  std::normal_distribution<double> n(0, 1);
  std::uniform_real_distribution<double> u(-2.5, 2.5);
  int compared = 0;
  for (int trial = 0; trial < 18; ++trial) {
    SCOPED_TRACE("seed 501 trial " + std::to_string(trial));
    const Object& a = objects[trial % 6];
    const Object& b = objects[(trial / 6 + 1 + trial) % 6];
    const Pose pa = proxima::test::draw_quaternion_pose(n, u, rng);
    const Pose pb = proxima::test::draw_quaternion_pose(n, u, rng);
    const DistanceResult r = distance(a, pa, b, pb);
    if (r.status != Status::converged || r.intersect) continue;
    // Two starts: the interior points, and the interior points nudged towards each other.
    const Vec3 ca = pa.apply(a.interior_point()), cb = pb.apply(b.interior_point());
    for (double shift : {0.0, 0.05}) {
      const oracles::IpoptDistanceAnswer ip =
          oracles::ipopt_distance(a, pa, b, pb, ca + shift * (cb - ca), cb + shift * (ca - cb));
      if (!ip.solved) continue;  // Ipopt's own failures (the issue measured 6-9% on diamonds)
      ++compared;
      const double d = ip.distance();
      EXPECT_NEAR(r.distance, d, 1e-8 * d + 1e-10);
      EXPECT_NEAR((r.point_a - ip.x).norm(), 0, 1e-6);
      EXPECT_NEAR((r.point_b - ip.y).norm(), 0, 1e-6);
    }
  }
  EXPECT_GE(compared, 10);
}

}  // namespace
}  // namespace proxima::ipm

#endif  // PROXIMA_HAVE_IPOPT
